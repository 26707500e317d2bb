/// The position of the largest weight in any range of a weight array, and the best k
/// positions of a set of ranges.
///
/// Top-k completion over sorted keys follows Hsu and Ottaviano ("Space-efficient data
/// structures for top-k completion", WWW 2013): the keys with a prefix form one range; its
/// best entry is a range-maximum query; taking it splits the range in two, whose maxima go
/// into a priority queue. Each answer costs one range-maximum query and a heap operation,
/// so a lookup costs the prefix descent plus O(k log k), whatever the dictionary's size.
/// These split ranges are the nodes of a Cartesian tree, the "per-node maximum weights" of a
/// best-first trie search.
///
/// The range-maximum structure is a sparse table (Bender and Farach-Colton, "The LCA Problem
/// Revisited", LATIN 2000) over blocks of ``blockSize`` weights, with the ends of a range
/// scanned: about 4.5 bytes per weight instead of 4 · log n.
///
/// The ranges that lookups ask for most, and that cost most (the nodes of one- or two-letter
/// prefixes, thousands of keys wide, whose range-maximum queries each touch cache lines far
/// apart), can have their best ``cachedCount`` positions computed once: the per-node top-k
/// lists that completion tries commonly store at every node, kept here only for wide nodes
/// so that they cost a few hundred kilobytes.
struct RangeMaximum: Sendable {
  /// Weights scanned directly at the ends of a range: a power of two.
  static let blockSize = 32
  /// The length of a cached list of best positions.
  static let cachedCount = 32
  /// The fewest keys of a trie node whose best positions are worth caching: below it, a
  /// range's weights span a few dozen cache lines at most.
  static let cachedNodeSize = 512
  /// The longest range whose best positions are found by reading all its weights.
  static let scannedRangeLimit = 256
  let weights: Column<UInt32>
  /// The levels of the sparse table, back to back: entry `b` of level `j` (at
  /// `levelStarts[j] + b`) is the position of the largest weight in blocks `b..<b + 2^j`.
  private let levels: Column<UInt32>
  private let levelStarts: [Int]
  /// For a cached range (`lowerBound << 32 | upperBound`), where its best positions start in
  /// ``cachedPositions``.
  private var cachedStarts: [UInt64: UInt32] = [:]
  /// The best ``cachedCount`` positions of each cached range, best first, back to back.
  private var cachedPositions = Column<UInt32>([])

  /// Builds the structure over `weights`, with the best positions of each of `cachedRanges`
  /// (which should be wider than ``cachedCount``) computed now.
  init(weights: [UInt32], cachedRanges: [Range<Int>] = []) {
    self.init(weights: weights)
    var positions: [UInt32] = []
    var starts: [UInt64: UInt32] = [:]
    for range in cachedRanges where range.count >= Self.cachedCount {
      starts[Self.cacheKey(range)] = UInt32(positions.count)
      positions += best(in: [range], count: Self.cachedCount).map { UInt32($0) }
    }
    cachedStarts = starts
    cachedPositions = Column(positions)
  }

  private init(weights: [UInt32]) {
    self.weights = Column(weights)
    let blockCount = (weights.count + Self.blockSize - 1) / Self.blockSize
    let starts = Self.levelStarts(blockCount: blockCount)
    var levels = [UInt32](repeating: 0, count: starts.last ?? 0)
    for block in 0..<blockCount {
      let start = block * Self.blockSize
      let end = min(start + Self.blockSize, weights.count)
      var best = start
      for index in start..<end where weights[index] > weights[best] { best = index }
      levels[block] = UInt32(best)
    }
    for level in 1..<max(starts.count - 1, 1) {
      let width = 1 << (level - 1)
      let previous = starts[level - 1]
      for block in 0..<(starts[level + 1] - starts[level]) {
        let left = levels[previous + block]
        let right = levels[previous + block + width]
        levels[starts[level] + block] = weights[Int(right)] > weights[Int(left)] ? right : left
      }
    }
    self.levels = Column(levels)
    levelStarts = starts
  }

  /// Where each level of the sparse table over `blockCount` blocks starts, and its end:
  /// level `j` holds `blockCount - 2^j + 1` entries, for every `2^j` up to `blockCount`.
  private static func levelStarts(blockCount: Int) -> [Int] {
    var starts = [0]
    var width = 1
    while width <= blockCount {
      starts.append(starts[starts.count - 1] + blockCount - width + 1)
      width *= 2
    }
    return starts
  }

  var byteCount: Int {
    weights.byteCount + levels.byteCount + cachedPositions.byteCount
      + cachedStarts.capacity * (MemoryLayout<UInt64>.stride + MemoryLayout<UInt32>.stride)
  }

  /// What the structure derives from its weights, as an index file keeps it (format 11) so
  /// that opening does not rebuild it.
  struct Tables {
    /// The sparse table's levels, back to back.
    var levels: Column<UInt32>
    /// The cached ranges' keys (`lowerBound << 32 | upperBound`), ascending.
    var cachedKeys: Column<UInt64>
    /// The best ``RangeMaximum/cachedCount`` positions of each cached range, in the order of
    /// ``cachedKeys``.
    var cachedPositions: Column<UInt32>
  }

