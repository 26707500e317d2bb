import Foundation

/// Why one corpus line could not become a ``Document``.
struct DocumentDecodingError: Error, Hashable {
  /// The reason, as the corpus loader reports it.
  var reason: CorpusIssue.Reason

  init(_ reason: CorpusIssue.Reason) { self.reason = reason }
}

extension Document {
  /// Decodes one corpus line (the corpus format of ``CorpusLoader``) into a document.
  ///
  /// The line is one JSON object with a `type` (`video`, `user`, `hashtag`, `sound` or
  /// `effect`), a non-empty string `id` (an integer id is accepted and becomes its decimal
  /// string), the type's required field (a video's and a sound's `title`, a user's `username`,
  /// a hashtag's and an effect's `name`) and any optional fields, which may be missing or
  /// `null`. A video's `creator`, `sound` and `effect` are ids. Counts are non-negative
  /// integers (`12.0` counts as 12; `1.5` does not), `verified` is a boolean, `createdAt` an
  /// ISO 8601 timestamp with a time zone (`2026-10-01T12:00:00Z`, `2026-10-01 14:00:00.5+02:00`),
  /// `hashtags` an array of strings. Unknown fields are
  /// ignored; a known field given twice is an error.
  ///
  /// - Parameter jsonLine: the line, with or without its line feed.
  /// - Throws: ``SearchError`` with code ``SearchError/Code/invalidDocument`` whose message
  ///   says what is wrong (the same words as a ``CorpusIssue/Reason``).
  /// - Complexity: O(*n*) in the length of the line.
  public init(jsonLine: String) throws {
    var decoder = DocumentDecoder()
    var bytes = Array(jsonLine.utf8)
    if bytes.last == 0x0A { bytes.removeLast() }
    do {
      self = try bytes.withUnsafeBufferPointer { buffer throws(DocumentDecodingError) in
        try decoder.decode(jsonLine: buffer)
      }
    } catch {
      throw SearchError(.invalidDocument, error.reason.description)
    }
  }

  // MARK: Encoding

  /// The document as one corpus line, without a line feed.
  ///
  /// Decoding the line gives back an equal document: optional fields that are `nil` are left
  /// out, counts and `hashtags` are always written, `createdAt` is written in UTC as
  /// `2026-10-01T12:00:00Z`, with a fraction of a second only when it has one.
  ///
  /// - Complexity: O(*n*) in the size of the document's text.
  public var jsonLine: String {
    var writer = JSONWriter(capacity: 256)
    write(to: &writer)
    return writer.string
  }

  /// Writes the document as one JSON object (a corpus line without its line feed) to `writer`.
  ///
  /// To write a corpus file, call this for each document followed by
  /// `JSONWriter.newline()`, then save `JSONWriter.bytes`.
  ///
  /// - Complexity: O(*n*) in the size of the document's text.
  package func write(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("type", kind.rawValue)
    writer.field("id", id)
    switch self {
    case .video(let video):
      writer.field("title", video.title)
      if let description = video.description { writer.field("description", description) }
      writer.field("hashtags", video.hashtags)
      if let creator = video.creator { writer.field("creator", creator) }
      if let sound = video.sound { writer.field("sound", sound) }
      if let effect = video.effect { writer.field("effect", effect) }
      writer.field("viewCount", video.viewCount)
      writer.field("likeCount", video.likeCount)
      if let createdAt = video.createdAt {
        writer.field("createdAt", ISO8601.string(from: createdAt))
      }
      if let thumbnailURL = video.thumbnailURL { writer.field("thumbnailURL", thumbnailURL) }
    case .user(let user):
      writer.field("username", user.username)
      if let displayName = user.displayName { writer.field("displayName", displayName) }
      if let bio = user.bio { writer.field("bio", bio) }
      writer.field("followerCount", user.followerCount)
      writer.field("verified", user.isVerified)
    case .hashtag(let hashtag):
      writer.field("name", hashtag.name)
      if let description = hashtag.description { writer.field("description", description) }
      writer.field("viewCount", hashtag.viewCount)
      writer.field("videoCount", hashtag.videoCount)
    case .sound(let sound):
      writer.field("title", sound.title)
      if let artist = sound.artist { writer.field("artist", artist) }
      writer.field("videoCount", sound.videoCount)
    case .effect(let effect):
      writer.field("name", effect.name)
      if let thumbnailURL = effect.thumbnailURL { writer.field("thumbnailURL", thumbnailURL) }
      writer.field("useCount", effect.useCount)
    }
    writer.endObject()
  }
}

