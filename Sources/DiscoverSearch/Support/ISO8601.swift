import Foundation

/// Fast parsing and formatting of ISO 8601 timestamps, without `DateFormatter`.
///
/// Accepted (a practical superset of RFC 3339 §5.6):
///
///     YYYY-MM-DD ( T | t | space ) HH:MM:SS [ ( . | , ) fraction ] ( Z | z | ±HH:MM | ±HHMM | ±HH )
///
/// - The year has four digits (0000 to 9999), or a sign and four to six digits for the
///   expanded years of ISO 8601 §4.1.2.4 (`-0044`, `+12345`), in the proleptic Gregorian
///   calendar with astronomical numbering (year 0 is 1 BC).
/// - Every field is range-checked: month 1 to 12, day 1 to the month's length (February 29
///   only in leap years), hour 0 to 23, minute 0 to 59, second 0 to 60, offset up to 23:59.
///   Second 60 (a leap second) reads as the first second of the next minute, because `Date`
///   counts no leap seconds.
/// - The fraction may have any number of digits; nanoseconds are kept, further digits dropped.
/// - A zone is required: a timestamp without one names no single instant.
///
/// Formatting writes UTC, `YYYY-MM-DDTHH:MM:SSZ`, adding `.` and up to nine fraction digits
/// (trailing zeros trimmed) only when the date is not a whole second, so a formatted date
/// parses back to the same `Date` (exactly, for dates more than about 100 days from
/// 2001-01-01, where a `Double` is coarser than a nanosecond; to the nanosecond otherwise).
package enum ISO8601 {
  /// Seconds from 1970-01-01 to 2001-01-01, `Date`'s reference date.
  private static let referenceDateOffset: Int64 = 978_307_200
  /// The largest expanded year accepted: six digits, as ISO 8601 expanded formats usually agree.
  private static let maximumYear = 999_999

  /// The date written in `text`, or `nil` when `text` is not an accepted timestamp.
  ///
  /// - Complexity: O(*n*) in the length of `text`.
  package static func date(from text: String) -> Date? {
    var text = text
    return text.withUTF8 { date(from: $0) }
  }

  /// `date` in UTC, as `YYYY-MM-DDTHH:MM:SSZ` with a fraction only when it has one.
  ///
  /// - Precondition: the date is finite and within years -999999 to 999999.
  package static func string(from date: Date) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(30)
    append(date, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  // MARK: Parsing

  /// The date written in `bytes`, or `nil` when they are not an accepted timestamp.
  ///
  /// - Complexity: O(*n*) in `bytes.count`.
  static func date(from bytes: UnsafeBufferPointer<UInt8>) -> Date? {
    guard let (seconds, nanoseconds) = secondsSince1970(from: bytes) else { return nil }
    return Date(
      timeIntervalSinceReferenceDate: Double(seconds - referenceDateOffset)
        + Double(nanoseconds) / 1e9)
  }

  /// The instant written in `bytes` as whole seconds since 1970-01-01T00:00:00Z plus
  /// nanoseconds (0 to 999,999,999), or `nil` when they are not an accepted timestamp.
  static func secondsSince1970(
    from bytes: UnsafeBufferPointer<UInt8>
  ) -> (seconds: Int64, nanoseconds: Int64)? {
    var reader = TimestampReader(bytes: bytes)
    // Date.
    var yearSign: Int64 = 1
    var yearDigits = 4
    if let sign = reader.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      yearSign = sign == UInt8(ascii: "-") ? -1 : 1
      reader.index += 1
      yearDigits = reader.countDigits(upTo: 6)
      guard yearDigits >= 4 else { return nil }
    }
    guard let yearMagnitude = reader.number(digits: yearDigits) else { return nil }
    let year = yearSign * yearMagnitude
    guard reader.skip(UInt8(ascii: "-")), let month = reader.number(digits: 2),
      reader.skip(UInt8(ascii: "-")), let day = reader.number(digits: 2),
      (1...12).contains(month), day >= 1, day <= daysInMonth(month, year: year)
    else { return nil }
    // Separator.
    guard let separator = reader.next(),
      separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t")
        || separator == UInt8(ascii: " ")
    else { return nil }
    // Time.
    guard let hour = reader.number(digits: 2), reader.skip(UInt8(ascii: ":")),
      let minute = reader.number(digits: 2), reader.skip(UInt8(ascii: ":")),
      let second = reader.number(digits: 2),
      hour <= 23, minute <= 59, second <= 60
    else { return nil }
    var nanoseconds: Int64 = 0
    if let mark = reader.peek(), mark == UInt8(ascii: ".") || mark == UInt8(ascii: ",") {
      reader.index += 1
      var digitCount = 0
      while let byte = reader.peek(), byte &- UInt8(ascii: "0") < 10 {
        if digitCount < 9 { nanoseconds = nanoseconds * 10 + Int64(byte &- UInt8(ascii: "0")) }
        digitCount += 1
        reader.index += 1
      }
      guard digitCount > 0 else { return nil }
      for _ in digitCount..<max(digitCount, 9) { nanoseconds *= 10 }
    }
    // Zone.
    guard let zone = reader.next() else { return nil }
    var offsetSeconds: Int64 = 0
    switch zone {
    case UInt8(ascii: "Z"), UInt8(ascii: "z"):
      break
    case UInt8(ascii: "+"), UInt8(ascii: "-"):
      guard let offsetHours = reader.number(digits: 2), offsetHours <= 23 else { return nil }
      var offsetMinutes: Int64 = 0
      if reader.peek() == UInt8(ascii: ":") {
        reader.index += 1
        guard let minutes = reader.number(digits: 2) else { return nil }
        offsetMinutes = minutes
      } else if reader.peek() != nil {
        guard let minutes = reader.number(digits: 2) else { return nil }
        offsetMinutes = minutes
      }
      guard offsetMinutes <= 59 else { return nil }
      offsetSeconds =
        (offsetHours * 3600 + offsetMinutes * 60) * (zone == UInt8(ascii: "-") ? -1 : 1)
    default:
      return nil
    }
    guard reader.isAtEnd else { return nil }
    let days = daysSince1970(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
    return (seconds, nanoseconds)
  }

  static func isLeapYear(_ year: Int64) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days from 1970-01-01 to the given proleptic Gregorian date.
  ///
  /// Howard Hinnant's `days_from_civil`, from "chrono-Compatible Low-Level Date Algorithms"
  /// (2013): it counts in 400-year eras of 146,097 days, from years that start on March 1 so
  /// that the leap day falls at the end.
  static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
    let marchYear = month <= 2 ? year - 1 : year
    let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
    let yearOfEra = marchYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    // 719,468 days separate 0000-03-01, where era 0 starts, from 1970-01-01.
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The proleptic Gregorian date `days` after 1970-01-01: Hinnant's `civil_from_days`, the
  /// inverse of ``daysSince1970(year:month:day:)``.
  static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  // MARK: Formatting

  /// Appends `date` in UTC as `YYYY-MM-DDTHH:MM:SS[.fraction]Z` to `bytes`.
  ///
  /// - Precondition: the date is finite and within years -999999 to 999999.
  static func append(_ date: Date, to bytes: inout [UInt8]) {
    let sinceReference = date.timeIntervalSinceReferenceDate
    // 3.1e13 seconds is about 980,000 years, inside the six-digit years that parse back.
    precondition(
      sinceReference.isFinite && abs(sinceReference) < 3.1e13,
      "ISO8601 formats dates within years -999999 to 999999, got \(date)")
    var whole = sinceReference.rounded(.down)
    // Exact: `whole` and `sinceReference` are within a factor of two of each other (Sterbenz).
    var nanoseconds = Int64(((sinceReference - whole) * 1e9).rounded())
    if nanoseconds == 1_000_000_000 {
      whole += 1
      nanoseconds = 0
    }
    let seconds = Int64(whole) + referenceDateOffset
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    let (year, month, day) = civilDate(daysSince1970: days)
    if year < 0 || year > 9999 {
      bytes.append(year < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
      let magnitude = abs(year)
      appendDigits(magnitude, count: max(4, String(magnitude).utf8.count), to: &bytes)
    } else {
      appendDigits(year, count: 4, to: &bytes)
    }
    bytes.append(UInt8(ascii: "-"))
    appendDigits(month, count: 2, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendDigits(day, count: 2, to: &bytes)
    bytes.append(UInt8(ascii: "T"))
    appendDigits(secondOfDay / 3600, count: 2, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(secondOfDay / 60 % 60, count: 2, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(secondOfDay % 60, count: 2, to: &bytes)
    if nanoseconds > 0 {
      var digitCount = 9
      while nanoseconds % 10 == 0 {
        nanoseconds /= 10
        digitCount -= 1
      }
      bytes.append(UInt8(ascii: "."))
      appendDigits(nanoseconds, count: digitCount, to: &bytes)
    }
    bytes.append(UInt8(ascii: "Z"))
  }

  private static func appendDigits(_ value: Int64, count: Int, to bytes: inout [UInt8]) {
    let start = bytes.count
    bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
    var rest = value
    var index = start + count - 1
    while index >= start {
      bytes[index] = UInt8(ascii: "0") &+ UInt8(rest % 10)
      rest /= 10
      index -= 1
    }
  }
}

/// A position in the bytes of one timestamp.
private struct TimestampReader {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  var isAtEnd: Bool { index == bytes.count }

  func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

  mutating func next() -> UInt8? {
    guard index < bytes.count else { return nil }
    defer { index += 1 }
    return bytes[index]
  }

  mutating func skip(_ byte: UInt8) -> Bool {
    guard peek() == byte else { return false }
    index += 1
    return true
  }

  /// How many ASCII digits follow, counting at most `limit` (one more to detect a longer run).
  func countDigits(upTo limit: Int) -> Int {
    var count = 0
    while index + count < bytes.count, count <= limit,
      bytes[index + count] &- UInt8(ascii: "0") < 10
    {
      count += 1
    }
    return count > limit ? 0 : count
  }

  /// Reads exactly `digits` ASCII digits as a number.
  mutating func number(digits: Int) -> Int64? {
    guard index + digits <= bytes.count else { return nil }
    var value: Int64 = 0
    for offset in 0..<digits {
      let digit = bytes[index + offset] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      value = value * 10 + Int64(digit)
    }
    index += digits
    return value
  }
}
