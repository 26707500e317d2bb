import Foundation
import Testing

@testable import DiscoverSearch

@Suite("QueryFile")
struct QueryFileTests {
  static let validLines: [(String, QuerySpec)] = [
    (
      #"{"kind":"search","q":"dance challenge","tab":"top","limit":10}"#,
      QuerySpec(kind: .search, text: "dance challenge", tab: .top, limit: 10)
    ),
    (#"{"kind":"suggest","q":"danc","limit":10}"#, QuerySpec(kind: .suggest, text: "danc")),
    (#"{"kind":"search","q":"x"}"#, QuerySpec(kind: .search, text: "x")),
    (#"{"kind":"search","q":"x","tab":null,"limit":null}"#, QuerySpec(kind: .search, text: "x")),
    (
      ##"{"kind":"search","q":"#fyp","tab":"hashtags","limit":1}"##,
      QuerySpec(kind: .search, text: "#fyp", tab: .hashtags, limit: 1)
    ),
    (
      #"{"kind":"search","q":"@a","tab":"users","limit":1000}"#,
      QuerySpec(kind: .search, text: "@a", tab: .users, limit: 1_000)
    ),
    (
      #"{"kind":"search","q":"","tab":"videos","limit":20.0}"#,
      QuerySpec(kind: .search, text: "", tab: .videos, limit: 20)
    ),
    (
      #"{"limit":5,"q":"東京","kind":"search","tab":"sounds","seed":3}"#,
      QuerySpec(kind: .search, text: "東京", tab: .sounds, limit: 5)
    ),
    (
      #"{"kind":"search","q":"dacne chal","prefix":true}"#,
      QuerySpec(kind: .search, text: "dacne chal", isPrefix: true)
    ),
    (#"{"kind":"search","q":"x","prefix":false}"#, QuerySpec(kind: .search, text: "x")),
  ]

  @Test(arguments: validLines)
  func decodesContractTwoLine(_ line: String, _ expected: QuerySpec) throws {
    #expect(try QuerySpec(jsonLine: line) == expected)
  }

  static let invalidLines: [(String, String)] = [
    ("{", "invalid JSON: unexpected end of input inside an object, expected a key at byte 1"),
    ("[]", "not a JSON object"),
    (#"{"q":"x"}"#, "missing kind (expected search or suggest)"),
    (#"{"kind":"browse","q":"x"}"#, #"unknown kind "browse" (expected search or suggest)"#),
    (#"{"kind":1,"q":"x"}"#, "kind must be a string: search or suggest"),
    (#"{"kind":"search"}"#, "missing q (the query text)"),
    (#"{"kind":"search","q":null}"#, "missing q (the query text)"),
    (#"{"kind":"search","q":5}"#, "q must be a string"),
    (
      #"{"kind":"search","q":"x","tab":"people"}"#,
      #"unknown tab "people" (expected one of: top, users, videos, sounds, hashtags)"#
    ),
    (
      #"{"kind":"search","q":"x","tab":"Videos"}"#,
      #"unknown tab "Videos" (expected one of: top, users, videos, sounds, hashtags)"#
    ),
    (
      #"{"kind":"search","q":"x","tab":2}"#,
      "tab must be a string, one of: top, users, videos, sounds, hashtags"
    ),
    (#"{"kind":"search","q":"x","limit":0}"#, "limit must be an integer from 1 to 1000, got 0"),
    (#"{"kind":"search","q":"x","prefix":"yes"}"#, "prefix must be true or false"),
    (#"{"kind":"search","q":"x","limit":-3}"#, "limit must be an integer from 1 to 1000, got -3"),
    (
      #"{"kind":"search","q":"x","limit":1001}"#,
      "limit must be an integer from 1 to 1000, got 1001"
    ),
    (#"{"kind":"search","q":"x","limit":2.5}"#, "limit must be an integer from 1 to 1000, got 2.5"),
    (
      #"{"kind":"search","q":"x","limit":"10"}"#,
      "limit must be an integer from 1 to 1000, got a string"
    ),
  ]

  @Test(arguments: invalidLines)
  func rejectsLineSayingWhatIsWrong(_ line: String, _ message: String) {
    let error = #expect(throws: SearchError.self) { try QuerySpec(jsonLine: line) }
    #expect(error?.code == .invalidQuery)
    #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
  }

  @Test func namesTheSourceAndLineOfTheFirstBadLine() {
    let text = """
      {"kind":"search","q":"a"}

      {"kind":"suggest","q":"b"}
      {"kind":"search","q":"c","tab":"clips"}
      {"kind":"nope"}
      """
    let error = #expect(throws: SearchError.self) {
      try QueryFile.parse(text, sourceName: "queries.jsonl")
    }
    #expect(error?.code == .invalidQuery)
    #expect(error?.message.hasPrefix(#"queries.jsonl, line 4: unknown tab "clips""#) == true)
  }

  @Test func writesLinesThatReadBackEqual() throws {
    let specs = [
      QuerySpec(kind: .search, text: "dance \"challenge\"", tab: .top, limit: 10),
      QuerySpec(kind: .suggest, text: "danc"),
      QuerySpec(kind: .suggest, text: "ros", tab: .users, limit: 5),
      QuerySpec(kind: .search, text: "東京 🔥", tab: .videos, limit: 1_000),
    ]
    let text = QueryFile.jsonLines(for: specs)
    #expect(
      text.split(separator: "\n").first
        == #"{"kind":"search","q":"dance \"challenge\"","tab":"top","limit":10}"#)
    #expect(specs[1].jsonLine == #"{"kind":"suggest","q":"danc","limit":10}"#)
    #expect(specs[2].jsonLine == #"{"kind":"suggest","q":"ros","tab":"users","limit":5}"#)
    #expect(try QueryFile.parse(text) == specs)
  }

  @Test func toleratesCRLFByteOrderMarkAndBlankLines() throws {
    let text =
      "\u{FEFF}{\"kind\":\"search\",\"q\":\"a\"}\r\n\r\n  \r\n{\"kind\":\"suggest\",\"q\":\"b\"}"
    #expect(
      try QueryFile.parse(text) == [
        QuerySpec(kind: .search, text: "a"), QuerySpec(kind: .suggest, text: "b"),
      ])
  }

  @Test func writesAndLoadsAFile() throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("queries-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: url) }
    let specs = [QuerySpec(kind: .search, text: "a", tab: .sounds, limit: 3)]
    try QueryFile.write(specs, to: url)
    #expect(try QueryFile.load(at: url) == specs)
  }

  @Test func reportsAMissingFileAsAnIOError() {
    let error = #expect(throws: SearchError.self) {
      try QueryFile.load(at: URL(fileURLWithPath: "/nonexistent/queries.jsonl"))
    }
    #expect(error?.code == .io)
    #expect(error?.message.contains("/nonexistent/queries.jsonl") == true)
  }

  @Test func returnsNoQueriesForAnEmptyFile() throws {
    #expect(try QueryFile.parse("").isEmpty)
    #expect(try QueryFile.parse("\n\n").isEmpty)
  }
}
