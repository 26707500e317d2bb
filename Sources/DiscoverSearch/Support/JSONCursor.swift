/// The parser's position in one buffer: the grammar of RFC 8259 over raw bytes.
///
/// This file holds values, arrays, objects and errors; `JSONCursor+Strings.swift` strings,
/// escapes and UTF-8; `JSONCursor+Numbers.swift` numbers.
///
/// SAFETY: `bytes` belongs to the caller of ``JSONParser/parse(_:)`` or
/// ``JSONParser/parseMembers(_:_:)``, which keeps it alive for the whole call; a cursor is
/// created inside that call and never escapes it. Every read of `bytes[i]` follows a check
/// that `i < count` (and `UnsafeBufferPointer` checks it again in debug builds).
struct JSONCursor {
  let bytes: UnsafeBufferPointer<UInt8>
  let count: Int
  let maximumDepth: Int
  var position = 0
  var depth = 0
  /// Unescaped bytes of the string being read.
  var scratch: [UInt8] = []
  /// Members of the objects being read, innermost last; each object takes its own members off
  /// the top when it closes, so that its array is allocated once at its final size.
  var memberStack: [JSONMember] = []
  /// Elements of the arrays being read, innermost last, as `memberStack`.
  var elementStack: [JSONValue] = []

  init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
    self.bytes = bytes
    self.count = bytes.count
    self.maximumDepth = maximumDepth
  }

  // MARK: Structure

  mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    skipWhitespace()
    let value = try parseValue()
    skipWhitespace()
    if position < count {
      throw try unexpected("the end of input after the JSON value", kind: .trailingData)
    }
    return value
  }

  /// Reads one top-level value; an object's members go to `visit` one by one.
  mutating func parseTopLevelMembers(
    _ visit: (_ key: UnsafeBufferPointer<UInt8>, _ value: JSONValue) -> Void
  ) throws(JSONParseError) -> JSONValue? {
    skipWhitespace()
    guard position < count, bytes[position] == UInt8(ascii: "{") else {
      position = 0
      return try parseDocument()
    }
    try enterContainer()
    position += 1  // {
    skipWhitespace()
    var keyBytes: [UInt8] = []
    if position < count, bytes[position] == UInt8(ascii: "}") {
      position += 1
    } else {
      while true {
        guard position < count else {
          throw failure(.unexpectedEnd, "unexpected end of input inside an object, expected a key")
        }
        guard bytes[position] == UInt8(ascii: "\"") else { throw try unexpected("a string key") }
        // A plain key is used in place; one with escapes or non-ASCII goes through a String.
        let keyStart = position + 1
        var keyRange: Range<Int>? = nil
        scanPlainKey: do {
          position = keyStart
          while position < count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
              keyRange = keyStart..<position
              position += 1
              break scanPlainKey
            }
            if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\\") { break }
            position += 1
          }
          position = keyStart - 1
          keyBytes = Array(try parseString().utf8)
        }
        skipWhitespace()
        guard position < count else {
          throw failure(.unexpectedEnd, "unexpected end of input inside an object, expected ':'")
        }
        guard bytes[position] == UInt8(ascii: ":") else { throw try unexpected("':' after a key") }
        position += 1
        skipWhitespace()
        let value = try parseValue()
        if let keyRange {
          visit(UnsafeBufferPointer(rebasing: bytes[keyRange]), value)
        } else {
          keyBytes.withUnsafeBufferPointer { visit($0, value) }
        }
        skipWhitespace()
        guard position < count else {
          throw failure(
            .unexpectedEnd, "unexpected end of input inside an object, expected ',' or '}'")
        }
        if bytes[position] == UInt8(ascii: ",") {
          position += 1
          skipWhitespace()
        } else if bytes[position] == UInt8(ascii: "}") {
          position += 1
          break
        } else {
          throw try unexpected("',' or '}'")
        }
      }
    }
    depth -= 1
    skipWhitespace()
    if position < count {
      throw try unexpected("the end of input after the JSON value", kind: .trailingData)
    }
    return nil
  }

  mutating func skipWhitespace() {
    while position < count {
      switch bytes[position] {
      case 0x20, 0x0A, 0x0D, 0x09: position += 1
      default: return
      }
    }
  }

  mutating func parseValue() throws(JSONParseError) -> JSONValue {
    guard position < count else {
      throw failure(.unexpectedEnd, "unexpected end of input, expected a value")
    }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber()
    default:
      throw try unexpected("a value")
    }
  }

  mutating func enterContainer() throws(JSONParseError) {
    depth += 1
    if depth > maximumDepth {
      throw failure(.nestingTooDeep, "arrays and objects nested deeper than \(maximumDepth) levels")
    }
  }

  mutating func parseArray() throws(JSONParseError) -> JSONValue {
    try enterContainer()
    position += 1  // [
    skipWhitespace()
    if position < count, bytes[position] == UInt8(ascii: "]") {
      position += 1
      depth -= 1
      return .array([])
    }
    let start = elementStack.count
    while true {
      let element = try parseValue()
      elementStack.append(element)
      skipWhitespace()
      guard position < count else {
        throw failure(
          .unexpectedEnd, "unexpected end of input inside an array, expected ',' or ']'")
      }
      switch bytes[position] {
      case UInt8(ascii: ","):
        position += 1
        skipWhitespace()
      case UInt8(ascii: "]"):
        position += 1
        depth -= 1
        let elements = Array(elementStack[start...])
        elementStack.removeSubrange(start...)
        return .array(elements)
      default:
        throw try unexpected("',' or ']'")
      }
    }
  }

  mutating func parseObject() throws(JSONParseError) -> JSONValue {
    try enterContainer()
    position += 1  // {
    skipWhitespace()
    if position < count, bytes[position] == UInt8(ascii: "}") {
      position += 1
      depth -= 1
      return .object([])
    }
    let start = memberStack.count
    while true {
      guard position < count else {
        throw failure(.unexpectedEnd, "unexpected end of input inside an object, expected a key")
      }
      guard bytes[position] == UInt8(ascii: "\"") else { throw try unexpected("a string key") }
      let key = try parseString()
      skipWhitespace()
      guard position < count else {
        throw failure(.unexpectedEnd, "unexpected end of input inside an object, expected ':'")
      }
      guard bytes[position] == UInt8(ascii: ":") else { throw try unexpected("':' after a key") }
      position += 1
      skipWhitespace()
      let value = try parseValue()
      memberStack.append(JSONMember(key: key, value: value))
      skipWhitespace()
      guard position < count else {
        throw failure(
          .unexpectedEnd, "unexpected end of input inside an object, expected ',' or '}'")
      }
      switch bytes[position] {
      case UInt8(ascii: ","):
        position += 1
        skipWhitespace()
      case UInt8(ascii: "}"):
        position += 1
        depth -= 1
        let members = Array(memberStack[start...])
        memberStack.removeSubrange(start...)
        return .object(members)
      default:
        throw try unexpected("',' or '}'")
      }
    }
  }

  mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
    let start = position
    let length = literal.utf8CodeUnitCount
    var index = 0
    while index < length {
      guard start + index < count else {
        throw failure(.unexpectedEnd, "unexpected end of input inside the literal \(literal)")
      }
      guard bytes[start + index] == literal.utf8Start[index] else {
        position = start + index
        throw try unexpected("the literal \(literal)")
      }
      index += 1
    }
    position = start + length
  }

  // MARK: Errors

  func failure(
    _ kind: JSONParseError.Kind, _ reason: String, at offset: Int? = nil
  ) -> JSONParseError {
    JSONParseError(kind: kind, offset: offset ?? position, reason: reason)
  }

  /// The error for an unexpected byte at `position`, or the UTF-8 error when the bytes there
  /// are not UTF-8 at all.
  func unexpected(
    _ expected: String, kind: JSONParseError.Kind = .unexpectedCharacter
  ) throws(JSONParseError) -> JSONParseError {
    let byte = bytes[position]
    let shown: String
    switch byte {
    case 0..<0x20, 0x7F:
      shown = "control character U+\(Self.uppercaseHex(UInt32(byte), digits: 4))"
    case 0x20..<0x7F:
      shown = "'\(String(UnicodeScalar(byte)))'"
    default:
      let length = try validatedSequenceLength(at: position)
      var scalar = UInt32(byte) & (0x7F >> length)
      for offset in 1..<length { scalar = scalar << 6 | UInt32(bytes[position + offset] & 0x3F) }
      shown = "character U+\(Self.uppercaseHex(scalar, digits: 4))"
    }
    return failure(kind, "unexpected \(shown), expected \(expected)")
  }

  /// `value` in uppercase hexadecimal, zero-padded to `digits`, for messages.
  static func uppercaseHex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
