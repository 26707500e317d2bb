import SyntheticCorpus
import Testing

@testable import DiscoverSearch

/// The cut of an impact order: the value of a given rank among a list's impacts. A wrong
/// cut keeps the wrong postings in the threshold algorithm's list.
@Suite struct ImpactSelectTests {
  /// The given ranks of `values` (all of them by default), against a sort, by the radix
  /// select and by the sampling select.
  private func expectRanks(_ values: [Float], _ ranks: [Int]? = nil) {
    let sorted = values.sorted(by: >)
    var scratch = UnsafeGrowableBuffer<Float>()
    defer { scratch.deallocate() }
    values.withUnsafeBufferPointer { buffer in
      for rank in ranks ?? Array(values.indices) {
        let expected = sorted[rank].bitPattern
        let radix = PostingsEncoder.radixSelect(
          buffer.baseAddress!, count: values.count, rank: rank)
        #expect(radix.bitPattern == expected, "rank \(rank) of \(values.count)")
        let sampled = PostingsEncoder.select(
          buffer.baseAddress!, count: values.count, rank: rank, scratch: &scratch)
        #expect(sampled.bitPattern == expected, "rank \(rank) of \(values.count)")
      }
    }
  }

  @Test func selectsEveryRankOfSmallLists() {
    expectRanks([0])
    expectRanks([3.5])
    expectRanks([1, 2])
    expectRanks([2, 2, 2, 2])
    expectRanks([0, 0, 1, 0])
    // Values that share their high bits and differ only in the lowest digit.
    let one: Float = 1
    expectRanks([one, one.nextUp, one.nextUp.nextUp, one.nextDown, one])
    expectRanks([.infinity, 0, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 7])
  }

  /// Few distinct values, so many ties, spread over many exponents.
  private func randomList(length: Int, distinct: Int, _ generator: inout SplitMix64) -> [Float] {
    let pool = (0..<distinct).map { _ in
      Float.random(in: 0...40, using: &generator) * (Bool.random(using: &generator) ? 1 : 1e-3)
    }
    return (0..<length).map { _ in pool.randomElement(using: &generator)! }
  }

  @Test func selectsEveryRankOfRandomListsWithRepeats() {
    var generator = SplitMix64(seed: 12)
    for length in [3, 17, 64, 300, 1000] {
      expectRanks(randomList(length: length, distinct: max(length / 4, 1), &generator))
    }
  }

  /// Lists long enough to be narrowed by a sample: distinct values, heavy ties (which
  /// overflow the gathered values and fall back), one value throughout, and ranks at both
  /// ends and where impact orders cut (an eighth of the list, or 64).
  @Test func selectsRanksOfLongListsThroughTheSample() {
    var generator = SplitMix64(seed: 7)
    for (length, distinct) in [(4096, 4096), (5000, 3), (20_000, 200), (100_000, 100_000)] {
      let values = randomList(length: length, distinct: distinct, &generator)
      expectRanks(values, [0, 1, 63, length / 8 - 1, length / 2, length - 1])
    }
    expectRanks([Float](repeating: 2.5, count: 8192), [0, 1023, 8191])
  }
}
