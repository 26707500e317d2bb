import Foundation

/// New counts for one document, applied without re-analyzing its text
/// (``IndexWriter/updateCounts(_:)``): the numbers views, likes and follows change all day.
///
/// Each count is optional; those given replace the document's. Which apply depends on the
/// document's type: `viewCount` to videos and hashtags, `likeCount` to videos,
/// `followerCount` to users, `videoCount` to hashtags and sounds. (A user's video count is
/// counted from the index's videos, and an effect's `useCount` from the events that use it.)
public struct CountUpdate: Sendable, Hashable {
  public var id: String
  public var viewCount: Int?
  public var likeCount: Int?
  public var followerCount: Int?
  public var videoCount: Int?

  public init(
    id: String, viewCount: Int? = nil, likeCount: Int? = nil, followerCount: Int? = nil,
    videoCount: Int? = nil
  ) {
    self.id = id
    self.viewCount = viewCount
    self.likeCount = likeCount
    self.followerCount = followerCount
    self.videoCount = videoCount
  }

  /// The names of the counts, as a count line spells them.
  static let countNames = ["viewCount", "likeCount", "followerCount", "videoCount"]

  /// Decodes one line of a counts file: a JSON object with a string `id` and any of
  /// `viewCount`, `likeCount`, `followerCount` and `videoCount` as non-negative integers,
  /// `{"id":"v1","viewCount":10}`. Unknown fields are refused, so a misspelt count is not
  /// silently dropped.
  ///
  /// - Throws: ``SearchError/Code/invalidDocument`` saying what is wrong.
  public init(jsonLine: String) throws {
    let bytes = Array(jsonLine.utf8)
    do {
      self = try bytes.withUnsafeBufferPointer { buffer throws(CountLineError) in
        try Self.decode(buffer)
      }
    } catch {
      throw SearchError(.invalidDocument, error.reason)
    }
  }

  static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(CountLineError) -> CountUpdate {
    var parser = JSONParser()
    let value: JSONValue
    do {
      value = try parser.parse(bytes)
    } catch {
      throw CountLineError(
        error.kind == .invalidUTF8
          ? "invalid UTF-8 (\(error.description)); save the file as UTF-8"
          : "invalid JSON (\(error.description))")
    }
    guard case .object(let members) = value else {
      throw CountLineError("not a JSON object; write one {\"id\":...,\"viewCount\":...} per line")
    }
    var update = CountUpdate(id: "")
    var seen: Set<String> = []
    for member in members {
      guard seen.insert(member.key).inserted else {
        throw CountLineError("\"\(member.key)\" is given twice")
      }
      if member.key == "id" {
        guard case .string(let id) = member.value, !id.isEmpty else {
          throw CountLineError("\"id\" must be a non-empty string")
        }
        update.id = id
        continue
      }
      guard countNames.contains(member.key) else {
        throw CountLineError(
          "unknown field \"\(member.key)\"; a count line holds id and any of \(countNames.joined(separator: ", "))"
        )
      }
      guard let count = member.value.exactInt, count >= 0 else {
        throw CountLineError("\"\(member.key)\" must be a non-negative integer")
      }
      update[member.key] = count
    }
    guard !update.id.isEmpty else { throw CountLineError("missing \"id\"") }
    guard countNames.contains(where: { update[$0] != nil }) else {
      throw CountLineError("no count; give any of \(countNames.joined(separator: ", "))")
    }
    return update
  }

  private subscript(name: String) -> Int? {
    get {
      switch name {
      case "viewCount": viewCount
      case "likeCount": likeCount
      case "followerCount": followerCount
      default: videoCount
      }
    }
    set {
      switch name {
      case "viewCount": viewCount = newValue
      case "likeCount": likeCount = newValue
      case "followerCount": followerCount = newValue
      default: videoCount = newValue
      }
    }
  }