/// Decodes corpus lines into documents, reusing its buffers from one line to the next.
///
/// The line's object is never built: ``JSONParser/parseMembers(_:_:)`` hands over each member,
/// whose key is matched byte for byte against the fields of the corpus format; the values of known
/// fields are kept until the object ends, then checked and converted for the line's type.
struct DocumentDecoder {
  private var parser = JSONParser()
  /// The value of each known field in the current line, by ``DocumentField/index``.
  private var values = [JSONValue?](repeating: nil, count: DocumentField.allCases.count)

  /// Decodes one corpus line held in `bytes`.
  ///
  /// - Throws: ``DocumentDecodingError`` with the line's problem.
  /// - Complexity: O(*n*) in `bytes.count`.
  mutating func decode(
    jsonLine bytes: UnsafeBufferPointer<UInt8>
  ) throws(DocumentDecodingError) -> Document {
    // Work on a local array so that the parser (part of self) and the closure do not both
    // access self.
    var values: [JSONValue?] = []
    swap(&values, &self.values)
    defer {
      for index in values.indices { values[index] = nil }
      swap(&values, &self.values)
    }
    var repeated: UInt32 = 0
    let nonObject: JSONValue?
    do {
      nonObject = try parser.parseMembers(bytes) { key, value in
        guard let field = DocumentField(utf8: key) else { return }
        if values[field.index] != nil { repeated |= 1 << field.index }
        values[field.index] = value
      }
    } catch {
      switch error.kind {
      case .invalidUTF8: throw DocumentDecodingError(.invalidUTF8(error.description))
      default: throw DocumentDecodingError(.invalidJSON(error.description))
      }
    }
    guard nonObject == nil else { throw DocumentDecodingError(.notAnObject) }
    return try DocumentFields(values: values, repeated: repeated).document()
  }
}

/// The fields of the corpus format that some document type reads.
private enum DocumentField: String, CaseIterable {
  case type, id, title, description, hashtags, creator, sound, viewCount, likeCount, createdAt
  case thumbnailURL, username, displayName, bio, followerCount, verified, name, videoCount, artist
  case effect, useCount

  /// The field named by the UTF-8 bytes `name`, compared byte for byte.
  ///
  /// Dispatches on the length first, so that one integer comparison rules out most names
  /// before any bytes are compared; this runs for every member of a million lines.
  init?(utf8 name: UnsafeBufferPointer<UInt8>) {
    guard let field = DocumentField.matching(name) else { return nil }
    self = field
  }

  private static func matching(_ name: UnsafeBufferPointer<UInt8>) -> DocumentField? {
    // Called only with a literal of the same length as `name`.
    func equals(_ literal: StaticString) -> Bool {
      let literalBytes = literal.utf8Start
      for index in 0..<name.count where name[index] != literalBytes[index] { return false }
      return true
    }
    switch name.count {
    case 2: return equals("id") ? .id : nil
    case 3: return equals("bio") ? .bio : nil
    case 4: return equals("type") ? .type : equals("name") ? .name : nil
    case 5: return equals("title") ? .title : equals("sound") ? .sound : nil
    case 6: return equals("artist") ? .artist : equals("effect") ? .effect : nil
    case 7: return equals("creator") ? .creator : nil
    case 8:
      return equals("hashtags")
        ? .hashtags
        : equals("username")
          ? .username : equals("verified") ? .verified : equals("useCount") ? .useCount : nil
    case 9:
      return equals("viewCount")
        ? .viewCount
        : equals("likeCount") ? .likeCount : equals("createdAt") ? .createdAt : nil
    case 10: return equals("videoCount") ? .videoCount : nil
    case 11:
      return equals("description") ? .description : equals("displayName") ? .displayName : nil
    case 12: return equals("thumbnailURL") ? .thumbnailURL : nil
    case 13: return equals("followerCount") ? .followerCount : nil
    default: return nil
    }
  }

