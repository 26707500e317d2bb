import DiscoverSearch
import SyntheticCorpus
import Testing

@Suite("QuerySanitizer")
struct QuerySanitizerTests {
  static let cleaned: [(String, String)] = [
    ("  dance  ", "dance"),
    ("dance \t\n  challenge", "dance challenge"),
    ("\r\ndance\r\n", "dance"),
    ("dance\u{A0}challenge", "dance challenge"),  // no-break space
    ("dance\u{3000}\u{3000}challenge", "dance challenge"),  // ideographic space
    ("dance\u{2028}challenge", "dance challenge"),  // line separator
    // Control characters separate words, like spaces.
    ("dance\u{0}challenge", "dance challenge"),
    ("\u{7}dance\u{1B}", "dance"),
    ("dance\u{7F}\u{85}challenge", "dance challenge"),
    // Invisible characters vanish without separating.
    ("dance\u{200B}challenge", "dancechallenge"),  // zero-width space
    ("\u{FEFF}dance", "dance"),  // byte order mark
    ("dan\u{AD}ce", "dance"),  // soft hyphen
    ("\u{202E}dance\u{202C}", "dance"),  // bidi override and pop
    ("\u{2066}dance\u{2069}", "dance"),  // bidi isolates
    ("\u{200E}dance\u{200F}", "dance"),  // directional marks
    ("da\u{2060}nce", "dance"),  // word joiner
  ]

  @Test(arguments: cleaned)
  func cleansWhitespaceControlAndInvisibleCharacters(_ raw: String, _ expected: String) {
    #expect(QuerySanitizer.sanitize(raw) == expected)
  }

  static let kept: [String] = [
    "#dance", "@dance_queen", "#DanceChallenge", "\"dance challenge\"",
    "👩\u{200D}🍳", "👨\u{200D}👩\u{200D}👧", "❤️", "💃🏽", "🇯🇵", "1️⃣",
    "café", "cafe\u{301}", "İstanbul", "Straße", "Ёлка", "Αθήνα", "東京タワー", "我爱北京天安门",
    "안녕하세요", "สวัสดีครับ", "مرحبا بالعالم", "שלום", "नमस्ते", "ＣＡＦＥ", "Dance Challenge",
  ]

  @Test(arguments: kept)
  func keepsTagsEmojiSequencesAndLettersOfEveryScript(_ query: String) {
    let sanitized = QuerySanitizer.sanitize(query)
    #expect(sanitized == query)
    #expect(sanitized.unicodeScalars.elementsEqual(query.unicodeScalars))
  }

  @Test func zeroWidthJoinerStaysInsideAnEmojiSequence() {
    let sanitized = QuerySanitizer.sanitize(" 👩\u{200D}🍳 recipe ")
    #expect(sanitized.unicodeScalars.contains("\u{200D}"))
    #expect(sanitized == "👩\u{200D}🍳 recipe")
  }

  static let emptyInputs: [String] = [
    "", " ", "   \n\t  ", "\u{0}\u{1B}\u{7}", "\u{200B}\u{FEFF}\u{202E}", "\u{3000}",
    "\u{A0}\u{2028}",
  ]

  @Test(arguments: emptyInputs)
  func emptyOrInvisibleInputGivesEmptyQuery(_ raw: String) {
    #expect(QuerySanitizer.sanitize(raw) == "")
  }

  @Test func capsLongQueriesAtTheMaximumLength() {
    #expect(QuerySanitizer.maximumLength == 256)
    let long = String(repeating: "a", count: 300)
    #expect(QuerySanitizer.sanitize(long) == String(repeating: "a", count: 256))
    // A cut that ends on a space drops the space.
    let words = String(repeating: "ab ", count: 200)
    let sanitized = QuerySanitizer.sanitize(words)
    #expect(sanitized.count <= 256)
    #expect(!sanitized.hasSuffix(" "))
    #expect(sanitized.hasPrefix("ab ab"))
  }

  @Test func capCountsCharactersNotScalars() {
    // Each family is one character of seven scalars; 300 of them keep 256.
    let family = "👨\u{200D}👩\u{200D}👧\u{200D}👦"
    let sanitized = QuerySanitizer.sanitize(String(repeating: family, count: 300))
    #expect(sanitized.count <= 256)
    #expect(sanitized.count > 0)
    #expect(sanitized.allSatisfy { $0 == Character(family) })
  }

  @Test func hundredThousandCharacterInputIsCut() {
    let huge = String(repeating: "dance challenge ", count: 6_250)
    #expect(huge.count == 100_000)
    let sanitized = QuerySanitizer.sanitize(huge)
    #expect(sanitized.count <= 256)
    #expect(sanitized.hasPrefix("dance challenge dance"))
    let hugeScript = String(repeating: "東京タワー", count: 20_000)
    #expect(QuerySanitizer.sanitize(hugeScript).count == 256)
  }

  @Test(arguments: 1...6 as ClosedRange<UInt64>)
  func randomInputGivesCleanIdempotentOutput(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    for sample in 0..<200 {
      var raw = String.UnicodeScalarView()
      for _ in 0..<Int.random(in: 0..<400, using: &generator) {
        raw.append(AnalyzerRobustnessTests.randomScalar(using: &generator))
      }
      let sanitized = QuerySanitizer.sanitize(String(raw))
      let context = "seed \(seed), sample \(sample)"
      #expect(sanitized.count <= QuerySanitizer.maximumLength, "\(context)")
      #expect(!sanitized.hasPrefix(" ") && !sanitized.hasSuffix(" "), "\(context)")
      #expect(!sanitized.contains("  "), "\(context)")
      #expect(
        !sanitized.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
        "\(context): control character left")
      #expect(
        !sanitized.unicodeScalars.contains { [0x200B, 0xFEFF, 0x202E, 0x2066].contains($0.value) },
        "\(context): invisible character left")
      #expect(QuerySanitizer.sanitize(sanitized) == sanitized, "\(context): not idempotent")
    }
  }
}
