/// Fixed-width bit packing of small unsigned integers, the "frame of reference" layout of
/// blocked posting lists (Zukowski et al., "Super-Scalar RAM-CPU Cache Compression", ICDE
/// 2006; Lemire and Boytsov, "Decoding billions of integers per second through
/// vectorization", 2015): every value of a block takes the same number of bits, the width of
/// the block's largest value.
enum BitPacking {
  /// The number of bits needed for `value` (0 for 0).
  @inline(__always)
  static func bitWidth(_ value: UInt32) -> Int {
    value == 0 ? 0 : 32 - value.leadingZeroBitCount
  }

  /// Number of bytes that `count` values of `width` bits take.
  @inline(__always)
  static func byteCount(count: Int, width: Int) -> Int {
    (count * width + 7) >> 3
  }

  /// Appends `count` values, each `width` bits, least significant bits first.
  @inline(__always)
  static func pack(
    _ values: UnsafePointer<UInt32>, count: Int, width: Int,
    into output: inout UnsafeGrowableBuffer<UInt8>
  ) {
    guard width > 0 else { return }
    // Room for all the bytes at once, then plain stores: appending byte by byte would
    // store and reload the buffer's count for each.
    let destination = output.appendUninitialized(count: byteCount(count: count, width: width))
    var written = 0
    var accumulator: UInt64 = 0
    var filled = 0
    for index in 0..<count {
      accumulator |= UInt64(values[index]) << UInt64(filled)
      filled += width
      while filled >= 8 {
        destination[written] = UInt8(truncatingIfNeeded: accumulator)
        written &+= 1
        accumulator >>= 8
        filled -= 8
      }
    }
    if filled > 0 { destination[written] = UInt8(truncatingIfNeeded: accumulator) }
  }

  /// Reads `count` values of `width` bits from `source` into `destination`.
  ///
  /// `source` must have 8 readable bytes past the packed data (the posting byte buffers are
  /// padded), so every read is one unaligned 64-bit load.
  @inline(__always)
  static func unpack(
    from source: UnsafeRawPointer, count: Int, width: Int,
    into destination: UnsafeMutablePointer<UInt32>
  ) {
    if width == 0 {
      destination.update(repeating: 0, count: count)
      return
    }
    let mask = (UInt64(1) << UInt64(width)) &- 1
    var bit = 0
    for index in 0..<count {
      let word = source.loadUnaligned(fromByteOffset: bit >> 3, as: UInt64.self)
      destination[index] = UInt32(truncatingIfNeeded: (word >> UInt64(bit & 7)) & mask)
      bit &+= width
    }
  }

  /// Reads the single value at `index` of a packed array.
  @inline(__always)
  static func value(at index: Int, from source: UnsafeRawPointer, width: Int) -> UInt32 {
    if width == 0 { return 0 }
    let bit = index &* width
    let word = source.loadUnaligned(fromByteOffset: bit >> 3, as: UInt64.self)
    return UInt32(
      truncatingIfNeeded: (word >> UInt64(bit & 7)) & ((UInt64(1) << UInt64(width)) &- 1))
  }
}

/// Variable-byte integers (7 bits a byte, high bit set on all but the last), for positions.
enum VariableByte {
  @inline(__always)
  static func append(_ value: UInt32, to output: inout UnsafeGrowableBuffer<UInt8>) {
    var value = value
    while value >= 0x80 {
      output.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    output.append(UInt8(value))
  }

  /// Reads one value at `offset`, advancing it.
  @inline(__always)
  static func read(from source: UnsafePointer<UInt8>, offset: inout Int) -> UInt32 {
    var value: UInt32 = 0
    var shift: UInt32 = 0
    while true {
      let byte = source[offset]
      offset &+= 1
      value |= UInt32(byte & 0x7F) << shift
      if byte < 0x80 { return value }
      shift &+= 7
      if shift > 28 { return value }
    }
  }
}
