import Foundation
import Testing

@testable import DiscoverCLI

@Suite("discover search --user, suggest --user and trending searches")
struct CLIAnalyticsCommandTests {
  /// The analytics file next to the index in `index`.
  static func analyticsPath(_ index: String) -> String {
    URL(fileURLWithPath: index).appendingPathComponent("analytics.sqlite").path
  }

  /// Runs `discover search QUERY --index INDEX --user USER` and requires it to succeed.
  static func search(_ query: String, by user: String, in index: String) throws {
    let result = CLITestSupport.run(["search", query, "--index", index, "--user", user])
    try #require(result.status == 0, "\(result.errors)")
  }

  @Test func searchWithoutUserRecordsNothing() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      #expect(CLITestSupport.run(["search", "dance", "--index", index]).status == 0)
      #expect(!FileManager.default.fileExists(atPath: Self.analyticsPath(index)))
      try Self.search("dance", by: "u1", in: index)
      #expect(FileManager.default.fileExists(atPath: Self.analyticsPath(index)))
    }
  }

  @Test func searchesOfThreeUsersAreListedAsTrending() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      for user in ["u1", "u2", "u3"] { try Self.search("Dance challenge", by: user, in: index) }
      // Searched by two users only: below the privacy minimum of three.
      for user in ["u1", "u2"] { try Self.search("pasta", by: user, in: index) }

      let json = CLITestSupport.run(["trending", "searches", "--index", index, "--json"])
      #expect(json.status == 0)
      #expect(json.errors.isEmpty)
      #expect(json.output.hasPrefix(#"{"list":"searches","items":[{"query":"#))
      let object = try CLITestSupport.jsonObject(json.output)
      #expect(object["list"] as? String == "searches")
      let items = try #require(object["items"] as? [[String: Any]])
      // Listed as most recently typed.
      #expect(items.map { $0["query"] as? String } == ["Dance challenge"])
      let item = try #require(items.first)
      #expect(
        Set(item.keys)
          == ["query", "score", "recentCount", "baselineCount", "velocity", "distinctUsers"])
      #expect(item["distinctUsers"] as? Int == 3)
      #expect((item["recentCount"] as? Double ?? 0) > 2.9)
      #expect((item["score"] as? Double ?? 0) > 0)
      #expect((item["velocity"] as? Double ?? 0) > 1, "a query new this hour is rising")

      let text = CLITestSupport.run(["trending", "searches", "--index", index])
      #expect(text.status == 0)
      let lines = text.output.split(separator: "\n")
      #expect(lines.first == "Trending searches: 1")
      #expect(lines.count == 2)
      #expect(lines[1].hasPrefix("1. \"Dance challenge\" · score "))
      #expect(lines[1].contains(" recent searches · velocity "))
      #expect(lines[1].hasSuffix(" · 3 users"))
    }
  }

  @Test func trendingWithoutAnalyticsFileIsEmptyWithANote() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let json = CLITestSupport.run(["trending", "searches", "--index", index, "--json"])
      #expect(json.status == 0)
      #expect(json.output == #"{"list":"searches","items":[]}"# + "\n")
      #expect(json.errors.contains("note: no searches are recorded"))
      #expect(json.errors.contains("discover search \"QUERY\" --index"))
      #expect(json.errors.contains("--user ID"))
      let text = CLITestSupport.run(["trending", "searches", "--index", index])
      #expect(text.output.hasPrefix("Trending searches: 0\n"))
      #expect(!FileManager.default.fileExists(atPath: Self.analyticsPath(index)))
    }
  }

  @Test func trendingSearchesOfAMissingIndexDirectoryFails() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let missing = directory.appendingPathComponent("nowhere").path
      let result = CLITestSupport.run(["trending", "searches", "--index", missing])
      #expect(result.status == 1)
      #expect(result.errors.contains("no index directory at \(missing)"))
    }
  }

  @Test func recentSearchesComeFirstInTheUsersSuggestions() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      try Self.search("dance tutorial", by: "u1", in: index)

      let mine = CLITestSupport.run(["suggest", "dan", "--index", index, "--user", "u1", "--json"])
      #expect(mine.status == 0)
      let object = try CLITestSupport.jsonObject(mine.output)
      let suggestions = try #require(object["suggestions"] as? [[String: Any]])
      let first = try #require(suggestions.first)
      #expect(first["text"] as? String == "dance tutorial")
      #expect(first["kind"] as? String == "query")
      #expect(first["isRecent"] as? Bool == true)
      #expect(first["matchedRange"] as? [Int] == [0, 3])
      #expect(suggestions.dropFirst().allSatisfy { $0["isRecent"] as? Bool == false })

      let text = CLITestSupport.run(["suggest", "dan", "--index", index, "--user", "u1"])
      #expect(text.output.contains("1. [query] **dan**ce tutorial · recent"))

      // Another user's list, and a list without --user, have no recent searches; one user's
      // search is never suggested to others.
      for arguments in [["--user", "u2"], []] {
        let other = CLITestSupport.run(["suggest", "dan", "--index", index, "--json"] + arguments)
        #expect(other.status == 0)
        #expect(!other.output.contains(#""isRecent":true"#))
        #expect(!other.output.contains("dance tutorial"))
      }
    }
  }

  @Test func suggestWithUserButNoAnalyticsFileUsesTheIndexAlone() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let withUser = CLITestSupport.run(["suggest", "pas", "--index", index, "--user", "u1"])
      let without = CLITestSupport.run(["suggest", "pas", "--index", index])
      #expect(withUser.status == 0)
      #expect(withUser.output == without.output)
      #expect(!FileManager.default.fileExists(atPath: Self.analyticsPath(index)))
    }
  }

  static let commandsReadingAnalytics: [[String]] = [
    ["search", "dance", "--user", "u1"],
    ["suggest", "dan", "--user", "u1"],
    ["trending", "searches"],
  ]

  @Test(arguments: commandsReadingAnalytics)
  func damagedAnalyticsFileFailsSayingHowToStartOver(_ arguments: [String]) throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let garbage = String(repeating: "this is not an SQLite database. ", count: 64)
      try Data(garbage.utf8).write(to: URL(fileURLWithPath: Self.analyticsPath(index)))
      let result = CLITestSupport.run(arguments + ["--index", index])
      #expect(result.status == 1)
      #expect(result.output.isEmpty, "no partial answer")
      #expect(result.errors.hasPrefix("error: the analytics file is damaged"))
      #expect(result.errors.contains("rm -f \(Self.analyticsPath(index))"))
    }
  }
}
