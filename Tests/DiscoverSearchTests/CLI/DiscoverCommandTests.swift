import DiscoverSearch
import Testing

@testable import DiscoverCLI

@Suite("DiscoverCommand parsing")
struct CLIDiscoverCommandTests {
  @Test func searchTakesEveryOptionInBothSpellings() throws {
    let spaced = try DiscoverCommand.parse([
      "search", "dance challenge", "--index", "idx", "--tab", "videos", "--limit", "20",
      "--cursor", "-AbC_9", "--json",
    ])
    let attached = try DiscoverCommand.parse([
      "search", "--json", "--limit=20", "--tab=videos", "--cursor=-AbC_9", "--index=idx",
      "dance challenge",
    ])
    let expected = DiscoverCommand.search(
      SearchOptions(
        query: "dance challenge", indexDirectory: "idx", tab: .videos, limit: 20,
        cursor: "-AbC_9", writesJSON: true))
    #expect(spaced == expected)
    #expect(attached == expected)
  }

  @Test func searchDefaultsToTopTabAndTenResults() throws {
    let command = try DiscoverCommand.parse(["search", "#fyp", "--index", "idx"])
    #expect(command == .search(SearchOptions(query: "#fyp", indexDirectory: "idx")))
  }

  @Test func tabNameIgnoresCase() throws {
    let command = try DiscoverCommand.parse(["search", "x", "--index", "i", "--tab", "Users"])
    #expect(command == .search(SearchOptions(query: "x", indexDirectory: "i", tab: .users)))
  }

  @Test func doubleDashLetsAQueryStartWithADash() throws {
    let command = try DiscoverCommand.parse(["search", "--index", "i", "--", "-5c"])
    #expect(command == .search(SearchOptions(query: "-5c", indexDirectory: "i")))
  }