  /// Throws unless every count given is 0 or more and one that documents of `kind` have.
  ///
  /// - Throws: ``SearchError/Code/invalidDocument`` saying which count is wrong.
  func check(for kind: DocumentKind) throws {
    for name in Self.countNames {
      guard let value = self[name] else { continue }
      guard value >= 0 else {
        throw SearchError(
          .invalidDocument, "document \"\(id)\": \(name) is \(value); counts must be 0 or more")
      }
      guard Self.names(of: kind).contains(name) else {
        switch (kind, name) {
        case (.user, "videoCount"):
          throw SearchError(
            .invalidDocument,
            "document \"\(id)\" is a user, whose videoCount is counted from its videos in the index"
          )
        case (.effect, _):
          throw SearchError(
            .invalidDocument,
            "document \"\(id)\" is an effect, whose use count comes from the events that use it")
        default:
          throw SearchError(
            .invalidDocument,
            "document \"\(id)\" is \(kind.nameWithArticle), which has no \(name) to update")
        }
      }
    }
  }

  /// The counts documents of `kind` have.
  private static func names(of kind: DocumentKind) -> [String] {
    switch kind {
    case .video: ["viewCount", "likeCount"]
    case .user: ["followerCount"]
    case .hashtag: ["viewCount", "videoCount"]
    case .sound: ["videoCount"]
    case .effect: []
    }
  }

  /// The counts of `self`, with those `later` gives replacing them.
  func merged(with later: CountUpdate) -> CountUpdate {
    CountUpdate(
      id: id, viewCount: later.viewCount ?? viewCount, likeCount: later.likeCount ?? likeCount,
      followerCount: later.followerCount ?? followerCount,
      videoCount: later.videoCount ?? videoCount)
  }

  /// The counts this update sets for a document of `kind`, in the order the kind keeps them
  /// (a document record's order): a video's views and likes, a user's followers, a
  /// hashtag's views and videos, a sound's videos; an effect has none. One mapping for
  /// every place that applies updates (records, the writer's analysis).
  func counts(for kind: DocumentKind) -> (first: Int?, second: Int?) {
    switch kind {
    case .video: (viewCount, likeCount)
    case .user: (followerCount, nil)
    case .hashtag: (viewCount, videoCount)
    case .sound: (videoCount, nil)
    case .effect: (nil, nil)
    }
  }

  /// Sets the counts given on `document`, after ``check(for:)`` passed for its kind (a count
  /// its kind does not have is ignored).
  func apply(to document: inout Document) {
    switch document {
    case .video(var video):
      video.viewCount = viewCount ?? video.viewCount
      video.likeCount = likeCount ?? video.likeCount
      document = .video(video)
    case .user(var user):
      user.followerCount = followerCount ?? user.followerCount
      document = .user(user)
    case .hashtag(var hashtag):
      hashtag.viewCount = viewCount ?? hashtag.viewCount
      hashtag.videoCount = videoCount ?? hashtag.videoCount
      document = .hashtag(hashtag)
    case .sound(var sound):
      sound.videoCount = videoCount ?? sound.videoCount
      document = .sound(sound)
    case .effect:
      break
    }
  }

  /// Calls `body` with each count update of the JSON Lines file at `url`, in order; blank
  /// lines are skipped.
  ///
  /// - Throws: ``SearchError/Code/io`` when the file cannot be read,
  ///   ``SearchError/Code/invalidArgument`` naming the first bad line and what is wrong with
  ///   it, and whatever `body` throws.
  public static func forEachUpdate(
    inFileAt url: URL, _ body: (_ lineNumber: Int, CountUpdate) throws -> Void
  ) throws {
    try JSONLinesReader.forEachLine(inFileAt: url, maximumLineLength: 1 << 16) { number, line in
      switch line {
      case .blank: return
      case .tooLong(let byteCount):
        throw SearchError(
          .invalidArgument,
          "\(url.path), line \(number): the line is \(byteCount) bytes, too long for a count line")
      case .text(let bytes):
        let update: CountUpdate
        do throws(CountLineError) {
          update = try decode(bytes)
        } catch {
          throw SearchError(.invalidArgument, "\(url.path), line \(number): \(error.reason)")
        }
        try body(number, update)
      }
    }
  }
}

/// Why one counts line is not a ``CountUpdate``.
struct CountLineError: Error {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}
