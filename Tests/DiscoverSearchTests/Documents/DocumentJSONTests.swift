import Foundation
import Testing

@testable import DiscoverSearch

@Suite("Document+JSON")
struct DocumentJSONTests {
  static let fullDocuments: [Document] = [
    .video(
      Video(
        id: "v1", title: "Dance \"challenge\" \\ 😀\u{1}", description: "line one\r\nline two\t",
        hashtags: ["dance", "FYP", "日本"], creator: "u1", sound: "s1", effect: "e1",
        viewCount: 1_234_567_890_123, likeCount: 4,
        createdAt: Date(timeIntervalSince1970: 1_790_856_000.125),
        thumbnailURL: "https://example.com/t.jpg?a=1&b=\"2\"")),
    .user(
      User(
        id: "u1", username: "dance_queen", displayName: "Dance Queen 👑", bio: "I \u{0} dance",
        followerCount: 10, isVerified: true)),
    .hashtag(
      Hashtag(id: "h1", name: "DanceChallenge", description: "Show us", viewCount: 9, videoCount: 3)
    ),
    .sound(Sound(id: "s1", title: "APT.", artist: "ROSÉ & Bruno Mars", videoCount: 7)),
    .effect(
      Effect(
        id: "e1", name: "Green Screen 🟩", thumbnailURL: "https://example.com/e/e1.png",
        useCount: 40)),
  ]

  static let minimalDocuments: [Document] = [
    .video(Video(id: "v2", title: "")),
    .user(User(id: "u2", username: "x")),
    .hashtag(Hashtag(id: "h2", name: "fyp")),
    .sound(Sound(id: "s2", title: "original sound")),
    .effect(Effect(id: "e2", name: "")),
  ]

  @Test(arguments: fullDocuments + minimalDocuments)
  func roundTripsThroughOneLine(_ document: Document) throws {
    let line = document.jsonLine
    #expect(!line.contains("\n"))
    #expect(try Document(jsonLine: line) == document)
  }

