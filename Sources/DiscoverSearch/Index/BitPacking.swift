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
  ///
  /// Branch-free: after each value the accumulator's low eight bytes are stored whole and
  /// the cursor moves past the bytes that are complete, so the bits of a partial byte are
  /// stored again with the next value. A loop that wrote one byte at a time mispredicted
  /// its exit for most values (one or two bytes complete, in no pattern the predictor
  /// keeps), and cost more than the packing itself. The stores reach up to 8 bytes past
  /// the packed data, into room reserved beyond the buffer's count, which later appends
  /// overwrite.
  @inline(__always)
  static func pack(
    _ values: UnsafePointer<UInt32>, count: Int, width: Int,
    into output: inout UnsafeGrowableBuffer<UInt8>
  ) {
    guard width > 0 else { return }
    let byteCount = byteCount(count: count, width: width)
    output.reserveCapacity(output.count + byteCount + 8)
    let destination = UnsafeMutableRawPointer(output.appendUninitialized(count: byteCount))
    var written = 0
    var accumulator: UInt64 = 0
    var filled = 0
    for index in 0..<count {
      // `filled` is below 8 here and values have at most 32 bits: no bit is shifted out.
      accumulator |= UInt64(values[index]) &<< UInt64(filled)
      filled &+= width
      destination.storeBytes(
        of: accumulator.littleEndian, toByteOffset: written, as: UInt64.self)
      let complete = filled >> 3
      written &+= complete
      accumulator &>>= UInt64(complete &<< 3)
      filled &= 7
    }
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

  /// The sum of the first `count` values of a packed array (as many reads of
  /// ``value(at:from:width:)``, added). One-bit values, the usual width of term frequencies,
  /// are counted 64 at a time with a population count.
  ///
  /// `source` must have 8 readable bytes past the packed data, as for ``unpack``.
  @inline(__always)
  static func sum(count: Int, from source: UnsafeRawPointer, width: Int) -> Int {
    guard width > 0, count > 0 else { return 0 }
    if width == 1 {
      var total = 0
      var bit = 0
      while bit &+ 64 <= count {
        total &+= source.loadUnaligned(fromByteOffset: bit >> 3, as: UInt64.self).nonzeroBitCount
        bit &+= 64
      }
      if bit < count {
        let word = source.loadUnaligned(fromByteOffset: bit >> 3, as: UInt64.self)
        total &+= (word & ((UInt64(1) << UInt64(count &- bit)) &- 1)).nonzeroBitCount
      }
      return total
    }
    let mask = (UInt64(1) << UInt64(width)) &- 1
    var total: UInt64 = 0
    var bit = 0
    for _ in 0..<count {
      let word = source.loadUnaligned(fromByteOffset: bit >> 3, as: UInt64.self)
      total &+= (word >> UInt64(bit & 7)) & mask
      bit &+= width
    }
    return Int(truncatingIfNeeded: total)
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

  /// The offset just past `count` values starting at `offset`, without decoding them: a
  /// value ends at a byte below 0x80, or after five bytes (as ``read(from:offset:)`` stops),
  /// and nothing at or past `limit` is read.
  ///
  /// Eight bytes are taken at a time while the values ending in them are fewer than those
  /// left to skip and no run of continuation bytes could reach five (the SWAR byte tests of
  /// Lamport, "Multiple byte processing with full-word instructions", CACM 1975); the rest,
  /// and any word with such a run, go byte by byte, so the result is the same as reading.
  static func skip(
    _ count: Int, in source: UnsafePointer<UInt8>, from offset: Int, limit: Int
  ) -> Int {
    let high: UInt64 = 0x8080_8080_8080_8080
    var remaining = count
    var offset = offset
    // Continuation bytes since the last byte that ended a value.
    var run = 0
    while remaining > 0 && offset &+ 8 <= limit {
      let word = UnsafeRawPointer(source + offset).loadUnaligned(as: UInt64.self)
      let continuations = word & high
      let ends = ~word & high
      let endCount = ends.nonzeroBitCount
      // Bytes before the word's first end, which continue the run carried in.
      let leading = ends.trailingZeroBitCount >> 3
      let hasLongRun =
        continuations & (continuations >> 8) & (continuations >> 16) & (continuations >> 24)
        & (continuations >> 32) != 0
      guard endCount > 0, endCount < remaining, run &+ leading < 5, !hasLongRun else { break }
      remaining &-= endCount
      offset &+= 8
      // Bytes after the word's last end.
      run = ends.leadingZeroBitCount >> 3
    }
    while remaining > 0 && offset < limit {
      let byte = source[offset]
      offset &+= 1
      run &+= 1
      if byte < 0x80 || run == 5 {
        remaining &-= 1
        run = 0
      }
    }
    return offset
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
