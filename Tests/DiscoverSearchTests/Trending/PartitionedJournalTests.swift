import SyntheticCorpus
import Testing

@testable import DiscoverSearch

@Suite("PartitionedJournal")
struct PartitionedJournalTests {
  /// A key in one of a few buckets (the lifetime one among them), drawn from a small range
  /// so that inserts, merges and removals of one key mix.
  private static func key(_ number: UInt64, bucket: UInt64) -> JournalKey {
    JournalKey(
      item: ContentKey(rawValue: ContentKey.mix(number % 97 &+ 1) | 1),
      actor: ContentKey(rawValue: ContentKey.mix(number &+ 1_000) | 1),
      bucket: bucket == 0 ? JournalKey.lifetime : Int64(bucket) - 3, region: 0)
  }

  private static func entry(time: Int64, views: UInt32) -> JournalEntry {
    JournalEntry(
      type: .video, user: ContentKey(rawValue: 5), time: time, lastTime: time, weight: 1,
      views: views)
  }

  @Test func behavesLikeADictionaryWhateverTheBucketOrder() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(seed: seed)
    var journal = PartitionedJournal()
    var reference: [JournalKey: JournalEntry] = [:]
    for _ in 0..<20_000 {
      // Buckets out of order: late events reach old buckets, some before any newer one.
      let key = Self.key(random.next() % 2_000, bucket: random.next() % 7)
      let entry = Self.entry(time: Int64(random.next() % 10_000), views: 1)
      switch random.next() % 5 {
      case 0, 1, 2:
        let isNew = journal.modifyValue(forKey: key, inserting: entry) { stored, isNew in
          if !isNew { stored = stored.merged(with: entry) }
          return isNew
        }
        #expect(isNew == (reference[key] == nil), "seed \(seed)")
        reference[key] = reference[key].map { $0.merged(with: entry) } ?? entry
      case 3:
        #expect(journal.removeValue(forKey: key) == reference.removeValue(forKey: key))
      default:
        #expect(journal[key] == reference[key], "seed \(seed)")
      }
    }
    #expect(journal.count == reference.count, "seed \(seed)")
    #expect(Dictionary(uniqueKeysWithValues: journal.map { ($0.key, $0.value) }) == reference)
    #expect(journal.partitions.map(\.bucket) == journal.partitions.map(\.bucket).sorted())
    #expect(journal.partitions.allSatisfy { $0.table.count > 0 }, "no empty table is kept")
  }

  @Test func equalEntriesMakeEqualJournalsWhateverTheOrder() {
    let keys = (0..<3_000).map { Self.key(UInt64($0), bucket: UInt64($0 % 5)) }
    var forward = PartitionedJournal()
    var backward = PartitionedJournal()
    for (number, key) in keys.enumerated() {
      forward[key] = Self.entry(time: Int64(number), views: 1)
    }
    for (number, key) in keys.enumerated().reversed() {
      backward[key] = Self.entry(time: Int64(number), views: 1)
    }
    #expect(forward == backward)
    backward[keys[17]] = Self.entry(time: 17, views: 2)
    #expect(forward != backward)
  }

  @Test func recentEntriesAreExactlyThoseFromTheTime() {
    var journal = PartitionedJournal()
    for number in 0..<4_000 {
      // Times rise with the bucket, as a video's spans do.
      let bucket = UInt64(number / 500 + 1)
      journal[Self.key(UInt64(number), bucket: bucket)] = Self.entry(
        time: Int64(number), views: 1)
    }
    journal.removeAll { _, entry in entry.time % 7 == 0 }
    var seen: [Int64] = []
    journal.forEachEntry(from: 2_600) { _, entry in seen.append(entry.time) }
    #expect(seen.sorted() == (2_600..<4_000).filter { $0 % 7 != 0 })
    #expect(journal.count == (0..<4_000).filter { $0 % 7 != 0 }.count)
  }
}