  /// The derived tables, for saving.
  var tables: Tables {
    let order = cachedStarts.sorted { $0.key < $1.key }
    var positions: [UInt32] = []
    positions.reserveCapacity(order.count * Self.cachedCount)
    for (_, start) in order {
      positions += cachedPositions.buffer[Int(start)..<(Int(start) + Self.cachedCount)]
    }
    return Tables(
      levels: levels, cachedKeys: Column(order.map(\.key)), cachedPositions: Column(positions))
  }

  /// The structure over `weights` with tables read from a file, or `nil` unless every table
  /// has the size the weights imply and every position in them names a weight (so that no
  /// lookup reads out of bounds; a table that passes but lies gives wrong answers, which
  /// the section checksums of ``IndexVerification/full`` catch).
  ///
  /// - Complexity: O(n / ``blockSize`` · log n + c) for n weights and c cached positions.
  init?(weights: Column<UInt32>, validating tables: Tables) {
    let blockCount = (weights.count + Self.blockSize - 1) / Self.blockSize
    let starts = Self.levelStarts(blockCount: blockCount)
    let count = UInt32(truncatingIfNeeded: weights.count)
    guard tables.levels.count == starts[starts.count - 1],
      tables.cachedPositions.count == tables.cachedKeys.count * Self.cachedCount,
      weights.count < Int(UInt32.max),
      Self.allBelow(count, tables.levels.buffer),
      Self.allBelow(count, tables.cachedPositions.buffer)
    else { return nil }
    var cached: [UInt64: UInt32] = [:]
    cached.reserveCapacity(tables.cachedKeys.count)
    for (index, key) in tables.cachedKeys.buffer.enumerated() {
      let lower = key >> 32
      let upper = key & 0xFFFF_FFFF
      guard lower < upper, upper <= UInt64(count) else { return nil }
      cached[key] = UInt32(index * Self.cachedCount)
    }
    self.weights = weights
    levels = tables.levels
    levelStarts = starts
    cachedStarts = cached
    cachedPositions = tables.cachedPositions
  }

  /// Whether every value is below `limit`: a maximum the compiler vectorizes.
  private static func allBelow(_ limit: UInt32, _ values: UnsafeBufferPointer<UInt32>) -> Bool {
    var largest: UInt32 = 0
    for value in values { largest = max(largest, value) }
    return values.isEmpty || largest < limit
  }

  /// The ranges whose best positions are cached, in no particular order.
  var cachedRanges: [Range<Int>] {
    cachedStarts.keys.map { Int($0 >> 32)..<Int($0 & 0xFFFF_FFFF) }
  }

  /// How many ranges have their best positions cached.
  var cachedRangeCount: Int { cachedStarts.count }

  @inline(__always)
  private static func cacheKey(_ range: Range<Int>) -> UInt64 {
    UInt64(truncatingIfNeeded: range.lowerBound) << 32
      | UInt64(truncatingIfNeeded: range.upperBound)
  }

  /// The position of the largest weight in `range` (the first of equal ones), which must
  /// not be empty.
  ///
  /// - Complexity: O(``blockSize``).
  func argmax(_ range: Range<Int>) -> Int {
    let weights = self.weights
    var best = range.lowerBound
    @inline(__always) func consider(_ index: Int) {
      if weights[index] > weights[best] || (weights[index] == weights[best] && index < best) {
        best = index
      }
    }
    let firstFull = (range.lowerBound + Self.blockSize - 1) / Self.blockSize
    let endFull = range.upperBound / Self.blockSize
    guard firstFull < endFull else {
      for index in range { consider(index) }
      return best
    }
    for index in range.lowerBound..<(firstFull * Self.blockSize) { consider(index) }
    for index in (endFull * Self.blockSize)..<range.upperBound { consider(index) }
    let span = endFull - firstFull
    let level = Int.bitWidth - 1 - span.leadingZeroBitCount
    let start = levelStarts[level]
    consider(Int(levels[start + firstFull]))
    consider(Int(levels[start + endFull - (1 << level)]))
    return best
  }

  /// The best positions of `range` by one pass over its weights, for a range no longer
  /// than the inspection limit (so that the result is the one the heap of ranges gives): a
  /// few hundred weights side by side read faster than the scattered blocks of twenty
  /// range-maximum queries.
  ///
  /// `accepts` is asked only of positions that would enter the current top `count`.
  private func scanBest(in range: Range<Int>, count: Int, accepts: (Int) -> Bool) -> [Int] {
    // Sorted best first; ties keep the earlier position, which the scan meets first.
    var result: [Int] = []
    result.reserveCapacity(count)
    let weights = self.weights
    for position in range {
      let weight = weights[position]
      if result.count == count && weight <= weights[result[count - 1]] { continue }
      guard accepts(position) else { continue }
      // Insertion: shift the lighter ones down one place, the last falling off when full.
      var slot = result.count
      if slot < count { result.append(position) } else { slot -= 1 }
      while slot > 0 && weights[result[slot - 1]] < weight {
        result[slot] = result[slot - 1]
        slot -= 1
      }
      result[slot] = position
    }
    return result
  }

