/// One parsed JSON value (RFC 8259), as ``JSONParser`` produces it.
///
/// Numbers keep their kind: a number written without a fraction or an exponent that fits in
/// `Int` is an ``int(_:)``; every other number is a ``double(_:)``. Objects keep their members
/// in document order, duplicates included (RFC 8259 §4 allows them and leaves their meaning
/// open); ``subscript(_:)`` picks the last one, as ECMAScript's `JSON.parse` does.
enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([JSONMember])

  /// The value of the member named `key` when this is an object (the last such member when a
  /// key repeats), else `nil`.
  ///
  /// - Complexity: O(*n*) in the number of members; objects in corpus lines are small.
  subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last(where: { $0.key == key })?.value
  }

  /// The string when this is a string.
  var stringValue: String? {
    if case .string(let string) = self { return string }
    return nil
  }

  /// The number as an `Int` when it is one exactly: an integer, or a double with no fraction
  /// inside `Int`'s range (`12.0` yes, `1.5` and `1e30` no).
  var exactInt: Int? {
    switch self {
    case .int(let value):
      return value
    case .double(let value):
      // `Int(exactly:)` rejects fractions, infinities, NaN and values outside Int's range.
      return Int(exactly: value)
    default:
      return nil
    }
  }

  /// Whether this is `null`.
  var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// A short name of this value's kind for error messages (`"a string"`, `"an array"`).
  var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .int, .double: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

/// One member (`"key": value`) of a JSON object.
struct JSONMember: Sendable, Hashable {
  /// The member's name, unescaped.
  var key: String
  /// The member's value.
  var value: JSONValue
}
