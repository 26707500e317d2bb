import DiscoverSearch
import Foundation
import Testing

@testable import DiscoverCLI

@Suite("discover suggest")
struct CLISuggestCommandTests {
  @Test func humanOutputNumbersSuggestionsWithKindAndMatchedPart() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let result = CLITestSupport.run(["suggest", "pas", "--index", index])
      #expect(result.status == 0)
      #expect(result.errors.isEmpty)
      let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.first == "\"pas\": 1 suggestion")
      #expect(lines.contains("1. [query] **pas**ta"))
    }
  }

  @Test func jsonOutputIsOneObjectWithEveryField() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let result = CLITestSupport.run([
        "suggest", "danc", "--index", index, "--limit", "3", "--json",
      ])
      #expect(result.status == 0)
      #expect(result.output.hasPrefix(#"{"q":"danc","suggestions":[{"text":"#))
      #expect(result.output.filter { $0 == "\n" }.count == 1)
      let object = try CLITestSupport.jsonObject(result.output)
      #expect(Set(object.keys) == ["q", "suggestions", "micros"])
      #expect((object["micros"] as? Int ?? -1) >= 0)
      let suggestions = try #require(object["suggestions"] as? [[String: Any]])
      #expect(suggestions.count == 3, "the limit applies")
      let kinds = Set(Suggestion.Kind.allCases.map(\.rawValue))
      for suggestion in suggestions {
        let text = try #require(suggestion["text"] as? String)
        #expect(text.lowercased().contains("danc"))
        #expect(kinds.contains(suggestion["kind"] as? String ?? ""))
        let range = try #require(suggestion["matchedRange"] as? [Int])
        #expect(range.count == 2)
        #expect(range[0] <= range[1] && range[1] <= text.utf8.count)
        #expect(suggestion["isTrending"] as? Bool == false)
        #expect(suggestion["isRecent"] as? Bool == false)
        #expect(suggestion["typos"] as? Int == 0)
        #expect(suggestion["score"] is Double)
      }
    }
  }

  @Test func typoInThePrefixIsCountedInTheOutput() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let json = CLITestSupport.run(["suggest", "tutprial", "--index", index, "--json"])
      #expect(json.status == 0)
      let object = try CLITestSupport.jsonObject(json.output)
      let suggestions = try #require(object["suggestions"] as? [[String: Any]])
      let tutorial = try #require(suggestions.first { $0["text"] as? String == "tutorial" })
      #expect(tutorial["typos"] as? Int == 1)
      let text = CLITestSupport.run(["suggest", "tutprial", "--index", index])
      #expect(text.output.contains("1. [query] **tutorial** · 1 typo"))
    }
  }

  @Test func prefixWithNothingToCompleteIsAnEmptyList() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let text = CLITestSupport.run(["suggest", "zzqqxx", "--index", index])
      #expect(text.status == 0)
      #expect(text.output == "\"zzqqxx\": 0 suggestions\n\nNo suggestions.\n")
      let json = CLITestSupport.run(["suggest", "", "--index", index, "--json"])
      #expect(json.status == 0)
      let object = try CLITestSupport.jsonObject(json.output)
      #expect((object["suggestions"] as? [Any])?.isEmpty == true)
    }
  }

  @Test func prefixOfARealArtistSuggestsHisName() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      // The embedded corpus holds several Bruno Mars videos; it is indexed once per test
      // run (RealCorpus) and saved here, as discover index would.
      try RealCorpus.load().index.save(to: directory)
      let json = CLITestSupport.run(["suggest", "bru", "--index", directory.path, "--json"])
      try #require(json.status == 0, "\(json.errors)")
      let object = try CLITestSupport.jsonObject(json.output)
      let suggestions = try #require(object["suggestions"] as? [[String: Any]])
      let texts = suggestions.compactMap { $0["text"] as? String }
      #expect(texts.count == 10)
      #expect(texts.first?.lowercased().hasPrefix("bruno") == true, "\(texts)")
      let text = CLITestSupport.run(["suggest", "bru", "--index", directory.path])
      #expect(text.output.contains("1. [user] **Bruno** Mars"), "\(text.output)")
    }
  }

  @Test(arguments: ["0", "101", "ten"])
  func limitOutsideOneToAHundredIsAUsageError(_ limit: String) {
    let result = CLITestSupport.run([
      "suggest", "danc", "--index", "/nonexistent", "--limit", limit,
    ])
    #expect(result.status == 2)
    #expect(result.output.isEmpty)
    #expect(result.errors.contains("--limit must be"))
    #expect(result.errors.contains("1 to 100"))
    #expect(result.errors.contains("Run 'discover help suggest' for usage."))
  }

  @Test func missingIndexFailsWithHowToBuildOne() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let missing = directory.appendingPathComponent("nowhere").path
      let result = CLITestSupport.run(["suggest", "danc", "--index", missing])
      #expect(result.status == 1)
      #expect(result.output.isEmpty)
      #expect(result.errors.contains("error: no index directory at \(missing)"))
      #expect(result.errors.contains("discover index CORPUS.jsonl --out"))
    }
  }
}

