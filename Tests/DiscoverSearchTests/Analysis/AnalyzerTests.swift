import DiscoverSearch
import Testing

/// The folded texts of `text`'s tokens.
private func texts(_ text: String, _ mode: AnalysisMode = .document) -> [String] {
  Analyzer.tokens(of: text, as: mode).map(\.text)
}

/// The folded texts of `text`'s tokens of one kind.
private func texts(_ text: String, _ mode: AnalysisMode, kind: TokenKind) -> [String] {
  Analyzer.tokens(of: text, as: mode).filter { $0.kind == kind }.map(\.text)
}

@Suite("Analyzer: folding")
struct AnalyzerFoldingTests {
  /// Spellings a person would consider the same word: they must give the same tokens, in
  /// documents and in queries alike.
  static let equivalentSpellings: [(String, String)] = [
    ("café", "cafe\u{301}"),  // NFC and NFD
    ("café", "cafe"),  // accents fold away
    ("CAFÉ", "cafe"),
    ("ＣＡＦＥ", "cafe"),  // full-width
    ("Ｈｅｌｌｏ　Ｗｏｒｌｄ", "hello world"),
    ("naïve résumé", "naive resume"),
    ("Ångström", "angstrom"),
    ("İstanbul", "istanbul"),  // Turkish dotted capital I
    ("ISTANBUL", "istanbul"),
    ("ıstanbul", "istanbul"),  // Turkish dotless small i
    ("Straße", "strasse"),  // German sharp s
    ("STRASSE", "strasse"),
    ("ёлка", "елка"),  // Cyrillic yo
    ("Ёлка", "елка"),
    ("ΑΘΗΝΑ", "Αθήνα"),  // Greek capitals and tonos
    ("Ǆ ﬁ", "dz fi"),  // compatibility ligatures
    ("ｶﾞｷﾞ", "ガギ"),  // half-width katakana with voicing marks
    ("＃ダンス", "#ダンス"),  // full-width hash sign
    ("💃🏽", "💃"),  // skin tone
    ("👍🏿", "👍"),
    ("❤️", "❤"),  // variation selector
    ("don't", "dont"),  // apostrophes
    ("don’t", "dont"),
  ]

