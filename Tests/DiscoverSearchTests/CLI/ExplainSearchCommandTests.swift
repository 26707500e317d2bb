import Foundation
import Testing

@testable import DiscoverCLI

@Suite("discover search --explain")
struct CLIExplainSearchCommandTests {
  /// `line` with its score replaced by `S`.
  static func withoutScores(_ line: Substring) -> String {
    String(line).replacing(/score [0-9][0-9,.]*/, with: "score S")
  }

  static let queryLines = [
    #"{"kind":"search","q":"dance challenge","tab":"top","limit":10}"#,
    #"{"kind":"search","q":"dance","tab":"videos","limit":2}"#,
    #"{"kind":"search","q":"zzqqxx"}"#,
  ]

  /// `results` of a JSON response with `explanation` removed from each.
  static func resultsWithoutExplanations(_ object: [String: Any]) throws -> [NSDictionary] {
    let results = try #require(object["results"] as? [[String: Any]])
    return results.map { result in
      var result = result
      result["explanation"] = nil
      return result as NSDictionary
    }
  }

  @Test func flagParsesInBothForms() throws {
    #expect(
      try DiscoverCommand.parse(["search", "x", "--index", "i", "--explain"])
        == .search(SearchOptions(query: "x", indexDirectory: "i", explainsScores: true)))
    #expect(
      try DiscoverCommand.parse(["search", "--index", "i", "--queries", "q.jsonl", "--explain"])
        == .batchSearch(
          BatchSearchOptions(queryFile: "q.jsonl", indexDirectory: "i", explainsScores: true)))
    #expect(
      try DiscoverCommand.parse(["search", "x", "--index", "i"])
        == .search(SearchOptions(query: "x", indexDirectory: "i", explainsScores: false)))
  }

  @Test func helpListsTheFlagInBothUsageLines() {
    let result = CLITestSupport.run(["help", "search"])
    #expect(result.status == 0)
    #expect(
      result.output.contains(
        #"search "QUERY" --index DIR [--tab TAB] [--limit N] [--cursor TOKEN] [--prefix] [--user ID] [--json] [--explain]"#
      ))
    #expect(
      result.output.contains("search --index DIR --queries FILE [--prefix] [--json] [--explain]"))
    #expect(result.output.contains("--explain"))
    #expect(result.output.contains("Explain each result's score: BM25F per term and field"))
  }

  @Test func textOutputPrintsEachBreakdownUnderItsResult() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let result = CLITestSupport.run(["search", "dance", "--index", index, "--explain"])
      #expect(result.status == 0)
      #expect(result.errors.isEmpty)
      let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
      let resultLines = lines.filter { $0.first?.isNumber == true }
      let textLines = lines.filter { $0.contains("text (BM25F") }
      #expect(!resultLines.isEmpty)
      #expect(textLines.count == resultLines.count, "one breakdown per result")
      // Fewer than 10 results: the result's lines are indented 3, its breakdown 4 more.
      let scoreLines = lines.filter { $0.hasPrefix("       score ") }
      #expect(scoreLines.count == resultLines.count)
      let indentedTextLines = textLines.filter { $0.hasPrefix("         text (BM25F, k1 ") }
      #expect(indentedTextLines.count == textLines.count)
      let termLines = lines.filter { $0.hasPrefix(#"           "dance": idf "#) }
      #expect(!termLines.isEmpty, "a line for the term \"dance\"")
      let popularityLines = lines.filter { $0.hasPrefix("           popularity: ") }
      #expect(popularityLines.count == resultLines.count)
      let recencyLines = lines.filter { $0.hasPrefix("           recency: ") }
      #expect(recencyLines.count == resultLines.count)

      // The breakdown is the only addition. Scores are left out of the comparison: the
      // recency origin is the minute of each run, and two runs may straddle a minute.
      let plain = CLITestSupport.run(["search", "dance", "--index", index])
      let withoutBreakdowns = lines.filter { !$0.hasPrefix("       ") }
      #expect(
        withoutBreakdowns.map(Self.withoutScores)
          == plain.output.split(separator: "\n", omittingEmptySubsequences: false).map(
            Self.withoutScores))
    }
  }

  @Test func nextPageCommandKeepsExplaining() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let result = CLITestSupport.run([
        "search", "dance", "--index", index, "--limit", "1", "--explain",
      ])
      #expect(result.status == 0)
      let nextPage = try #require(
        result.output.split(separator: "\n").first { $0.hasPrefix("Next page: ") })
      #expect(nextPage.hasSuffix(" --explain"))
    }
  }

  @Test func jsonExplanationScoreIsTheResultScore() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let result = CLITestSupport.run([
        "search", "dance", "--index", index, "--tab", "videos", "--json", "--explain",
      ])
      #expect(result.status == 0)
      let object = try CLITestSupport.jsonObject(result.output)
      let results = try #require(object["results"] as? [[String: Any]])
      let ids = results.compactMap { $0["id"] as? String }
      #expect(ids.sorted() == ["v1", "v3"])
      for hit in results {
        let explanation = try #require(hit["explanation"] as? [String: Any])
        #expect(
          Set(explanation.keys) == [
            "score", "textScore", "k1", "staticFactor", "qualityFactor", "typoPenalty",
            "isExactMatch", "adjacency", "isReranked", "popularity", "recency", "terms",
          ])
        let score = try #require(hit["score"] as? Double)
        #expect(explanation["score"] as? Double == score)
        #expect(explanation["isExactMatch"] is Bool)
        let popularity = try #require(explanation["popularity"] as? [String: Any])
        #expect(Set(popularity.keys) == ["count", "pivot", "signal", "weight"])
        #expect(popularity["count"] as? Int == (hit["id"] as? String == "v1" ? 150_000 : 42_000))
        let recency = try #require(explanation["recency"] as? [String: Any])
        #expect(Set(recency.keys) == ["ageSeconds", "signal", "weight"])
        if hit["id"] as? String == "v3" {
          #expect(recency["ageSeconds"] is NSNull, "v3 has no creation date")
        } else {
          #expect(recency["ageSeconds"] is Double)
        }
        let terms = try #require(explanation["terms"] as? [[String: Any]])
        let term = try #require(terms.first)
        #expect(term["term"] as? String == "dance")
        #expect(
          Set(term.keys)
            == [
              "term", "matchedForm", "origin", "idf", "weightedFrequency", "typos", "penalty",
              "score", "fields",
            ])
        #expect(term["origin"] as? String == "typed")
        let fields = try #require(term["fields"] as? [[String: Any]])
        let field = try #require(fields.first)
        #expect(
          Set(field.keys) == [
            "field", "termFrequency", "fieldLength", "averageFieldLength", "weight",
            "contribution",
          ])
        #expect(field["field"] is String)
        #expect((field["termFrequency"] as? Int ?? 0) >= 1)
      }

      // The explanation is the only addition.
      let plain = CLITestSupport.run([
        "search", "dance", "--index", index, "--tab", "videos", "--json",
      ])
      let plainObject = try CLITestSupport.jsonObject(plain.output)
      #expect(
        try Self.resultsWithoutExplanations(object)
          == Self.resultsWithoutExplanations(plainObject))
    }
  }

  @Test func withoutTheFlagNothingIsExplained() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let json = CLITestSupport.run(["search", "dance", "--index", index, "--json"])
      #expect(json.status == 0)
      #expect(!json.output.contains("explanation"))
      let results = try #require(
        try CLITestSupport.jsonObject(json.output)["results"] as? [[String: Any]])
      #expect(!results.isEmpty)
      let explained = results.filter { $0["explanation"] != nil }
      #expect(explained.isEmpty)
      let text = CLITestSupport.run(["search", "dance", "--index", index])
      #expect(text.status == 0)
      #expect(!text.output.contains("BM25F"))

      let queries = try CLITestSupport.write(Self.queryLines, named: "q.jsonl", in: directory)
      let batchJSON = CLITestSupport.run([
        "search", "--index", index, "--queries", queries.path, "--json",
      ])
      #expect(batchJSON.status == 0)
      #expect(!batchJSON.output.contains("explanation"))
      let batchText = CLITestSupport.run(["search", "--index", index, "--queries", queries.path])
      #expect(batchText.status == 0)
      #expect(!batchText.output.contains("BM25F"))
    }
  }

  @Test func batchJSONExplainsEveryResult() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let queries = try CLITestSupport.write(Self.queryLines, named: "q.jsonl", in: directory)
      let result = CLITestSupport.run([
        "search", "--index", index, "--queries", queries.path, "--json", "--explain",
      ])
      #expect(result.status == 0)
      let lines = result.output.split(separator: "\n")
      #expect(lines.count == 3)
      var explained = 0
      for line in lines {
        let object = try CLITestSupport.jsonObject(String(line))
        #expect(Set(object.keys) == ["q", "tab", "results", "micros"])
        let results = try #require(object["results"] as? [[String: Any]])
        for hit in results {
          #expect(Set(hit.keys) == ["id", "type", "score", "explanation"])
          let explanation = try #require(hit["explanation"] as? [String: Any])
          #expect(explanation["score"] as? Double == hit["score"] as? Double)
          explained += 1
        }
      }
      #expect(explained >= 3)
    }
  }

  @Test func batchTextListsEachResultWithItsBreakdown() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let queries = try CLITestSupport.write(Self.queryLines, named: "q.jsonl", in: directory)
      let result = CLITestSupport.run([
        "search", "--index", index, "--queries", queries.path, "--explain",
      ])
      #expect(result.status == 0)
      let lines = result.output.split(separator: "\n")
      let resultLines = lines.filter { $0.hasPrefix("      [") }
      let firstVideoLines = resultLines.filter {
        $0.hasPrefix("      [video] Dance challenge in Tokyo · score ") && $0.hasSuffix(" · id v1")
      }
      #expect(firstVideoLines.count == 2, "v1 is a result of both searches")
      let textLines = lines.filter { $0.hasPrefix("            text (BM25F, k1 ") }
      #expect(textLines.count == resultLines.count)
      let termLines = lines.filter { $0.hasPrefix(#"              "dance": idf "#) }
      #expect(!termLines.isEmpty)

      // Without the breakdowns, the summary is the one printed without --explain.
      let plain = CLITestSupport.run(["search", "--index", index, "--queries", queries.path])
      // The timings differ from run to run, and the scores from minute to minute (the
      // recency origin): both are left out of the comparison.
      func withoutTimings(_ line: Substring) -> String {
        Self.withoutScores(line).replacing(/[0-9][0-9,.]* (µs|ms)/, with: "TIME")
      }
      let summary = lines.filter { !$0.hasPrefix("      ") }.map(withoutTimings)
      #expect(summary == plain.output.split(separator: "\n").map(withoutTimings))
    }
  }
}
