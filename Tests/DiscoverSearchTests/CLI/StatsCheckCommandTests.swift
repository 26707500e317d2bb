import DiscoverSearch
import Foundation
import Testing

@testable import DiscoverCLI

@Suite("discover stats and check")
struct CLIStatsCheckCommandTests {
  /// The documents of each type in `lines`, counted from the lines themselves, every type of
  /// the corpus format present (0 when absent).
  static func documentCounts(of lines: [String]) throws -> [String: Int] {
    var counts = ["video": 0, "user": 0, "hashtag": 0, "sound": 0, "effect": 0]
    for line in lines {
      let type = try #require(try CLITestSupport.jsonObject(line)["type"] as? String)
      counts[type, default: 0] += 1
    }
    return counts
  }

  /// The `discover stats --json` object of the index in `index`.
  static func statistics(of index: String) throws -> [String: Any] {
    let result = CLITestSupport.run(["stats", "--index", index, "--json"])
    try #require(result.status == 0, "\(result.errors)")
    return try CLITestSupport.jsonObject(result.output)
  }

  /// The size of the one segment file and the documents file of the index in `index`.
  static func segmentFileSize(of index: String) throws -> Int {
    let directory = URL(fileURLWithPath: index)
    let segment = try PersistenceTests.indexFile(in: directory)
    let documents = try PersistenceTests.documentsFile(in: directory)
    return try [segment, documents].reduce(0) { total, file in
      let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
      return total + (try #require((attributes[.size] as? NSNumber)?.intValue))
    }
  }

  // MARK: stats

  @Test func statsJSONCountsTheCorpusDocumentsOfEachType() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let result = CLITestSupport.run(["stats", "--index", index, "--json"])
      #expect(result.status == 0)
      #expect(result.errors.isEmpty)
      #expect(
        result.output.hasPrefix(
          #"{"documents":\#(CLITestSupport.corpusLines.count),"byType":{"video":"#))
      #expect(result.output.filter { $0 == "\n" }.count == 1, "one JSON line")
      let object = try CLITestSupport.jsonObject(result.output)
      #expect(
        Set(object.keys) == [
          "documents", "byType", "deleted", "segments", "generation", "diskBytes",
        ])
      let documents = try #require(object["byType"] as? [String: Int])
      #expect(documents == (try Self.documentCounts(of: CLITestSupport.corpusLines)))
      #expect(object["documents"] as? Int == CLITestSupport.corpusLines.count)
      #expect(object["deleted"] as? Int == 0)
      #expect(object["segments"] as? Int == 1)
      #expect(object["generation"] as? Int == 1)
      let diskBytes = try #require(object["diskBytes"] as? Int)
      #expect(diskBytes > 0)
      #expect(diskBytes == (try Self.segmentFileSize(of: index)))
    }
  }

  @Test func effectsAreCountedWithTheOtherDocuments() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let lines =
        CLITestSupport.corpusLines + [#"{"type":"effect","id":"e1","name":"Green Screen"}"#]
      let corpus = try CLITestSupport.write(lines, named: "corpus.jsonl", in: directory)
      let index = directory.appendingPathComponent("index").path
      #expect(CLITestSupport.run(["index", corpus.path, "--out", index]).status == 0)
      let documents = try #require(try Self.statistics(of: index)["byType"] as? [String: Int])
      #expect(documents == (try Self.documentCounts(of: lines)))
      #expect(documents["effect"] == 1)
      let check = CLITestSupport.run(["check", "--index", index])
      #expect(check.output.hasPrefix("OK: \(lines.count) documents in generation 1"))
    }
  }

  @Test func statsTextIsATableOfEveryTypeAndTheCommit() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let result = CLITestSupport.run(["stats", "--index", index])
      #expect(result.status == 0)
      #expect(result.errors.isEmpty)
      let lines = result.output.split(separator: "\n").map(String.init)
      let total = CLITestSupport.corpusLines.count
      #expect(lines.first == "Index in \(index): \(total) documents")
      let counts = try Self.documentCounts(of: CLITestSupport.corpusLines)
      let diskBytes = try Self.segmentFileSize(of: index)
      let expected: [(String, String)] =
        ["video", "user", "hashtag", "sound", "effect"].map { ("\($0)s", "\(counts[$0]!)") } + [
          ("deleted documents", "0"), ("segments", "1"), ("generation", "1"),
          ("size on disk", TextFormatting.bytes(diskBytes)),
        ]
      let rows = Array(lines.dropFirst())
      #expect(rows.count == expected.count, "\(result.output)")
      for (row, (label, value)) in zip(rows, expected) {
        #expect(row.hasPrefix("  \(label) "), "\(row)")
        #expect(row.hasSuffix(" \(value)"), "\(row)")
      }
      #expect(Set(rows.map(\.count)).count == 1, "values right-aligned in one column")
    }
  }

  @Test func eachIndexRunIntoTheSameDirectoryIsTheNextGeneration() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      #expect(try Self.statistics(of: index)["generation"] as? Int == 1)
      let corpus = directory.appendingPathComponent("corpus.jsonl").path
      #expect(CLITestSupport.run(["index", corpus, "--out", index]).status == 0)
      let second = try Self.statistics(of: index)
      #expect(second["generation"] as? Int == 2)
      #expect(second["segments"] as? Int == 1)
      let documents = try #require(second["byType"] as? [String: Int])
      #expect(documents == (try Self.documentCounts(of: CLITestSupport.corpusLines)))
      let check = CLITestSupport.run(["check", "--index", index])
      #expect(check.status == 0)
      #expect(check.output.contains(" in generation 2, "), "\(check.output)")
    }
  }

  // MARK: check

  @Test func checkPassesASoundIndexInOneLine() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let result = CLITestSupport.run(["check", "--index", index])
      #expect(result.status == 0)
      #expect(result.errors.isEmpty)
      let size = TextFormatting.bytes(try Self.segmentFileSize(of: index))
      #expect(
        result.output
          == "OK: \(CLITestSupport.corpusLines.count) documents in generation 1, 1 segment, "
          + "\(size) on disk; every checksum and structure verified\n")
    }
  }

  @Test func checkJSONIsTheStatisticsWithOKFirst() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let result = CLITestSupport.run(["check", "--index", index, "--json"])
      #expect(result.status == 0)
      #expect(result.errors.isEmpty)
      #expect(result.output.hasPrefix(#"{"ok":true,"documents":"#))
      var object = try CLITestSupport.jsonObject(result.output)
      #expect(object.removeValue(forKey: "ok") as? Bool == true)
      let statistics = try Self.statistics(of: index)
      #expect(NSDictionary(dictionary: object).isEqual(to: statistics), "\(object)")
    }
  }

  @Test func checkFailsOnADamagedSegmentSayingSo() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let file = try PersistenceTests.indexFile(in: URL(fileURLWithPath: index))
      var bytes = try Data(contentsOf: file)
      bytes[bytes.count / 2] ^= 0xFF
      try bytes.write(to: file)

      let text = CLITestSupport.run(["check", "--index", index])
      #expect(text.status == 1)
      #expect(text.output.isEmpty)
      #expect(text.errors.hasPrefix("error: the index in \(index) is damaged"), "\(text.errors)")
      #expect(text.errors.contains(file.lastPathComponent), "names the damaged file")
      #expect(text.errors.contains("Rebuild it with: discover index CORPUS.jsonl --out"))

      let json = CLITestSupport.run(["check", "--index", index, "--json"])
      #expect(json.status == 1)
      #expect(json.output.isEmpty)
      let error = try #require(
        try CLITestSupport.jsonObject(json.errors)["error"] as? [String: Any])
      #expect(error["code"] as? String == "corruptIndex")
      #expect((error["message"] as? String)?.contains("is damaged") == true)
    }
  }

  // MARK: both

  @Test(arguments: ["stats", "check"])
  func aMissingIndexDirectoryFails(_ command: String) throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let missing = directory.appendingPathComponent("nope").path
      let text = CLITestSupport.run([command, "--index", missing])
      #expect(text.status == 1)
      #expect(text.output.isEmpty)
      #expect(text.errors.hasPrefix("error: no index directory at \(missing)\n"))
      #expect(text.errors.contains("Build it with: discover index CORPUS.jsonl --out"))

      let json = CLITestSupport.run([command, "--index", missing, "--json"])
      #expect(json.status == 1)
      let error = try #require(
        try CLITestSupport.jsonObject(json.errors)["error"] as? [String: Any])
      #expect(error["code"] as? String == "notFound")
    }
  }

  @Test(arguments: ["stats", "check"])
  func optionsParseInBothSpellings(_ command: String) throws {
    let options = IndexInspectionOptions(indexDirectory: "idx", writesJSON: true)
    let expected: DiscoverCommand = command == "stats" ? .stats(options) : .check(options)
    #expect(try DiscoverCommand.parse([command, "--index", "idx", "--json"]) == expected)
    #expect(try DiscoverCommand.parse([command, "--json", "--index=idx"]) == expected)
    #expect(
      try DiscoverCommand.parse([command, "--index", "idx"])
        == (command == "stats"
          ? .stats(IndexInspectionOptions(indexDirectory: "idx"))
          : .check(IndexInspectionOptions(indexDirectory: "idx"))))
  }

  static let usageErrors: [([String], String)] = [
    (["stats", "--index", "i", "--bogus"], "unknown option --bogus for discover stats"),
    (["check", "--index", "i", "--bogus"], "unknown option --bogus for discover check"),
    (["check", "--index", "i", "--jsn"], "Did you mean --json?"),
    (["stats", "--index", "i", "--limit", "5"], "unknown option --limit for discover stats"),
    (["stats"], "missing --index"),
    (["check", "--index", ""], "--index is empty"),
    (["check", "--index"], "--index needs a value"),
    (["stats", "i"], "unexpected argument 'i'"),
    (["check", "--index", "i", "--json=yes"], "--json is a flag and takes no value"),
    (["stat", "--index", "i"], "Did you mean stats?"),
  ]

  @Test(arguments: usageErrors)
  func badCommandLineIsAUsageError(_ arguments: [String], _ expected: String) throws {
    let result = CLITestSupport.run(arguments)
    #expect(result.status == 2)
    #expect(result.output.isEmpty)
    #expect(result.errors.contains(expected), "\(result.errors)")
    if arguments[0] != "stat" {
      #expect(result.errors.hasSuffix("Run 'discover help \(arguments[0])' for usage.\n"))
    }
  }
}
