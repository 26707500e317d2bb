/// Small UTF-8 helpers for byte-level scanning.
enum UTF8Encoding {
  /// Decodes the code point starting at `index`. Returns the replacement character U+FFFD
  /// and width 1 for an ill-formed sequence, so scanning always moves forward.
  ///
  /// Strings that come from Swift are already valid UTF-8; the checks guard raw bytes.
  @inline(__always)
  static func decode<C: RandomAccessCollection>(_ bytes: C, at index: C.Index) -> (
    UInt32, Int
  ) where C.Element == UInt8, C.Index == Int {
    let b0 = UInt32(bytes[index])
    if b0 < 0x80 { return (b0, 1) }
    let remaining = bytes.endIndex - index
    if b0 & 0xE0 == 0xC0, remaining >= 2 {
      let b1 = UInt32(bytes[index + 1])
      guard b1 & 0xC0 == 0x80 else { return (0xFFFD, 1) }
      let value = (b0 & 0x1F) << 6 | (b1 & 0x3F)
      return value >= 0x80 ? (value, 2) : (0xFFFD, 1)
    }
    if b0 & 0xF0 == 0xE0, remaining >= 3 {
      let b1 = UInt32(bytes[index + 1])
      let b2 = UInt32(bytes[index + 2])
      guard b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80 else { return (0xFFFD, 1) }
      let value = (b0 & 0x0F) << 12 | (b1 & 0x3F) << 6 | (b2 & 0x3F)
      return value >= 0x800 && !(0xD800...0xDFFF).contains(value) ? (value, 3) : (0xFFFD, 1)
    }
    if b0 & 0xF8 == 0xF0, remaining >= 4 {
      let b1 = UInt32(bytes[index + 1])
      let b2 = UInt32(bytes[index + 2])
      let b3 = UInt32(bytes[index + 3])
      guard b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80, b3 & 0xC0 == 0x80 else { return (0xFFFD, 1) }
      let value = (b0 & 0x07) << 18 | (b1 & 0x3F) << 12 | (b2 & 0x3F) << 6 | (b3 & 0x3F)
      return value >= 0x10000 && value <= 0x10FFFF ? (value, 4) : (0xFFFD, 1)
    }
    return (0xFFFD, 1)
  }

  /// Writes the UTF-8 encoding of `codePoint` into the first bytes of `buffer` (which must
  /// hold at least 4) and returns how many bytes it used.
  @inline(__always)
  static func encode(_ codePoint: UInt32, into buffer: inout [UInt8]) -> Int {
    switch codePoint {
    case 0..<0x80:
      buffer[0] = UInt8(codePoint)
      return 1
    case 0x80..<0x800:
      buffer[0] = UInt8(0xC0 | codePoint >> 6)
      buffer[1] = UInt8(0x80 | codePoint & 0x3F)
      return 2
    case 0x800..<0x10000:
      buffer[0] = UInt8(0xE0 | codePoint >> 12)
      buffer[1] = UInt8(0x80 | codePoint >> 6 & 0x3F)
      buffer[2] = UInt8(0x80 | codePoint & 0x3F)
      return 3
    default:
      buffer[0] = UInt8(0xF0 | codePoint >> 18)
      buffer[1] = UInt8(0x80 | codePoint >> 12 & 0x3F)
      buffer[2] = UInt8(0x80 | codePoint >> 6 & 0x3F)
      buffer[3] = UInt8(0x80 | codePoint & 0x3F)
      return 4
    }
  }

  /// Appends the UTF-8 encoding of `codePoint`.
  @inline(__always)
  static func append(_ codePoint: UInt32, to output: inout UnsafeGrowableBuffer<UInt8>) {
    switch codePoint {
    case 0..<0x80:
      output.append(UInt8(codePoint))
    case 0x80..<0x800:
      output.append(UInt8(0xC0 | codePoint >> 6))
      output.append(UInt8(0x80 | codePoint & 0x3F))
    case 0x800..<0x10000:
      output.append(UInt8(0xE0 | codePoint >> 12))
      output.append(UInt8(0x80 | codePoint >> 6 & 0x3F))
      output.append(UInt8(0x80 | codePoint & 0x3F))
    default:
      output.append(UInt8(0xF0 | codePoint >> 18))
      output.append(UInt8(0x80 | codePoint >> 12 & 0x3F))
      output.append(UInt8(0x80 | codePoint >> 6 & 0x3F))
      output.append(UInt8(0x80 | codePoint & 0x3F))
    }
  }
}
