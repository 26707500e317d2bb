/// The candidates of one content type's lists: the counters whose short sums reached the
/// minimum observed count, each with a copy of its counters.
///
/// A refresh reads every candidate of its list. Read through the counter table, each one is
/// a cache miss in a table of millions (and a refresh comes after thousands of events have
/// pushed the table out of the cache): a cold refresh took ten times a warm one. So the
/// candidates keep copies of their counters in dense arrays, which a refresh reads in
/// order, and recording updates the copy of a candidate's counter along with the counter
/// (``TrendingState`` keeps them equal: every change outside recording rebuilds the
/// candidates, or ``resynchronize(from:)`` them). A table from counter keys to array
/// locations keeps each candidate in once and finds its copy. Each list of a type, global or
/// regional, has an array of its own, so that a refresh reads its own candidates only (the
/// regional ones were twice the global ones in the benchmark's stream); the one table of
/// locations, for all of them, still finds a copy with one lookup.
///
/// A candidate whose item the catalog does not hold (a video known only from a post, say) is
/// counted but never listed: once a refresh finds it absent, it moves to a set of its own
/// that refreshes do not read and recording does not copy to, until the catalog changes
/// (``forgetPositions(catalogSerial:from:)`` moves them back, their copies read again). In
/// the benchmark's stream they were two candidates in three.
struct CandidateList: Sendable {
  /// What a refresh reads of a counter: its sums and totals, and its distinct users counted
  /// (the sketch itself is left out). 28 bytes, so that a candidate is 48, not 64.
  struct Counters: Sendable, Equatable {
    var short: UInt64
    var long: UInt64
    var views: UInt32
    var lifetimeActors: UInt32
    var distinctUsers: UInt32

    init(_ counters: ItemCounters) {
      short = counters.short
      long = counters.long
      views = counters.views
      lifetimeActors = counters.lifetimeActors
      distinctUsers = UInt32(counters.users.count)
    }
  }

  struct Candidate: Sendable {
    /// The key of the counter: the item's, or the item's in one region.
    var counter: ContentKey
    /// The key of the item.
    var item: ContentKey
    /// A copy of the counter.
    var counters: Counters
    /// The item's position in the catalog ``CandidateList/catalogSerial`` names,
    /// ``unresolved`` until a refresh looks it up, or ``absent``.
    var position: Int32

    static let unresolved: Int32 = -2
    static let absent: Int32 = -1
  }

  /// The share of the candidate threshold below which a candidate's short sum makes it leave
  /// (see `TrendingContent.score`): half.
  static let leavingShare = 0.5

  /// The region key of each list's array in ``lists`` (0 for the global list), in the order
  /// the lists got their first candidate.
  private(set) var regions: [UInt64] = []
  /// The candidates of each list, in no particular order.
  private(set) var lists: [[Candidate]] = []
  /// The candidates found absent from the catalog, with the index in ``lists`` of their
  /// list; their copies of their counters are not kept.
  private(set) var absent: [(list: Int, candidate: Candidate)] = []
  /// Where each candidate's counter key is: its list's index in ``lists`` in the high 32
  /// bits, its offset in the list's array in the low 32; for an absent candidate,
  /// ``absentLocation``.
  private var locations = FingerprintTable<ContentKey, UInt64>(maximumLoad: 0.7)
  /// The location of every absent candidate.
  private static let absentLocation = UInt64.max
  /// The ``TrendingCatalog/serial`` of the catalog the resolved positions are in.
  var catalogSerial: UInt64 = 0

  /// The candidates of every list, absent ones included.
  var count: Int { locations.count }

  /// Every candidate whose item was not found absent, list by list: for checks.
  var all: [Candidate] { Array(lists.joined()) }

  /// The index in ``lists`` of the list of `region`, or `nil` when it has had no candidate.
  func list(ofRegion region: UInt64) -> Int? { regions.firstIndex(of: region) }

  private static func location(list: Int, offset: Int) -> UInt64 {
    UInt64(list) << 32 | UInt64(offset)
  }

  private static func parts(of location: UInt64) -> (list: Int, offset: Int) {
    (Int(location >> 32), Int(location & 0xFFFF_FFFF))
  }

