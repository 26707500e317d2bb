/// The journal of deduplicated contributions, one table per deduplication bucket.
///
/// A video's entries are keyed by the short-window span they fall in, and events arrive
/// nearly in time order, so nearly every new entry goes to the newest span's table: a table
/// of one span's entries stays in the cache where one table of the whole retention horizon
/// would miss on every insertion, and a new span's table is sized once from the last one's
/// count instead of growing through the whole journal's rehashes. A short landmark move reads
/// the tables of the recent spans in slot order rather than looking up recent keys one by
/// one. Partitioning by time is how time-series stores keep their writes local and their
/// expiry cheap (Gorilla keeps its data in two-hour blocks: Pelkonen et al., VLDB 2015).
///
/// Entries that count once for an item's life (``JournalKey/lifetime``) have one table of
/// their own. Which table holds an entry follows from its key alone, so two journals with the
/// same entries have the same tables, whatever the order they were filled in.
struct PartitionedJournal: Sendable {
  typealias Table = FingerprintTable<JournalKey, JournalEntry>

  /// The entries of one bucket.
  struct Partition: Sendable {
    let bucket: Int64
    /// No entry's time is later than this: a walk for recent entries skips older tables.
    private(set) var latestTime: Int64
    private(set) var table: Table

    fileprivate init(bucket: Int64, capacity: Int) {
      self.bucket = bucket
      latestTime = .min
      // The lifetime table grows for as long as posts come, so it doubles: a rehash moves
      // each entry about once, where growing by half moves it twice.
      table = PartitionedJournal.makeTable(
        capacity: capacity, growthFactor: bucket == JournalKey.lifetime ? 2 : 1.5)
    }

    fileprivate mutating func modify<Result>(
      _ key: JournalKey, inserting entry: JournalEntry,
      _ body: (inout JournalEntry, _ isNew: Bool) -> Result
    ) -> Result {
      var stored = Int64.min
      let result = table.modifyValue(forKey: key, inserting: entry) {
        value, isNew -> Result in
        let result = body(&value, isNew)
        stored = value.time
        return result
      }
      latestTime = Swift.max(latestTime, stored)
      return result
    }

    fileprivate mutating func remove(_ key: JournalKey) -> JournalEntry? {
      table.removeValue(forKey: key)
    }

    fileprivate mutating func removeAll(where shouldBeRemoved: (JournalKey, JournalEntry) -> Bool) {
      table.removeAll(where: shouldBeRemoved)
    }
  }

  /// Sorted by bucket; none is empty.
  private(set) var partitions: [Partition] = []
  /// The entries held.
  private(set) var count = 0

  init() {}

  /// Most contributions add an entry, so a table keeps a lower load than the counters': from
  /// 47% to 70%, about 6 slots walked per insertion at most.
  fileprivate static func makeTable(capacity: Int, growthFactor: Double) -> Table {
    Table(maximumLoad: 0.7, growthFactor: growthFactor, minimumCapacity: capacity)
  }

  /// The bytes the tables' slots take.
  var allocatedBytes: Int { partitions.reduce(0) { $0 + $1.table.allocatedBytes } }

  // MARK: Lookup

  /// Where the partition of `bucket` is, or would be inserted: the newest is checked first,
  /// since nearly every event falls in it.
  @inline(__always)
  private func location(of bucket: Int64) -> (index: Int, found: Bool) {
    if let last = partitions.last {
      if last.bucket == bucket { return (partitions.count - 1, true) }
      if last.bucket < bucket { return (partitions.count, false) }
    }
    var low = 0
    var high = partitions.count
    while low < high {
      let middle = (low + high) / 2
      if partitions[middle].bucket < bucket { low = middle + 1 } else { high = middle }
    }
    return (low, low < partitions.count && partitions[low].bucket == bucket)
  }

  /// The entry of `key`, or `nil`; setting `nil` removes it.
  subscript(key: JournalKey) -> JournalEntry? {
    get {
      let (index, found) = location(of: key.bucket)
      return found ? partitions[index].table[key] : nil
    }
    set {
      if let newValue {
        modifyValue(forKey: key, inserting: newValue) { stored, _ in stored = newValue }
      } else {
        removeValue(forKey: key)
      }
    }
  }

