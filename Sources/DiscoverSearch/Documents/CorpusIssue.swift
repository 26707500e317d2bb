/// One bad line of a corpus file: its line number and what is wrong with it.
///
/// Reported by ``CorpusLoader``; see ``CorpusLoadReport/issues``.
public struct CorpusIssue: Sendable, Hashable, CustomStringConvertible {
  /// What is wrong with a corpus line, in terms of the corpus format (``CorpusLoader``).
  public enum Reason: Sendable, Hashable, CustomStringConvertible {
    /// The line is not valid JSON; the text says what the parser found and at which byte of
    /// the line (counted from 0).
    case invalidJSON(String)
    /// The line is not well-formed UTF-8; the text says which bytes and where.
    case invalidUTF8(String)
    /// The line is valid JSON but not an object.
    case notAnObject
    /// The object has no `type`, or `type` is `null`.
    case missingType
    /// `type` is a string other than `video`, `user`, `hashtag`, `sound` or `effect`.
    case unknownType(String)
    /// The object has no `id`, or it is `null` or the empty string.
    case missingID
    /// An earlier line of the file already used this `id` (ids are unique across all types).
    case duplicateID(String, firstLine: Int)
    /// A field the type requires (a video's `title`, a user's `username`, a hashtag's `name`,
    /// a sound's `title`, an effect's `name`) is missing or `null`.
    case missingField(String)
    /// A field this type knows appears twice in the object, so its value is ambiguous.
    case duplicateField(String)
    /// A field holds the wrong kind of value; `expected` describes the right one.
    case wrongFieldType(field: String, expected: String)
    /// A count (`viewCount`, `likeCount`, `followerCount`, `videoCount`, `useCount`) is
    /// negative.
    case negativeCount(field: String, value: Int)
    /// A date field holds a string that is not an ISO 8601 timestamp with a time zone
    /// (`2026-10-01T12:00:00Z`).
    case badDate(field: String, value: String)
    /// The line is longer than the loader's limit (16 MiB): `bytes` of it were read without
    /// finding its end. The loader throws it under either policy and reads no further.
    case lineTooLong(bytes: Int)

    /// The valid `type` values, for messages.
    static let validTypes = DocumentKind.allCases.map(\.rawValue).joined(separator: ", ")

    /// The reason in words, with a hint of how to fix the line.
    public var description: String {
      switch self {
      case .invalidJSON(let detail):
        "invalid JSON: \(detail)"
      case .invalidUTF8(let detail):
        "\(detail) (corpus files must be UTF-8)"
      case .notAnObject:
        "not a JSON object (each line must be one object, such as {\"type\":\"video\",\"id\":\"v1\",\"title\":\"...\"})"
      case .missingType:
        "missing type (expected one of: \(Self.validTypes))"
      case .unknownType(let type):
        "unknown type \(quotedIssueValue(type)) (expected one of: \(Self.validTypes))"
      case .missingID:
        "missing or empty id (every document needs a non-empty string id)"
      case .duplicateID(let id, let firstLine):
        "duplicate id \(quotedIssueValue(id)), first used on line \(firstLine) (ids must be unique across all types)"
      case .missingField(let field):
        "missing required field \(quotedIssueValue(field))"
      case .duplicateField(let field):
        "field \(quotedIssueValue(field)) appears more than once"
      case .wrongFieldType(let field, let expected):
        "wrong type for \(quotedIssueValue(field)): expected \(expected)"
      case .negativeCount(let field, let value):
        "negative \(field) \(value) (counts must be 0 or more)"
      case .badDate(let field, let value):
        "bad date \(quotedIssueValue(value)) in \(quotedIssueValue(field)) (expected an ISO 8601 timestamp such as 2026-10-01T12:00:00Z)"
      case .lineTooLong(let bytes):
        "line longer than the limit of \(JSONLinesReader.defaultMaximumLineLength >> 20) MiB (\(bytes) bytes read without finding its end; is the file JSON Lines, one document per line?)"
      }
    }
  }

  /// The line's number in the file, counting from 1.
  public let line: Int
  /// What is wrong with the line.
  public let reason: Reason

  /// Creates an issue.
  public init(line: Int, reason: Reason) {
    self.line = line
    self.reason = reason
  }

  /// The issue in words: `line 12: unknown type "clip" (expected one of: ...)`.
  public var description: String { "line \(line): \(reason)" }
}

/// `text` in double quotes, shortened to 80 characters so that a huge bad value stays readable.
private func quotedIssueValue(_ text: String) -> String {
  let limit = 80
  if text.count <= limit { return "\"\(text)\"" }
  return "\"\(text.prefix(limit))...\""
}
