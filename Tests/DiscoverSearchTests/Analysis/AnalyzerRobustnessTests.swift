import DiscoverSearch
import SyntheticCorpus
import Testing

/// Text the analyzer may be handed: huge, random, of every script, and malformed in every
/// way a Swift string can be.
@Suite("Analyzer: huge and random text")
struct AnalyzerRobustnessTests {
  /// The most tokens one call returns (the documented per-field cap).
  static let maximumTokens = 65_536
  static let oneMegabyte = 1 << 20

  /// Pieces of text that exercise every path of the tokenizer, joined at random.
  static let pieces: [String] = [
    "dance", "Café", "cafe\u{301}", "ＣＡＦＥ", "İ", "ı", "ß", "ё", "Ω", "σ", "ς", "東京", "タワー",
    "我爱", "ｶﾞ", "ー", "สวัสดี", "ครับ", "한국어", "ພາສາ", "ខ្មែរ", "မြန်မာ", "مرحبا", "שלום",
    "नमस्ते", "🔥", "💃🏽", "👩\u{200D}🍳", "❤️", "🇯🇵", "\u{1F1EF}", "1️⃣", "#", "@", "＃", "_", ".",
    "'", "’", "#Dance", "@queen", "#top10", "https://", "www.", ".com/", "x.co/a?b#c", "\u{200D}",
    "\u{FE0F}", "\u{301}", "\u{0}", "\u{1B}", "\u{202E}", "\u{FEFF}", "\u{200B}", " ", "  ", "\n",
    "\t", "123", "ǅ", "ﬁ", "\u{E0067}", "\u{1F3FD}", "\"", "\u{FFFD}",
  ]

  /// Code point ranges to draw random scalars from: every script the analyzer treats
  /// specially, and the rest of Unicode.
  static let scalarRanges: [ClosedRange<UInt32>] = [
    0x20...0x7E, 0x00...0x1F, 0xA0...0x24F, 0x300...0x36F, 0x370...0x4FF, 0x590...0x6FF,
    0x900...0x97F, 0xE00...0xEFF, 0x1000...0x109F, 0x1100...0x11FF, 0x1780...0x17FF,
    0x2000...0x206F, 0x3000...0x30FF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF00...0xFFEF,
    0x1F1E6...0x1F1FF, 0x1F300...0x1FAFF, 0xE0000...0xE007F, 0x10000...0x10FFFF,
  ]