  /// Starts loading the slot of `key` into the cache (see ``FingerprintTable/prefetch(_:)``).
  @inline(__always)
  func prefetch(_ key: JournalKey) {
    let (index, found) = location(of: key.bucket)
    if found { partitions[index].table.prefetch(key) }
  }

  /// Changes the entry of `key` in place, inserting `entry` first when the key is missing.
  ///
  /// - Returns: What `body` returns; its second argument says whether the key was inserted.
  @discardableResult
  mutating func modifyValue<Result>(
    forKey key: JournalKey, inserting entry: JournalEntry,
    _ body: (inout JournalEntry, _ isNew: Bool) -> Result
  ) -> Result {
    let index = partitionIndex(creating: key.bucket)
    let before = partitions[index].table.count
    let result = partitions[index].modify(key, inserting: entry, body)
    count += partitions[index].table.count - before
    return result
  }

  /// The index of the partition of `bucket`, made when missing.
  private mutating func partitionIndex(creating bucket: Int64) -> Int {
    let (index, found) = location(of: bucket)
    if found { return index }
    // A new span usually holds about as many entries as the one before it, give or take the
    // daily cycle: sized for a quarter more, its table seldom rehashes while it fills.
    let previous = index > 0 ? partitions[index - 1] : nil
    let capacity =
      previous.map { $0.bucket == JournalKey.lifetime ? 0 : $0.table.count * 5 / 4 } ?? 0
    partitions.insert(Partition(bucket: bucket, capacity: capacity), at: index)
    return index
  }

  /// Removes `key`.
  ///
  /// - Returns: Its entry, or `nil` when it was missing.
  @discardableResult
  mutating func removeValue(forKey key: JournalKey) -> JournalEntry? {
    let (index, found) = location(of: key.bucket)
    guard found, let removed = partitions[index].remove(key) else { return nil }
    count -= 1
    if partitions[index].table.count == 0 { partitions.remove(at: index) }
    return removed
  }

  // MARK: Bulk changes

  /// Removes the entries `shouldBeRemoved` picks.
  ///
  /// - Complexity: O(n) in the slots.
  mutating func removeAll(where shouldBeRemoved: (JournalKey, JournalEntry) -> Bool) {
    for index in partitions.indices { partitions[index].removeAll(where: shouldBeRemoved) }
    partitions.removeAll { $0.table.count == 0 }
    count = partitions.reduce(0) { $0 + $1.table.count }
  }

  /// Calls `body` with every entry whose time is `time` or later, table by table in slot
  /// order; tables whose entries are all older are skipped.
  func forEachEntry(from time: Int64, _ body: (JournalKey, JournalEntry) -> Void) {
    for partition in partitions where partition.latestTime >= time {
      for (key, entry) in partition.table where entry.time >= time { body(key, entry) }
    }
  }
}

extension PartitionedJournal: Sequence {
  /// Every entry, table by table in bucket order.
  struct Iterator: IteratorProtocol {
    fileprivate let partitions: [Partition]
    fileprivate var index = 0
    fileprivate var entries: Table.Iterator?

    mutating func next() -> (key: JournalKey, value: JournalEntry)? {
      while true {
        if let entry = entries?.next() { return entry }
        guard index < partitions.count else { return nil }
        entries = partitions[index].table.makeIterator()
        index += 1
      }
    }
  }

  func makeIterator() -> Iterator { Iterator(partitions: partitions) }

  var underestimatedCount: Int { count }
}

extension PartitionedJournal: Equatable {
  /// Whether both hold the same entries, whatever order they were made in.
  static func == (lhs: PartitionedJournal, rhs: PartitionedJournal) -> Bool {
    lhs.count == rhs.count
      && lhs.partitions.elementsEqual(rhs.partitions) {
        $0.bucket == $1.bucket && $0.table == $1.table
      }
  }
}
