extension JSONCursor {
  /// Reads a string starting at its opening quote.
  ///
  /// Runs of plain bytes are scanned in place, eight at a time; a string without escapes
  /// becomes a `String` straight from the input bytes, one with escapes is unescaped into
  /// `scratch` first. UTF-8 is validated once, by the standard library's validator while the
  /// `String` is made, and only for strings with a byte >= 0x80; when it fails, the bytes are
  /// scanned again to name the first bad sequence and its offset.
  mutating func parseString() throws(JSONParseError) -> String {
    let openingQuote = position
    position += 1
    let contentStart = position
    var runStart = position
    var isUnescaping = false
    // The OR of every raw byte seen: its top bit tells whether any was non-ASCII.
    var combinedBytes: UInt8 = 0
    while true {
      combinedBytes |= scanPlainBytes()
      while position < count {
        let byte = bytes[position]
        if byte == 0x22 || byte == 0x5C || byte < 0x20 { break }
        combinedBytes |= byte
        position += 1
      }
      guard position < count else {
        throw failure(.unexpectedEnd, "unterminated string (opened at byte \(openingQuote))")
      }
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let run = UnsafeBufferPointer(rebasing: bytes[runStart..<position])
        let string: String?
        if isUnescaping {
          scratch.append(contentsOf: run)
          string =
            combinedBytes < 0x80
            ? String(decoding: scratch, as: UTF8.self)
            : String(validating: scratch, as: UTF8.self)
        } else {
          string =
            combinedBytes < 0x80
            ? String(decoding: run, as: UTF8.self) : String(validating: run, as: UTF8.self)
        }
        guard let string else {
          throw invalidUTF8Failure(in: contentStart..<position)
        }
        position += 1
        return string
      } else if byte == UInt8(ascii: "\\") {
        if !isUnescaping {
          scratch.removeAll(keepingCapacity: true)
          isUnescaping = true
        }
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
        try parseEscape()
        runStart = position
      } else {
        throw failure(
          .controlCharacter,
          "unescaped control character U+\(Self.uppercaseHex(UInt32(byte), digits: 4)) in a string "
            + "(write it as \\u\(Self.uppercaseHex(UInt32(byte), digits: 4)))")
      }
    }
  }

  /// The error for the first ill-formed UTF-8 sequence in `range`, which the standard
  /// library's validator rejected.
  func invalidUTF8Failure(in range: Range<Int>) -> JSONParseError {
    var index = range.lowerBound
    while index < range.upperBound {
      if bytes[index] < 0x80 {
        index += 1
        continue
      }
      do {
        index += try validatedSequenceLength(at: index)
      } catch {
        return error
      }
    }
    return failure(.invalidUTF8, "invalid UTF-8 in a string", at: range.lowerBound)
  }

  /// Advances `position` past whole 8-byte words holding no `"`, `\` or control character,
  /// and returns the OR of the bytes it passed.
  ///
  /// SWAR ("SIMD within a register") tests from Sean Eron Anderson's Bit Twiddling Hacks,
  /// "Determine if a word has a byte less than n" and "has a zero byte": for `x` a word,
  /// `(x - 0x01..01 * n) & ~x & 0x80..80` flags bytes below `n` (n <= 128); bytes >= 0x80 are
  /// never flagged. A flag can be spurious only in a byte above a genuine one, so the lowest
  /// flag is always exact.
  mutating func scanPlainBytes() -> UInt8 {
    let lows: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    guard let base = bytes.baseAddress else { return 0 }
    var combined: UInt64 = 0
    while position + 8 <= count {
      let word = UInt64(
        littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
      let quotes = word ^ (lows &* 0x22)
      let backslashes = word ^ (lows &* 0x5C)
      let flags =
        ((word &- lows &* 0x20) & ~word & highs)  // bytes < 0x20
        | ((quotes &- lows) & ~quotes & highs)  // bytes == '"'
        | ((backslashes &- lows) & ~backslashes & highs)  // bytes == '\\'
      if flags != 0 {
        let plainBits = flags.trailingZeroBitCount & ~7
        position += plainBits >> 3
        combined |= word & ((1 << plainBits) &- 1)
        break
      }
      combined |= word
      position += 8
    }
    // Fold the eight byte lanes into one byte.
    combined |= combined >> 32
    combined |= combined >> 16
    combined |= combined >> 8
    return UInt8(truncatingIfNeeded: combined)
  }

  /// Decodes the escape at `position` (a backslash) into `scratch`.
  mutating func parseEscape() throws(JSONParseError) {
    let escapeStart = position
    position += 1
    guard position < count else {
      throw failure(.unexpectedEnd, "unexpected end of input inside an escape", at: escapeStart)
    }
    let letter = bytes[position]
    let unescaped: UInt8
    switch letter {
    case UInt8(ascii: "\""): unescaped = 0x22
    case UInt8(ascii: "\\"): unescaped = 0x5C
    case UInt8(ascii: "/"): unescaped = 0x2F
    case UInt8(ascii: "b"): unescaped = 0x08
    case UInt8(ascii: "f"): unescaped = 0x0C
    case UInt8(ascii: "n"): unescaped = 0x0A
    case UInt8(ascii: "r"): unescaped = 0x0D
    case UInt8(ascii: "t"): unescaped = 0x09
    case UInt8(ascii: "u"):
      try parseUnicodeEscape(startingAt: escapeStart)
      return
    default:
      let shown =
        letter >= 0x21 && letter < 0x7F
        ? String(UnicodeScalar(letter)) : "0x\(Self.uppercaseHex(UInt32(letter), digits: 2))"
      throw failure(
        .invalidEscape,
        "invalid escape \\\(shown) (valid escapes: \\\" \\\\ \\/ \\b \\f \\n \\r \\t, and \\u with four hex digits)",
        at: escapeStart)
    }
    scratch.append(unescaped)
    position += 1
  }

  /// Decodes a `\u` escape of four hex digits (`\u00e9`), or a surrogate pair of two
  /// (`\ud83d\udd25`), starting at `escapeStart`.
  mutating func parseUnicodeEscape(startingAt escapeStart: Int) throws(JSONParseError) {
    let unit = try hexQuad(at: escapeStart + 2, escapeStart: escapeStart)
    position = escapeStart + 6
    var scalar = unit
    switch unit {
    case 0xD800...0xDBFF:
      // RFC 8259 §7: a character outside the BMP is escaped as a UTF-16 surrogate pair.
      guard position + 1 < count, bytes[position] == UInt8(ascii: "\\"),
        bytes[position + 1] == UInt8(ascii: "u")
      else {
        throw failure(
          .unpairedSurrogate,
          "unpaired surrogate \\u\(Self.uppercaseHex(unit, digits: 4)) (a high surrogate must be followed "
            + "by a low surrogate escape \\uDC00-\\uDFFF)",
          at: escapeStart)
      }
      let low = try hexQuad(at: position + 2, escapeStart: position)
      guard (0xDC00...0xDFFF).contains(low) else {
        throw failure(
          .unpairedSurrogate,
          "unpaired surrogate \\u\(Self.uppercaseHex(unit, digits: 4)) (followed by \\u\(Self.uppercaseHex(low, digits: 4)), "
            + "not by a low surrogate \\uDC00-\\uDFFF)",
          at: escapeStart)
      }
      scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
      position += 6
    case 0xDC00...0xDFFF:
      throw failure(
        .unpairedSurrogate,
        "unpaired surrogate \\u\(Self.uppercaseHex(unit, digits: 4)) (a low surrogate without a high "
          + "surrogate before it)",
        at: escapeStart)
    default:
      break
    }
    appendUTF8(scalar)
  }

  /// Reads the four hex digits at `index`, of the `\u` escape at `escapeStart`.
  func hexQuad(at index: Int, escapeStart: Int) throws(JSONParseError) -> UInt32 {
    var value: UInt32 = 0
    for offset in 0..<4 {
      guard index + offset < count else {
        throw failure(
          .unexpectedEnd, "unexpected end of input inside a \\u escape", at: escapeStart)
      }
      let byte = bytes[index + offset]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
      default:
        throw failure(
          .invalidEscape, "invalid \\u escape (expected four hex digits)", at: escapeStart)
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  mutating func appendUTF8(_ scalar: UInt32) {
    switch scalar {
    case 0..<0x80:
      scratch.append(UInt8(scalar))
    case 0x80..<0x800:
      scratch.append(UInt8(0xC0 | scalar >> 6))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      scratch.append(UInt8(0xE0 | scalar >> 12))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    default:
      scratch.append(UInt8(0xF0 | scalar >> 18))
      scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    }
  }

  /// The length of the well-formed multi-byte UTF-8 sequence at `index`, whose first byte is
  /// at least 0x80.
  ///
  /// Follows the table of well-formed byte sequences in The Unicode Standard, chapter 3,
  /// table 3-7: the second byte's range depends on the lead byte so that overlong forms
  /// (E0 80..9F, F0 80..8F), UTF-8-encoded surrogates (ED A0..BF) and code points above
  /// U+10FFFF (F4 90..BF, F5..FF) are all rejected.
  func validatedSequenceLength(at index: Int) throws(JSONParseError) -> Int {
    let lead = bytes[index]
    let length: Int
    var secondRange: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0x80...0xBF:
      throw failure(
        .invalidUTF8,
        "invalid UTF-8: unexpected continuation byte 0x\(Self.uppercaseHex(UInt32(lead), digits: 2))",
        at: index)
    case 0xC0, 0xC1:
      throw failure(
        .invalidUTF8,
        "invalid UTF-8: overlong encoding (lead byte 0x\(Self.uppercaseHex(UInt32(lead), digits: 2)))",
        at: index)
    case 0xC2...0xDF:
      length = 2
    case 0xE0:
      length = 3
      secondRange = 0xA0...0xBF
    case 0xED:
      length = 3
      secondRange = 0x80...0x9F
    case 0xE1...0xEF:
      length = 3
    case 0xF0:
      length = 4
      secondRange = 0x90...0xBF
    case 0xF4:
      length = 4
      secondRange = 0x80...0x8F
    case 0xF1...0xF3:
      length = 4
    default:
      throw failure(
        .invalidUTF8,
        "invalid UTF-8: byte 0x\(Self.uppercaseHex(UInt32(lead), digits: 2)) never appears in UTF-8",
        at: index)
    }
    guard index + 1 < count, secondRange.contains(bytes[index + 1]) else {
      let what: String
      if index + 1 >= count {
        what = "truncated sequence"
      } else if (0x80...0xBF).contains(bytes[index + 1]) {
        switch lead {
        case 0xE0, 0xF0: what = "overlong encoding"
        case 0xED: what = "encoded UTF-16 surrogate"
        default: what = "code point above U+10FFFF"
        }
      } else {
        what =
          "expected a continuation byte, found 0x\(Self.uppercaseHex(UInt32(bytes[index + 1]), digits: 2))"
      }
      throw failure(
        .invalidUTF8,
        "invalid UTF-8: \(what) (lead byte 0x\(Self.uppercaseHex(UInt32(lead), digits: 2)))",
        at: index)
    }
    for offset in 2..<length {
      guard index + offset < count else {
        throw failure(
          .invalidUTF8,
          "invalid UTF-8: truncated sequence (lead byte 0x\(Self.uppercaseHex(UInt32(lead), digits: 2)))",
          at: index)
      }
      guard bytes[index + offset] & 0xC0 == 0x80 else {
        throw failure(
          .invalidUTF8,
          "invalid UTF-8: expected a continuation byte, found "
            + "0x\(Self.uppercaseHex(UInt32(bytes[index + offset]), digits: 2)) "
            + "(lead byte 0x\(Self.uppercaseHex(UInt32(lead), digits: 2)))",
          at: index)
      }
    }
    return length
  }
}
