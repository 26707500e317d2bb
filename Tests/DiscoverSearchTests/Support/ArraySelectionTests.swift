import SyntheticCorpus
import Testing

@testable import DiscoverSearch

@Suite("Array selection")
struct ArraySelectionTests {
  /// Every rank of random arrays, with many repeated values, against a sort.
  @Test func everyRankMatchesTheSortedArray() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(seed: seed)
    for size in [1, 2, 3, 10, 101, 1_000] {
      let distinct = UInt64(1 + random.next() % UInt64(size))
      let values = (0..<size).map { _ in Double(random.next() % distinct) - 3.5 }
      let sorted = values.sorted(by: >)
      for rank in 1...size {
        var copy = values
        #expect(copy.largest(rank: rank) == sorted[rank - 1], "seed \(seed), size \(size)")
      }
    }
  }

  @Test func sortedAndReversedInputs() {
    let ascending = (0..<500).map(Double.init)
    var copy = ascending
    #expect(copy.largest(rank: 1) == 499)
    copy = Array(ascending.reversed())
    #expect(copy.largest(rank: 500) == 0)
    copy = [Double](repeating: 7, count: 300)
    #expect(copy.largest(rank: 150) == 7)
  }
}
