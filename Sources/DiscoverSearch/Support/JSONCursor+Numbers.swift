extension JSONCursor {
  /// Reads a number (RFC 8259 §6): `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
  mutating func parseNumber() throws(JSONParseError) -> JSONValue {
    let start = position
    let isNegative = bytes[position] == UInt8(ascii: "-")
    if isNegative { position += 1 }
    let integerStart = position
    guard position < count, isDigit(bytes[position]) else {
      throw failure(.invalidNumber, "invalid number: expected a digit after '-'")
    }
    if bytes[position] == UInt8(ascii: "0") {
      position += 1
      if position < count, isDigit(bytes[position]) {
        throw failure(.invalidNumber, "invalid number: leading zero", at: integerStart)
      }
    } else {
      skipDigits()
    }
    let integerEnd = position
    var isInteger = true
    if position < count, bytes[position] == UInt8(ascii: ".") {
      isInteger = false
      position += 1
      guard position < count, isDigit(bytes[position]) else {
        throw failure(.invalidNumber, "invalid number: expected a digit after '.'")
      }
      skipDigits()
    }
    if position < count, bytes[position] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      position += 1
      if position < count,
        bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      guard position < count, isDigit(bytes[position]) else {
        throw failure(.invalidNumber, "invalid number: expected a digit in the exponent")
      }
      skipDigits()
    }
    if isInteger, let value = integerValue(integerStart..<integerEnd, isNegative: isNegative) {
      return .int(value)
    }
    let text = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      let shown = text.utf8.count > 40 ? String(text.prefix(40)) + "..." : text
      throw failure(
        .numberOutOfRange, "number \(shown) is too large for a 64-bit floating point value",
        at: start)
    }
    return .double(value)
  }

  mutating func skipDigits() {
    while position < count, isDigit(bytes[position]) { position += 1 }
  }

  func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

  /// The integer in the digits `range`, or `nil` when it does not fit in `Int`.
  func integerValue(_ range: Range<Int>, isNegative: Bool) -> Int? {
    // Accumulate negatively so that Int.min, whose magnitude exceeds Int.max, fits.
    var value = 0
    if range.count <= 18 {
      // 18 decimal digits stay below 10^18 < Int.max: no overflow possible.
      for index in range { value = value &* 10 &- Int(bytes[index] &- UInt8(ascii: "0")) }
    } else {
      for index in range {
        let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
        let (next, overflow2) = shifted.subtractingReportingOverflow(
          Int(bytes[index] &- UInt8(ascii: "0")))
        if overflow1 || overflow2 { return nil }
        value = next
      }
    }
    if isNegative { return value }
    return value == Int.min ? nil : -value
  }
}
