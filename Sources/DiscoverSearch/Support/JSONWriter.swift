/// A small builder of JSON text (RFC 8259) into a UTF-8 byte buffer.
///
/// Call the methods in document order; the writer places the commas and colons. Several
/// top-level values may be written one after another with ``newline()`` between them, which
/// is how JSON Lines files (the corpus and query files) are produced:
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.field("q", "dance challenge")
/// writer.key("results")
/// writer.beginArray()
/// writer.value(1.5)
/// writer.endArray()
/// writer.endObject()
/// writer.newline()
/// print(writer.string, terminator: "")  // {"q":"dance challenge","results":[1.5]}
/// ```
///
/// Strings are escaped as RFC 8259 §7 requires: `"` and `\` with a backslash, the control
/// characters U+0000 to U+001F as `\b \f \n \r \t` or `\u00XX`; everything else is written as
/// its UTF-8 bytes. A `Double` is written in Swift's shortest form that reads back to the same
/// value; JSON has no infinity or NaN, so a non-finite `Double` is written as `null`, as
/// ECMAScript's `JSON.stringify` does.
///
/// Misuse (a key outside an object, a value where a key is due, an unbalanced `end`) is a
/// programmer error and stops with a precondition failure.
package struct JSONWriter: Sendable {
  private enum Container: Sendable {
    case array
    case object
  }

  /// The JSON text written so far, as UTF-8 bytes.
  package private(set) var bytes: [UInt8]
  /// The open arrays and objects, innermost last.
  private var containers: [Container] = []
  /// Whether the innermost container already holds an element, so the next needs a comma.
  private var needsComma = false
  /// Whether a key was just written inside an object, so a value is due.
  private var expectsValue = false

  /// Creates a writer with an empty buffer.
  ///
  /// - Parameter capacity: bytes to reserve up front, to avoid regrowing a large buffer.
  package init(capacity: Int = 0) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// The JSON text written so far.
  ///
  /// - Complexity: O(*n*) in the number of bytes written.
  package var string: String { String(decoding: bytes, as: UTF8.self) }

  /// Removes everything written, keeping the buffer's capacity, to write the next line.
  package mutating func removeAll() {
    precondition(containers.isEmpty, "JSONWriter.removeAll() inside an open array or object")
    bytes.removeAll(keepingCapacity: true)
    needsComma = false
    expectsValue = false
  }

  /// Appends a line feed between two top-level values (JSON Lines).
  package mutating func newline() {
    precondition(containers.isEmpty, "JSONWriter.newline() inside an open array or object")
    bytes.append(0x0A)
  }

  // MARK: Containers

  /// Opens an object: `{`.
  package mutating func beginObject() {
    prepareValue()
    bytes.append(UInt8(ascii: "{"))
    containers.append(.object)
    needsComma = false
  }

  /// Closes the innermost object: `}`.
  package mutating func endObject() {
    precondition(
      containers.last == .object && !expectsValue, "JSONWriter.endObject() does not close an object"
    )
    containers.removeLast()
    bytes.append(UInt8(ascii: "}"))
    needsComma = true
  }

  /// Opens an array: `[`.
  package mutating func beginArray() {
    prepareValue()
    bytes.append(UInt8(ascii: "["))
    containers.append(.array)
    needsComma = false
  }

  /// Closes the innermost array: `]`.
  package mutating func endArray() {
    precondition(containers.last == .array, "JSONWriter.endArray() does not close an array")
    containers.removeLast()
    bytes.append(UInt8(ascii: "]"))
    needsComma = true
  }

  /// Writes the name of the next member of the innermost object, with its colon.
  ///
  /// - Complexity: O(*n*) in the UTF-8 length of `name`.
  package mutating func key(_ name: String) {
    precondition(
      containers.last == .object && !expectsValue, "JSONWriter.key(_:) outside an object or twice")
    if needsComma { bytes.append(UInt8(ascii: ",")) }
    appendQuoted(name)
    bytes.append(UInt8(ascii: ":"))
    expectsValue = true
  }

  // MARK: Values

  /// Writes a string value, escaped.
  ///
  /// - Complexity: O(*n*) in the UTF-8 length of `string`.
  package mutating func value(_ string: String) {
    prepareValue()
    appendQuoted(string)
    needsComma = true
  }

  /// Writes an integer value.
  package mutating func value(_ integer: Int) {
    prepareValue()
    appendDecimal(integer)
    needsComma = true
  }

  /// Writes a floating-point value in its shortest round-trip form, or `null` when it is
  /// infinite or NaN.
  package mutating func value(_ number: Double) {
    prepareValue()
    if number.isFinite {
      // Swift's description is the shortest digits that read back exactly ("1.5", "1e-05",
      // "1e+20"), all valid JSON numbers.
      bytes.append(contentsOf: number.description.utf8)
    } else {
      appendLiteral("null")
    }
    needsComma = true
  }

  /// Writes `true` or `false`.
  package mutating func value(_ flag: Bool) {
    prepareValue()
    appendLiteral(flag ? "true" : "false")
    needsComma = true
  }

  /// Writes a string value, or `null` when `string` is `nil`.
  package mutating func value(_ string: String?) {
    if let string { value(string) } else { nullValue() }
  }

  /// Writes `null`.
  package mutating func nullValue() {
    prepareValue()
    appendLiteral("null")
    needsComma = true
  }

  /// Writes an array of strings.
  ///
  /// - Complexity: O(*n*) in the total UTF-8 length of `strings`.
  package mutating func value(_ strings: [String]) {
    beginArray()
    for string in strings { value(string) }
    endArray()
  }

  // MARK: Members

  /// Writes an object member whose value is a string.
  package mutating func field(_ name: String, _ string: String) {
    key(name)
    value(string)
  }

  /// Writes an object member whose value is a string or `null`.
  package mutating func field(_ name: String, _ string: String?) {
    key(name)
    value(string)
  }

  /// Writes an object member whose value is an integer.
  package mutating func field(_ name: String, _ integer: Int) {
    key(name)
    value(integer)
  }

  /// Writes an object member whose value is a floating-point number (`null` if not finite).
  package mutating func field(_ name: String, _ number: Double) {
    key(name)
    value(number)
  }

  /// Writes an object member whose value is `true` or `false`.
  package mutating func field(_ name: String, _ flag: Bool) {
    key(name)
    value(flag)
  }

  /// Writes an object member whose value is an array of strings.
  package mutating func field(_ name: String, _ strings: [String]) {
    key(name)
    value(strings)
  }

  // MARK: Bytes

  private mutating func prepareValue() {
    if expectsValue {
      expectsValue = false
      return
    }
    guard let container = containers.last else {
      needsComma = false
      return
    }
    precondition(container == .array, "JSONWriter: a value inside an object needs a key first")
    if needsComma { bytes.append(UInt8(ascii: ",")) }
  }

  private mutating func appendLiteral(_ literal: StaticString) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  private mutating func appendDecimal(_ integer: Int) {
    if integer >= 0 && integer < 10 {
      bytes.append(UInt8(ascii: "0") &+ UInt8(integer))
    } else {
      bytes.append(contentsOf: String(integer).utf8)
    }
  }

  private mutating func appendQuoted(_ string: String) {
    bytes.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { utf8 in
      var runStart = 0
      for index in utf8.indices {
        let byte = utf8[index]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
          continue
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        runStart = index + 1
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
          // Only U+0000 to U+001F get here: the high digit is 0 or 1.
          let low = byte & 0xF
          bytes.append(UInt8(ascii: "u"))
          bytes.append(UInt8(ascii: "0"))
          bytes.append(UInt8(ascii: "0"))
          bytes.append(UInt8(ascii: "0") &+ byte >> 4)
          bytes.append(low < 10 ? UInt8(ascii: "0") &+ low : UInt8(ascii: "A") &+ low &- 10)
        }
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
