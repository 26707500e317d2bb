import Testing

@testable import DiscoverSearch

/// The word-at-a-time readers agree with reading one value at a time.
@Suite struct BitPackingTests {
  /// A small deterministic generator (SplitMix64), so failures repeat.
  struct Generator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// Packing writes exactly the bytes of the values' bits laid out least significant first,
  /// after whatever the buffer held, and leaves the bytes appended after it intact.
  @Test(arguments: Array(1...32))
  func packLaysOutBitsLeastSignificantFirst(width: Int) {
    var generator = Generator(state: 1_000 + UInt64(width))
    for count in [1, 2, 3, 7, 8, 9, 63, 127, 128] {
      let values = (0..<count).map { _ in
        UInt32(truncatingIfNeeded: generator.next() & ((UInt64(1) << width) - 1))
      }
      // The reference: one bit at a time.
      var expected = [UInt8](repeating: 0, count: BitPacking.byteCount(count: count, width: width))
      for (index, value) in values.enumerated() {
        for bit in 0..<width where value >> UInt32(bit) & 1 == 1 {
          let position = index * width + bit
          expected[position >> 3] |= 1 << UInt8(position & 7)
        }
      }
      var packed = UnsafeGrowableBuffer<UInt8>()
      packed.append(0xAB)
      values.withUnsafeBufferPointer {
        BitPacking.pack($0.baseAddress!, count: count, width: width, into: &packed)
      }
      packed.append(0xCD)
      let bytes = Array(packed.buffer)
      packed.deallocate()
      #expect(bytes == [0xAB] + expected + [0xCD], "width \(width), count \(count)")
      var unpacked = [UInt32](repeating: 0, count: count)
      (expected + [UInt8](repeating: 0, count: 8)).withUnsafeBytes { raw in
        unpacked.withUnsafeMutableBufferPointer {
          BitPacking.unpack(
            from: raw.baseAddress!, count: count, width: width, into: $0.baseAddress!)
        }
      }
      #expect(unpacked == values, "width \(width), count \(count)")
    }
  }

  @Test(arguments: [1, 2, 3, 5, 8, 13, 32])
  func sumEqualsTheSumOfEachValue(width: Int) {
    var generator = Generator(state: UInt64(width))
    let values = (0..<300).map { _ in
      UInt32(truncatingIfNeeded: generator.next())
        & UInt32(truncatingIfNeeded: (UInt64(1) << width) - 1)
    }
    var packed = UnsafeGrowableBuffer<UInt8>()
    values.withUnsafeBufferPointer {
      BitPacking.pack($0.baseAddress!, count: values.count, width: width, into: &packed)
    }
    for _ in 0..<8 { packed.append(0) }
    let bytes = Array(packed.buffer)
    packed.deallocate()
    bytes.withUnsafeBytes { raw in
      for count in [0, 1, 7, 63, 64, 65, 127, 128, 129, 300] {
        let expected = values.prefix(count).reduce(0) { $0 + Int($1) }
        #expect(
          BitPacking.sum(count: count, from: raw.baseAddress!, width: width) == expected,
          "width \(width), count \(count)")
      }
    }
  }

  /// Skipping values lands where reading them one by one does, on valid streams and on
  /// damaged ones with runs of continuation bytes (cut after five, as reading does).
  @Test(arguments: [0, 1, 2, 3])
  func skipLandsWhereReadingDoes(kind: Int) {
    var generator = Generator(state: 77 + UInt64(kind))
    var bytes: [UInt8] = []
    switch kind {
    case 0:
      // Valid positions: small and large deltas.
      var stream = UnsafeGrowableBuffer<UInt8>()
      for _ in 0..<2_000 {
        let shift = generator.next() % 28
        VariableByte.append(
          UInt32(truncatingIfNeeded: generator.next() >> (36 + shift)), to: &stream)
      }
      bytes = Array(stream.buffer)
      stream.deallocate()
    case 1:
      // Random bytes: any run lengths.
      bytes = (0..<4_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    case 2:
      // Mostly continuation bytes: long runs everywhere.
      bytes = (0..<4_000).map { _ in generator.next() % 9 == 0 ? 5 : 0x85 }
    default:
      // Ends only: one-byte values.
      bytes = [UInt8](repeating: 3, count: 1_000)
    }
    bytes.withUnsafeBufferPointer { buffer in
      let source = buffer.baseAddress!
      for start in [0, 1, 5, 17] {
        for count in [0, 1, 2, 7, 8, 9, 31, 100, 500, 5_000] {
          var reference = start
          var left = count
          var run = 0
          while left > 0 && reference < buffer.count {
            let byte = source[reference]
            reference += 1
            run += 1
            if byte < 0x80 || run == 5 {
              left -= 1
              run = 0
            }
          }
          #expect(
            VariableByte.skip(count, in: source, from: start, limit: buffer.count) == reference,
            "kind \(kind), start \(start), count \(count)")
        }
      }
    }
  }
}
