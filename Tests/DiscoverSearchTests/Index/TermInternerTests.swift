import Testing

@testable import DiscoverSearch

/// `TermInterner.reserveCapacity(_:)` and the geometric `Array.reserveCapacity(adding:)`
/// that the writer's batches use.
@Suite struct TermInternerTests {
  private func key(_ number: Int) -> [UInt8] { Array("term-\(number)".utf8) }

  @Test func reservingMidwayKeepsEveryIDAndFindsEveryKey() {
    var interner = TermInterner()
    for number in 0..<300 {
      #expect(key(number).withUnsafeBytes { interner.intern($0) } == UInt32(number))
    }
    // Far past the table's size: every slot moves to a new table at once.
    interner.reserveCapacity(50_000)
    for number in 300..<20_000 {
      #expect(key(number).withUnsafeBytes { interner.intern($0) } == UInt32(number))
    }
    // Less than it holds: nothing to do.
    interner.reserveCapacity(10)
    #expect(interner.count == 20_000)
    for number in stride(from: 0, to: 20_000, by: 7) {
      #expect(key(number).withUnsafeBytes { interner.find($0) } == UInt32(number))
      #expect(key(number).withUnsafeBytes { interner.intern($0) } == UInt32(number))
    }
    #expect(key(20_000).withUnsafeBytes { interner.find($0) } == nil)
  }

  @Test func reservingBeforeEachSmallBatchGrowsGeometrically() {
    var values: [Int] = []
    var capacities: Set<Int> = []
    for value in 0..<10_000 {
      values.reserveCapacity(adding: 1)
      values.append(value)
      capacities.insert(values.capacity)
    }
    #expect(values == Array(0..<10_000))
    // Exact reservations would grow 10,000 times; doubling takes about log2(10,000).
    #expect(capacities.count <= 20)
  }
}