  /// Adds a candidate to the list of `region`, or replaces the copy of its counters when its
  /// counter is one already.
  mutating func insert(
    counter: ContentKey, item: ContentKey, region: UInt64, counters: ItemCounters
  ) {
    if let location = locations[counter] {
      guard location != Self.absentLocation else { return }
      let (list, offset) = Self.parts(of: location)
      lists[list][offset].counters = Counters(counters)
      return
    }
    let list =
      self.list(ofRegion: region)
      ?? {
        regions.append(region)
        lists.append([])
        return lists.count - 1
      }()
    locations[counter] = Self.location(list: list, offset: lists[list].count)
    lists[list].append(
      Candidate(
        counter: counter, item: item, counters: Counters(counters),
        position: Candidate.unresolved))
  }

  /// Replaces the copy of `counter`'s counters, when it is a candidate.
  @inline(__always)
  mutating func update(_ counter: ContentKey, to counters: ItemCounters) {
    guard let location = locations[counter], location != Self.absentLocation else { return }
    let (list, offset) = Self.parts(of: location)
    lists[list][offset].counters = Counters(counters)
  }

  /// Copies every candidate's counters again from `table`; a candidate whose counter is gone
  /// gets empty ones, and leaves at its list's next refresh.
  mutating func resynchronize(from table: FingerprintTable<ContentKey, ItemCounters>) {
    for list in lists.indices {
      for offset in lists[list].indices {
        lists[list][offset].counters = Counters(
          table[lists[list][offset].counter] ?? ItemCounters())
      }
    }
  }

  /// Calls `body` with the candidates of one list (an index in ``lists``), which it may
  /// change in place: resolve positions. It must not add, remove or reorder them.
  mutating func withCandidates<Result>(
    ofList list: Int, _ body: (inout [Candidate]) -> Result
  ) -> Result {
    // Taken out while `body` runs, so that its changes are to a uniquely held array.
    var candidates = lists[list]
    lists[list] = []
    defer { lists[list] = candidates }
    let count = candidates.count
    let result = body(&candidates)
    precondition(candidates.count == count, "a candidate list's body added or removed some")
    return result
  }

  /// Marks every position unresolved, for the catalog with `serial`, and moves the absent
  /// candidates back to their lists, with their counters copied again from `table`.
  mutating func forgetPositions(
    catalogSerial serial: UInt64, from table: FingerprintTable<ContentKey, ItemCounters>
  ) {
    for list in lists.indices {
      for offset in lists[list].indices { lists[list][offset].position = Candidate.unresolved }
    }
    for (list, candidate) in absent {
      var returned = candidate
      returned.position = Candidate.unresolved
      returned.counters = Counters(table[candidate.counter] ?? ItemCounters())
      locations[candidate.counter] = Self.location(list: list, offset: lists[list].count)
      lists[list].append(returned)
    }
    absent = []
    catalogSerial = serial
  }

  /// Takes the candidates at `removed` (offsets in the list's array, increasing) out of one
  /// list, filling each hole with the list's last candidate, so that only the moved ones
  /// change offset; those at `absentOffsets` (increasing too, none of them in `removed`)
  /// move to the absent set, the others leave.
  mutating func remove(
    atSortedOffsets removed: [Int], absentAt absentOffsets: [Int] = [], fromList list: Int
  ) {
    var removed = removed[...]
    var absentOffsets = absentOffsets[...]
    while true {
      let offset = Swift.max(removed.last ?? -1, absentOffsets.last ?? -1)
      guard offset >= 0 else { break }
      let isAbsent = absentOffsets.last == offset
      if isAbsent { absentOffsets.removeLast() } else { removed.removeLast() }
      let taken = lists[list][offset]
      if isAbsent {
        absent.append((list, taken))
        locations[taken.counter] = Self.absentLocation
      } else {
        locations.removeValue(forKey: taken.counter)
      }
      let last = lists[list].removeLast()
      // Offsets past this one were taken first, so the last candidate is one that stays.
      if offset < lists[list].count {
        lists[list][offset] = last
        locations[last.counter] = Self.location(list: list, offset: offset)
      }
    }
  }

  /// The bytes held: the arrays' capacities and the table's slots.
  var allocatedBytes: Int {
    lists.reduce(0) { $0 + $1.capacity * MemoryLayout<Candidate>.stride }
      + absent.capacity * MemoryLayout<(Int, Candidate)>.stride + locations.allocatedBytes
  }
}
