/// The candidates of one content type's lists: the counters whose short sums reached the
/// minimum observed count, each with a copy of its counters.
///
/// A refresh reads every candidate of its list. Read through the counter table, each one is
/// a cache miss in a table of millions (and a refresh comes after thousands of events have
/// pushed the table out of the cache): a cold refresh took ten times a warm one. So the
/// candidates keep copies of their counters in one dense array, which a refresh reads in
/// order, and recording updates the copy of a candidate's counter along with the counter
/// (``TrendingState`` keeps them equal: every change outside recording rebuilds the
/// candidates, or ``resynchronize(from:)`` them). A table from counter keys to array
/// offsets keeps each candidate in once and finds its copy. The lists of a type, global and
/// regional, share the array, so that recording finds a copy with one lookup; a refresh of
/// one list skips the other lists' candidates, a read of each.
struct CandidateList: Sendable {
  struct Candidate: Sendable {
    /// The key of the counter: the item's, or the item's in one region.
    var counter: ContentKey
    /// The key of the item.
    var item: ContentKey
    /// The region key of the counter's list; 0 for the global list.
    var region: UInt64
    /// A copy of the counter.
    var counters: ItemCounters
    /// The item's position in the catalog ``CandidateList/catalogSerial`` names,
    /// ``unresolved`` until a refresh looks it up, or ``absent``.
    var position: Int32

    static let unresolved: Int32 = -2
    static let absent: Int32 = -1
  }

  /// The candidates, in no particular order.
  private(set) var entries: [Candidate] = []
  /// The offset in ``entries`` of each candidate's counter key.
  private var offsets = FingerprintTable<ContentKey, Int32>(maximumLoad: 0.7)
  /// The ``TrendingCatalog/serial`` of the catalog the resolved positions are in.
  var catalogSerial: UInt64 = 0

  var count: Int { entries.count }

  /// Adds a candidate, or replaces the copy of its counters when its counter is one already.
  mutating func insert(
    counter: ContentKey, item: ContentKey, region: UInt64, counters: ItemCounters
  ) {
    let offset = offsets.modifyValue(forKey: counter, inserting: Int32(entries.count)) {
      offset, _ in offset
    }
    if Int(offset) == entries.count {
      entries.append(
        Candidate(
          counter: counter, item: item, region: region, counters: counters,
          position: Candidate.unresolved))
    } else {
      entries[Int(offset)].counters = counters
    }
  }

  /// Replaces the copy of `counter`'s counters, when it is a candidate.
  @inline(__always)
  mutating func update(_ counter: ContentKey, to counters: ItemCounters) {
    guard let offset = offsets[counter] else { return }
    entries[Int(offset)].counters = counters
  }

  /// Copies every candidate's counters again from `table`; a candidate whose counter is gone
  /// gets empty ones, and leaves at its list's next refresh.
  mutating func resynchronize(from table: FingerprintTable<ContentKey, ItemCounters>) {
    for index in entries.indices {
      entries[index].counters = table[entries[index].counter] ?? ItemCounters()
    }
  }

  /// Sets the catalog position of the candidate at `offset`.
  mutating func setPosition(_ position: Int32, at offset: Int) {
    entries[offset].position = position
  }

  /// Marks every position unresolved, for the catalog with `serial`.
  mutating func forgetPositions(catalogSerial serial: UInt64) {
    for index in entries.indices { entries[index].position = Candidate.unresolved }
    catalogSerial = serial
  }

  /// Removes the candidates at `removed` (offsets in ``entries``, increasing), filling each
  /// hole with the last candidate, so that only the moved ones change offset.
  mutating func remove(atSortedOffsets removed: [Int]) {
    for offset in removed.reversed() {
      offsets.removeValue(forKey: entries[offset].counter)
      let last = entries.removeLast()
      // Offsets past this one were removed first, so the last candidate is one that stays.
      if offset < entries.count {
        entries[offset] = last
        offsets[last.counter] = Int32(offset)
      }
    }
  }

  /// The bytes held: the array's capacity and the table's slots.
  var allocatedBytes: Int {
    entries.capacity * MemoryLayout<Candidate>.stride + offsets.allocatedBytes
  }
}
