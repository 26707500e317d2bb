import SyntheticCorpus
import Testing

@testable import DiscoverSearch

@Suite("CandidateList")
struct CandidateListTests {
  private static func counter(_ number: UInt64) -> ContentKey {
    ContentKey(rawValue: ContentKey.mix(number &+ 1) | 1)
  }

  private static func counters(short: UInt64) -> ItemCounters {
    var counters = ItemCounters()
    counters.short = short
    return counters
  }

  /// Inserts, updates and removals in random order against a dictionary, over three lists:
  /// every candidate is in once, in its region's list, and an insert or update reaches its
  /// candidate's copy wherever removals moved it.
  @Test func keepsEachCandidateOnceWithItsLatestCounters() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(seed: seed)
    var list = CandidateList()
    var reference: [ContentKey: UInt64] = [:]
    var regionOf: [ContentKey: UInt64] = [:]
    for step in 0..<5_000 {
      let number = random.next() % 300
      let key = Self.counter(number)
      let region = number % 3
      regionOf[key] = region
      switch random.next() % 4 {
      case 0:
        let short = random.next() % 1_000
        list.insert(counter: key, item: key, region: region, counters: Self.counters(short: short))
        reference[key] = short
      case 1, 2:
        let short = random.next() % 1_000
        list.update(key, to: Self.counters(short: short))
        if reference[key] != nil { reference[key] = short }
      default:
        // A refresh drops the candidates of its list that cooled: a random subset, in
        // increasing order.
        guard let index = list.list(ofRegion: random.next() % 3) else { continue }
        let removed = list.lists[index].indices.filter { _ in random.next() % 8 == 0 }
        for offset in removed { reference[list.lists[index][offset].counter] = nil }
        list.remove(atSortedOffsets: removed, fromList: index)
      }
      if step % 100 == 0 || step == 4_999 {
        let listed = Dictionary(
          list.all.map { ($0.counter, $0.counters.short) },
          uniquingKeysWith: { _, _ in
            UInt64.max
          })
        #expect(list.count == listed.count, "a candidate is in twice (seed \(seed))")
        #expect(list.all.count == listed.count, "a candidate is in twice (seed \(seed))")
        #expect(listed == reference, "seed \(seed), step \(step)")
        for (index, region) in list.regions.enumerated() {
          #expect(
            list.lists[index].allSatisfy { regionOf[$0.counter] == region },
            "a candidate is in another region's list (seed \(seed))")
        }
      }
    }
  }

  @Test func removingTheLastCandidatesLeavesTheOthersReachable() {
    var list = CandidateList()
    for number in 0..<5 {
      let key = Self.counter(UInt64(number))
      list.insert(
        counter: key, item: key, region: 0, counters: Self.counters(short: UInt64(number)))
    }
    list.insert(
      counter: Self.counter(9), item: Self.counter(9), region: 7, counters: Self.counters(short: 9)
    )
    let global = list.list(ofRegion: 0)!
    list.remove(atSortedOffsets: [0, 3, 4], fromList: global)
    #expect(Set(list.lists[global].map(\.counters.short)) == [1, 2])
    list.update(Self.counter(1), to: Self.counters(short: 10))
    list.update(Self.counter(4), to: Self.counters(short: 40))
    list.update(Self.counter(9), to: Self.counters(short: 90))
    #expect(Set(list.lists[global].map(\.counters.short)) == [10, 2])
    #expect(list.lists[list.list(ofRegion: 7)!].map(\.counters.short) == [90])
    list.insert(counter: Self.counter(4), item: Self.counter(4), region: 0, counters: .filler)
    #expect(list.count == 4)
  }
}
