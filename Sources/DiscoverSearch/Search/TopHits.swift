/// A scored document of one type.
struct Hit: Sendable, Hashable {
  /// The relevance score.
  var score: Float
  /// The document within its type.
  var document: UInt32
  /// How many of the query's terms the document matches (all of them, except when a query
  /// falls back to partial matches).
  var coverage: UInt8
  /// Whether match quality re-ranked the hit (its score includes the quality factor).
  var isReranked = false
  /// Whether re-ranking found a name field holding exactly the query's words.
  var isExact = false

  /// Whether `self` ranks before `other` of the same type: more terms matched, then a
  /// higher score, then the lower document number (so ties are deterministic).
  @inline(__always)
  func ranksBefore(_ other: Hit) -> Bool {
    if coverage != other.coverage { return coverage > other.coverage }
    if score != other.score { return score > other.score }
    return document < other.document
  }
}

/// Where a previous page ended, in the order every page shares: coverage, score, type,
/// document (search-after pagination, as Elasticsearch's `search_after`).
struct RankKey: Sendable, Hashable {
  var coverage: UInt8
  var score: Float
  var typeIndex: UInt8
  var document: UInt32

  /// Whether a hit of type `typeIndex` comes after this key in the shared order.
  @inline(__always)
  func precedes(_ hit: Hit, typeIndex: UInt8) -> Bool {
    if hit.coverage != coverage { return hit.coverage < coverage }
    if hit.score != score { return hit.score < score }
    if typeIndex != self.typeIndex { return typeIndex > self.typeIndex }
    return hit.document > document
  }
}

/// The best `capacity` hits seen so far: a bounded binary min-heap whose root is the worst
/// kept hit (J. W. J. Williams, "Algorithm 232: Heapsort", CACM 1964).
///
/// Once full, the root is the threshold a document must beat, which is what lets the
/// searcher skip blocks whose score bound cannot beat it.
struct TopHits {
  let capacity: Int
  private(set) var hits: [Hit] = []

  init(capacity: Int) {
    self.capacity = capacity
    hits.reserveCapacity(capacity)
  }

  @inline(__always) var isFull: Bool { hits.count >= capacity }

  /// The worst kept hit; meaningful when ``isFull``.
  @inline(__always) var worst: Hit { hits[0] }

  /// Whether a document scoring at most `bound` with `coverage` terms could be kept.
  @inline(__always)
  func admits(bound: Float, coverage: UInt8) -> Bool {
    guard isFull else { return capacity > 0 }
    let worst = hits[0]
    if coverage != worst.coverage { return coverage > worst.coverage }
    // A tie loses: documents arrive in increasing order, and the lower document wins ties.
    return bound > worst.score
  }

  /// Whether a document scoring at most `bound` with `coverage` terms could be kept, in
  /// whatever order documents arrive (a tie may still win on document order).
  @inline(__always)
  func admitsOrTies(bound: Float, coverage: UInt8) -> Bool {
    guard isFull else { return capacity > 0 }
    let worst = hits[0]
    if coverage != worst.coverage { return coverage > worst.coverage }
    return bound >= worst.score
  }

  /// Offers a hit.
  ///
  /// - Complexity: O(log k).
  @inline(__always)
  mutating func insert(_ hit: Hit) {
    if hits.count < capacity {
      hits.append(hit)
      siftUp(hits.count - 1)
    } else if capacity > 0 && hit.ranksBefore(hits[0]) {
      hits[0] = hit
      siftDown(0)
    }
  }

  /// The kept hits, best first.
  func sorted() -> [Hit] {
    hits.sorted { $0.ranksBefore($1) }
  }

  private mutating func siftUp(_ start: Int) {
    var child = start
    let hit = hits[child]
    while child > 0 {
      let parent = (child - 1) >> 1
      guard hits[parent].ranksBefore(hit) else { break }
      hits[child] = hits[parent]
      child = parent
    }
    hits[child] = hit
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    let hit = hits[parent]
    let count = hits.count
    while true {
      var child = 2 * parent + 1
      if child >= count { break }
      if child + 1 < count && hits[child].ranksBefore(hits[child + 1]) { child += 1 }
      guard hit.ranksBefore(hits[child]) else { break }
      hits[parent] = hits[child]
      parent = child
    }
    hits[parent] = hit
  }
}

extension RankKey {
  /// This key in the numbering of a segment whose documents of the key's type are
  /// `start..<end` in the set's numbering: the key hits of that segment compare with, such
  /// that a hit numbered `start + d` follows this key exactly when local hit `d` follows the
  /// result. Keys of other types are unchanged, since documents only break ties of a type.
  func local(typeIndex: UInt8, start: UInt32, end: UInt32) -> RankKey {
    guard typeIndex == self.typeIndex else { return self }
    var key = self
    if document < start {
      // Every tie of the segment follows: the key moves to just above the score, after
      // which no local document number follows it.
      key.score = score.nextUp
      key.document = UInt32.max
    } else if document >= end {
      // No tie of the segment follows.
      key.document = UInt32.max
    } else {
      key.document = document - start
    }
    return key
  }
}

extension Hit {
  /// Whether the hit may enter a page's hits: it ranks after the cursor `after` (if any) and
  /// is not deleted.
  @inline(__always)
  func isWanted(after: RankKey?, typeIndex: UInt8, deleted: DeletedDocuments?) -> Bool {
    (after?.precedes(self, typeIndex: typeIndex) ?? true)
      && !(deleted?.contains(document) ?? false)
  }
}
