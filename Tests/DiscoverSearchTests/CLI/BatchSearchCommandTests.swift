import Foundation
import Testing

@testable import DiscoverCLI

@Suite("discover search --queries")
struct CLIBatchSearchCommandTests {
  static let queryLines = [
    #"{"kind":"search","q":"dance challenge","tab":"top","limit":10}"#,
    #"{"kind":"suggest","q":"danc","limit":10}"#,
    #"{"kind":"search","q":"dance","tab":"videos","limit":1}"#,
    #"{"kind":"suggest","q":"pas"}"#,
    #"{"kind":"search","q":"zzqqxx"}"#,
  ]

  @Test func jsonModeWritesOneContractLinePerSearchQuery() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let queries = try CLITestSupport.write(Self.queryLines, named: "q.jsonl", in: directory)
      let result = CLITestSupport.run([
        "search", "--index", index, "--queries", queries.path, "--json",
      ])
      #expect(result.status == 0)
      #expect(result.output.hasSuffix("\n"))
      let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      #expect(lines.count == 3)
      var objects: [[String: Any]] = []
      for line in lines {
        let object = try CLITestSupport.jsonObject(String(line))
        #expect(Set(object.keys) == ["q", "tab", "results", "micros"])
        #expect(object["micros"] is Int)
        #expect((object["micros"] as? Int ?? -1) >= 0)
        let results = try #require(object["results"] as? [[String: Any]])
        for hit in results {
          #expect(Set(hit.keys) == ["id", "type", "score"])
          #expect(hit["score"] is Double)
        }
        objects.append(object)
      }
      #expect(objects.map { $0["q"] as? String } == ["dance challenge", "dance", "zzqqxx"])
      #expect(objects.map { $0["tab"] as? String } == ["top", "videos", "top"])
      #expect((objects[1]["results"] as? [Any])?.count == 1, "the line's limit applies")
      #expect((objects[2]["results"] as? [Any])?.isEmpty == true)
      #expect(result.output.hasPrefix(#"{"q":"dance challenge","tab":"top","results":[{"id":"#))

      let notes = result.errors.components(separatedBy: "\n").filter { !$0.isEmpty }
      #expect(notes.count == 1, "the skipped suggest lines are mentioned once: \(notes)")
      #expect(result.errors.contains("skipped 2 suggest queries"))
      #expect(result.errors.contains("run them with discover suggest --index"))
      #expect(!result.errors.contains("not available"))
    }
  }

  @Test func textModeSummarizesEachQueryAndTheRun() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let queries = try CLITestSupport.write(Self.queryLines, named: "q.jsonl", in: directory)
      let result = CLITestSupport.run(["search", "--index", index, "--queries", queries.path])
      #expect(result.status == 0)
      let lines = result.output.split(separator: "\n")
      #expect(lines.count == 4)
      #expect(lines[0].contains("\"dance challenge\" [top]"))
      #expect(lines[1].contains("[videos] 2 hits, 1 shown"))
      #expect(lines[2].contains("0 hits"))
      #expect(lines[3].hasPrefix("3 searches in "))
    }
  }

  @Test func badQueryLineFailsNamingTheLine() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let queries = try CLITestSupport.write(
        [Self.queryLines[0], #"{"kind":"search","q":"x","tab":"people"}"#], named: "q.jsonl",
        in: directory)
      let result = CLITestSupport.run([
        "search", "--index", index, "--queries", queries.path, "--json",
      ])
      #expect(result.status == 1)
      #expect(result.output.isEmpty)
      // With --json the error is JSON too.
      let error = try #require(
        try CLITestSupport.jsonObject(result.errors)["error"] as? [String: Any])
      #expect(error["code"] as? String == "invalidQuery")
      let message = try #require(error["message"] as? String)
      #expect(message.contains("\(queries.path), line 2: unknown tab \"people\""))
    }
  }

  @Test func missingQueryFileFails() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let missing = directory.appendingPathComponent("missing.jsonl").path
      let result = CLITestSupport.run(["search", "--index", index, "--queries", missing, "--json"])
      #expect(result.status == 1)
      #expect(result.errors.contains("query file not found: \(missing)"))
    }
  }

  @Test func missingIndexFailsBeforeAnyOutput() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let queries = try CLITestSupport.write(Self.queryLines, named: "q.jsonl", in: directory)
      let result = CLITestSupport.run([
        "search", "--index", directory.appendingPathComponent("none").path, "--queries",
        queries.path, "--json",
      ])
      #expect(result.status == 1)
      #expect(result.output.isEmpty)
      #expect(result.errors.contains("no index directory"))
    }
  }
}
