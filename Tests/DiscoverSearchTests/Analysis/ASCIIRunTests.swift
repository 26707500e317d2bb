import Testing

@testable import DiscoverSearch

/// The word-at-a-time classification and lowercasing agree with the byte-at-a-time ones, for
/// every byte value in every lane, and a run's append matches the scalar definition.
@Suite struct ASCIIRunTests {
  @Test func wordWideClassesMatchEachByte() {
    for value in 0...255 {
      let byte = UInt8(value)
      for lane in 0..<8 {
        // The byte in one lane, the others filled with neighbours that change classes.
        var word: UInt64 = 0
        for other in 0..<8 {
          let filler: UInt8 = [0x41, 0x5A, 0x61, 0x7A, 0x30, 0x39, 0x2F, 0xC3][(other + value) % 8]
          word |= UInt64(other == lane ? byte : filler) << UInt64(8 * other)
        }
        let classes = ASCII.alphanumericBytes(word)
        let lowered = ASCII.lowercased(word)
        for other in 0..<8 {
          let original = UInt8(truncatingIfNeeded: word >> UInt64(8 * other))
          #expect(
            (classes >> UInt64(8 * other + 7)) & 1 == (ASCII.isAlphanumeric(original) ? 1 : 0),
            "byte \(original) in lane \(other)")
          #expect(
            UInt8(truncatingIfNeeded: lowered >> UInt64(8 * other)) == ASCII.lowercase(original),
            "byte \(original) in lane \(other)")
        }
      }
    }
  }

  @Test func runAppendMatchesTheScalarDefinition() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("aZ09_-' .éÄxQ".utf8)
    for _ in 0..<100 {
      let length = Int.random(in: 1...40, using: &generator)
      let text = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
      for start in 0..<length where ASCII.isAlphanumeric(text[start]) {
        var expectedEnd = start
        while expectedEnd < length && ASCII.isAlphanumeric(text[expectedEnd]) { expectedEnd += 1 }
        var buffer = UnsafeGrowableBuffer<UInt8>()
        buffer.append(7)
        let end = text.withUnsafeBufferPointer {
          buffer.appendLowercasedAlphanumericRun(of: $0, from: start)
        }
        #expect(end == expectedEnd)
        #expect(Array(buffer.buffer) == [7] + text[start..<expectedEnd].map(ASCII.lowercase))
        buffer.deallocate()
        for (low, high) in [(UInt8(0x61), UInt8(0x7A)), (0x30, 0x39)] {
          var rangeEnd = start
          while rangeEnd < length && (low...high).contains(text[rangeEnd]) { rangeEnd += 1 }
          let found = text.withUnsafeBufferPointer { ASCII.runEnd(in: $0, from: start, low, high) }
          #expect(found == rangeEnd, "\(text) from \(start) in \(low)...\(high)")
        }
      }
    }
  }
}