  @Test func queriesFlagSelectsBatchMode() throws {
    let command = try DiscoverCommand.parse([
      "search", "--index", "i", "--queries", "q.jsonl", "--json",
    ])
    #expect(
      command
        == .batchSearch(
          BatchSearchOptions(queryFile: "q.jsonl", indexDirectory: "i", writesJSON: true)))
  }

  @Test func searchTakesPrefixAndUser() throws {
    let command = try DiscoverCommand.parse([
      "search", "dance cha", "--index", "i", "--prefix", "--user", "u1",
    ])
    #expect(
      command
        == .search(
          SearchOptions(
            query: "dance cha", indexDirectory: "i", matchesLastWordAsPrefix: true, userID: "u1")))
  }

  @Test func suggestTakesLimitUserAndJSON() throws {
    let command = try DiscoverCommand.parse([
      "suggest", "danc", "--index", "i", "--limit", "100", "--user", "u1", "--json",
    ])
    #expect(
      command
        == .suggest(
          SuggestCommandOptions(
            prefix: "danc", indexDirectory: "i", limit: 100, userID: "u1", writesJSON: true)))
    #expect(
      try DiscoverCommand.parse(["suggest", "danc", "--index", "i"])
        == .suggest(SuggestCommandOptions(prefix: "danc", indexDirectory: "i")))
  }

  @Test func suggestQueriesFlagSelectsBatchMode() throws {
    let command = try DiscoverCommand.parse([
      "suggest", "--index", "i", "--queries", "q.jsonl", "--json",
    ])
    #expect(
      command
        == .batchSuggest(
          BatchSuggestOptions(queryFile: "q.jsonl", indexDirectory: "i", writesJSON: true)))
  }

  @Test func suggestNoTyposTurnsTypoToleranceOff() throws {
    #expect(
      try DiscoverCommand.parse(["suggest", "dnace", "--index", "i", "--no-typos"])
        == .suggest(
          SuggestCommandOptions(prefix: "dnace", indexDirectory: "i", toleratesTypos: false)))
    #expect(
      try DiscoverCommand.parse(["suggest", "--index", "i", "--queries", "q", "--no-typos"])
        == .batchSuggest(
          BatchSuggestOptions(queryFile: "q", indexDirectory: "i", toleratesTypos: false)))
  }

  @Test func trendingTakesListLimitAndJSON() throws {
    let command = try DiscoverCommand.parse([
      "trending", "Searches", "--index", "i", "--limit", "5", "--json",
    ])
    #expect(
      command
        == .trending(
          TrendingOptions(list: .searches, indexDirectory: "i", limit: 5, writesJSON: true)))
  }

  @Test func indexTakesCorpusOutAndSkipFlag() throws {
    #expect(
      try DiscoverCommand.parse(["index", "c.jsonl", "--out", "dir", "--skip-bad-lines"])
        == .index(IndexOptions(corpusPath: "c.jsonl", outputDirectory: "dir", skipsBadLines: true)))
    #expect(
      try DiscoverCommand.parse(["index", "--out", "dir", "c.jsonl"])
        == .index(IndexOptions(corpusPath: "c.jsonl", outputDirectory: "dir")))
  }

  static let helpRequests: [([String], String?)] = [
    (["--help"], nil),
    (["-h"], nil),
    (["help"], nil),
    (["help", "help"], nil),
    (["help", "search"], "search"),
    (["search", "--help"], "search"),
    (["search", "dance", "--index", "--help"], "search"),
    (["index", "-h", "--bogus"], "index"),
    (["trending", "--help"], "trending"),
  ]

  @Test(arguments: helpRequests)
  func helpWinsOverEverythingElse(_ arguments: [String], _ topic: String?) throws {
    #expect(try DiscoverCommand.parse(arguments) == .help(command: topic))
  }

  static let usageErrors: [([String], String)] = [
    ([], "no command given"),
    (["serch", "x"], "Did you mean search?"),
    (["--json"], "unknown option --json"),
    (["help", "bogus"], "unknown command 'bogus'"),
    (["search", "x", "--index", "i", "--jsn"], "Did you mean --json?"),
    (["search", "x", "--index", "i", "-x"], "put it after --"),
    (["search", "x", "--index"], "--index needs a value"),
    (["search", "x", "--index", "--json"], "--index needs a value"),
    (["search", "x", "--index", ""], "--index is empty"),
    (["search", "x"], "missing --index"),
    (["search", "--index", "i"], "missing QUERY"),
    (["search", "dance", "challenge", "--index", "i"], "unexpected argument 'challenge'"),
    (["search", "--", "-x", "--index", "i"], "Options go before --"),
    (["search", "x", "--index", "i", "--json", "--json"], "--json is given more than once"),
    (["search", "x", "--index", "i", "--json=yes"], "--json is a flag and takes no value"),
    (
      ["search", "x", "--index", "i", "--tab", "people"],
      "valid tabs: top, users, videos, sounds, hashtags"
    ),
    (["search", "x", "--index", "i", "--tab", "video"], "Did you mean videos?"),
    (["search", "x", "--index", "i", "--cursor", ""], "--cursor needs the token"),
    (["search", "x", "--index", "i", "--queries", "q"], "not both"),
    (
      ["search", "--index", "i", "--queries", "q", "--tab", "users"], "--tab applies to one search"
    ),
    (
      ["search", "--index", "i", "--queries", "q", "--limit", "5"], "--limit applies to one search"
    ),
    (["index", "--out", "dir"], "missing CORPUS.jsonl"),
    (["index", "c.jsonl"], "missing --out"),
    (["index", "a.jsonl", "b.jsonl", "--out", "d"], "unexpected argument 'b.jsonl'"),
    (["suggest", "--index", "i"], "missing PREFIX"),
    (["suggest", "x", "--index", "i", "--limit", "101"], "--limit must be from 1 to 100"),
    (["suggest", "x", "--index", "i", "--limit", "0"], "--limit must be from 1 to 100"),
    (["suggest", "x", "--index", "i", "--user", ""], "--user is empty"),
    (["suggest", "x", "--index", "i", "--queries", "q"], "not both"),
    (
      ["suggest", "--index", "i", "--queries", "q", "--limit", "5"], "each line gives its own limit"
    ),
    (
      ["suggest", "--index", "i", "--queries", "q", "--user", "u1"], "--user applies to one prefix"
    ),
    (["search", "x", "--index", "i", "--user", ""], "--user is empty"),
    (["search", "--index", "i", "--queries", "q", "--user", "u1"], "--user applies to one search"),
    (["trending", "searches", "--index", "i", "--limit", "500"], "--limit must be from 1 to 100"),
    (["suggest", "danc"], "missing --index"),
    (["trending", "--index", "i"], "missing LIST"),
    (
      ["trending", "effect", "--index", "i"],
      "choose one of: videos, hashtags, sounds, effects, searches"
    ),
    (["trending", "videos", "--index", "i", "--now", "yesterday"], "--now takes an ISO 8601 time"),
    (
      ["trending", "searches", "--index", "i", "--region", "US"],
      "trending searches has no regions"
    ),
    (["events", "--index", "i"], "missing EVENTS.jsonl"),
    (["events", "e.jsonl"], "missing --index"),
  ]

  @Test(arguments: usageErrors)
  func badCommandLineIsAUsageErrorSayingWhatToFix(_ arguments: [String], _ expected: String) throws
  {
    let error = try #require(CLITestSupport.usageError(arguments))
    #expect(error.kind == .usage)
    #expect(error.exitStatus == 2)
    #expect(error.report.contains(expected), "\(error.report)")
    #expect(error.report.contains("Run 'discover help"))
  }

  static let badLimits = ["0", "1001", "-5", "abc", "2.5", "", "99999999999999999999999"]

  @Test(arguments: badLimits)
  func limitOutsideOneToAThousandIsRejected(_ limit: String) throws {
    let error = try #require(
      CLITestSupport.usageError(["search", "x", "--index", "i", "--limit", limit]))
    #expect(error.kind == .usage)
    #expect(error.message.contains("--limit must be"))
    #expect(error.message.contains("1 to \(DiscoverIndex.maximumSearchLimit)"))
  }

  @Test(arguments: ["1", "10", "1000"])
  func limitInsideTheRangeIsAccepted(_ limit: String) throws {
    let command = try DiscoverCommand.parse(["search", "x", "--index", "i", "--limit", limit])
    #expect(command == .search(SearchOptions(query: "x", indexDirectory: "i", limit: Int(limit)!)))
  }
}

