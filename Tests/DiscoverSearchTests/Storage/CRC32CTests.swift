import SyntheticCorpus
import Testing

@testable import DiscoverSearch

@Suite("CRC32C")
struct CRC32CTests {
  private static func checksum(_ bytes: [UInt8], seed: UInt32 = 0, tables: Bool = false) -> UInt32 {
    bytes.withUnsafeBytes {
      tables ? CRC32C.tableChecksum($0, seed: seed) : CRC32C.checksum($0, seed: seed)
    }
  }

  /// The check value of the Castagnoli CRC (RFC 3720's catalogue: "123456789" gives
  /// 0xE3069283), and an empty buffer keeps its seed, on both paths.
  @Test func knownValues() {
    for tables in [false, true] {
      #expect(Self.checksum(Array("123456789".utf8), tables: tables) == 0xE306_9283)
      #expect(Self.checksum([UInt8](repeating: 0, count: 32), tables: tables) == 0x8A91_36AA)
      #expect(Self.checksum([], seed: 77, tables: tables) == 77)
    }
  }

  /// The instruction and the tables agree on every length and alignment, and a checksum
  /// continued from a seed equals the checksum of the whole.
  @Test func theInstructionAgreesWithTheTables() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(seed: seed)
    let bytes = (0..<4_096).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    for _ in 0..<2_000 {
      let start = Int(random.next() % 64)
      let end = start + Int(random.next() % UInt64(bytes.count - start))
      let slice = Array(bytes[start..<end])
      let whole = Self.checksum(slice, tables: true)
      #expect(Self.checksum(slice) == whole, "seed \(seed): \(start)..<\(end)")
      let split = Int(random.next() % UInt64(slice.count + 1))
      let first = Self.checksum(Array(slice[..<split]))
      #expect(Self.checksum(Array(slice[split...]), seed: first) == whole, "seed \(seed)")
    }
  }
}
