/// 64-bit FNV-1a (Fowler, Noll and Vo): a simple hash that is the same in every process,
/// unlike Swift's seeded `Hasher`, for cursors and for the few byte strings a suggestion
/// request compares.
struct FNV1a {
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  /// Mixes one byte in.
  @inline(__always)
  mutating func combine(_ byte: UInt8) {
    value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
  }

  /// The hash of `bytes`, leaving out the bytes equal to `skipped`.
  static func hash(_ bytes: some Sequence<UInt8>, skipping skipped: UInt8? = nil) -> UInt64 {
    var hash = FNV1a()
    for byte in bytes where byte != skipped { hash.combine(byte) }
    return hash.value
  }
}