@Suite("ArgumentParser")
struct CLIArgumentParserTests {
  static let spec = CommandSpec(
    name: "test", summary: "", usage: [], discussion: "",
    options: [.value("--name", "N", ""), .flag("--flag", "")])

  @Test func splitsPositionalsValuesAndFlags() throws {
    let parsed = try ArgumentParser.parse(["a", "--name", "v", "-", "--flag", "b"], for: Self.spec)
    #expect(parsed.positionals == ["a", "-", "b"])
    #expect(parsed.values == ["--name": "v"])
    #expect(parsed.flags == ["--flag"])
    #expect(!parsed.wantsHelp)
  }

  @Test func valueMayStartWithADashUnlessItIsAnOption() throws {
    #expect(try ArgumentParser.parse(["--name", "-x"], for: Self.spec).values == ["--name": "-x"])
    #expect(throws: CommandError.self) {
      try ArgumentParser.parse(["--name", "--flag"], for: Self.spec)
    }
  }

  @Test func attachedValueMayBeEmptyOrHoldEquals() throws {
    #expect(try ArgumentParser.parse(["--name="], for: Self.spec).values == ["--name": ""])
    #expect(try ArgumentParser.parse(["--name=a=b"], for: Self.spec).values == ["--name": "a=b"])
  }

  @Test func everythingAfterDoubleDashIsPositional() throws {
    let parsed = try ArgumentParser.parse(["--", "--flag", "--help"], for: Self.spec)
    #expect(parsed.positionals == ["--flag", "--help"])
    #expect(parsed.flags.isEmpty)
    #expect(!parsed.wantsHelp)
  }

  @Test func closestMatchSuggestsOnlyNearTypos() {
    #expect(closestMatch(to: "serach", among: ["index", "search"]) == "search")
    #expect(closestMatch(to: "INDEX", among: ["index", "search"]) == "index")
    #expect(closestMatch(to: "zzzzzz", among: ["index", "search"]) == nil)
    #expect(closestMatch(to: "x", among: ["y"]) == nil)
  }
}