  /// The fields each type reads; a repeat of any other field is an ignored unknown field.
  static func fields(of kind: DocumentKind) -> [DocumentField] {
    switch kind {
    case .video:
      [
        .type, .id, .title, .description, .hashtags, .creator, .sound, .effect, .viewCount,
        .likeCount, .createdAt, .thumbnailURL,
      ]
    case .user: [.type, .id, .username, .displayName, .bio, .followerCount, .verified]
    case .hashtag: [.type, .id, .name, .description, .viewCount, .videoCount]
    case .sound: [.type, .id, .title, .artist, .videoCount]
    case .effect: [.type, .id, .name, .thumbnailURL, .useCount]
    }
  }
}

/// The known fields of one corpus object, with typed, validating accessors.
private struct DocumentFields {
  /// The value of each field, by ``DocumentField/index``.
  let values: [JSONValue?]
  /// Bit `i` is set when field `i` appeared more than once.
  let repeated: UInt32

  subscript(field: DocumentField) -> JSONValue? {
    values[field.index]
  }

  func firstRepeatedField(amongFieldsOf kind: DocumentKind) -> DocumentField? {
    guard repeated != 0 else { return nil }
    return DocumentField.fields(of: kind).first { repeated & (1 << $0.index) != 0 }
  }

  /// The document these fields describe, checked against the corpus format.
  func document() throws(DocumentDecodingError) -> Document {
    let kind: DocumentKind
    switch self[.type] {
    case nil, .null?:
      throw DocumentDecodingError(.missingType)
    case .string(let name)?:
      guard let known = DocumentKind(rawValue: name) else {
        throw DocumentDecodingError(.unknownType(name))
      }
      kind = known
    default:
      throw DocumentDecodingError(
        .wrongFieldType(
          field: "type", expected: "a string, one of \(CorpusIssue.Reason.validTypes)"))
    }
    if let repeated = firstRepeatedField(amongFieldsOf: kind) {
      throw DocumentDecodingError(.duplicateField(repeated.rawValue))
    }
    let id = try id()
    switch kind {
    case .video:
      return .video(
        Video(
          id: id, title: try requiredString(.title),
          description: try optionalString(.description), hashtags: try strings(.hashtags),
          creator: try optionalReference(.creator), sound: try optionalReference(.sound),
          effect: try optionalReference(.effect), viewCount: try count(.viewCount),
          likeCount: try count(.likeCount),
          createdAt: try date(.createdAt), thumbnailURL: try optionalString(.thumbnailURL)))
    case .user:
      return .user(
        User(
          id: id, username: try requiredString(.username),
          displayName: try optionalString(.displayName), bio: try optionalString(.bio),
          followerCount: try count(.followerCount), isVerified: try bool(.verified)))
    case .hashtag:
      return .hashtag(
        Hashtag(
          id: id, name: try requiredString(.name), description: try optionalString(.description),
          viewCount: try count(.viewCount), videoCount: try count(.videoCount)))
    case .sound:
      return .sound(
        Sound(
          id: id, title: try requiredString(.title), artist: try optionalString(.artist),
          videoCount: try count(.videoCount)))
    case .effect:
      return .effect(
        Effect(
          id: id, name: try requiredString(.name), thumbnailURL: try optionalString(.thumbnailURL),
          useCount: try count(.useCount)))
    }
  }

