import Foundation

/// One bad line of an event file.
public struct EventFileIssue: Sendable, Hashable, CustomStringConvertible {
  /// The line's number, from 1.
  public var line: Int
  /// What is wrong with it and how to fix it.
  public var reason: String

  /// `line N: REASON`.
  public var description: String { "line \(line): \(reason)" }
}

/// What ``ContentEventLoader`` read from an event file.
///
/// Every line is accounted for: `lineCount == eventCount + blankLineCount + issueCount`.
public struct EventLoadReport: Sendable, Hashable {
  /// How many issues ``issues`` keeps; ``issueCount`` counts them all.
  public static let maximumKeptIssues = 1_000

  /// Lines read, including blank and bad ones.
  public internal(set) var lineCount = 0
  /// Events delivered.
  public internal(set) var eventCount = 0
  /// Blank lines, skipped silently.
  public internal(set) var blankLineCount = 0
  /// Bad lines, each reported once.
  public internal(set) var issueCount = 0
  /// The first ``maximumKeptIssues`` issues, in line order.
  public internal(set) var issues: [EventFileIssue] = []

  /// Creates an empty report.
  public init() {}
}

/// Reads event files: JSON Lines, one event per line, in the format README.md's "Event
/// format" lists (kind, video, user, at, and optional region, hashtags, sound, effect).
///
/// A line that is not valid JSON or UTF-8, is not an object, has an unknown or missing
/// `kind`, lacks `video`, `user` or `at`, has a field of the wrong type, a bad or
/// out-of-range date, an empty or over-long id or region, or too many hashtags is reported
/// with its line number; under ``CorpusErrorPolicy/stop`` the first one throws, under
/// ``CorpusErrorPolicy/skip`` each is counted and the valid lines are all delivered.
/// Unknown fields are ignored. The file is streamed in chunks; a line longer than 16 MiB
/// throws under either policy as soon as its first 16 MiB are read.
public enum ContentEventLoader {
  /// Calls `body` with each valid event of the file at `url`, in file order.
  ///
  /// - Throws: ``SearchError/Code/io`` when the file cannot be read; under
  ///   ``CorpusErrorPolicy/stop``, ``SearchError/Code/invalidArgument`` naming the first bad
  ///   line, and under either policy naming a line longer than 16 MiB; and whatever `body`
  ///   throws.
  /// - Complexity: O(n) in the file's size.
  public static func forEachEvent(
    at url: URL, policy: CorpusErrorPolicy = .stop, _ body: (ContentEvent) throws -> Void
  ) throws -> EventLoadReport {
    var state = EventLoadState(policy: policy, sourceName: url.path)
    try JSONLinesReader.forEachLine(
      inFileAt: url, chunkSize: JSONLinesReader.defaultChunkSize,
      maximumLineLength: JSONLinesReader.defaultMaximumLineLength
    ) { number, line in try state.handle(line, number: number, body) }
    return state.report
  }

  /// Calls `body` with each valid event of JSON Lines held in memory.
  ///
  /// - Throws: As ``forEachEvent(at:policy:_:)`` does (the source is "JSON Lines input").
  public static func forEachEvent(
    inJSONLines bytes: [UInt8], policy: CorpusErrorPolicy = .stop,
    _ body: (ContentEvent) throws -> Void
  ) throws -> EventLoadReport {
    var state = EventLoadState(policy: policy, sourceName: "JSON Lines input")
    try JSONLinesReader.forEachLine(
      in: bytes, chunkSize: JSONLinesReader.defaultChunkSize,
      maximumLineLength: JSONLinesReader.defaultMaximumLineLength
    ) { number, line in try state.handle(line, number: number, body) }
    return state.report
  }