  /// The best positions of `ranges` by weight, best first, that `accepts` keeps.
  ///
  /// Ties go to the earlier position. Overlapping ranges are fine: a position is reported
  /// once.
  ///
  /// - Parameters:
  ///   - ranges: The ranges to draw from.
  ///   - count: How many positions to return at most.
  ///   - inspectionLimit: How many positions to look at at most, accepted or not, so that a
  ///     filter that rejects most entries cannot make a lookup scan a whole range.
  ///   - accepts: Whether a position may be returned.
  /// - Complexity: O((k + r) log(k + r) + k · ``blockSize``) for r ranges and k positions
  ///   inspected.
  func best(
    in ranges: [Range<Int>], count: Int, inspectionLimit: Int = 256,
    accepts: (Int) -> Bool = { _ in true }
  ) -> [Int] {
    guard count > 0 else { return [] }
    if ranges.count == 1 {
      return best(in: ranges[0], count: count, inspectionLimit: inspectionLimit, accepts: accepts)
    }
    return heapBest(in: ranges, count: count, inspectionLimit: inspectionLimit, accepts: accepts)
  }

  /// The best positions of `range` by weight, best first, that `accepts` keeps: the
  /// answer of the search over several ranges, given one.
  func best(
    in range: Range<Int>, count: Int, inspectionLimit: Int = 256,
    accepts: (Int) -> Bool = { _ in true }
  ) -> [Int] {
    guard count > 0 else { return [] }
    if count <= Self.cachedCount, let start = cachedStarts[Self.cacheKey(range)] {
      // The cached list is the order the search below would inspect: the first `count`
      // accepted of it are the answer, unless fewer than `count` are accepted.
      var result: [Int] = []
      result.reserveCapacity(count)
      for offset in 0..<Self.cachedCount {
        let position = Int(cachedPositions[Int(start) + offset])
        if accepts(position) {
          result.append(position)
          if result.count == count { return result }
        }
      }
    }
    if range.count <= min(inspectionLimit, Self.scannedRangeLimit) {
      return scanBest(in: range, count: count, accepts: accepts)
    }
    return heapBest(in: [range], count: count, inspectionLimit: inspectionLimit, accepts: accepts)
  }

  /// The best positions of `ranges` by the heap of ranges (the search the other ways of
  /// finding them must agree with).
  private func heapBest(
    in ranges: [Range<Int>], count: Int, inspectionLimit: Int, accepts: (Int) -> Bool
  ) -> [Int] {
    var heap = RangeHeap(weights: weights)
    heap.reserve(ranges.count + 2 * min(count, inspectionLimit))
    for range in ranges where !range.isEmpty {
      heap.push(range, best: argmax(range))
    }
    var result: [Int] = []
    result.reserveCapacity(count)
    // Only overlapping ranges can give a position twice: a short list beats hashing.
    var seen: [Int] = []
    let mayRepeat = ranges.count > 1
    var inspected = 0
    while result.count < count && inspected < inspectionLimit, let top = heap.pop() {
      inspected += 1
      var isNew = true
      if mayRepeat {
        isNew = !seen.contains(top.best)
        if isNew { seen.append(top.best) }
      }
      if isNew && accepts(top.best) { result.append(top.best) }
      let left = top.range.lowerBound..<top.best
      let right = (top.best + 1)..<top.range.upperBound
      if !left.isEmpty { heap.push(left, best: argmax(left)) }
      if !right.isEmpty { heap.push(right, best: argmax(right)) }
    }
    return result
  }
}

/// A max-heap of ranges by the weight of their best position (Williams, "Algorithm 232:
/// Heapsort", CACM 1964).
private struct RangeHeap {
  struct Entry {
    var range: Range<Int>
    var best: Int
    var weight: UInt32
  }
  let weights: Column<UInt32>
  private var entries: [Entry] = []

  init(weights: Column<UInt32>) { self.weights = weights }

  mutating func reserve(_ capacity: Int) { entries.reserveCapacity(capacity) }

  @inline(__always)
  private func isAbove(_ lhs: Entry, _ rhs: Entry) -> Bool {
    lhs.weight != rhs.weight ? lhs.weight > rhs.weight : lhs.best < rhs.best
  }

  mutating func push(_ range: Range<Int>, best: Int) {
    entries.append(Entry(range: range, best: best, weight: weights[best]))
    var child = entries.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard isAbove(entries[child], entries[parent]) else { break }
      entries.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() -> Entry? {
    guard let first = entries.first else { return nil }
    let last = entries.removeLast()
    guard !entries.isEmpty else { return first }
    entries[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      guard left < entries.count else { break }
      var child = left
      if left + 1 < entries.count && isAbove(entries[left + 1], entries[left]) { child = left + 1 }
      guard isAbove(entries[child], entries[parent]) else { break }
      entries.swapAt(child, parent)
      parent = child
    }
    return first
  }
}
