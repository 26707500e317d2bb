/// The lifetime views of the hashtags, sounds and effects videos use: the views of those
/// videos, in all regions, added up per item.
///
/// A view of a video adds to each of its hashtags, its sound and its effect: about ten items
/// for a video of the benchmark's corpus, and looking each one up in a table was a tenth of
/// recording. So the views of the videos a ``TrendingCatalog`` holds are added to a dense
/// array at the catalog's *use numbers* (one per distinct item its videos use, found with the
/// video's uses, not looked up), and only the views of videos it does not hold go to the
/// table by item key. The two parts are one total: reading an item adds both, and whatever
/// compares, saves, merges or changes the totals otherwise works on them folded into the
/// table (``folded``), so the state stays a pure function of its events, whatever catalog it
/// was recorded with.
struct UseViews: Sendable {
  /// Views by item key: of videos the catalog does not hold, and everything folded.
  private(set) var table = FingerprintTable<ContentKey, UInt64>()
  /// The catalog whose use numbers index ``counts``, or `nil` before the first view.
  private var catalog: TrendingCatalog?
  /// Per use number of ``catalog``, the views not yet folded into the table.
  private var counts: [UInt64] = []
  /// Whether every count is 0.
  private var isFolded = true

  /// Adds views to one item.
  mutating func add(_ views: UInt64, to item: ContentKey) {
    table[item, default: 0] &+= views
  }

  /// Adds the views of a catalog video to everything it uses.
  ///
  /// - Complexity: O(u) in the video's uses; O(n) in the items of the catalog's videos when
  ///   the catalog is not the one the counts are bound to (its counts are folded first).
  @inline(__always)
  mutating func add(_ views: UInt32, toUsesOfVideoAt position: Int, catalog: TrendingCatalog) {
    if self.catalog !== catalog { bind(to: catalog) }
    isFolded = false
    let views = UInt64(views)
    counts.withUnsafeMutableBufferPointer { counts in
      catalog.withUseNumbers(ofVideoAt: position) { numbers in
        for number in numbers {
          // SAFETY: a use number is below `catalog.usedItems.count`, the size `bind(to:)`
          // gave the counts of this catalog.
          assert(Int(number) < counts.count)
          counts[Int(number)] &+= views
        }
      }
    }
  }

  /// Folds the counts into the table and binds them to `catalog`.
  private mutating func bind(to catalog: TrendingCatalog) {
    fold()
    self.catalog = catalog
    counts = Array(repeating: 0, count: catalog.usedItems.count)
  }

  /// The views of an item.
  func views(of item: ContentKey) -> UInt64 {
    let pending = catalog?.useNumber(of: item).map { counts[$0] } ?? 0
    return (table[item] ?? 0) &+ pending
  }

  /// The views of the item at a document position of `catalog`: with that catalog, its
  /// counts are read at the position's use number, without a lookup.
  @inline(__always)
  func views(
    of item: ContentKey, _ type: ContentType, at position: Int, in catalog: TrendingCatalog
  )
    -> UInt64
  {
    guard self.catalog === catalog else { return views(of: item) }
    let pending = catalog.useNumber(of: type, at: position).map { counts[$0] } ?? 0
    return (table[item] ?? 0) &+ pending
  }

  /// Moves the counts into the table, keeping the catalog's binding.
  mutating func fold() {
    guard let catalog, !isFolded else { return }
    isFolded = true
    for (number, views) in counts.enumerated() where views != 0 {
      table[catalog.usedItems[number], default: 0] &+= views
      counts[number] = 0
    }
  }

  /// Every item's views, in a table by key.
  var folded: FingerprintTable<ContentKey, UInt64> {
    var copy = self
    copy.fold()
    return copy.table
  }

  /// Takes up to `views` from an item.
  mutating func subtract(_ views: UInt64, from item: ContentKey) {
    fold()
    guard let current = table[item] else { return }
    table[item] = current - min(current, views)
  }

  /// Removes the items `shouldBeRemoved` picks.
  mutating func removeAll(where shouldBeRemoved: (ContentKey) -> Bool) {
    fold()
    table.removeAll { key, _ in shouldBeRemoved(key) }
  }

  /// Makes room for `count` items in the table.
  mutating func reserveCapacity(_ count: Int) { table.reserveCapacity(count) }

  /// The bytes held: the table's slots and the counts.
  var allocatedBytes: Int {
    table.allocatedBytes + counts.capacity * MemoryLayout<UInt64>.stride
  }
}

extension UseViews: Equatable {
  /// Whether both hold the same views per item, however they are split between the table
  /// and the counts.
  static func == (lhs: UseViews, rhs: UseViews) -> Bool { lhs.folded == rhs.folded }
}