  /// Decodes one event line.
  ///
  /// - Throws: The reason, as a message that says what to fix.
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(EventLineError) -> ContentEvent {
    var parser = JSONParser()
    let value: JSONValue
    do {
      value = try parser.parse(bytes)
    } catch {
      throw EventLineError(
        error.kind == .invalidUTF8
          ? "invalid UTF-8 (\(error.description)); save the file as UTF-8"
          : "invalid JSON (\(error.description))")
    }
    guard case .object = value else {
      throw EventLineError("not a JSON object; write one {\"kind\":...} object per line")
    }
    let kinds = ContentEvent.Kind.allCases.map(\.rawValue).joined(separator: ", ")
    let kindName = try string(value, "kind", required: true)!
    guard let kind = ContentEvent.Kind(rawValue: kindName) else {
      throw EventLineError("unknown kind \"\(kindName)\"; use one of \(kinds)")
    }
    let video = try string(value, "video", required: true)!
    let user = try string(value, "user", required: true)!
    let at = try string(value, "at", required: true)!
    guard let time = ISO8601.date(from: at) else {
      throw EventLineError(
        "bad date in \"at\": \"\(at)\"; write an ISO 8601 time such as 2026-12-01T10:00:00Z")
    }
    let region = try string(value, "region", required: false)
    var hashtags: [String] = []
    switch value["hashtags"] {
    case nil, .null?: break
    case .array(let elements)?:
      for element in elements {
        guard case .string(let name) = element else {
          throw EventLineError("\"hashtags\" must be an array of strings")
        }
        hashtags.append(name)
      }
    default: throw EventLineError("\"hashtags\" must be an array of strings")
    }
    let event = ContentEvent(
      kind, video: video, user: user, at: time, region: region, hashtags: hashtags,
      sound: try string(value, "sound", required: false),
      effect: try string(value, "effect", required: false))
    do {
      _ = try EventContribution(event, now: .distantFuture)
    } catch {
      throw EventLineError(error.message)
    }
    return event
  }

  private static func string(_ object: JSONValue, _ field: String, required: Bool)
    throws(EventLineError) -> String?
  {
    switch object[field] {
    case .string(let text)?: return text
    case nil, .null?:
      guard required else { return nil }
      throw EventLineError("missing \"\(field)\"; every event needs kind, video, user and at")
    default:
      throw EventLineError("\"\(field)\" must be a string")
    }
  }
}

/// Why one event line was refused.
struct EventLineError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}

/// The loader's state across the lines of one file.
private struct EventLoadState {
  let policy: CorpusErrorPolicy
  let sourceName: String
  var report = EventLoadReport()

  init(policy: CorpusErrorPolicy, sourceName: String) {
    self.policy = policy
    self.sourceName = sourceName
  }

  mutating func handle(
    _ line: JSONLinesLine, number: Int, _ body: (ContentEvent) throws -> Void
  ) throws {
    report.lineCount += 1
    switch line {
    case .blank:
      report.blankLineCount += 1
    case .tooLong(let byteCount):
      // Under either policy: the reader stopped, and what follows is not JSON Lines.
      throw SearchError(
        .invalidArgument,
        "\(sourceName), line \(number): the line is longer than the limit of "
          + "\(JSONLinesReader.defaultMaximumLineLength >> 20) MiB (\(byteCount) bytes read "
          + "without finding its end; is the file JSON Lines, one event per line?). A line "
          + "this long stops the load under either policy.")
    case .text(let bytes):
      let event: ContentEvent
      do {
        event = try ContentEventLoader.decode(bytes)
      } catch {
        try reject(EventFileIssue(line: number, reason: error.message))
        return
      }
      report.eventCount += 1
      try body(event)
    }
  }

  mutating func reject(_ issue: EventFileIssue) throws {
    switch policy {
    case .stop:
      throw SearchError(
        .invalidArgument,
        "\(sourceName), line \(issue.line): \(issue.reason). Fix the line, or record with the skip policy to skip bad lines and count them."
      )
    case .skip:
      report.issueCount += 1
      if report.issues.count < EventLoadReport.maximumKeptIssues { report.issues.append(issue) }
    }
  }
}
