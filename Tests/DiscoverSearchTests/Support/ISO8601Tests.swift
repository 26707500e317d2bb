import Foundation
import SyntheticCorpus
import Testing

@testable import DiscoverSearch

@Suite("ISO8601")
struct ISO8601Tests {
  /// Timestamps and their seconds since 1970 (checked against Python's `calendar.timegm`).
  static let validTimestamps: [(String, Double)] = [
    ("1970-01-01T00:00:00Z", 0),
    ("2026-10-01T12:00:00Z", 1_790_856_000),
    ("2024-10-18T04:00:07Z", 1_729_224_007),
    ("2024-02-29T12:34:56Z", 1_709_210_096),
    ("2000-02-29T00:00:00Z", 951_782_400),
    ("2000-03-01T00:00:00Z", 951_868_800),
    ("1969-12-31T23:59:59Z", -1),
    ("1900-03-01T00:00:00Z", -2_203_891_200),
    ("0000-01-01T00:00:00Z", -62_167_219_200),
    ("0001-01-01T00:00:00Z", -62_135_596_800),
    ("9999-12-31T23:59:59Z", 253_402_300_799),
    ("2024-10-18t04:00:07z", 1_729_224_007),
    ("2024-10-18 04:00:07Z", 1_729_224_007),
    ("2024-10-18T06:00:07+02:00", 1_729_224_007),
    ("2024-10-18T06:00:07+0200", 1_729_224_007),
    ("2024-10-18T06:00:07+02", 1_729_224_007),
    ("2024-10-17T22:30:07-05:30", 1_729_224_007),
    ("2024-10-18T04:00:07+00:00", 1_729_224_007),
    ("2024-10-18T04:00:07-00:00", 1_729_224_007),
    ("2024-10-18T04:00:07.5Z", 1_729_224_007.5),
    ("2024-10-18T04:00:07,25Z", 1_729_224_007.25),
    ("2024-10-18T04:00:07.000Z", 1_729_224_007),
    ("2024-10-18T04:00:07.123456789Z", 1_729_224_007.123456789),
    ("2024-10-18T04:00:07.1234567891234Z", 1_729_224_007.123456789),
    ("2016-12-31T23:59:60Z", 1_483_228_800),
    ("+10000-01-01T00:00:00Z", 253_402_300_800),
    ("-0001-01-01T00:00:00Z", -62_198_755_200),
  ]

  @Test(arguments: validTimestamps)
  func parsesValidTimestamp(_ text: String, _ secondsSince1970: Double) throws {
    let date = try #require(ISO8601.date(from: text))
    #expect(abs(date.timeIntervalSince1970 - secondsSince1970) < 1e-6)
  }

  static let invalidTimestamps = [
    "",
    "2024-10-18",
    "2024-10-18T04:00:07",
    "2024-10-18T04:00Z",
    "2023-02-29T00:00:00Z",
    "1900-02-29T00:00:00Z",
    "2024-02-30T00:00:00Z",
    "2024-04-31T00:00:00Z",
    "2024-13-01T00:00:00Z",
    "2024-00-10T00:00:00Z",
    "2024-01-00T00:00:00Z",
    "2024-01-01T24:00:00Z",
    "2024-01-01T23:60:00Z",
    "2024-01-01T23:59:61Z",
    "2024-01-01T00:00:00+24:00",
    "2024-01-01T00:00:00+01:60",
    "2024-01-01T00:00:00+1",
    "2024-01-01T00:00:00+01:0",
    "2024-01-01T00:00:00.Z",
    "2024-01-01T00:00:00Zx",
    "2024-01-01T00:00:00ZZ",
    " 2024-01-01T00:00:00Z",
    "2024-01-01T00:00:00Z ",
    "2024-01-01X00:00:00Z",
    "2024-1-01T00:00:00Z",
    "24-01-01T00:00:00Z",
    "20240-01-01T00:00:00Z",
    "+123-01-01T00:00:00Z",
    "+1234567-01-01T00:00:00Z",
    "2024/01/01T00:00:00Z",
    "２０２４-01-01T00:00:00Z",
    "yesterday",
  ]

  @Test(arguments: invalidTimestamps)
  func rejectsInvalidTimestamp(_ text: String) {
    #expect(ISO8601.date(from: text) == nil)
  }

  static let formatted: [(Double, String)] = [
    (0, "1970-01-01T00:00:00Z"),
    (1_790_856_000, "2026-10-01T12:00:00Z"),
    (-1, "1969-12-31T23:59:59Z"),
    (1_709_210_096, "2024-02-29T12:34:56Z"),
    (1_729_224_007.5, "2024-10-18T04:00:07.5Z"),
    (1_729_224_007.25, "2024-10-18T04:00:07.25Z"),
    (-62_167_219_200, "0000-01-01T00:00:00Z"),
    (253_402_300_800, "+10000-01-01T00:00:00Z"),
    (-62_198_755_200, "-0001-01-01T00:00:00Z"),
  ]

  @Test(arguments: formatted)
  func formatsInUTC(_ secondsSince1970: Double, _ expected: String) {
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: secondsSince1970)) == expected)
  }

  @Test func formatsDatesThatParseBackExactly() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var generator = SplitMix64(seed: seed)
    for _ in 0..<5_000 {
      // Any second from year 0 to 9999, with whole seconds, milliseconds or microseconds.
      let seconds = Double(Int64(generator.next() % 315_537_897_600) - 62_167_219_200)
      let fraction: Double
      switch generator.next() % 3 {
      case 0: fraction = 0
      case 1: fraction = Double(generator.next() % 1000) / 1000
      default: fraction = Double(generator.next() % 1_000_000) / 1_000_000
      }
      let date = Date(timeIntervalSinceReferenceDate: seconds - 978_307_200 + fraction)
      let text = ISO8601.string(from: date)
      let parsed = try #require(ISO8601.date(from: text), "seed \(seed): \(text)")
      #expect(parsed == date, "seed \(seed): \(text)")
    }
  }

  @Test func convertsDaysAndCivilDatesBothWays() {
    for days in stride(from: Int64(-800_000), through: 3_000_000, by: 997) {
      let (year, month, day) = ISO8601.civilDate(daysSince1970: days)
      #expect((1...12).contains(month))
      #expect(day >= 1 && day <= ISO8601.daysInMonth(month, year: year))
      #expect(ISO8601.daysSince1970(year: year, month: month, day: day) == days)
    }
  }

  @Test(arguments: [
    (2024, true), (2023, false), (2000, true), (1900, false), (0, true), (-4, true),
  ])
  func knowsLeapYears(_ year: Int64, _ isLeap: Bool) {
    #expect(ISO8601.isLeapYear(year) == isLeap)
    #expect(ISO8601.daysInMonth(2, year: year) == (isLeap ? 29 : 28))
  }
}