  static func randomScalar(using generator: inout SplitMix64) -> Unicode.Scalar {
    while true {
      let range = scalarRanges.randomElement(using: &generator)!
      if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)) { return scalar }
    }
  }

  static func randomText(using generator: inout SplitMix64) -> String {
    var text = ""
    for _ in 0..<Int.random(in: 0..<120, using: &generator) {
      if Bool.random(using: &generator) {
        text += pieces.randomElement(using: &generator)!
      } else {
        text.unicodeScalars.append(randomScalar(using: &generator))
      }
    }
    return text
  }

  /// Tokens that advance the position (alternatives and dictionary words share or reuse one).
  static let primaryKinds: Set<TokenKind> = [
    .word, .hashtag, .mention, .emoji, .cjBigram, .urlPart,
  ]

  /// Checks what must hold for the tokens of any text; returns the problems found.
  static func problems(in text: String, mode: AnalysisMode) -> [String] {
    var problems: [String] = []
    let utf8 = Array(text.utf8)
    func isBoundary(_ offset: Int) -> Bool {
      offset == utf8.count || (offset < utf8.count && utf8[offset] & 0xC0 != 0x80)
    }
    let tokens = Analyzer.tokens(of: text, as: mode)
    if tokens.count > maximumTokens { problems.append("\(tokens.count) tokens") }
    var lastPrimary = -1
    for token in tokens {
      if token.text.isEmpty || token.text.utf8.count > 64 { problems.append("bad text \(token)") }
      let range = token.sourceRange
      if range.isEmpty || range.lowerBound < 0 || range.upperBound > utf8.count
        || !isBoundary(range.lowerBound) || !isBoundary(range.upperBound)
      {
        problems.append("bad source range \(range) of \(token) in \(utf8.count) bytes")
      }
      if primaryKinds.contains(token.kind) {
        if token.position < lastPrimary { problems.append("position went back at \(token)") }
        lastPrimary = token.position
      }
      if mode == .query && (token.kind == .tagWord || token.kind == .tagPart) {
        problems.append("tag words in a query: \(token)")
      }
    }
    if Analyzer.tokens(of: text, as: mode) != tokens { problems.append("not deterministic") }
    return problems
  }

  @Test(arguments: 1...12 as ClosedRange<UInt64>)
  func randomMixedScriptTextKeepsTokenInvariants(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    for sample in 0..<60 {
      let text = Self.randomText(using: &generator)
      for mode in [AnalysisMode.document, .query] {
        let problems = Self.problems(in: text, mode: mode)
        #expect(
          problems.isEmpty,
          "seed \(seed), sample \(sample), \(mode): \(problems.prefix(3)) in \(text.debugDescription)"
        )
      }
    }
  }

  @Test func oneMegabyteOfShortWordsIsCappedAtTheTokenLimit() {
    let text = String(repeating: "a ", count: Self.oneMegabyte / 2)
    let tokens = Analyzer.tokens(of: text)
    #expect(tokens.count == Self.maximumTokens)
    #expect(tokens.allSatisfy { $0.text == "a" })
    #expect(tokens.last?.position == Self.maximumTokens - 1)
  }

  @Test func oneMegabyteSingleWordGivesNoTokens() {
    let text = String(repeating: "a", count: Self.oneMegabyte)
    #expect(Analyzer.tokens(of: text).isEmpty)
    #expect(Analyzer.tokens(of: "hi " + text + " there").map(\.text) == ["hi", "there"])
  }

  /// Text whose pieces each give several tokens, so a cap checked between pieces could be
  /// overshot.
  static let repeatedPieces: [String] = [
    "🔥", "#DanceChallenge ", "@dance_queen ", "東京タワー", "我爱北京天安门。", "สวัสดีครับ", "Café ",
    "👩\u{200D}🍳", "www.example.com ",
  ]

  @Test(arguments: repeatedPieces)
  func oneMegabyteOfRepeatedTextStaysWithinTheTokenLimit(_ piece: String) {
    let text = String(repeating: piece, count: Self.oneMegabyte / piece.utf8.count)
    for mode in [AnalysisMode.document, .query] {
      let count = Analyzer.tokens(of: text, as: mode).count
      #expect(count > 0)
      #expect(
        count <= Self.maximumTokens,
        "\(mode): \(count) tokens from \(piece.debugDescription) repeated")
    }
  }

  @Test(arguments: [7, 8] as [UInt64])
  func oneMegabyteOfRandomBytesAndScalarsStaysValid(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    // Random bytes read as UTF-8 (invalid sequences become U+FFFD) ...
    let bytes = (0..<Self.oneMegabyte).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let decoded = String(decoding: bytes, as: UTF8.self)
    // ... random bytes taken as Latin-1 scalars ...
    var latin1 = String.UnicodeScalarView()
    for byte in bytes.prefix(Self.oneMegabyte / 2) { latin1.append(Unicode.Scalar(byte)) }
    // ... and random scalars of every script.
    var scalars = String.UnicodeScalarView()
    var size = 0
    while size < Self.oneMegabyte {
      let scalar = Self.randomScalar(using: &generator)
      scalars.append(scalar)
      size += UTF8.width(scalar)
    }
    for text in [decoded, String(latin1), String(scalars)] {
      for mode in [AnalysisMode.document, .query] {
        let problems = Self.problems(in: text, mode: mode)
        #expect(problems.isEmpty, "seed \(seed), \(mode): \(problems.prefix(3))")
      }
    }
  }
}
