import CCRC32C

/// CRC-32C (Castagnoli polynomial 0x1EDC6F41, reflected 0x82F63B78), the checksum of iSCSI,
/// ext4 and LevelDB: with the processor's `crc32` instruction where it has one (SSE 4.2,
/// eight bytes per instruction: about 7 times the tables' speed, which made checksums 44%
/// of opening an index of 1M documents), else with the slicing-by-8 tables of Kounavis and
/// Berry ("A Systematic Approach to Building High Performance Software-Based CRC
/// Generators", ISCC 2005): eight table lookups per eight bytes instead of one per byte.
enum CRC32C {
  /// Whether the processor computes CRC-32C itself.
  static let hasHardware = ccrc32c_has_hardware() != 0

  private static let tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for byte in 0..<256 {
      var crc = UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
      tables[byte] = crc
    }
    for byte in 0..<256 {
      var crc = tables[byte]
      for slice in 1..<8 {
        crc = tables[Int(crc & 0xFF)] ^ (crc >> 8)
        tables[slice * 256 + byte] = crc
      }
    }
    return tables
  }()

  /// The checksum of `bytes`, continuing from `seed` (the checksum of what came before).
  ///
  /// - Complexity: O(n).
  static func checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
    guard let base = bytes.baseAddress else { return seed }
    if hasHardware { return ~ccrc32c_hardware(~seed, base, bytes.count) }
    return tableChecksum(bytes, seed: seed)
  }

  /// The checksum computed with the tables, on any processor.
  static func tableChecksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
    guard let base = bytes.baseAddress else { return seed }
    let count = bytes.count
    // The running value and offset live inside the closure: captured from outside, they
    // were kept in memory across every step when this function is not inlined (2.6 times
    // slower in a profile of opening an index).
    return tables.withUnsafeBufferPointer { table -> UInt32 in
      let t = table.baseAddress!
      var crc = ~seed
      var offset = 0
      while offset + 8 <= count {
        let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
        let low = UInt32(truncatingIfNeeded: word) ^ crc
        let high = UInt32(truncatingIfNeeded: word >> 32)
        crc =
          t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
          ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
          ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
          ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
        offset += 8
      }
      while offset < count {
        crc =
          t[Int((crc ^ UInt32(base.load(fromByteOffset: offset, as: UInt8.self))) & 0xFF)]
          ^ (crc >> 8)
        offset += 1
      }
      return ~crc
    }
  }
}
