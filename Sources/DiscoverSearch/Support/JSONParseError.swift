/// Why JSON text was rejected, and where.
///
/// ``offset`` is the zero-based byte offset into the parsed buffer (for a corpus line, into the
/// line, after any byte order mark was removed).
struct JSONParseError: Error, Hashable, CustomStringConvertible {
  /// The class of failure, for callers (and tests) that branch on it.
  enum Kind: Hashable, Sendable {
    /// The input ended inside a value (or held no value at all).
    case unexpectedEnd
    /// A byte that the grammar does not allow here.
    case unexpectedCharacter
    /// Bytes that are not well-formed UTF-8 (Unicode 15, table 3-7).
    case invalidUTF8
    /// A backslash escape that RFC 8259 §7 does not define, or a malformed `\u` escape.
    case invalidEscape
    /// A `\u` escape of a UTF-16 surrogate that is not half of a high-low pair.
    case unpairedSurrogate
    /// A byte below U+0020 inside a string, which RFC 8259 §7 requires to be escaped.
    case controlCharacter
    /// A number that breaks the RFC 8259 §6 grammar (`01`, `1.`, `-`, `1e`).
    case invalidNumber
    /// A number too large for a 64-bit floating point value (`1e400`).
    case numberOutOfRange
    /// Arrays and objects nested deeper than the parser's limit.
    case nestingTooDeep
    /// Bytes other than whitespace after the one top-level value.
    case trailingData
  }

  /// The class of failure.
  var kind: Kind
  /// The zero-based byte offset where the problem was found.
  var offset: Int
  /// What is wrong, for a person to read, without the offset.
  var reason: String

  var description: String { "\(reason) at byte \(offset)" }
}
