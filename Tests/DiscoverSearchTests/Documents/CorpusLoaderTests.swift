import Foundation
import Testing

@testable import DiscoverSearch

@Suite("CorpusLoader")
struct CorpusLoaderTests {
  static let video = #"{"type":"video","id":"v1","title":"Dance","viewCount":5}"#
  static let user = #"{"type":"user","id":"u1","username":"dance_queen"}"#
  static let hashtag = #"{"type":"hashtag","id":"h1","name":"dance"}"#
  static let sound = #"{"type":"sound","id":"s1","title":"APT."}"#

  /// The package root, found from this file's path: Tests/DiscoverSearchTests/Documents/.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func load(
    _ text: String, policy: CorpusErrorPolicy = .skip, chunkSize: Int = 4 << 20,
    maximumLineLength: Int = 16 << 20
  ) throws -> (documents: [Document], report: CorpusLoadReport) {
    try load(
      Array(text.utf8), policy: policy, chunkSize: chunkSize, maximumLineLength: maximumLineLength)
  }

  static func load(
    _ bytes: [UInt8], policy: CorpusErrorPolicy = .skip, chunkSize: Int = 4 << 20,
    maximumLineLength: Int = 16 << 20
  ) throws -> (documents: [Document], report: CorpusLoadReport) {
    var documents: [Document] = []
    let report = try CorpusLoader.forEachDocument(
      inJSONLines: bytes, policy: policy, chunkSize: chunkSize,
      maximumLineLength: maximumLineLength
    ) { documents.append($0) }
    return (documents, report)
  }

  // MARK: The embedded corpus

  @Test func loadsTheEmbeddedCorpusWithoutIssues() throws {
    let url = Self.packageRoot.appendingPathComponent("corpus/youtube_trending.jsonl")
    let (documents, report) = try CorpusLoader.loadDocuments(at: url, policy: .stop)
    #expect(report.issueCount == 0)
    #expect(report.issues.isEmpty)
    #expect(report.documentCount(of: .video) == 3_939)
    #expect(report.documentCount(of: .user) == 3_026)
    #expect(report.documentCount(of: .hashtag) == 20_779)
    #expect(report.documentCount(of: .sound) == 0)
    #expect(report.effectCount == 0)
    #expect(report.documentCount == 27_744)
    #expect(report.lineCount == 27_744)
    #expect(documents.count == 27_744)
    #expect(Set(documents.map(\.id)).count == 27_744)
    let first = try #require(documents.first)
    #expect(first.id == "ekr2nIex040")
    guard case .video(let video) = first else {
      Issue.record("line 1 is a video")
      return
    }
    #expect(video.title == "ROSÉ & Bruno Mars - APT. (Official Music Video)")
    #expect(video.description?.hasPrefix("ROSÉ & Bruno Mars - APT.\r\nDownload/stream") == true)
  }

  @Test func reencodesTheEmbeddedCorpusExactly() throws {
    let url = Self.packageRoot.appendingPathComponent("corpus/youtube_trending.jsonl")
    let (documents, _) = try CorpusLoader.loadDocuments(at: url)
    var writer = JSONWriter()
    for document in documents {
      document.write(to: &writer)
      writer.newline()
    }
    let (decoded, report) = try Self.load(writer.bytes, policy: .stop)
    #expect(report.issueCount == 0)
    #expect(decoded == documents)
  }

  // MARK: Every issue, with its line

  @Test func reportsEveryReasonWithItsLineNumberAndKeepsTheRest() throws {
    let lines = [
      Self.video,  // 1
      "{not json",  // 2
      "[1,2]",  // 3
      #"{"id":"x1"}"#,  // 4
      #"{"type":"clip","id":"x2"}"#,  // 5
      #"{"type":"video","title":"t"}"#,  // 6
      #"{"type":"user","id":"v1","username":"dup"}"#,  // 7: duplicate across types
      #"{"type":"video","id":"x3"}"#,  // 8
      #"{"type":"video","id":"x4","title":"t","viewCount":"many"}"#,  // 9
      #"{"type":"video","id":"x5","title":"t","likeCount":-2}"#,  // 10
      #"{"type":"video","id":"x6","title":"t","createdAt":"2024-02-30T00:00:00Z"}"#,  // 11
      Self.user,  // 12
      "",  // 13: blank
      #"{"type":"user","id":"v1","username":"dup again"}"#,  // 14: duplicate again
      #"{"type":"sound","id":"x7","title":"t","title":"u"}"#,  // 15
      Self.hashtag,  // 16
      Self.sound,  // 17
    ]
    var bytes = Array(lines.joined(separator: "\n").utf8)
    bytes +=
      Array("\n".utf8) + Array(#"{"type":"video","id":"x8","title":""#.utf8) + [0xFF]
      + Array(#""}"#.utf8)  // 18
    let (documents, report) = try Self.load(bytes)
    #expect(documents.map(\.id) == ["v1", "u1", "h1", "s1"])
    let expected: [(Int, CorpusIssue.Reason)] = [
      (2, .invalidJSON("unexpected 'n', expected a string key at byte 1")),
      (3, .notAnObject),
      (4, .missingType),
      (5, .unknownType("clip")),
      (6, .missingID),
      (7, .duplicateID("v1", firstLine: 1)),
      (8, .missingField("title")),
      (9, .wrongFieldType(field: "viewCount", expected: "a non-negative integer")),
      (10, .negativeCount(field: "likeCount", value: -2)),
      (11, .badDate(field: "createdAt", value: "2024-02-30T00:00:00Z")),
      (14, .duplicateID("v1", firstLine: 1)),
      (15, .duplicateField("title")),
      (18, .invalidUTF8("invalid UTF-8: byte 0xFF never appears in UTF-8 at byte 35")),
    ]
    #expect(report.issues == expected.map { CorpusIssue(line: $0.0, reason: $0.1) })
    #expect(report.issueCount == expected.count)
    #expect(report.blankLineCount == 1)
    #expect(report.skippedLineCount == expected.count + 1)
    #expect(report.lineCount == 18)
    #expect(report.lineCount == report.documentCount + report.skippedLineCount)
    #expect(report.documentCount == 4)
    for type in SearchResultType.allCases { #expect(report.documentCount(of: type) == 1) }
  }

  @Test func stopsAtTheFirstBadLineNamingSourceLineAndReason() throws {
    let text = [Self.video, Self.user, #"{"type":"clip","id":"c1"}"#, Self.sound].joined(
      separator: "\n")
    var delivered: [String] = []
    let error = #expect(throws: SearchError.self) {
      _ = try CorpusLoader.forEachDocument(inJSONLines: Array(text.utf8), policy: .stop) {
        delivered.append($0.id)
      }
    }
    #expect(error?.code == .invalidDocument)
    #expect(error?.message.contains("JSON Lines input, line 3: unknown type \"clip\"") == true)
    #expect(error?.message.contains("video, user, hashtag, sound, effect") == true)
    #expect(delivered == ["v1", "u1"])
  }

  @Test func reportsBadEffectLinesWithTheirLineNumbersAndCountsTheGoodOnes() throws {
    let lines = [
      Self.video,  // 1
      #"{"type":"effect","id":"e1","name":"Green Screen","useCount":40}"#,  // 2
      #"{"type":"effect","id":"e2"}"#,  // 3: no name
      #"{"type":"effect","id":"e3","name":"Blur","useCount":-1}"#,  // 4
      #"{"type":"effect","id":"v1","name":"Clone"}"#,  // 5: a video's id
      #"{"type":"video","id":"e1","title":"t"}"#,  // 6: an effect's id
      #"{"type":"video","id":"v2","title":"t","effect":"e1"}"#,  // 7
      #"{"type":"video","id":"v3","title":"t","effect":false}"#,  // 8
      #"{"type":"effect","id":"e4","name":"Lens","thumbnailURL":null}"#,  // 9
    ]
    let (documents, report) = try Self.load(lines.joined(separator: "\n"))
    #expect(documents.map(\.id) == ["v1", "e1", "v2", "e4"])
    let expected: [(Int, CorpusIssue.Reason)] = [
      (3, .missingField("name")),
      (4, .negativeCount(field: "useCount", value: -1)),
      (5, .duplicateID("v1", firstLine: 1)),
      (6, .duplicateID("e1", firstLine: 2)),
      (8, .wrongFieldType(field: "effect", expected: "an id (a string or an integer) or null")),
    ]
    #expect(report.issues == expected.map { CorpusIssue(line: $0.0, reason: $0.1) })
    #expect(report.effectCount == 2)
    #expect(report.documentCount(of: .video) == 2)
    #expect(report.documentCount == 4)
    #expect(report.lineCount == report.documentCount + report.skippedLineCount)
    #expect(documents[2] == .video(Video(id: "v2", title: "t", effect: "e1")))
  }

  @Test func stopsAtADuplicateID() throws {
    let text = [Self.video, Self.video].joined(separator: "\n")
    let error = #expect(throws: SearchError.self) { try Self.load(text, policy: .stop) }
    #expect(error?.message.contains("line 2: duplicate id \"v1\", first used on line 1") == true)
  }

  @Test func keepsTheFirstThousandIssuesAndCountsThemAll() throws {
    let text = Array(repeating: "nope", count: 1_500).joined(separator: "\n")
    let (documents, report) = try Self.load(text)
    #expect(documents.isEmpty)
    #expect(report.issueCount == 1_500)
    #expect(report.issues.count == CorpusLoadReport.maximumKeptIssues)
    #expect(report.issues.last?.line == 1_000)
  }

  @Test func describesIssuesForPeople() {
    let issue = CorpusIssue(line: 12, reason: .unknownType("clip"))
    #expect(
      issue.description
        == #"line 12: unknown type "clip" (expected one of: video, user, hashtag, sound, effect)"#
    )
    let long = CorpusIssue(line: 1, reason: .unknownType(String(repeating: "x", count: 500)))
    #expect(long.description.count < 200)
  }

  // MARK: Line handling

  static let lineLayouts: [(String, String)] = [
    ("LF", "\(video)\n\(user)\n\(hashtag)\n\(sound)\n"),
    ("CRLF", "\(video)\r\n\(user)\r\n\(hashtag)\r\n\(sound)\r\n"),
    ("no final newline", "\(video)\n\(user)\n\(hashtag)\n\(sound)"),
    ("byte order mark", "\u{FEFF}\(video)\n\(user)\n\(hashtag)\n\(sound)\n"),
    ("BOM and CRLF", "\u{FEFF}\(video)\r\n\(user)\r\n\(hashtag)\r\n\(sound)"),
    ("blank lines", "\n\n\(video)\n  \n\t\n\(user)\r\n\r\n\(hashtag)\n\(sound)\n\n"),
    ("indented", "  \(video)\n\t\(user)  \n\(hashtag)\t\n \(sound) \n"),
  ]

  @Test(arguments: lineLayouts, [1, 2, 3, 7, 64, 4096])
  func readsEveryLineLayoutAtEveryChunkSize(_ layout: (String, String), _ chunkSize: Int) throws {
    let (documents, report) = try Self.load(layout.1, policy: .stop, chunkSize: chunkSize)
    #expect(documents.map(\.id) == ["v1", "u1", "h1", "s1"], "\(layout.0)")
    #expect(report.issueCount == 0)
    #expect(report.lineCount == report.documentCount + report.blankLineCount)
  }

  @Test func countsLinesAfterBlankOnesCorrectly() throws {
    let text = "\n\r\n\(Self.video)\n   \nbad\n"
    let (_, report) = try Self.load(text, chunkSize: 5)
    #expect(report.issues.map(\.line) == [5])
    #expect(report.blankLineCount == 3)
  }

  @Test func treatsAByteOrderMarkAfterLineOneAsInvalid() throws {
    let (documents, report) = try Self.load("\(Self.video)\n\u{FEFF}\(Self.user)\n")
    #expect(documents.map(\.id) == ["v1"])
    #expect(report.issues.first?.line == 2)
  }

  @Test(arguments: [1, 3, 16, 100, 4096], [CorpusErrorPolicy.stop, .skip])
  func stopsAtAnOverlongLineUnderEitherPolicy(_ chunkSize: Int, _ policy: CorpusErrorPolicy) {
    let long =
      #"{"type":"video","id":"long","title":""# + String(repeating: "x", count: 500) + #""}"#
    let text = [Self.video, long, Self.user, long].joined(separator: "\n")
    var documents: [Document] = []
    let error = #expect(throws: SearchError.self) {
      try CorpusLoader.forEachDocument(
        inJSONLines: Array(text.utf8), policy: policy, chunkSize: chunkSize,
        maximumLineLength: 200
      ) { documents.append($0) }
    }
    #expect(error?.code == .invalidDocument)
    let prefix = "JSON Lines input, line 2: line longer than the limit"
    #expect(error?.message.hasPrefix(prefix) == true)
    #expect(documents.map(\.id) == ["v1"])
  }

  @Test func acceptsALineExactlyAtTheLimit() throws {
    let oneByteLonger = #"{"type":"video","id":"v2","title":"Dance!","viewCount":5}"#
    #expect(oneByteLonger.utf8.count == Self.video.utf8.count + 1)
    let (documents, report) = try Self.load(
      "\(Self.video)\n\(Self.video)", chunkSize: 8, maximumLineLength: Self.video.utf8.count)
    #expect(documents.map(\.id) == ["v1"])
    #expect(report.issues == [CorpusIssue(line: 2, reason: .duplicateID("v1", firstLine: 1))])
    #expect(throws: SearchError.self) {
      try Self.load(
        "\(Self.video)\n\(oneByteLonger)", chunkSize: 8, maximumLineLength: Self.video.utf8.count)
    }
  }

  @Test func readsThousandsOfLinesAcrossSmallChunks() throws {
    let lines = (0..<5_000).map { #"{"type":"hashtag","id":"h\#($0)","name":"tag \#($0) é"}"# }
    let text = lines.joined(separator: "\n")
    let (documents, report) = try Self.load(text, policy: .stop, chunkSize: 1_000)
    #expect(documents.count == 5_000)
    #expect(documents.last?.id == "h4999")
    #expect(report.documentCount(of: .hashtag) == 5_000)
  }

  @Test func returnsAnEmptyReportForEmptyInput() throws {
    let (documents, report) = try Self.load("")
    #expect(documents.isEmpty)
    #expect(report == CorpusLoadReport())
  }

  // MARK: Files

  @Test func loadsAFileInSmallChunks() throws {
    let url = try Self.temporaryFile(
      contents: "\u{FEFF}\(Self.video)\r\n\r\n\(Self.user)\r\nbad\r\n\(Self.sound)")
    defer { try? FileManager.default.removeItem(at: url) }
    var documents: [Document] = []
    let report = try CorpusLoader.forEachDocument(
      at: url, policy: .skip, chunkSize: 5, maximumLineLength: 1_000
    ) { documents.append($0) }
    #expect(documents.map(\.id) == ["v1", "u1", "s1"])
    #expect(report.issues.map(\.line) == [4])
    let error = #expect(throws: SearchError.self) {
      try CorpusLoader.loadDocuments(at: url, policy: .stop)
    }
    #expect(error?.message.hasPrefix("\(url.path), line 4: invalid JSON") == true)
  }

  @Test func reportsAMissingFileAsAnIOErrorNamingThePath() throws {
    let url = URL(fileURLWithPath: "/nonexistent/discover/corpus.jsonl")
    let error = #expect(throws: SearchError.self) { try CorpusLoader.loadDocuments(at: url) }
    #expect(error?.code == .io)
    #expect(error?.message.contains("/nonexistent/discover/corpus.jsonl") == true)
  }

  @Test func reportsADirectoryAsAnIOError() throws {
    let url = FileManager.default.temporaryDirectory
    let error = #expect(throws: SearchError.self) { try CorpusLoader.loadDocuments(at: url) }
    #expect(error?.code == .io)
  }

  @Test func rethrowsTheBodysErrorUnchanged() throws {
    struct Stop: Error, Equatable {}
    let text = [Self.video, Self.user].joined(separator: "\n")
    #expect(throws: Stop()) {
      _ = try CorpusLoader.forEachDocument(inJSONLines: Array(text.utf8)) { _ in throw Stop() }
    }
  }

  @Test func loadsFromText() throws {
    let (documents, report) = try CorpusLoader.loadDocuments(
      fromJSONLines: [Self.hashtag, Self.sound].joined(separator: "\n"))
    #expect(documents.map(\.type) == [.hashtag, .sound])
    #expect(report.documentCount == 2)
  }

  static func temporaryFile(contents: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("corpus-loader-\(UUID().uuidString).jsonl")
    try Data(contents.utf8).write(to: url)
    return url
  }
}
