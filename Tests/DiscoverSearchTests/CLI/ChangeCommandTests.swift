import DiscoverSearch
import Foundation
import Testing

@testable import DiscoverCLI

/// `discover add`, `delete` and `counts`: each change a new generation, or none when an input
/// is bad.
@Suite("discover add, delete and counts")
struct ChangeCommandTests {
  static func statistics(of index: String) throws -> [String: Any] {
    try CLIStatsCheckCommandTests.statistics(of: index)
  }

  static func searchIDs(_ query: String, index: String) throws -> [String] {
    let result = CLITestSupport.run(["search", query, "--index", index, "--json"])
    try #require(result.status == 0, "\(result.errors)")
    let object = try CLITestSupport.jsonObject(result.output)
    let results = try #require(object["results"] as? [[String: Any]])
    return results.compactMap { $0["id"] as? String }
  }

  @Test func addAddsAndReplacesByIDThenCommits() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let more = try CLITestSupport.write(
        [
          #"{"type":"video","id":"v9","title":"Salsa night","viewCount":10}"#,
          #"{"type":"video","id":"v2","title":"Quick salsa recipe","viewCount":3000}"#,
        ], named: "more.jsonl", in: directory)
      let result = CLITestSupport.run(["add", more.path, "--index", index])
      #expect(result.status == 0, "\(result.errors)")
      #expect(result.output.hasPrefix("Added 1 document and replaced 1 in \(index)"))
      let statistics = try Self.statistics(of: index)
      #expect(statistics["documents"] as? Int == CLITestSupport.corpusLines.count + 1)
      #expect(statistics["generation"] as? Int == 2)
      #expect(Set(try Self.searchIDs("salsa", index: index)) == ["v9", "v2"])
      #expect(try Self.searchIDs("pasta", index: index).filter { $0 == "v2" }.isEmpty)
      #expect(CLITestSupport.run(["check", "--index", index]).status == 0)
    }
  }

  @Test func addCreatesAnIndexInAnEmptyDirectory() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let corpus = try CLITestSupport.write(
        CLITestSupport.corpusLines, named: "corpus.jsonl", in: directory)
      let index = directory.appendingPathComponent("new-index").path
      let result = CLITestSupport.run(["add", corpus.path, "--index", index])
      #expect(result.status == 0, "\(result.errors)")
      #expect(
        try Self.statistics(of: index)["documents"] as? Int == CLITestSupport.corpusLines.count)
    }
  }

  @Test func aBadCorpusLineCommitsNothing() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let bad = try CLITestSupport.write(
        [
          #"{"type":"video","id":"v9","title":"Salsa night"}"#,
          #"{"type":"video","id":"v10","viewCount":3}"#,
        ], named: "bad.jsonl", in: directory)
      let result = CLITestSupport.run(["add", bad.path, "--index", index])
      #expect(result.status == 1)
      #expect(result.errors.contains("line 2"), "\(result.errors)")
      #expect(result.errors.contains("nothing was changed"))
      #expect(try Self.statistics(of: index)["generation"] as? Int == 1)
      let skipped = CLITestSupport.run(["add", bad.path, "--index", index, "--skip-bad-lines"])
      #expect(skipped.status == 0)
      #expect(skipped.errors.contains("skipped 1 bad line"))
      #expect(try Self.searchIDs("salsa", index: index) == ["v9"])
    }
  }

  /// `--commit-every N` commits each batch of N as a segment of its own; a bad line then
  /// stops after the batches before it, and a bad N is a usage error.
  @Test func addCommitsInBatches() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let lines = (0..<5).map { #"{"type":"video","id":"b\#($0)","title":"Batch salsa \#($0)"}"# }
      let batches = try CLITestSupport.write(lines, named: "batches.jsonl", in: directory)
      // The first commit writes everything as one segment; each after adds one.
      let result = CLITestSupport.run(
        ["add", batches.path, "--index", index, "--commit-every", "2"])
      #expect(result.status == 0, "\(result.errors)")
      let statistics = try Self.statistics(of: index)
      #expect(statistics["generation"] as? Int == 4)
      #expect(statistics["segments"] as? Int == 3)
      #expect(statistics["documents"] as? Int == CLITestSupport.corpusLines.count + 5)
      #expect(try Self.searchIDs("batch", index: index).count == 5)
      #expect(CLITestSupport.run(["check", "--index", index]).status == 0)

      let bad = try CLITestSupport.write(
        lines.map { $0.replacingOccurrences(of: "\"b", with: "\"c") } + [#"{"type":"video"}"#],
        named: "bad.jsonl", in: directory)
      let stopped = CLITestSupport.run(["add", bad.path, "--index", index, "--commit-every", "2"])
      #expect(stopped.status == 1)
      #expect(stopped.errors.contains("the first 4 documents were committed"), "\(stopped.errors)")
      #expect(
        try Self.statistics(of: index)["documents"] as? Int
          == CLITestSupport.corpusLines.count + 9)

      for value in ["0", "-2", "many"] {
        let usage = CLITestSupport.run(
          ["add", batches.path, "--index", index, "--commit-every", value])
        #expect(usage.status == 2, "\(value)")
        #expect(usage.errors.contains("--commit-every"), "\(usage.errors)")
      }
    }
  }

  @Test func deleteRemovesDocumentsAndNamesUnknownIDs() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      #expect(try Self.searchIDs("dance", index: index).contains("v1"))
      let result = CLITestSupport.run(["delete", "v1", "u1", "nope", "--index", index])
      #expect(result.status == 0, "\(result.errors)")
      #expect(result.output.hasPrefix("Deleted 2 documents in \(index)"))
      #expect(result.errors.contains("'nope'"))
      let ids = try Self.searchIDs("dance", index: index)
      #expect(!ids.contains("v1") && !ids.contains("u1") && ids.contains("v3"))
      #expect(
        try Self.statistics(of: index)["documents"] as? Int == CLITestSupport.corpusLines.count - 2)
      #expect(CLITestSupport.usageError(["delete", "--index", index]) != nil)
    }
  }

  @Test func countsChangeRankingAndBadLinesCommitNothing() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      #expect(try Self.searchIDs("dance", index: index).prefix(1) == ["v1"])
      let bad = try CLITestSupport.write(
        [#"{"id":"v3","viewCount":99000000}"#, #"{"id":"ghost","viewCount":1}"#],
        named: "bad.jsonl", in: directory)
      let refused = CLITestSupport.run(["counts", bad.path, "--index", index])
      #expect(refused.status == 1)
      #expect(refused.errors.contains("line 2"), "\(refused.errors)")
      #expect(refused.errors.contains("ghost"))
      #expect(try Self.statistics(of: index)["generation"] as? Int == 1)
      let counts = try CLITestSupport.write(
        [
          #"{"id":"v3","viewCount":99000000,"likeCount":5}"#, "", #"{"id":"u2","followerCount":7}"#,
        ],
        named: "counts.jsonl", in: directory)
      let result = CLITestSupport.run(["counts", counts.path, "--index", index])
      #expect(result.status == 0, "\(result.errors)")
      #expect(result.output.hasPrefix("Updated the counts of 2 documents"))
      let videos = CLITestSupport.run([
        "search", "dance", "--index", index, "--tab", "videos", "--json",
      ])
      let object = try CLITestSupport.jsonObject(videos.output)
      let first = try #require((object["results"] as? [[String: Any]])?.first)
      #expect(first["id"] as? String == "v3")
    }
  }
}
