import DiscoverSearch
import SyntheticCorpus
import Testing

/// Queries an attacker or a broken client could send: each gets a response, possibly empty,
/// never a crash.
@Suite("Search: hostile queries")
struct HostileQueryTests {
  static func index() throws -> DiscoverIndex {
    try DiscoverIndex.build(from: [
      Fixtures.video("v1", "dance challenge 🔥", hashtags: ["dance"], creator: "u1"),
      Fixtures.video("v2", "東京タワーに行きました"),
      Fixtures.video("v3", "مرحبا بالعالم"),
      Fixtures.video("v4", "w0 w1 w2 w3"),
      Fixtures.video("v5", "Café 👩\u{200D}🍳 recipe"),
      Fixtures.user("u1", "dance_queen", displayName: "Dance Queen"),
      Fixtures.hashtag("h1", "dance"),
      Fixtures.sound("s1", "dance anthem", artist: "DJ Test"),
    ])
  }

  /// Checks what holds for any response, whatever the query.
  static func checkInvariants(
    _ response: SearchResponse, tab: SearchTab, limit: Int, _ context: String
  ) {
    #expect(response.results.count <= limit, "\(context)")
    #expect(response.totalHits == response.facets.total(for: tab), "\(context)")
    #expect(response.results.count <= response.totalHits, "\(context)")
    #expect(response.results.allSatisfy { tab.resultTypes.contains($0.type) }, "\(context)")
    #expect(response.results.allSatisfy { $0.score.isFinite }, "\(context)")
    #expect(response.query.count <= QuerySanitizer.maximumLength, "\(context)")
    for result in response.results {
      #expect(result.highlights.allSatisfy { $0.range(in: result.title) != nil }, "\(context)")
    }
  }

  static let oneMegabyte = 1 << 20

  static let hostileQueries: [(name: String, query: String)] = [
    ("1 MB of one word repeated", String(repeating: "dance ", count: oneMegabyte / 6)),
    ("1 MB single word", String(repeating: "a", count: oneMegabyte)),
    ("1 MB of CJK", String(repeating: "東京タワー", count: oneMegabyte / 15)),
    ("1 MB of emoji", String(repeating: "🔥", count: oneMegabyte / 4)),
    ("1 MB of spaces then a word", String(repeating: " ", count: oneMegabyte) + "dance"),
    ("5000 terms", (0..<5000).map { "w\($0)" }.joined(separator: " ")),
    ("5000 hashtags", (0..<5000).map { "#t\($0)" }.joined(separator: " ")),
    ("control characters", "\u{0}\u{1}\u{7}dance\u{1B}[31m\u{7F}\u{8}challenge\u{0}"),
    ("only control characters", String((0..<32).map { Character(Unicode.Scalar($0)!) })),
    ("only punctuation", "!!!???...,,,;;;:::---+++***((()))[[[]]]{{{}}}"),
    ("only hash signs", "#"),
    ("only at signs", "@@@"),
    ("hash and at signs", "# @ ## @@ #@ @#"),
    ("unbalanced quote", "\"dance"),
    ("empty quotes", "\"\""),
    ("many quotes", String(repeating: "\"", count: 1000)),
    ("quoted emoji", "\"🔥 🔥\""),
    ("emoji only", "🔥🔥🔥"),
    ("zero-width joiner sequence", "👩\u{200D}🍳"),
    ("lone zero-width joiners", "\u{200D}\u{200D}\u{200D}"),
    ("skin tone alone", "\u{1F3FD}"),
    ("flag and lone regional indicator", "🇯🇵\u{1F1EF}"),
    ("right-to-left", "مرحبا"),
    ("bidi override", "\u{202E}ecnad\u{202C}"),
    ("mixed scripts", "café 東京 🔥 #dance @dance_queen \"dance challenge\" مرحبا สวัสดี"),
    ("combining marks pile", "a" + String(repeating: "\u{301}", count: 10_000)),
    ("replacement characters", String(repeating: "\u{FFFD}", count: 1000)),
    ("private use and noncharacters", "\u{E000}\u{F8FF}\u{FFFF}\u{10FFFF}"),
    ("url", "https://www.example.com/" + String(repeating: "a/", count: 1000)),
    ("tag characters", "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"),
    ("empty", ""),
    ("whitespace", " \t\n\r\u{3000}"),
  ]

