import Testing

@testable import DiscoverSearch

@Suite("JSONWriter")
struct JSONWriterTests {
  static let escapedStrings: [(String, String)] = [
    ("", #""""#),
    ("plain", #""plain""#),
    ("say \"hi\"", #""say \"hi\"""#),
    ("back\\slash", #""back\\slash""#),
    ("a/b", #""a/b""#),
    ("line\nbreak\r\ttab", #""line\nbreak\r\ttab""#),
    ("\u{8}\u{C}", #""\b\f""#),
    ("\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001F""#),
    ("\u{1A}", #""\u001A""#),
    ("\u{7F}", "\"\u{7F}\""),
    ("é 日本 😀", "\"é 日本 😀\""),
    ("\u{2028}", "\"\u{2028}\""),
  ]

  @Test(arguments: escapedStrings)
  func escapesStrings(_ input: String, _ expected: String) throws {
    var writer = JSONWriter()
    writer.value(input)
    #expect(writer.string == expected)
    #expect(try JSONParser.parse(writer.bytes) == .string(input))
  }

  static let numbers: [(Double, String)] = [
    (1.5, "1.5"),
    (-0.25, "-0.25"),
    (12, "12.0"),
    (1e-5, "1e-05"),
    (1e20, "1e+20"),
    (Double.infinity, "null"),
    (-Double.infinity, "null"),
    (Double.nan, "null"),
  ]

  @Test(arguments: numbers)
  func writesDoublesAsValidJSON(_ number: Double, _ expected: String) throws {
    var writer = JSONWriter()
    writer.value(number)
    #expect(writer.string == expected)
    let parsed = try JSONParser.parse(writer.bytes)
    if number.isFinite {
      #expect(parsed == .double(number))
    } else {
      #expect(parsed == .null)
    }
  }

  @Test(arguments: [0, 7, -1, 42, Int.max, Int.min])
  func writesIntegersExactly(_ integer: Int) throws {
    var writer = JSONWriter()
    writer.value(integer)
    #expect(writer.string == String(integer))
    #expect(try JSONParser.parse(writer.bytes) == .int(integer))
  }

  @Test func placesCommasAndColonsInNestedStructures() {
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("engine", "DiscoverSearch")
    writer.field("docs", 3)
    writer.key("index")
    writer.beginObject()
    writer.field("seconds", 0.5)
    writer.endObject()
    writer.key("results")
    writer.beginArray()
    writer.beginObject()
    writer.field("id", "v1")
    writer.field("verified", true)
    writer.endObject()
    writer.value(["a", "b"])
    writer.beginArray()
    writer.endArray()
    writer.nullValue()
    writer.endArray()
    writer.field("missing", nil as String?)
    writer.field("tags", [String]())
    writer.endObject()
    #expect(
      writer.string
        == #"{"engine":"DiscoverSearch","docs":3,"index":{"seconds":0.5},"results":[{"id":"v1","verified":true},["a","b"],[],null],"missing":null,"tags":[]}"#
    )
  }

  @Test func writesJSONLinesWithNewlines() throws {
    var writer = JSONWriter()
    for index in 0..<3 {
      writer.beginObject()
      writer.field("n", index)
      writer.endObject()
      writer.newline()
    }
    #expect(writer.string == "{\"n\":0}\n{\"n\":1}\n{\"n\":2}\n")
    writer.removeAll()
    writer.value("again")
    #expect(writer.string == #""again""#)
  }

  @Test func escapesKeys() throws {
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("a\"b", 1)
    writer.endObject()
    #expect(writer.string == #"{"a\"b":1}"#)
    #expect(try JSONParser.parse(writer.bytes)["a\"b"] == .int(1))
  }

  @Test func escapesAMegabyteStringInOnePass() throws {
    let text = String(repeating: "quote \" slash \\ newline \n ok é ", count: 30_000)
    var writer = JSONWriter()
    writer.value(text)
    #expect(try JSONParser.parse(writer.bytes) == .string(text))
  }
}