  func id() throws(DocumentDecodingError) -> String {
    switch self[.id] {
    case nil, .null?: throw DocumentDecodingError(.missingID)
    case .string(let id)?:
      guard !id.isEmpty else { throw DocumentDecodingError(.missingID) }
      return id
    case .int(let number)?: return String(number)
    default:
      throw DocumentDecodingError(
        .wrongFieldType(field: "id", expected: "a non-empty string or an integer"))
    }
  }

  func requiredString(_ field: DocumentField) throws(DocumentDecodingError) -> String {
    switch self[field] {
    case nil, .null?: throw DocumentDecodingError(.missingField(field.rawValue))
    case .string(let string)?: return string
    default:
      throw DocumentDecodingError(.wrongFieldType(field: field.rawValue, expected: "a string"))
    }
  }

  func optionalString(_ field: DocumentField) throws(DocumentDecodingError) -> String? {
    switch self[field] {
    case nil, .null?: return nil
    case .string(let string)?: return string
    default:
      throw DocumentDecodingError(
        .wrongFieldType(field: field.rawValue, expected: "a string or null"))
    }
  }

  /// The id of another document: a string, or an integer taken as its decimal string as `id`.
  func optionalReference(_ field: DocumentField) throws(DocumentDecodingError) -> String? {
    switch self[field] {
    case nil, .null?: return nil
    case .string(let string)?: return string
    case .int(let number)?: return String(number)
    default:
      throw DocumentDecodingError(
        .wrongFieldType(field: field.rawValue, expected: "an id (a string or an integer) or null"))
    }
  }

  func strings(_ field: DocumentField) throws(DocumentDecodingError) -> [String] {
    switch self[field] {
    case nil, .null?: return []
    case .array(let elements)?:
      var strings: [String] = []
      strings.reserveCapacity(elements.count)
      for element in elements {
        guard case .string(let string) = element else {
          throw DocumentDecodingError(
            .wrongFieldType(field: field.rawValue, expected: "an array of strings"))
        }
        strings.append(string)
      }
      return strings
    default:
      throw DocumentDecodingError(
        .wrongFieldType(field: field.rawValue, expected: "an array of strings"))
    }
  }

  func count(_ field: DocumentField) throws(DocumentDecodingError) -> Int {
    guard let value = self[field], !value.isNull else { return 0 }
    guard let count = value.exactInt else {
      throw DocumentDecodingError(
        .wrongFieldType(field: field.rawValue, expected: "a non-negative integer"))
    }
    guard count >= 0 else {
      throw DocumentDecodingError(.negativeCount(field: field.rawValue, value: count))
    }
    return count
  }

  func bool(_ field: DocumentField) throws(DocumentDecodingError) -> Bool {
    switch self[field] {
    case nil, .null?: return false
    case .bool(let flag)?: return flag
    default:
      throw DocumentDecodingError(
        .wrongFieldType(field: field.rawValue, expected: "true, false or null"))
    }
  }

  func date(_ field: DocumentField) throws(DocumentDecodingError) -> Date? {
    switch self[field] {
    case nil, .null?: return nil
    case .string(let text)?:
      guard let date = ISO8601.date(from: text) else {
        throw DocumentDecodingError(.badDate(field: field.rawValue, value: text))
      }
      return date
    default:
      throw DocumentDecodingError(
        .wrongFieldType(
          field: field.rawValue,
          expected: "an ISO 8601 timestamp string (2026-10-01T12:00:00Z) or null"))
    }
  }
}

extension DocumentField {
  /// The field's position in ``DocumentFields``'s storage.
  fileprivate var index: Int {
    switch self {
    case .type: 0
    case .id: 1
    case .title: 2
    case .description: 3
    case .hashtags: 4
    case .creator: 5
    case .sound: 6
    case .viewCount: 7
    case .likeCount: 8
    case .createdAt: 9
    case .thumbnailURL: 10
    case .username: 11
    case .displayName: 12
    case .bio: 13
    case .followerCount: 14
    case .verified: 15
    case .name: 16
    case .videoCount: 17
    case .artist: 18
    case .effect: 19
    case .useCount: 20
    }
  }
}