@Suite("discover suggest --queries")
struct CLIBatchSuggestCommandTests {
  @Test func jsonModeWritesOneContractLinePerSuggestQuery() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let lines = CLIBatchSearchCommandTests.queryLines
      let queries = try CLITestSupport.write(lines, named: "q.jsonl", in: directory)
      let result = CLITestSupport.run([
        "suggest", "--index", index, "--queries", queries.path, "--json",
      ])
      #expect(result.status == 0)
      let output = result.output.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(output.last == "", "every line ends with a line feed")
      let objects = try output.dropLast().map { try CLITestSupport.jsonObject(String($0)) }
      let suggestLines = lines.filter { $0.contains(#""kind":"suggest""#) }
      #expect(objects.count == suggestLines.count)
      #expect(objects.map { $0["q"] as? String } == ["danc", "pas"])
      for object in objects {
        #expect(Set(object.keys) == ["q", "suggestions", "micros"])
        #expect((object["micros"] as? Int ?? -1) >= 0)
        let suggestions = try #require(object["suggestions"] as? [[String: Any]])
        #expect(!suggestions.isEmpty)
        #expect(suggestions.count <= 10)
      }
      let notes = result.errors.split(separator: "\n")
      #expect(notes.count == 1, "the skipped search lines are mentioned once: \(notes)")
      #expect(result.errors.contains("skipped 3 search queries"))
      #expect(result.errors.contains("run them with discover search --index"))
    }
  }

  @Test func textModeSummarizesEachQueryAndTheRun() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let queries = try CLITestSupport.write(
        CLIBatchSearchCommandTests.queryLines, named: "q.jsonl", in: directory)
      let result = CLITestSupport.run(["suggest", "--index", index, "--queries", queries.path])
      #expect(result.status == 0)
      let lines = result.output.split(separator: "\n")
      #expect(lines.count == 3)
      #expect(lines[0].hasPrefix("   2. \"danc\" "))
      #expect(lines[1].hasPrefix("   4. \"pas\" 1 suggestion, "))
      #expect(lines[1].hasSuffix("first: [query] pasta"))
      #expect(lines[2].hasPrefix("2 suggest queries in "))
      #expect(lines[2].contains("p50 "))
      #expect(lines[2].contains("p95 "))
      #expect(lines[2].contains("max "))
    }
  }

  @Test func suggestLineAskingForMoreThanAHundredFailsBeforeAnyOutput() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let queries = try CLITestSupport.write(
        [#"{"kind":"suggest","q":"danc"}"#, #"{"kind":"suggest","q":"pas","limit":500}"#],
        named: "q.jsonl", in: directory)
      let result = CLITestSupport.run([
        "suggest", "--index", index, "--queries", queries.path, "--json",
      ])
      #expect(result.status == 1)
      #expect(result.output.isEmpty)
      #expect(result.errors.contains("query 2 of \(queries.path) asks for 500 suggestions"))
    }
  }

  @Test func missingQueryFileFails() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let missing = directory.appendingPathComponent("missing.jsonl").path
      let result = CLITestSupport.run(["suggest", "--index", index, "--queries", missing])
      #expect(result.status == 1)
      #expect(result.errors.contains("query file not found: \(missing)"))
    }
  }
}
