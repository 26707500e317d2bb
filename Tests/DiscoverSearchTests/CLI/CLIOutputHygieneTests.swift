import Foundation
import Testing

@testable import DiscoverCLI

/// What a user meets first: the version, errors as JSON for programs, one piece of advice
/// per failure, headers that quote a phrase query once, no terminal control characters in
/// text output, and hints when a search finds nothing.
@Suite("discover output as a user meets it")
struct CLIOutputHygieneTests {
  /// The package's root, to read CHANGELOG.md.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test func versionPrintsTheNewestReleaseOfTheChangelog() throws {
    let result = CLITestSupport.run(["--version"])
    #expect(result.status == 0)
    #expect(result.output == "discover \(DiscoverCLI.version)\n")
    let changelog = try String(
      contentsOf: Self.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    let releases = changelog.split(separator: "\n").filter {
      $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]")
    }
    #expect(
      releases.first?.hasPrefix("## [\(DiscoverCLI.version)]") == true, "\(releases.first ?? "")")
    #expect(CLITestSupport.run(["--version", "extra"]).status == 2)
  }

  @Test func jsonErrorsCarryACodeAndTheMessage() throws {
    let missing = CLITestSupport.run(["search", "dance", "--index", "/nonexistent/dir", "--json"])
    #expect(missing.status == 1)
    #expect(missing.output.isEmpty)
    let object = try CLITestSupport.jsonObject(missing.errors)
    let error = try #require(object["error"] as? [String: Any])
    #expect(error["code"] as? String == "notFound")
    #expect((error["message"] as? String)?.contains("/nonexistent/dir") == true)
    #expect((error["hints"] as? [String])?.first?.contains("discover index") == true)

    let usage = CLITestSupport.run(["search", "dance", "--bogus", "--json"])
    #expect(usage.status == 2)
    let usageError = try #require(
      try CLITestSupport.jsonObject(usage.errors)["error"] as? [String: Any])
    #expect(usageError["code"] as? String == "usage")
    #expect((usageError["hints"] as? [String])?.last == "Run 'discover help search' for usage.")

    // Without --json the same failure is text.
    let text = CLITestSupport.run(["search", "dance", "--index", "/nonexistent/dir"])
    #expect(text.errors.hasPrefix("error: no index directory at /nonexistent/dir\n"))
  }

  @Test func jsonAfterDoubleDashIsAQueryNotAFlag() {
    #expect(DiscoverCLI.wantsJSONErrors(["search", "--index", "x", "--json"]))
    #expect(!DiscoverCLI.wantsJSONErrors(["search", "--index", "x", "--", "--json"]))
  }

  @Test func libraryErrorsKeepTheirCodeInJSON() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let cursor = CLITestSupport.run([
        "search", "dance", "--index", index, "--cursor", "AAAA", "--json",
      ])
      #expect(cursor.status == 1)
      let error = try #require(
        try CLITestSupport.jsonObject(cursor.errors)["error"] as? [String: Any])
      #expect(error["code"] as? String == "invalidQuery")

      let file = try PersistenceTests.indexFile(in: directory.appendingPathComponent("index"))
      try Data("not an index".utf8).write(to: file)
      let damaged = CLITestSupport.run(["search", "dance", "--index", index, "--json"])
      let damage = try #require(
        try CLITestSupport.jsonObject(damaged.errors)["error"] as? [String: Any])
      #expect(damage["code"] as? String == "corruptIndex")
    }
  }

  @Test func aDamagedIndexGivesItsAdviceOnce() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let file = try PersistenceTests.indexFile(in: directory.appendingPathComponent("index"))
      var bytes = try Data(contentsOf: file)
      bytes[bytes.count / 2] ^= 0xFF
      try bytes.write(to: file)
      let result = CLITestSupport.run(["search", "dance", "--index", index])
      #expect(result.status == 1)
      #expect(result.errors.contains("is damaged"))
      let advice = result.errors.lowercased().components(separatedBy: "rebuild").count - 1
      #expect(advice == 1, "\(result.errors)")
      #expect(result.errors.contains("Rebuild it with: discover index CORPUS.jsonl --out"))
    }
  }

  @Test func aPhraseQueryIsQuotedOnceInTheHeader() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      let phrase = CLITestSupport.run(["search", "\"dance challenge\"", "--index", index])
      #expect(phrase.output.hasPrefix("\"dance challenge\" in top: "), "\(phrase.output)")
      let mixed = CLITestSupport.run(["search", "\"dance\" tokyo", "--index", index])
      #expect(mixed.output.hasPrefix("'\"dance\" tokyo' in top:"), "\(mixed.output)")
      let plain = CLITestSupport.run(["search", "dance", "--index", index])
      #expect(plain.output.hasPrefix("\"dance\" in top:"))
    }
  }

  @Test func textOutputDropsTerminalControlsAndJSONKeepsThem() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let title = "Sunset \u{1B}]0;owned\u{07}\u{1B}[31mbeach\u{9B}2J\r\nvlog"
      let line = try String(
        decoding: JSONSerialization.data(withJSONObject: [
          "type": "video", "id": "v\u{1B}9", "title": title,
        ]), as: UTF8.self)
      let corpus = try CLITestSupport.write([line], named: "corpus.jsonl", in: directory)
      let index = directory.appendingPathComponent("index").path
      #expect(CLITestSupport.run(["index", corpus.path, "--out", index]).status == 0)

      let text = CLITestSupport.run(["search", "sunset\u{07}\u{1B}", "--index", index])
      #expect(text.status == 0)
      for control in ["\u{1B}", "\u{07}", "\u{9B}", "\r"] {
        #expect(!text.output.contains(control), "control \(control.unicodeScalars.first!.value)")
      }
      #expect(text.output.contains("**Sunset** ]0;owned[31mbeach2J vlog"), "\(text.output)")
      #expect(text.output.contains("id v9\n"), "\(text.output)")
      #expect(text.output.hasPrefix("\"sunset\" in top: 1 result\n"), "\(text.output)")

      let json = CLITestSupport.run(["search", "sunset", "--index", index, "--json"])
      let results = try #require(
        try CLITestSupport.jsonObject(json.output)["results"] as? [[String: Any]])
      #expect(results.first?["title"] as? String == title)
      #expect(results.first?["id"] as? String == "v\u{1B}9")
    }
  }

  @Test func noResultsHintsAtPrefixSearchAndTheCompletion() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      // Four letters: too short for typo correction and no whole word, so the search tries
      // the last word as a prefix before giving up, and finds the recipe.
      let result = CLITestSupport.run(["search", "reci", "--index", index])
      #expect(result.status == 0)
      #expect(result.output.contains("1. [video] Easy pasta **recipe**"), "\(result.output)")
      #expect(!result.output.contains("No results."), "\(result.output)")

      // Nothing to hint at: the search already matched as you type.
      let typing = CLITestSupport.run(["search", "zzzz", "--index", index, "--prefix"])
      #expect(typing.output.hasSuffix("\nNo results.\n"), "\(typing.output)")
    }
  }
}

@Suite("TextFormatting for terminals")
struct TextFormattingTerminalTests {
  @Test(arguments: [
    ("plain", "plain"),
    ("two\nlines", "two lines"),
    ("crlf\r\nend", "crlf end"),
    ("tab\there", "tab here"),
    ("\u{1B}[1mbold\u{1B}[0m", "[1mbold[0m"),
    ("bell\u{07}", "bell"),
    ("c1\u{85}next\u{9B}x", "c1 nextx"),
    ("del\u{7F}", "del"),
    ("emoji 👩‍🍳 stays", "emoji 👩‍🍳 stays"),
  ])
  func singleLineRemovesControlCharacters(_ text: String, _ expected: String) {
    #expect(TextFormatting.singleLine(text) == expected)
  }

  @Test(arguments: [
    ("dance", "\"dance\""),
    ("\"dance challenge\"", "\"dance challenge\""),
    ("\"dance\" party", "'\"dance\" party'"),
    ("\"it's\" here", "\"it's\" here"),
  ])
  func quotedWrapsOnce(_ text: String, _ expected: String) {
    #expect(TextFormatting.quoted(text) == expected)
  }
}
