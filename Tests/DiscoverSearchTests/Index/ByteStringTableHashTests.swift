import Testing

@testable import DiscoverSearch

/// The writer hashes tokens with `hash(paddedBytes:)`; a snapshot looks terms up with
/// `hash(_:)`. A difference would lose every term whose hashes disagree.
@Suite struct ByteStringTableHashTests {
  @Test func paddedHashEqualsTheByteByByteHash() {
    var generator = SystemRandomNumberGenerator()
    // Garbage after the key, which the padded hash reads and must mask off.
    var buffer = (0..<80).map { _ in UInt8.random(in: 0...255, using: &generator) }
    for length in 0...40 {
      for start in [0, 1, 7] {
        buffer.withUnsafeBytes { raw in
          let key = UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)])
          #expect(
            ByteStringTable.hash(paddedBytes: key) == ByteStringTable.hash(key),
            "length \(length) at \(start)")
        }
        buffer[start + length] ^= 0xFF
      }
    }
  }
}