  @Test func writesContractOneFieldsInOrder() {
    let video = Document.video(
      Video(
        id: "v1", title: "t", hashtags: ["a"], viewCount: 2,
        createdAt: Date(timeIntervalSince1970: 1_790_856_000)))
    #expect(
      video.jsonLine
        == #"{"type":"video","id":"v1","title":"t","hashtags":["a"],"viewCount":2,"likeCount":0,"createdAt":"2026-10-01T12:00:00Z"}"#
    )
    #expect(
      Document.user(User(id: "u1", username: "a")).jsonLine
        == #"{"type":"user","id":"u1","username":"a","followerCount":0,"verified":false}"#)
    #expect(
      Document.sound(Sound(id: "s1", title: "t", artist: "a", videoCount: 1)).jsonLine
        == #"{"type":"sound","id":"s1","title":"t","artist":"a","videoCount":1}"#)
    #expect(
      Document.effect(Effect(id: "e1", name: "Green Screen", thumbnailURL: "u", useCount: 40))
        .jsonLine
        == #"{"type":"effect","id":"e1","name":"Green Screen","thumbnailURL":"u","useCount":40}"#)
    #expect(
      Document.video(Video(id: "v1", title: "t", sound: "s1", effect: "e1")).jsonLine
        == #"{"type":"video","id":"v1","title":"t","hashtags":[],"sound":"s1","effect":"e1","viewCount":0,"likeCount":0}"#
    )
  }

  @Test func decodesTheContractsEffectAndAVideoThatUsesIt() throws {
    let effect =
      #"{"type":"effect","id":"e1","name":"Green Screen","thumbnailURL":"https://...","useCount":40}"#
    #expect(
      try Document(jsonLine: effect)
        == .effect(
          Effect(id: "e1", name: "Green Screen", thumbnailURL: "https://...", useCount: 40)))
    let video = #"{"type":"video","id":"v1","title":"t","effect":"e1"}"#
    #expect(try Document(jsonLine: video) == .video(Video(id: "v1", title: "t", effect: "e1")))
  }

  @Test func anEffectHasNoSearchResultType() throws {
    let effect = try Document(jsonLine: #"{"type":"effect","id":"e1","name":"n"}"#)
    #expect(effect.type == nil)
    #expect(effect.id == "e1")
    #expect(Document.video(Video(id: "v", title: "t")).type == .video)
  }

  @Test func decodesTheContractExample() throws {
    let line =
      #"{"type":"video","id":"v1","title":"...","description":"...","hashtags":["dance","fyp"],"creator":"u1","sound":"s1","viewCount":123,"likeCount":4,"createdAt":"2026-10-01T12:00:00Z","thumbnailURL":"https://..."}"#
    let expected = Document.video(
      Video(
        id: "v1", title: "...", description: "...", hashtags: ["dance", "fyp"], creator: "u1",
        sound: "s1", viewCount: 123, likeCount: 4,
        createdAt: Date(timeIntervalSince1970: 1_790_856_000), thumbnailURL: "https://..."))
    #expect(try Document(jsonLine: line) == expected)
  }

  static let lenientLines: [(String, Document)] = [
    (
      #"{"type":"user","id":42,"username":"a"}"#,
      .user(User(id: "42", username: "a"))
    ),
    (
      #"{"type":"hashtag","id":"h","name":"n","viewCount":12.0,"videoCount":1e3}"#,
      .hashtag(Hashtag(id: "h", name: "n", viewCount: 12, videoCount: 1000))
    ),
    (
      #"{"type":"video","id":"v","title":"t","description":null,"hashtags":null,"creator":null,"sound":null,"viewCount":null,"likeCount":null,"createdAt":null,"thumbnailURL":null}"#,
      .video(Video(id: "v", title: "t"))
    ),
    (
      #"{"type":"video","id":"v","title":"t","creator":7,"sound":8}"#,
      .video(Video(id: "v", title: "t", creator: "7", sound: "8"))
    ),
    (
      #"{"extra":{"nested":[1,2]},"type":"sound","id":"s","title":"t","country":"KR","extra":1}"#,
      .sound(Sound(id: "s", title: "t"))
    ),
    (
      #"{"type":"user","id":"u","username":"a","verified":null,"followerCount":-0.0}"#,
      .user(User(id: "u", username: "a"))
    ),
    (
      #"{"type":"video","id":"v","title":"t","username":"x","username":"y"}"#,
      .video(Video(id: "v", title: "t"))
    ),
    (
      "  {\"type\":\"sound\",\"id\":\"s\",\"title\":\"t\"}\r\n",
      .sound(Sound(id: "s", title: "t"))
    ),
    (
      #"{"type":"effect","id":"e","name":"n","thumbnailURL":null,"useCount":null}"#,
      .effect(Effect(id: "e", name: "n"))
    ),
    (
      #"{"type":"effect","id":3,"name":"n","useCount":7.0,"videoCount":-1,"title":5}"#,
      .effect(Effect(id: "3", name: "n", useCount: 7))
    ),
    (
      #"{"type":"video","id":"v","title":"t","effect":null}"#,
      .video(Video(id: "v", title: "t"))
    ),
    (
      #"{"type":"video","id":"v","title":"t","effect":9}"#,
      .video(Video(id: "v", title: "t", effect: "9"))
    ),
    (
      #"{"type":"user","id":"u","username":"a","effect":{},"useCount":-1}"#,
      .user(User(id: "u", username: "a"))
    ),
  ]

  @Test(arguments: lenientLines)
  func acceptsWhatContractOneAllows(_ line: String, _ expected: Document) throws {
    #expect(try Document(jsonLine: line) == expected)
  }

  static let rejectedLines: [(String, CorpusIssue.Reason)] = [
    (
      #"{"type":"video","#,
      .invalidJSON("unexpected end of input inside an object, expected a key at byte 16")
    ),
    ("[1,2]", .notAnObject),
    (#""video""#, .notAnObject),
    (#"{"id":"v1","title":"t"}"#, .missingType),
    (#"{"type":null,"id":"v1"}"#, .missingType),
    (#"{"type":"clip","id":"v1"}"#, .unknownType("clip")),
    (#"{"type":"Video","id":"v1"}"#, .unknownType("Video")),
    (
      #"{"type":1,"id":"v1"}"#,
      .wrongFieldType(
        field: "type", expected: "a string, one of video, user, hashtag, sound, effect")
    ),
    (#"{"type":"video","title":"t"}"#, .missingID),
    (#"{"type":"video","id":"","title":"t"}"#, .missingID),
    (#"{"type":"video","id":null,"title":"t"}"#, .missingID),
    (
      #"{"type":"video","id":1.5,"title":"t"}"#,
      .wrongFieldType(field: "id", expected: "a non-empty string or an integer")
    ),
    (
      #"{"type":"video","id":true,"title":"t"}"#,
      .wrongFieldType(field: "id", expected: "a non-empty string or an integer")
    ),
    (#"{"type":"video","id":"v"}"#, .missingField("title")),
    (#"{"type":"video","id":"v","title":null}"#, .missingField("title")),
    (#"{"type":"user","id":"u"}"#, .missingField("username")),
    (#"{"type":"hashtag","id":"h"}"#, .missingField("name")),
    (#"{"type":"sound","id":"s"}"#, .missingField("title")),
    (#"{"type":"effect","id":"e"}"#, .missingField("name")),
    (#"{"type":"effect","id":"e","name":null}"#, .missingField("name")),
    (#"{"type":"effect","id":"e","title":"t"}"#, .missingField("name")),
    (#"{"type":"effect","name":"n"}"#, .missingID),
    (
      #"{"type":"effect","id":"e","name":"n","useCount":-3}"#,
      .negativeCount(field: "useCount", value: -3)
    ),
    (
      #"{"type":"effect","id":"e","name":"n","useCount":"40"}"#,
      .wrongFieldType(field: "useCount", expected: "a non-negative integer")
    ),
    (
      #"{"type":"effect","id":"e","name":"n","thumbnailURL":1}"#,
      .wrongFieldType(field: "thumbnailURL", expected: "a string or null")
    ),
    (#"{"type":"effect","id":"e","name":"n","name":"m"}"#, .duplicateField("name")),
    (
      #"{"type":"video","id":"v","title":"t","effect":["e1"]}"#,
      .wrongFieldType(field: "effect", expected: "an id (a string or an integer) or null")
    ),
    (
      #"{"type":"video","id":"v","title":"t","effect":"a","effect":"b"}"#,
      .duplicateField("effect")
    ),
    (
      #"{"type":"video","id":"v","title":5}"#, .wrongFieldType(field: "title", expected: "a string")
    ),
    (
      #"{"type":"video","id":"v","title":"t","description":[]}"#,
      .wrongFieldType(field: "description", expected: "a string or null")
    ),
    (
      #"{"type":"video","id":"v","title":"t","hashtags":"dance"}"#,
      .wrongFieldType(field: "hashtags", expected: "an array of strings")
    ),
    (
      #"{"type":"video","id":"v","title":"t","hashtags":["a",1]}"#,
      .wrongFieldType(field: "hashtags", expected: "an array of strings")
    ),
    (
      #"{"type":"video","id":"v","title":"t","creator":{}}"#,
      .wrongFieldType(field: "creator", expected: "an id (a string or an integer) or null")
    ),
    (
      #"{"type":"video","id":"v","title":"t","viewCount":-1}"#,
      .negativeCount(field: "viewCount", value: -1)
    ),
    (
      #"{"type":"video","id":"v","title":"t","likeCount":-5.0}"#,
      .negativeCount(field: "likeCount", value: -5)
    ),
    (
      #"{"type":"user","id":"u","username":"a","followerCount":-3}"#,
      .negativeCount(field: "followerCount", value: -3)
    ),
    (
      #"{"type":"sound","id":"s","title":"t","videoCount":-1}"#,
      .negativeCount(field: "videoCount", value: -1)
    ),
    (
      #"{"type":"video","id":"v","title":"t","viewCount":1.5}"#,
      .wrongFieldType(field: "viewCount", expected: "a non-negative integer")
    ),
    (
      #"{"type":"video","id":"v","title":"t","viewCount":"12"}"#,
      .wrongFieldType(field: "viewCount", expected: "a non-negative integer")
    ),
    (
      #"{"type":"video","id":"v","title":"t","viewCount":1e30}"#,
      .wrongFieldType(field: "viewCount", expected: "a non-negative integer")
    ),
    (
      #"{"type":"video","id":"v","title":"t","viewCount":99999999999999999999}"#,
      .wrongFieldType(field: "viewCount", expected: "a non-negative integer")
    ),
    (
      #"{"type":"user","id":"u","username":"a","verified":1}"#,
      .wrongFieldType(field: "verified", expected: "true, false or null")
    ),
    (
      #"{"type":"video","id":"v","title":"t","createdAt":"2023-02-29T00:00:00Z"}"#,
      .badDate(field: "createdAt", value: "2023-02-29T00:00:00Z")
    ),
    (
      #"{"type":"video","id":"v","title":"t","createdAt":"yesterday"}"#,
      .badDate(field: "createdAt", value: "yesterday")
    ),
    (
      #"{"type":"video","id":"v","title":"t","createdAt":1700000000}"#,
      .wrongFieldType(
        field: "createdAt", expected: "an ISO 8601 timestamp string (2026-10-01T12:00:00Z) or null")
    ),
    (#"{"type":"video","id":"v","id":"w","title":"t"}"#, .duplicateField("id")),
    (#"{"type":"video","type":"video","id":"v","title":"t"}"#, .duplicateField("type")),
    (#"{"type":"user","id":"u","username":"a","username":"b"}"#, .duplicateField("username")),
  ]

  @Test(arguments: rejectedLines)
  func rejectsLineWithItsReason(_ line: String, _ reason: CorpusIssue.Reason) throws {
    var decoder = DocumentDecoder()
    do {
      let document = try Array(line.utf8).withUnsafeBufferPointer {
        buffer throws(DocumentDecodingError) in
        try decoder.decode(jsonLine: buffer)
      }
      Issue.record("decoded \(document)")
    } catch {
      #expect(error.reason == reason)
    }
    let thrown = #expect(throws: SearchError.self) { try Document(jsonLine: line) }
    #expect(thrown?.code == .invalidDocument)
    #expect(thrown?.message == reason.description)
  }

  @Test func reportsInvalidUTF8Separately() {
    var decoder = DocumentDecoder()
    let bytes: [UInt8] =
      Array(#"{"type":"video","id":"v","title":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)
    do {
      _ = try bytes.withUnsafeBufferPointer { buffer throws(DocumentDecodingError) in
        try decoder.decode(jsonLine: buffer)
      }
      Issue.record("accepted an overlong encoding")
    } catch {
      guard case .invalidUTF8(let detail) = error.reason else {
        Issue.record("wrong reason \(error.reason)")
        return
      }
      #expect(detail.contains("overlong"))
      #expect(detail.contains("at byte 34"))
    }
  }

  @Test func reportsAnUnpairedSurrogateAsInvalidJSON() throws {
    let thrown = #expect(throws: SearchError.self) {
      try Document(jsonLine: #"{"type":"video","id":"v","title":"\uD800"}"#)
    }
    #expect(
      thrown?.message
        == #"invalid JSON: unpaired surrogate \uD800 (a high surrogate must be followed by a low surrogate escape \uDC00-\uDFFF) at byte 34"#
    )
  }

  @Test func reusesOneDecoderAcrossLines() throws {
    var decoder = DocumentDecoder()
    let lines = (Self.fullDocuments + Self.minimalDocuments).map(\.jsonLine)
    for (line, document) in zip(lines, Self.fullDocuments + Self.minimalDocuments) {
      let decoded = try Array(line.utf8).withUnsafeBufferPointer {
        buffer throws(DocumentDecodingError) in
        try decoder.decode(jsonLine: buffer)
      }
      #expect(decoded == document)
    }
  }
}