  @Test(arguments: hostileQueries)
  func hostileQueryGetsAResponse(name: String, query: String) throws {
    let index = try Self.index()
    for tab in SearchTab.allCases {
      let response = try index.search(query, in: tab, limit: 10)
      Self.checkInvariants(response, tab: tab, limit: 10, "\(name) in \(tab)")
    }
  }

  @Test func emptyQueryIsAnEmptyResponse() throws {
    let index = try Self.index()
    for query in ["", "   ", "\u{0}", "!!!", "#", "@", "\u{200B}\u{FEFF}"] {
      let response = try index.search(query, limit: 10)
      #expect(response.results.isEmpty, "\(query.debugDescription)")
      #expect(response.totalHits == 0)
      #expect(response.facets == FacetCounts())
      #expect(response.nextCursor == nil)
    }
  }

  @Test func thousandsOfTermsStillFindWhatTheFirstOnesMatch() throws {
    let query = (0..<5000).map { "w\($0)" }.joined(separator: " ")
    let response = try Self.index().search(query, in: .videos, limit: 10)
    #expect(response.results.map(\.id) == ["v4"])
  }

  @Test func controlCharactersSeparateWords() throws {
    let response = try Self.index().search("dance\u{0}challenge", in: .videos, limit: 10)
    #expect(response.results.map(\.id) == ["v1"])
    #expect(response.matchedAllTerms)
  }

  @Test func hugeQueryOfOneWordFindsIt() throws {
    let response = try Self.index().search(
      String(repeating: "dance ", count: Self.oneMegabyte / 6), in: .videos)
    #expect(response.results.map(\.id) == ["v1"])
  }

  @Test(arguments: 1...4 as ClosedRange<UInt64>)
  func randomQueriesGetResponses(seed: UInt64) throws {
    let index = try Self.index()
    var generator = SplitMix64(seed: seed)
    for sample in 0..<100 {
      let query = AnalyzerRobustnessTests.randomText(using: &generator)
      let tab = SearchTab.allCases.randomElement(using: &generator)!
      let response = try index.search(query, in: tab, limit: 5)
      Self.checkInvariants(
        response, tab: tab, limit: 5, "seed \(seed), sample \(sample): \(query.debugDescription)")
    }
  }

  // MARK: Query files

  static let loneSurrogates: [String] = [
    #"{"kind":"search","q":"\uD800"}"#,
    #"{"kind":"search","q":"\uDC00"}"#,
    #"{"kind":"search","q":"dance \uD83D"}"#,
    #"{"kind":"search","q":"\uD800\u0041"}"#,
    #"{"kind":"search","q":"\uDFFF\uD800"}"#,
  ]

  @Test(arguments: loneSurrogates)
  func loneSurrogateEscapeInAQueryFileIsAClearError(_ line: String) {
    let file = #"{"kind":"search","q":"fine"}"# + "\n" + line + "\n"
    let error = #expect(throws: SearchError.self) {
      try QueryFile.parse(file, sourceName: "hostile.jsonl")
    }
    #expect(error?.code == .invalidQuery)
    let message = error?.message.lowercased() ?? ""
    #expect(message.contains("surrogate"), "\(message)")
    #expect(message.contains("line 2"), "\(message)")
  }

  @Test func surrogatePairEscapeInAQueryFileIsAnEmojiQuery() throws {
    let specs = try QueryFile.parse(#"{"kind":"search","q":"\uD83D\uDD25"}"#)
    #expect(specs.map(\.text) == ["🔥"])
    let response = try Self.index().search(specs[0].text, in: specs[0].tab, limit: specs[0].limit)
    #expect(response.results.map(\.id) == ["v1"])
  }
}
