/// The candidates of one list: the counters whose short sums reached the minimum observed
/// count, each with its item's key.
///
/// A refresh reads every candidate, so they are kept in one dense array, read in order and
/// compacted in place (``removeAll(where:)``); a table of their counter keys keeps each in
/// once, since a counter can cross the threshold again before a refresh drops it.
struct CandidateList: Sendable {
  struct Candidate: Sendable {
    /// The key of the counter: the item's, or the item's in one region.
    var counter: ContentKey
    /// The key of the item.
    var item: ContentKey
  }

  /// The candidates, in no particular order.
  private(set) var entries: [Candidate] = []
  /// The counter keys of ``entries``; the values are unused.
  private var members = FingerprintTable<ContentKey, Int32>(maximumLoad: 0.7)

  var count: Int { entries.count }
  var isEmpty: Bool { entries.isEmpty }

  /// Adds a candidate unless its counter is one already.
  mutating func insert(counter: ContentKey, item: ContentKey) {
    let isNew = members.modifyValue(forKey: counter, inserting: 0) { _, isNew in isNew }
    if isNew { entries.append(Candidate(counter: counter, item: item)) }
  }

  /// Removes the candidates at `offsets` (in ``entries``, increasing), keeping the others'
  /// order.
  mutating func remove(atSortedOffsets offsets: [Int]) {
    guard !offsets.isEmpty else { return }
    var kept = offsets[0]
    var next = 0
    for index in offsets[0]..<entries.count {
      if next < offsets.count, offsets[next] == index {
        members.removeValue(forKey: entries[index].counter)
        next += 1
      } else {
        entries[kept] = entries[index]
        kept += 1
      }
    }
    entries.removeLast(entries.count - kept)
  }

  /// The bytes held: the array's capacity and the table's slots.
  var allocatedBytes: Int {
    entries.capacity * MemoryLayout<Candidate>.stride + members.allocatedBytes
  }
}
