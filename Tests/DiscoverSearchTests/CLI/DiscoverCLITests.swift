import Foundation
import Testing

@testable import DiscoverCLI

@Suite("discover help and unavailable lists")
struct CLIHelpAndUnavailableTests {
  @Test func noArgumentsPrintsTheOverviewOnStderrAsAUsageError() {
    let result = CLITestSupport.run([])
    #expect(result.status == 2)
    #expect(result.output.isEmpty)
    #expect(result.errors.contains("Commands:"))
  }

  @Test(arguments: [["--help"], ["help"], ["-h"]])
  func helpPrintsTheOverviewOnStdout(_ arguments: [String]) {
    let result = CLITestSupport.run(arguments)
    #expect(result.status == 0)
    #expect(result.errors.isEmpty)
    for command in ["index", "search", "suggest", "events", "trending", "stats", "check"] {
      #expect(result.output.contains("  discover \(command) "))
    }
    #expect(result.output.contains("Exit status"))
  }

  @Test(arguments: ["index", "search", "suggest", "events", "trending", "stats", "check"])
  func eachCommandHasItsOwnHelp(_ command: String) {
    let viaFlag = CLITestSupport.run([command, "--help"])
    let viaHelp = CLITestSupport.run(["help", command])
    #expect(viaFlag.status == 0)
    #expect(viaFlag.output == viaHelp.output)
    #expect(viaFlag.output.hasPrefix("Usage:\n  discover \(command) "))
    #expect(viaFlag.output.contains("--index") || viaFlag.output.contains("--out"))
  }

  @Test func unknownCommandSuggestsTheNearestOne() {
    let result = CLITestSupport.run(["serch", "dance"])
    #expect(result.status == 2)
    #expect(result.errors.contains("error: unknown command 'serch'"))
    #expect(result.errors.contains("Did you mean search?"))
  }

  @Test func helpNoLongerCallsSuggestOrTrendingSearchesUnbuilt() {
    let overview = CLITestSupport.run(["help"]).output
    let suggest = CLITestSupport.run(["help", "suggest"]).output
    for text in [overview, suggest] {
      #expect(!text.contains("not built"))
      #expect(!text.contains("not available in this build"))
    }
    #expect(suggest.contains("--user ID"))
    #expect(CLITestSupport.run(["help", "search"]).output.contains("--prefix"))
  }

  @Test func trendingChecksItsListName() {
    let result = CLITestSupport.run(["trending", "effect", "--index", "i"])
    #expect(result.status == 2)
    #expect(result.errors.contains("unknown trending list 'effect'"))
  }
}
@Suite("TextFormatting")
struct CLITextFormattingTests {
  static let groupedNumbers: [(Int, String)] = [
    (0, "0"), (7, "7"), (999, "999"), (1000, "1,000"), (123_456, "123,456"),
    (1_234_567, "1,234,567"), (-45_000, "-45,000"),
  ]

  @Test(arguments: groupedNumbers)
  func groupsThousandsWithCommas(_ value: Int, _ expected: String) {
    #expect(TextFormatting.grouped(value) == expected)
  }

  static let highlightCases: [(String, [Range<Int>], String)] = [
    ("Dance challenge", [0..<5], "**Dance** challenge"),
    ("Bruno Mars live", [6..<10, 0..<5], "**Bruno Mars** live"),
    ("abc", [0..<2, 1..<3], "**abc**"),
    ("ROSÉ dance", [6..<11], "ROSÉ **dance**"),
    ("ROSÉ", [0..<4], "ROSÉ"),  // ends inside the two bytes of É: left unmarked
    ("short", [3..<99], "short"),
    ("none", [], "none"),
    ("東京 tower", [0..<6], "**東京** tower"),
  ]

  @Test(arguments: highlightCases)
  func marksHighlightsWithoutBreakingCharacters(
    _ title: String, _ spans: [Range<Int>], _ expected: String
  ) {
    #expect(TextFormatting.markingHighlights(in: title, spans: spans) == expected)
  }

  static let shellCases: [(String, String)] = [
    ("dance", "dance"), ("dance challenge", "'dance challenge'"), ("", "''"),
    ("it's", #"'it'\''s'"#), ("#fyp", "'#fyp'"), ("/tmp/index", "/tmp/index"),
  ]

  @Test(arguments: shellCases)
  func quotesForAShellOnlyWhenNeeded(_ text: String, _ expected: String) {
    #expect(TextFormatting.shellQuoted(text) == expected)
  }

  @Test func formatsSizesInDecimalUnits() {
    #expect(TextFormatting.bytes(812) == "812 B")
    #expect(TextFormatting.bytes(14_200) == "14.2 kB")
    #expect(TextFormatting.bytes(1_500) == "1.50 kB")
    #expect(TextFormatting.bytes(20_400_000) == "20.4 MB")
  }

  @Test func countsAgreeInNumber() {
    #expect(TextFormatting.counted(1, "video") == "1 video")
    #expect(TextFormatting.counted(0, "video") == "0 videos")
    #expect(TextFormatting.counted(2_000, "search", plural: "searches") == "2,000 searches")
  }

  @Test func keepsTitlesOnOneLine() {
    #expect(TextFormatting.singleLine("a\nb\r\nc\td") == "a b c d")
  }
}
