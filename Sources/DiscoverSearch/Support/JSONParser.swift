/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Strict means: only the four JSON whitespace bytes; no comments, trailing commas, single
/// quotes, `NaN` or leading `+`; strings must be well-formed UTF-8 (overlong forms, encoded
/// surrogates and code points above U+10FFFF are rejected), must escape control characters,
/// and may only hold `\u` surrogate escapes in high-low pairs; exactly one value per buffer.
/// Any top-level value is accepted (RFC 8259 §2), so callers check for an object themselves.
///
/// Nesting is capped at ``maximumDepth`` (64 by default) and checked before each descent, so a
/// line of ten thousand `[` is a ``JSONParseError`` rather than a stack overflow. The parser
/// keeps one scratch buffer for strings with escapes and reuses it across calls to
/// ``parse(_:)``, so loading a corpus with one `JSONParser` allocates little beyond the values
/// themselves.
///
/// - Complexity: O(*n*) in the number of input bytes for every input, valid or not.
struct JSONParser {
  /// The default nesting limit. Corpus and query lines nest two levels; 64 leaves room for any
  /// reasonable document while bounding recursion to a few kilobytes of stack.
  static let defaultMaximumDepth = 64

  /// How deeply arrays and objects may nest; the top-level container is depth 1.
  var maximumDepth: Int
  /// Unescaped bytes of the string being read, kept between calls to reuse its capacity.
  private var scratch: [UInt8] = []
  /// The cursor's member and element stacks, kept between calls to reuse their capacity.
  private var memberStack: [JSONMember] = []
  private var elementStack: [JSONValue] = []

  /// Creates a parser.
  init(maximumDepth: Int = JSONParser.defaultMaximumDepth) {
    precondition(maximumDepth > 0, "maximumDepth must be positive, got \(maximumDepth)")
    self.maximumDepth = maximumDepth
  }

  /// Parses the JSON text in `bytes`: one value, optionally surrounded by whitespace.
  ///
  /// - Throws: ``JSONParseError`` naming the first problem and its byte offset.
  /// - Complexity: O(*n*) in `bytes.count`.
  mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
    var cursor = JSONCursor(bytes: bytes, maximumDepth: maximumDepth)
    swap(&cursor.scratch, &scratch)
    swap(&cursor.memberStack, &memberStack)
    swap(&cursor.elementStack, &elementStack)
    defer {
      swap(&cursor.scratch, &scratch)
      swap(&cursor.memberStack, &memberStack)
      swap(&cursor.elementStack, &elementStack)
      // After an error the stacks hold the unfinished containers' values.
      memberStack.removeAll(keepingCapacity: true)
      elementStack.removeAll(keepingCapacity: true)
    }
    return try cursor.parseDocument()
  }

  /// Parses the JSON text in `bytes` and, when its value is an object, hands each member to
  /// `visit` instead of building the object.
  ///
  /// The fast path for corpus and query lines: keys are passed as UTF-8 bytes (valid only
  /// during the call) rather than as `String`s, and no member array is built. Members are
  /// visited as they are read, so `visit` may have seen some members of a line that then
  /// turns out to be invalid JSON.
  ///
  /// - Returns: `nil` when the value was an object (its members were visited), else the value.
  /// - Throws: ``JSONParseError`` naming the first problem and its byte offset.
  /// - Complexity: O(*n*) in `bytes.count`.
  mutating func parseMembers(
    _ bytes: UnsafeBufferPointer<UInt8>,
    _ visit: (_ key: UnsafeBufferPointer<UInt8>, _ value: JSONValue) -> Void
  ) throws(JSONParseError) -> JSONValue? {
    var cursor = JSONCursor(bytes: bytes, maximumDepth: maximumDepth)
    swap(&cursor.scratch, &scratch)
    swap(&cursor.memberStack, &memberStack)
    swap(&cursor.elementStack, &elementStack)
    defer {
      swap(&cursor.scratch, &scratch)
      swap(&cursor.memberStack, &memberStack)
      swap(&cursor.elementStack, &elementStack)
      memberStack.removeAll(keepingCapacity: true)
      elementStack.removeAll(keepingCapacity: true)
    }
    return try cursor.parseTopLevelMembers(visit)
  }

  /// Parses the JSON text in `bytes` with a fresh parser.
  ///
  /// - Throws: ``JSONParseError`` naming the first problem and its byte offset.
  /// - Complexity: O(*n*) in `bytes.count`.
  static func parse(
    _ bytes: [UInt8], maximumDepth: Int = JSONParser.defaultMaximumDepth
  ) throws(JSONParseError) -> JSONValue {
    var parser = JSONParser(maximumDepth: maximumDepth)
    return try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
      try parser.parse(buffer)
    }
  }

  /// Parses the JSON text in `text` with a fresh parser.
  ///
  /// - Throws: ``JSONParseError`` naming the first problem and its byte offset.
  /// - Complexity: O(*n*) in the UTF-8 length of `text`.
  static func parse(
    _ text: String, maximumDepth: Int = JSONParser.defaultMaximumDepth
  ) throws(JSONParseError) -> JSONValue {
    try parse(Array(text.utf8), maximumDepth: maximumDepth)
  }
}
