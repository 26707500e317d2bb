/// The documents of one type in one segment deleted since the segment was built: a bit per
/// document, set when deleted (Lucene's live documents, inverted).
///
/// A segment is immutable, so a delete or an update of a published document sets its bit in
/// a copy of this set, published with the segments (``SegmentSet/deletions``); searches
/// leave such documents out of hits and counts, and a merge leaves them behind.
struct DeletedDocuments: Sendable, Equatable {
  /// Bit `d & 63` of word `d >> 6` is set when document `d` is deleted; one word per 64
  /// documents, at least one.
  private(set) var words: [UInt64]
  /// The number of bits set.
  private(set) var count = 0

  /// No document of the segment's `documentCount` deleted.
  init(documentCount: Int) {
    words = [UInt64](repeating: 0, count: max(1, (documentCount + 63) / 64))
  }

  /// The documents of `words`, a segment's `documentCount` of them; `nil` when a bit past
  /// the last document is set or the words are not as many as the documents need.
  init?(words: [UInt64], documentCount: Int) {
    guard words.count == max(1, (documentCount + 63) / 64) else { return nil }
    let spare = words.count * 64 - documentCount
    if spare > 0, spare < 64, words[words.count - 1] >> UInt64(64 - spare) != 0 { return nil }
    if documentCount == 0, words[0] != 0 { return nil }
    self.words = words
    count = words.reduce(0) { $0 + $1.nonzeroBitCount }
  }

  /// Whether document `document` is deleted.
  @inline(__always)
  func contains(_ document: UInt32) -> Bool {
    let word = Int(document >> 6)
    return word < words.count && words[word] & (1 << UInt64(document & 63)) != 0
  }

  /// Marks `document` deleted.
  ///
  /// - Returns: Whether it was not deleted before.
  @discardableResult
  mutating func insert(_ document: UInt32) -> Bool {
    let word = Int(document >> 6)
    precondition(word < words.count, "a deleted document is in its segment")
    let bit: UInt64 = 1 << UInt64(document & 63)
    guard words[word] & bit == 0 else { return false }
    words[word] |= bit
    count += 1
    return true
  }

  /// The documents either holds; of the longer one's size.
  func union(_ other: DeletedDocuments) -> DeletedDocuments {
    var result = words.count >= other.words.count ? self : other
    let shorter = words.count >= other.words.count ? other : self
    var count = 0
    for index in 0..<result.words.count {
      if index < shorter.words.count { result.words[index] |= shorter.words[index] }
      count += result.words[index].nonzeroBitCount
    }
    result.count = count
    return result
  }

  /// The first deleted document at or after `document`, if any.
  func next(from document: UInt32) -> UInt32? {
    var word = Int(document >> 6)
    guard word < words.count else { return nil }
    var bits = words[word] & (~0 << UInt64(document & 63))
    while bits == 0 {
      word += 1
      guard word < words.count else { return nil }
      bits = words[word]
    }
    return UInt32(word << 6 + bits.trailingZeroBitCount)
  }

  /// The deleted documents in ascending order.
  var documents: [UInt32] {
    var result: [UInt32] = []
    result.reserveCapacity(count)
    for (index, word) in words.enumerated() {
      var bits = word
      while bits != 0 {
        result.append(UInt32(index << 6 + bits.trailingZeroBitCount))
        bits &= bits &- 1
      }
    }
    return result
  }
}

/// The deleted documents of one segment, per kind (``DocumentKind/index``: the searchable
/// types, then effects); `nil` where none is deleted.
struct SegmentDeletions: Sendable, Equatable {
  var kinds: [DeletedDocuments?] = Array(repeating: nil, count: DocumentKind.allCases.count)

  /// None deleted.
  static let none = SegmentDeletions()

  /// The number of deleted documents, effects included.
  var count: Int { kinds.reduce(0) { $0 + ($1?.count ?? 0) } }

  /// The deleted documents of `type`, if any.
  @inline(__always)
  func of(_ type: SearchResultType) -> DeletedDocuments? { kinds[type.index] }

  /// Whether document `document` of `kind` is deleted.
  @inline(__always)
  func contains(_ document: UInt32, of kind: DocumentKind) -> Bool {
    kinds[kind.index]?.contains(document) ?? false
  }

  /// The documents either holds.
  func union(_ other: SegmentDeletions) -> SegmentDeletions {
    guard other.count > 0 else { return self }
    guard count > 0 else { return other }
    var result = self
    for (index, marks) in other.kinds.enumerated() {
      guard let marks else { continue }
      if let mine = result.kinds[index] {
        result.kinds[index] = mine.union(marks)
      } else {
        result.kinds[index] = marks
      }
    }
    return result
  }

  /// Marks the document of `kind` numbered `document` in `segment` deleted.
  mutating func insert(_ document: UInt32, of kind: DocumentKind, in segment: IndexSnapshot) {
    if kinds[kind.index] == nil {
      kinds[kind.index] = DeletedDocuments(documentCount: segment.count(of: kind))
    }
    kinds[kind.index]!.insert(document)
  }
}

/// The number of deleted documents each posting list of one type in one segment holds,
/// found on first use: with the deleted documents fixed for a segment set's life, a term's
/// live document frequency is too, and a one-term count costs a lookup again instead of a
/// popcount of its bitmap with the deleted bits.
final class DeletedMatchCache: Sendable {
  private let counts = Lock<[Int: Int]>([:])

  /// The deleted documents of list `list`, computed by `count` the first time.
  func count(ofList list: Int, _ count: () -> Int) -> Int {
    if let known = counts.withLock({ $0[list] }) { return known }
    let computed = count()
    counts.withLock { $0[list] = computed }
    return computed
  }
}