  @Test(arguments: equivalentSpellings)
  func equivalentSpellingsGiveTheSameTokens(_ spelling: String, _ other: String) {
    for mode in [AnalysisMode.document, .query] {
      let tokens = texts(spelling, mode)
      #expect(!tokens.isEmpty, "\(spelling.debugDescription) gave no tokens")
      #expect(
        tokens == texts(other, mode),
        "\(spelling.debugDescription) vs \(other.debugDescription) in \(mode)")
    }
  }

  /// What words of many scripts fold to.
  static let foldedWords: [(String, [String])] = [
    ("Café", ["cafe"]),
    ("ＣＡＦＥ", ["cafe"]),
    ("İstanbul", ["istanbul"]),
    ("Straße", ["strasse"]),
    ("Ёлка", ["елка"]),
    ("Привет мир", ["привет", "мир"]),
    ("Αθήνα", ["αθηνα"]),
    ("안녕하세요 여러분", ["안녕하세요", "여러분"]),  // Korean: split by spaces only
    ("مرحبا بالعالم", ["مرحبا", "بالعالم"]),
    ("שלום", ["שלום"]),
    ("नमस्ते दुनिया", ["नमस्ते", "दुनिया"]),
    ("สวัสดีครับ", ["สวัสดี", "ครับ"]),  // Thai: two dictionary words
    // Folded in context by ICU, after case folding (already normalized, or composed again):
    ("नमस्ते", ["नमस्ते"]),  // virama: both normal forms as it is
    ("न\u{93C}", ["\u{929}"]),  // nukta: composes
    ("\u{1100}\u{1161}\u{11A8}", ["각"]),  // Hangul jamo: compose into one syllable
    ("ÅNGSTRÖM\u{30A}", ["angstrom"]),
    ("2024", ["2024"]),
    ("3.14 1,000", ["3", "14", "1", "000"]),
    ("hello, world!", ["hello", "world"]),
  ]

  @Test(arguments: foldedWords)
  func wordsOfEveryScriptFoldToTheirSearchForm(_ text: String, _ expected: [String]) {
    #expect(texts(text, .document) == expected)
    #expect(texts(text, .query) == expected)
    #expect(Analyzer.tokens(of: text).allSatisfy { $0.kind == .word })
  }

  @Test func foldJoinsTheQueryFormsOfEveryToken() {
    #expect(Analyzer.fold("Café CAFE cafe\u{301}") == "cafe cafe cafe")
    #expect(Analyzer.fold("  ") == "")
  }

  @Test func thaiWordsTakeConsecutivePositions() {
    let tokens = Analyzer.tokens(of: "สวัสดีครับ")
    #expect(tokens.map(\.position) == [0, 1])
    #expect(tokens.map(\.sourceRange) == [0..<18, 18..<30])
  }

  /// Dictionary segmentation runs in UTF-16; the word bounds it gives map back to the
  /// UTF-8 bytes of the text, also past a character outside the Basic Multilingual Plane
  /// (two UTF-16 units) and for a run too long for the UTF-16 copy.
  @Test func dictionaryWordsKeepTheirByteRanges() {
    let text = "我们喜欢𠀀北京"
    let words = Analyzer.tokens(of: text)
    let bytes = Array(text.utf8)
    #expect(!words.isEmpty)
    for word in words {
      let source = String(decoding: bytes[word.sourceRange], as: UTF8.self)
      #expect(source.unicodeScalars.allSatisfy { !$0.properties.isWhitespace })
      #expect(String(validating: bytes[word.sourceRange], as: UTF8.self) != nil)
    }
    #expect(words.contains { $0.text == "北京" })
    let long = String(repeating: "สวัสดีครับ", count: 60)
    let thai = Analyzer.tokens(of: long).filter { $0.kind == .word }
    #expect(thai.count == 120)
    #expect(thai.prefix(2).map(\.sourceRange) == [0..<18, 18..<30])
    #expect(thai.last?.sourceRange == (long.utf8.count - 12)..<long.utf8.count)
  }

  static let emptyInputs = [
    "", " ", "   \n\t ", "\r\n", "\u{3000}\u{3000}", ".,;!?()", "#", "@", "#_", "@ #",
  ]

  @Test(arguments: emptyInputs)
  func emptyWhitespaceAndPunctuationGiveNoTokens(_ text: String) {
    #expect(Analyzer.tokens(of: text, as: .document).isEmpty)
    #expect(Analyzer.tokens(of: text, as: .query).isEmpty)
  }

  @Test func tokensOfSixtyFourBytesAreKeptAndLongerOnesDropped() {
    let longest = String(repeating: "a", count: 64)
    #expect(texts(longest) == [longest])
    #expect(texts("hi \(longest)a there") == ["hi", "there"])
    // Two-byte letters: 32 fold to 64 bytes, 33 to 66.
    #expect(texts(String(repeating: "ж", count: 32)).count == 1)
    #expect(texts(String(repeating: "ж", count: 33)).isEmpty)
    #expect(texts("#" + String(repeating: "x", count: 70)).isEmpty)
  }

  @Test func urlsKeepOnlyTheWordsOfTheirHost() {
    let tokens = Analyzer.tokens(of: "see https://www.instagram.com/roses_are_rosie?x=1 now")
    #expect(tokens.map(\.text) == ["see", "instagram", "now"])
    #expect(tokens.map(\.kind) == [.word, .urlPart, .word])
    #expect(texts("www.youtube.com/watch?v=dQw4w9WgXcQ") == ["youtube"])
    #expect(texts("http://rosesarerosie.lnk.to/APTID") == ["rosesarerosie", "lnk"])
  }
}

@Suite("Analyzer: tags, mentions and emoji")
struct AnalyzerTagTests {
  @Test func camelCaseHashtagIsIndexedAsTagWordAndParts() {
    let tokens = Analyzer.tokens(of: "#DanceChallenge", as: .document)
    #expect(tokens.map(\.text) == ["#dancechallenge", "dancechallenge", "dance", "challenge"])
    #expect(tokens.map(\.kind) == [.hashtag, .tagWord, .tagPart, .tagPart])
    #expect(tokens.map(\.position) == [0, 0, 0, 1])
  }

  @Test func queryHashtagMeansOnlyTheTag() {
    let tokens = Analyzer.tokens(of: "#DanceChallenge", as: .query)
    #expect(tokens.map(\.text) == ["#dancechallenge"])
    #expect(tokens.map(\.kind) == [.hashtag])
  }

  static let tags: [(String, document: [String], query: [String])] = [
    ("@dance_queen", ["@dance_queen", "dancequeen", "dance", "queen"], ["@dance_queen"]),
    ("#top10", ["#top10", "top10", "top", "10"], ["#top10"]),
    ("#HTMLParser", ["#htmlparser", "htmlparser", "html", "parser"], ["#htmlparser"]),
    ("#dancechallenge", ["#dancechallenge", "dancechallenge"], ["#dancechallenge"]),
    // Runs of lowercase letters or digits are appended whole; boundaries around them stay.
    (
      "#Top100Songs2024", ["#top100songs2024", "top100songs2024", "top", "100", "songs", "2024"],
      ["#top100songs2024"]
    ),
    (
      "#iPhoneXSMax", ["#iphonexsmax", "iphonexsmax", "i", "phone", "xs", "max"],
      ["#iphonexsmax"]
    ),
    ("#ÉtéDance", ["#etedance", "etedance", "ete", "dance"], ["#etedance"]),
    (
      "@dj_khaled99x", ["@dj_khaled99x", "djkhaled99x", "dj", "khaled", "99", "x"],
      ["@dj_khaled99x"]
    ),
    ("@user.name", ["@user.name", "username", "user", "name"], ["@user.name"]),
    ("#Café", ["#cafe", "cafe"], ["#cafe"]),
    ("＃ダンス", ["#ダンス", "ダン", "ンス", "ダンス"], ["#ダンス"]),
    // A marker right after a word is not a tag.
    ("x#tag", ["x", "tag"], ["x", "tag"]),
  ]

