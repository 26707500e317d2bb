import Foundation
import Testing

@testable import DiscoverCLI

@Suite("discover search")
struct CLISearchCommandTests {
  @Test func humanOutputNumbersResultsAndMarksMatchedWords() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let result = CLITestSupport.run(["search", "dance", "--index", index])
      #expect(result.status == 0)
      #expect(result.errors.isEmpty)
      let text = result.output
      #expect(text.hasPrefix("\"dance\" in top: "))
      #expect(text.contains("facets: videos 2, users 1, hashtags "))
      #expect(text.contains("1. ["))
      #expect(text.contains("**Dance**"))
      #expect(text.contains("score "))
      #expect(text.contains("· id v1"))
      #expect(text.contains("150,000 views"))
      #expect(text.contains("followers"))
      #expect(!text.contains("Next page"), "every hit fits on one page of 10")
    }
  }

  @Test func tabLimitsTheResultTypes() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let result = CLITestSupport.run([
        "search", "dance", "--index", index, "--tab", "users", "--json",
      ])
      #expect(result.status == 0)
      let object = try CLITestSupport.jsonObject(result.output)
      #expect(object["tab"] as? String == "users")
      let results = try #require(object["results"] as? [[String: Any]])
      #expect(results.map { $0["id"] as? String } == ["u1"])
      let metadata = try #require(results.first?["metadata"] as? [String: Any])
      #expect(metadata["followerCount"] as? Int == 1200)
      #expect(metadata["verified"] as? Bool == true)
    }
  }

  @Test func jsonOutputIsOneObjectWithResultsFacetsAndCursor() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let result = CLITestSupport.run([
        "search", "dance challenge", "--index", index, "--tab", "videos", "--limit", "1", "--json",
      ])
      #expect(result.status == 0)
      #expect(result.output.hasSuffix("}\n"))
      #expect(result.output.filter { $0 == "\n" }.count == 1)
      let object = try CLITestSupport.jsonObject(result.output)
      #expect(object["q"] as? String == "dance challenge")
      #expect(object["tab"] as? String == "videos")
      #expect(object["totalHits"] as? Int == 1)
      #expect(object["matchedAllTerms"] as? Bool == true)
      let facets = try #require(object["facets"] as? [String: Int])
      #expect(Set(facets.keys) == ["videos", "users", "hashtags", "sounds"])
      let results = try #require(object["results"] as? [[String: Any]])
      let video = try #require(results.first)
      #expect(video["id"] as? String == "v1")
      #expect(video["type"] as? String == "video")
      #expect(video["title"] as? String == "Dance challenge in Tokyo")
      #expect(video["thumbnailURL"] as? String == "https://example.com/v1.jpg")
      #expect(video["score"] is Double)
      let highlights = try #require(video["highlights"] as? [[Int]])
      #expect(highlights.first == [0, 5])
      let metadata = try #require(video["metadata"] as? [String: Any])
      #expect(metadata["viewCount"] as? Int == 150_000)
      #expect(metadata["likeCount"] as? Int == 9000)
      #expect(metadata["createdAt"] as? String == "2026-10-01T12:00:00Z")
      #expect(metadata["creatorID"] as? String == "u1")
      #expect(metadata["soundID"] as? String == "s1")
      #expect(object["nextCursor"] == nil, "one hit, one page")
    }
  }

  @Test func cursorFetchesTheNextPageWithoutRepeats() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      var seen: [String] = []
      var cursor: String?
      for _ in 0..<10 {
        var arguments = ["search", "dance", "--index", index, "--limit", "2", "--json"]
        if let cursor { arguments += ["--cursor", cursor] }
        let result = CLITestSupport.run(arguments)
        try #require(result.status == 0, "\(result.errors)")
        let object = try CLITestSupport.jsonObject(result.output)
        let results = try #require(object["results"] as? [[String: Any]])
        seen += results.compactMap { $0["id"] as? String }
        cursor = object["nextCursor"] as? String
        if cursor == nil { break }
      }
      #expect(seen.count == Set(seen).count, "no hit repeats across pages: \(seen)")
      #expect(seen.count >= 4)
      #expect(cursor == nil, "the last page has no cursor")
    }
  }

  @Test func humanOutputPrintsTheNextPageCommand() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let result = CLITestSupport.run(["search", "dance", "--index", index, "--limit", "1"])
      #expect(result.status == 0)
      #expect(result.output.contains("Next page: discover search dance --index "))
      #expect(result.output.contains("--limit 1 --cursor "))
    }
  }

  @Test func cursorOfAnotherQueryFailsSayingWhatToPass() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let first = CLITestSupport.run([
        "search", "dance", "--index", index, "--limit", "1", "--json",
      ])
      let cursor = try #require(
        try CLITestSupport.jsonObject(first.output)["nextCursor"] as? String)
      let other = CLITestSupport.run(["search", "pasta", "--index", index, "--cursor", cursor])
      #expect(other.status == 1)
      #expect(other.output.isEmpty)
      #expect(other.errors.contains("another query"))
      let garbage = CLITestSupport.run(["search", "dance", "--index", index, "--cursor", "!!"])
      #expect(garbage.status == 1)
      #expect(garbage.errors.contains("malformed"))
    }
  }

  @Test func noHitsIsAnEmptyAnswerNotAnError() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let text = CLITestSupport.run(["search", "zzqqxx", "--index", index])
      #expect(text.status == 0)
      #expect(text.output.contains("No results."))
      let json = CLITestSupport.run(["search", "zzqqxx", "--index", index, "--json"])
      #expect(json.status == 0)
      let object = try CLITestSupport.jsonObject(json.output)
      #expect((object["results"] as? [Any])?.isEmpty == true)
      #expect(object["totalHits"] as? Int == 0)
    }
  }

  @Test func missingIndexDirectoryFailsWithHowToBuildOne() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let missing = directory.appendingPathComponent("nowhere").path
      let result = CLITestSupport.run(["search", "dance", "--index", missing])
      #expect(result.status == 1)
      #expect(result.output.isEmpty)
      #expect(result.errors.contains("error: no index directory at \(missing)"))
      #expect(result.errors.contains("discover index CORPUS.jsonl --out"))
    }
  }

  @Test func directoryWithoutAnIndexFileFails() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let result = CLITestSupport.run(["search", "dance", "--index", directory.path])
      #expect(result.status == 1)
      #expect(result.errors.contains("cannot read the index in \(directory.path)"))
    }
  }

  @Test func corruptIndexFileFailsWithHowToRebuild() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let file = directory.appendingPathComponent("index.dsearch")
      try Data("this is not an index, just some garbage bytes".utf8).write(to: file)
      let result = CLITestSupport.run(["search", "dance", "--index", directory.path])
      #expect(result.status == 1)
      #expect(result.errors.hasPrefix("error: "))
      #expect(result.errors.contains("Rebuild it with: discover index"))
    }
  }

  @Test func truncatedIndexFileFailsAsDamaged() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let file = try PersistenceTests.indexFile(in: URL(fileURLWithPath: index))
      let bytes = try Data(contentsOf: file)
      try bytes.prefix(bytes.count / 2).write(to: file)
      let result = CLITestSupport.run(["search", "dance", "--index", index])
      #expect(result.status == 1)
      #expect(result.errors.contains("damaged"))
      #expect(result.errors.contains("Rebuild it with: discover index"))
    }
  }

  @Test func badLimitExitsWithUsageStatus() {
    let result = CLITestSupport.run([
      "search", "dance", "--index", "/nonexistent", "--limit", "5000",
    ])
    #expect(result.status == 2)
    #expect(result.output.isEmpty)
    #expect(result.errors.contains("--limit must be from 1 to 1000, got 5000"))
    #expect(result.errors.contains("Run 'discover help search' for usage."))
  }

  @Test func unknownTabListsTheValidOnes() {
    let result = CLITestSupport.run([
      "search", "dance", "--index", "/nonexistent", "--tab", "people",
    ])
    #expect(result.status == 2)
    #expect(
      result.errors.contains(
        "unknown tab 'people'; valid tabs: top, users, videos, sounds, hashtags"))
  }
}
