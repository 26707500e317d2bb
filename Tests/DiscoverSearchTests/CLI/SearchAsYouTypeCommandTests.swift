import Foundation
import Testing

@testable import DiscoverCLI

@Suite("discover search --prefix and did you mean")
struct CLISearchAsYouTypeCommandTests {
  @Test func prefixFindsADocumentByAPartialLastWord() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      // Without --prefix, "rec" is no whole word, so the last word is tried as a prefix
      // before giving up on it.
      let whole = CLITestSupport.run(["search", "pasta rec", "--index", index, "--json"])
      let wholeObject = try CLITestSupport.jsonObject(whole.output)
      #expect(wholeObject["matchedAllTerms"] as? Bool == true)
      let wholeResults = try #require(wholeObject["results"] as? [[String: Any]])
      #expect(wholeResults.first?["id"] as? String == "v2")

      let typing = CLITestSupport.run([
        "search", "pasta rec", "--index", index, "--prefix", "--json",
      ])
      #expect(typing.status == 0)
      let object = try CLITestSupport.jsonObject(typing.output)
      #expect(object["matchedAllTerms"] as? Bool == true)
      let results = try #require(object["results"] as? [[String: Any]])
      #expect(results.first?["id"] as? String == "v2")

      let text = CLITestSupport.run(["search", "pasta rec", "--index", index, "--prefix"])
      #expect(text.output.contains("1. [video] Easy **pasta recipe**"))
    }
  }

  @Test func nextPageCommandOfAPrefixSearchCarriesPrefix() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let first = CLITestSupport.run([
        "search", "danc", "--index", index, "--prefix", "--limit", "1",
      ])
      #expect(first.status == 0)
      let line = try #require(
        first.output.split(separator: "\n").first { $0.hasPrefix("Next page: ") })
      #expect(line.hasSuffix(" --prefix"))
      let json = CLITestSupport.run([
        "search", "danc", "--index", index, "--prefix", "--limit", "1", "--json",
      ])
      let cursor = try #require(
        try CLITestSupport.jsonObject(json.output)["nextCursor"] as? String)
      let next = CLITestSupport.run([
        "search", "danc", "--index", index, "--prefix", "--limit", "1", "--cursor", cursor,
      ])
      #expect(next.status == 0, "\(next.errors)")
      let withoutPrefix = CLITestSupport.run([
        "search", "danc", "--index", index, "--limit", "1", "--cursor", cursor,
      ])
      #expect(withoutPrefix.status == 1, "the cursor belongs to the prefix search")
    }
  }

  @Test func misspelledQueryPrintsDidYouMean() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let text = CLITestSupport.run(["search", "tutorail", "--index", index])
      #expect(text.status == 0)
      #expect(text.output.contains("Did you mean: \"tutorial\"?\n"))
      let json = CLITestSupport.run(["search", "tutorail", "--index", index, "--json"])
      let object = try CLITestSupport.jsonObject(json.output)
      #expect(object["didYouMean"] as? String == "tutorial")
    }
  }

  @Test func correctlySpelledQueryHasNoDidYouMean() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let text = CLITestSupport.run(["search", "tutorial", "--index", index])
      #expect(!text.output.contains("Did you mean"))
      let json = CLITestSupport.run(["search", "tutorial", "--index", index, "--json"])
      #expect(try CLITestSupport.jsonObject(json.output)["didYouMean"] == nil)
    }
  }
}