  @Test(arguments: tags)
  func tagsAndMentions(_ text: String, document: [String], query: [String]) {
    #expect(texts(text, .document) == document)
    #expect(texts(text, .query) == query)
  }

  @Test func mentionIsAMentionToken() {
    #expect(Analyzer.tokens(of: "@dance_queen", as: .query).map(\.kind) == [.mention])
  }

  @Test func emojiIsATokenWithItsNameInDocuments() {
    let tokens = Analyzer.tokens(of: "🔥", as: .document)
    #expect(tokens.map(\.text) == ["🔥", "fire"])
    #expect(tokens.map(\.kind) == [.emoji, .emojiName])
    #expect(tokens.map(\.position) == [0, 0])
    #expect(texts("🔥", .query, kind: .emoji) == ["🔥"])
  }

  @Test func skinTonesAreFoldedAway() {
    for mode in [AnalysisMode.document, .query] {
      #expect(texts("💃🏽", mode, kind: .emoji) == ["💃"])
      #expect(texts("💃🏻💃🏿", mode, kind: .emoji) == ["💃", "💃"])
    }
  }

  @Test func zeroWidthJoinerSequenceIsOneToken() {
    let cook = "👩\u{200D}🍳"
    for mode in [AnalysisMode.document, .query] {
      #expect(texts(cook, mode, kind: .emoji) == [cook])
    }
    let names = texts(cook, .document, kind: .emojiName)
    #expect(names.contains("woman") && names.contains("cooking"))
    let family = "👨\u{200D}👩\u{200D}👧\u{200D}👦"
    #expect(texts(family, .query) == [family])
  }

  @Test func flagsAreOneTokenEach() {
    #expect(texts("🇯🇵", .query) == ["🇯🇵"])
    #expect(texts("🇯🇵🇰🇷", .query) == ["🇯🇵", "🇰🇷"])
    #expect(Analyzer.tokens(of: "🇯🇵🇰🇷").map(\.position) == [0, 1])
  }

  @Test func emojiBetweenWordsSplitsThem() {
    #expect(texts("fire🔥pit", .query, kind: .word) == ["fire", "pit"])
  }
}

@Suite("Analyzer: Chinese and Japanese")
struct AnalyzerCJTests {
  @Test func japaneseQueryIsItsBigrams() {
    let tokens = Analyzer.tokens(of: "東京タワー", as: .query)
    #expect(tokens.map(\.text) == ["東京", "京タ", "タワ", "ワー"])
    #expect(tokens.allSatisfy { $0.kind == .cjBigram })
    #expect(tokens.map(\.position) == [0, 1, 2, 3])
  }

  @Test func japaneseDocumentHasBigramsAndDictionaryWords() {
    let tokens = Analyzer.tokens(of: "東京タワー", as: .document)
    #expect(tokens.filter { $0.kind == .cjBigram }.map(\.text) == ["東京", "京タ", "タワ", "ワー"])
    let words = tokens.filter { $0.kind == .cjWord }.map(\.text)
    #expect(!words.isEmpty)
    // Dictionary words are pieces of the text other than bigrams.
    #expect(words.allSatisfy { "東京タワー".contains($0) && $0.count != 2 })
  }

  @Test func chineseQueryIsItsBigrams() {
    #expect(texts("我爱北京天安门", .query) == ["我爱", "爱北", "北京", "京天", "天安", "安门"])
  }

  @Test func chineseDocumentAddsDictionaryWordsOfOneOrThreeOrMoreCharacters() {
    let tokens = Analyzer.tokens(of: "我爱北京天安门", as: .document)
    #expect(tokens.filter { $0.kind == .cjBigram }.count == 6)
    let words = tokens.filter { $0.kind == .cjWord }
    #expect(words.map(\.text).contains("天安门"))
    #expect(words.allSatisfy { $0.text.count != 2 })
    // Each word sits at the position of its first character.
    let characters = Array("我爱北京天安门")
    for word in words {
      #expect(characters[word.position...].starts(with: Array(word.text)), "\(word)")
    }
  }

  @Test func loneCharacterIsAWord() {
    #expect(Analyzer.tokens(of: "猫", as: .query).map(\.kind) == [.cjWord])
    #expect(texts("猫 犬", .query) == ["猫", "犬"])
  }

  @Test func bigramSourceRangesCoverTheirTwoCharacters() {
    let text = "a 東京タワー"
    let utf8 = Array(text.utf8)
    for token in Analyzer.tokens(of: text, as: .query) where token.kind == .cjBigram {
      #expect(String(decoding: utf8[token.sourceRange], as: UTF8.self) == token.text)
    }
  }
}
