import SyntheticCorpus
import Testing

@testable import DiscoverSearch

@Suite("JSONParser")
struct JSONParserTests {
  // MARK: Valid documents

  static let validDocuments: [(String, JSONValue)] = [
    ("null", .null),
    ("true", .bool(true)),
    ("false", .bool(false)),
    ("0", .int(0)),
    ("-0", .int(0)),
    ("42", .int(42)),
    ("-17", .int(-17)),
    ("9223372036854775807", .int(Int.max)),
    ("-9223372036854775808", .int(Int.min)),
    ("9223372036854775808", .double(9_223_372_036_854_775_808)),
    ("123456789012345678901234567890", .double(1.2345678901234568e29)),
    ("1.5", .double(1.5)),
    ("-1.5e3", .double(-1500)),
    ("1E2", .double(100)),
    ("1e-2", .double(0.01)),
    ("12.0", .double(12)),
    ("0.000001", .double(0.000001)),
    (#""""#, .string("")),
    (#""abc""#, .string("abc")),
    (#""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{8}\u{C}\n\r\t")),
    (#""\u00e9\u00E9""#, .string("éé")),
    (#""\uD83D\uDE00""#, .string("😀")),
    (#""a\u0000b""#, .string("a\u{0}b")),
    (#""\uFFFF""#, .string("\u{FFFF}")),
    (#""\uDBFF\uDFFF""#, .string("\u{10FFFF}")),
    ("\"é日本🔥\"", .string("é日本🔥")),
    ("\"mixed é \\n escapes 😀\"", .string("mixed é \n escapes 😀")),
    ("\"exactly eight\"", .string("exactly eight")),
    ("[]", .array([])),
    ("[1,[2,[3]]]", .array([.int(1), .array([.int(2), .array([.int(3)])])])),
    ("{}", .object([])),
    (
      #"{"a":1,"b":[true,null]}"#,
      .object([
        JSONMember(key: "a", value: .int(1)),
        JSONMember(key: "b", value: .array([.bool(true), .null])),
      ])
    ),
    (" \t\r\n{ \"a\" : 1 } \n", .object([JSONMember(key: "a", value: .int(1))])),
    (
      #"{"k\u00e9y":{"n":{}}}"#,
      .object([JSONMember(key: "kéy", value: .object([JSONMember(key: "n", value: .object([]))]))])
    ),
  ]

  @Test(arguments: validDocuments)
  func parsesValidDocument(_ text: String, _ expected: JSONValue) throws {
    #expect(try JSONParser.parse(text) == expected)
  }

  static let validUTF8Boundaries: [[UInt8]] = [
    [0xC2, 0x80],  // U+0080
    [0xDF, 0xBF],  // U+07FF
    [0xE0, 0xA0, 0x80],  // U+0800
    [0xED, 0x9F, 0xBF],  // U+D7FF, just below the surrogates
    [0xEE, 0x80, 0x80],  // U+E000, just above them
    [0xEF, 0xBF, 0xBF],  // U+FFFF
    [0xF0, 0x90, 0x80, 0x80],  // U+10000
    [0xF4, 0x8F, 0xBF, 0xBF],  // U+10FFFF
  ]

  @Test(arguments: validUTF8Boundaries)
  func acceptsUTF8AtTheEdgesOfEachLength(_ sequence: [UInt8]) throws {
    let value = try JSONParser.parse([0x22] + sequence + [0x22])
    #expect(value == .string(String(decoding: sequence, as: UTF8.self)))
  }

  @Test func keepsDuplicateKeysAndLooksUpTheLast() throws {
    let value = try JSONParser.parse(#"{"a":1,"a":2}"#)
    guard case .object(let members) = value else {
      Issue.record("expected an object")
      return
    }
    #expect(members.map(\.key) == ["a", "a"])
    #expect(value["a"] == .int(2))
    #expect(value["b"] == nil)
  }

  @Test func reusesOneParserAcrossDocuments() throws {
    var parser = JSONParser()
    for text in [#"{"a":"x\ny"}"#, "[1,2]", #""\u00e9""#] {
      var bytes = Array(text.utf8)
      let value = try bytes.withUnsafeBufferPointer { try parser.parse($0) }
      #expect(value == (try JSONParser.parse(text)))
      bytes.removeAll()
    }
    // An error leaves the parser ready for the next document.
    #expect(throws: JSONParseError.self) {
      try Array("[[1,".utf8).withUnsafeBufferPointer { try parser.parse($0) }
    }
    let value = try Array("[[2]]".utf8).withUnsafeBufferPointer { try parser.parse($0) }
    #expect(value == .array([.array([.int(2)])]))
  }

  // MARK: Errors

  static let invalidDocuments: [(String, [UInt8], JSONParseError.Kind, Int)] = [
    ("empty input", [], .unexpectedEnd, 0),
    ("only whitespace", Array(" \n ".utf8), .unexpectedEnd, 3),
    ("trailing comma in array", Array("[1,]".utf8), .unexpectedCharacter, 3),
    ("trailing comma in object", Array(#"{"a":1,}"#.utf8), .unexpectedCharacter, 7),
    ("single quotes", Array("{'a':1}".utf8), .unexpectedCharacter, 1),
    ("missing comma", Array("[1 2]".utf8), .unexpectedCharacter, 3),
    ("missing colon", Array(#"{"a" 1}"#.utf8), .unexpectedCharacter, 5),
    ("number key", Array("{1:2}".utf8), .unexpectedCharacter, 1),
    ("unclosed array", Array("[1,2".utf8), .unexpectedEnd, 4),
    ("unclosed object", Array(#"{"a":1"#.utf8), .unexpectedEnd, 6),
    ("truncated literal", Array("tru".utf8), .unexpectedEnd, 0),
    ("misspelled literal", Array("trux".utf8), .unexpectedCharacter, 3),
    ("capitalized literal", Array("True".utf8), .unexpectedCharacter, 0),
    ("NaN", Array("NaN".utf8), .unexpectedCharacter, 0),
    ("Infinity", Array("[Infinity]".utf8), .unexpectedCharacter, 1),
    ("leading plus", Array("+1".utf8), .unexpectedCharacter, 0),
    ("leading dot", Array(".5".utf8), .unexpectedCharacter, 0),
    ("leading zero", Array("01".utf8), .invalidNumber, 0),
    ("negative leading zero", Array("-012".utf8), .invalidNumber, 1),
    ("lone minus", Array("-".utf8), .invalidNumber, 1),
    ("minus letter", Array("-a".utf8), .invalidNumber, 1),
    ("dot without digits", Array("1.".utf8), .invalidNumber, 2),
    ("dot then exponent", Array("1.e5".utf8), .invalidNumber, 2),
    ("empty exponent", Array("1e".utf8), .invalidNumber, 2),
    ("signed empty exponent", Array("1e+".utf8), .invalidNumber, 3),
    ("huge number", Array("1e400".utf8), .numberOutOfRange, 0),
    ("huge negative number", Array("[-1e400]".utf8), .numberOutOfRange, 1),
    ("unterminated string", Array(#""abc"#.utf8), .unexpectedEnd, 4),
    ("unknown escape", Array(#""\x""#.utf8), .invalidEscape, 1),
    ("short unicode escape", Array(#""\u12""#.utf8), .invalidEscape, 1),
    ("non-hex unicode escape", Array(#""\u12G4""#.utf8), .invalidEscape, 1),
    ("escape at end", Array(#""\"#.utf8), .unexpectedEnd, 1),
    ("lone high surrogate", Array(#""\uD800""#.utf8), .unpairedSurrogate, 1),
    ("lone low surrogate", Array(#""\uDC00x""#.utf8), .unpairedSurrogate, 1),
    ("high surrogate then text", Array(#""a\uD83Dx""#.utf8), .unpairedSurrogate, 2),
    ("high surrogate then BMP escape", Array(#""\uD800\u0041""#.utf8), .unpairedSurrogate, 1),
    ("two high surrogates", Array(#""\uDBFF\uDBFF""#.utf8), .unpairedSurrogate, 1),
    ("swapped pair", Array(#""\uDE00\uD83D""#.utf8), .unpairedSurrogate, 1),
    ("raw control character", [0x22, 0x61, 0x01, 0x62, 0x22], .controlCharacter, 2),
    ("raw tab in string", Array("\"a\tb\"".utf8), .controlCharacter, 2),
    ("raw newline in string", Array("\"a\nb\"".utf8), .controlCharacter, 2),
    ("byte 0xFF", [0x22, 0xFF, 0x22], .invalidUTF8, 1),
    ("lone continuation byte", [0x22, 0x61, 0x80, 0x22], .invalidUTF8, 2),
    ("truncated two-byte sequence", [0x22, 0xC3, 0x22], .invalidUTF8, 1),
    ("unterminated after a truncated sequence", [0x22, 0xE6, 0x97], .unexpectedEnd, 3),
    ("overlong two-byte slash", [0x22, 0xC0, 0xAF, 0x22], .invalidUTF8, 1),
    ("overlong two-byte C1", [0x22, 0xC1, 0xBF, 0x22], .invalidUTF8, 1),
    ("overlong three-byte", [0x22, 0xE0, 0x80, 0xAF, 0x22], .invalidUTF8, 1),
    ("overlong four-byte", [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], .invalidUTF8, 1),
    ("encoded high surrogate", [0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, 1),
    ("encoded low surrogate", [0x22, 0xED, 0xBF, 0xBF, 0x22], .invalidUTF8, 1),
    ("above U+10FFFF", [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, 1),
    ("lead byte F5", [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], .invalidUTF8, 1),
    (
      "bad byte after long ASCII run", Array("\"abcdefghijklmnop".utf8) + [0xFE, 0x22],
      .invalidUTF8, 17
    ),
    ("invalid UTF-8 in a key", [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], .invalidUTF8, 2),
    ("invalid UTF-8 outside strings", [0x5B, 0xFF, 0x5D], .invalidUTF8, 1),
    ("valid non-ASCII outside strings", Array("[é]".utf8), .unexpectedCharacter, 1),
    ("byte order mark", [0xEF, 0xBB, 0xBF] + Array("{}".utf8), .unexpectedCharacter, 0),
    ("second value", Array("{} {}".utf8), .trailingData, 3),
    ("trailing garbage", Array("1 x".utf8), .trailingData, 2),
    ("trailing number", Array("[1]2".utf8), .trailingData, 3),
  ]

  @Test(arguments: invalidDocuments)
  func rejectsInvalidDocument(
    _ name: String, _ bytes: [UInt8], _ kind: JSONParseError.Kind, _ offset: Int
  ) {
    do {
      let value = try JSONParser.parse(bytes)
      Issue.record("\(name): parsed as \(value)")
    } catch {
      #expect(error.kind == kind, "\(name): \(error)")
      #expect(error.offset == offset, "\(name): \(error)")
    }
  }

  @Test func namesTheUnpairedSurrogateAndItsOffset() {
    do {
      _ = try JSONParser.parse(#"{"title":"a\uD800"}"#)
      Issue.record("accepted a lone surrogate")
    } catch {
      #expect(error.description.hasPrefix(#"unpaired surrogate \uD800"#))
      #expect(error.description.hasSuffix("at byte 11"))
    }
  }

  @Test func describesUnexpectedCharactersReadably() {
    #expect(
      throws: JSONParseError(
        kind: .unexpectedCharacter, offset: 3, reason: "unexpected ']', expected a value")
    ) {
      try JSONParser.parse("[1,]")
    }
    do {
      _ = try JSONParser.parse([0xEF, 0xBB, 0xBF, 0x7B, 0x7D])
    } catch {
      #expect(error.reason.contains("U+FEFF"))
    }
  }

  // MARK: Limits

  @Test func rejectsTenThousandOpenBracketsWithoutRecursingDeeper() {
    let text = String(repeating: "[", count: 10_000)
    do {
      _ = try JSONParser.parse(text)
      Issue.record("accepted 10,000 levels")
    } catch {
      #expect(error.kind == .nestingTooDeep)
      #expect(error.offset == 64)
    }
  }

  @Test func rejectsDeeplyNestedObjects() {
    let text = String(repeating: #"{"a":"#, count: 10_000)
    #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
  }

  @Test(arguments: [(64, true), (65, false)])
  func acceptsNestingUpToTheLimit(_ depth: Int, _ isAccepted: Bool) {
    let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let result = Result { try JSONParser.parse(text) }
    #expect(((try? result.get()) != nil) == isAccepted)
  }

  @Test func honorsACustomDepthLimit() throws {
    #expect(throws: JSONParseError.self) { try JSONParser.parse("[[1]]", maximumDepth: 1) }
    #expect(try JSONParser.parse("[1]", maximumDepth: 1) == .array([.int(1)]))
  }

  @Test func parsesAHugeStringInOnePass() throws {
    let body = String(repeating: "abcdéfgh😀 ", count: 200_000)  // 3.4 MB
    #expect(try JSONParser.parse("\"\(body)\"") == .string(body))
    let escaped = String(repeating: #"a\nb\u00e9"#, count: 200_000)
    let expected = String(repeating: "a\nbé", count: 200_000)
    #expect(try JSONParser.parse("\"\(escaped)\"") == .string(expected))
  }

  @Test func parsesAHugeArray() throws {
    let count = 200_000
    let text = "[" + (0..<count).map(String.init).joined(separator: ",") + "]"
    guard case .array(let elements) = try JSONParser.parse(text) else {
      Issue.record("expected an array")
      return
    }
    #expect(elements.count == count)
    #expect(elements.last == .int(count - 1))
  }

  // MARK: Members

  @Test func visitsTopLevelMembersInOrder() throws {
    var parser = JSONParser()
    var visited: [(String, JSONValue)] = []
    let text = #"{"a":1,"k\u00e9y":"v","é":[true],"b":{"c":null}}"#
    let rest = try Array(text.utf8).withUnsafeBufferPointer { buffer in
      try parser.parseMembers(buffer) { key, value in
        visited.append((String(decoding: key, as: UTF8.self), value))
      }
    }
    #expect(rest == nil)
    #expect(visited.map(\.0) == ["a", "kéy", "é", "b"])
    #expect(
      visited.map(\.1) == [
        .int(1), .string("v"), .array([.bool(true)]), .object([JSONMember(key: "c", value: .null)]),
      ])
  }

  @Test(arguments: ["[1]", "\"x\"", "3", "null"])
  func returnsANonObjectValueInsteadOfVisiting(_ text: String) throws {
    var parser = JSONParser()
    let rest = try Array(text.utf8).withUnsafeBufferPointer { buffer in
      try parser.parseMembers(buffer) { _, _ in Issue.record("visited a member") }
    }
    #expect(rest == (try JSONParser.parse(text)))
  }

  @Test(arguments: [#"{"a":1"#, #"{"a":1} x"#, #"{"a" 1}"#, "{", #"{"a":1,}"#])
  func rejectsBrokenObjectsWhileVisiting(_ text: String) {
    var parser = JSONParser()
    #expect(throws: JSONParseError.self) {
      try Array(text.utf8).withUnsafeBufferPointer { buffer in
        try parser.parseMembers(buffer) { _, _ in }
      }
    }
  }

  // MARK: Randomized

  @Test func survivesRandomBytesAndMutations() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var generator = SplitMix64(seed: seed)
    let samples = [
      #"{"type":"video","id":"v1","title":"Dance \u00e9 😀","hashtags":["a","b"],"viewCount":12}"#,
      #"[1,-2.5e3,true,false,null,{"k":"\uD83D\uDE00"}]"#,
    ].map { Array($0.utf8) }
    for _ in 0..<3_000 {
      var bytes = samples[Int(generator.next() % UInt64(samples.count))]
      for _ in 0..<Int(generator.next() % 4) + 1 {
        let index = Int(generator.next() % UInt64(bytes.count))
        switch generator.next() % 3 {
        case 0: bytes[index] = UInt8(truncatingIfNeeded: generator.next())
        case 1: bytes.remove(at: index)
        default: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: index)
        }
        if bytes.isEmpty { break }
      }
      // Any outcome but a crash is fine; a parsed string must be valid Unicode by construction.
      _ = try? JSONParser.parse(bytes)
    }
    #expect(Bool(true), "seed \(seed)")
  }

  @Test func writerOutputParsesBackToTheSameValue() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var generator = SplitMix64(seed: seed)
    for _ in 0..<500 {
      let value = randomValue(depth: 0, &generator)
      var writer = JSONWriter()
      write(value, to: &writer)
      let parsed = try JSONParser.parse(writer.bytes)
      #expect(parsed == value, "seed \(seed): \(writer.string)")
    }
  }

  private func randomValue(depth: Int, _ generator: inout SplitMix64) -> JSONValue {
    let pick = generator.next() % (depth < 4 ? 7 : 5)
    switch pick {
    case 0: return .null
    case 1: return .bool(generator.next() % 2 == 0)
    case 2: return .int(Int(truncatingIfNeeded: generator.next()) >> Int(generator.next() % 60))
    case 3:
      let double = Double(Int(truncatingIfNeeded: generator.next() % 2_000_000) - 1_000_000) / 64
      return double == double.rounded() ? .int(Int(double)) : .double(double)
    case 4:
      let alphabet: [Character] = [
        "a", "Z", " ", "\"", "\\", "\n", "\u{1}", "é", "日", "😀", "/", "\u{7F}",
      ]
      let length = Int(generator.next() % 12)
      return .string(
        String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }))
    case 5:
      return .array(
        (0..<Int(generator.next() % 4)).map { _ in randomValue(depth: depth + 1, &generator) })
    default:
      return .object(
        (0..<Int(generator.next() % 4)).map { index in
          JSONMember(key: "k\(index)é", value: randomValue(depth: depth + 1, &generator))
        })
    }
  }

  private func write(_ value: JSONValue, to writer: inout JSONWriter) {
    switch value {
    case .null: writer.nullValue()
    case .bool(let flag): writer.value(flag)
    case .int(let integer): writer.value(integer)
    case .double(let double): writer.value(double)
    case .string(let string): writer.value(string)
    case .array(let elements):
      writer.beginArray()
      for element in elements { write(element, to: &writer) }
      writer.endArray()
    case .object(let members):
      writer.beginObject()
      for member in members {
        writer.key(member.key)
        write(member.value, to: &writer)
      }
      writer.endObject()
    }
  }
}
