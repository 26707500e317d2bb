/// How many different users contributed to an item: exact up to ``capacity``, estimated
/// beyond, in 16 bytes.
///
/// A k-minimum-values sketch (Bar-Yossef, Jayram, Kumar, Sivakumar and Trevisan, "Counting
/// Distinct Elements in a Data Stream", RANDOM 2002; the estimator `(k - 1) / U₍ₖ₎` is from
/// Beyer, Haas, Reinwald, Sismanis and Gemulla, SIGMOD 2007): it keeps the ``capacity``
/// smallest 16-bit hashes of the users seen. While fewer than ``capacity`` distinct hashes
/// were seen the count is exact (two users of one item share a 16-bit hash with probability
/// about 0.04% among eight); past it, the count is estimated from how small the largest kept
/// hash is, with a relative standard error of about `1 / sqrt(k - 2)`, 41% for k = 8. That
/// is enough for what it decides: whether an item reached the minimum of distinct users
/// (5 by default, well inside the exact range).
///
/// The sketch is a pure function of the set of users, so adding users in any order gives the
/// same bits: what exact merging needs.
struct DistinctSketch: Sendable, Hashable {
  /// How many hashes are kept: the exact range.
  static let capacity = 8

  /// The kept hashes in increasing order, then zeros, four 16-bit slots per word: hashes
  /// are 1 to 65,535, so 0 marks an empty slot.
  private var low: UInt64 = 0
  private var high: UInt64 = 0

  /// The 16-bit hash a user contributes, 1 to 65,535: the top bits of its fingerprint (which
  /// the fingerprint's finalizer mixes fully) plus one, the largest folded onto its neighbour.
  static func hash(of user: ContentKey) -> UInt16 {
    min(UInt16(truncatingIfNeeded: user.rawValue >> 48), UInt16.max - 1) + 1
  }

  private func slot(_ position: Int) -> UInt16 {
    let word = position < 4 ? low : high
    return UInt16(truncatingIfNeeded: word >> (16 * UInt64(position % 4)))
  }

  private mutating func setSlot(_ position: Int, _ value: UInt16) {
    let shift = 16 * UInt64(position % 4)
    let mask = ~(UInt64(0xFFFF) << shift)
    if position < 4 {
      low = (low & mask) | (UInt64(value) << shift)
    } else {
      high = (high & mask) | (UInt64(value) << shift)
    }
  }

  /// Whether no user was added.
  var isEmpty: Bool { low == 0 }

  /// Adds a user, by the hash ``hash(of:)`` gives.
  mutating func insert(hash: UInt16) {
    // Full, and no smaller than the largest kept: the common case for a popular item, where
    // only about k of every n new users are kept.
    let largest = slot(Self.capacity - 1)
    if largest != 0, hash >= largest { return }
    var position = 0
    while position < Self.capacity, slot(position) != 0, slot(position) < hash {
      position += 1
    }
    guard position < Self.capacity, slot(position) != hash else { return }
    var moved = hash
    while position < Self.capacity, moved != 0 {
      let displaced = slot(position)
      setSlot(position, moved)
      moved = displaced
      position += 1
    }
  }

  /// How many hashes are kept: the filled 16-bit slots, counted without a loop (every bit of
  /// a slot is folded onto its lowest bit, and those lowest bits are counted).
  private var keptCount: Int {
    func filledSlots(_ word: UInt64) -> Int {
      var folded = word | word >> 8
      folded |= folded >> 4
      folded |= folded >> 2
      folded |= folded >> 1
      return (folded & 0x0001_0001_0001_0001).nonzeroBitCount
    }
    return filledSlots(low) + filledSlots(high)
  }

  /// Whether the count is exact (fewer than ``capacity`` hashes are kept).
  var isExact: Bool { keptCount < Self.capacity }

  /// The number of distinct users: exact below ``capacity``, else the KMV estimate
  /// `(k - 1) / U₍ₖ₎`, with `U₍ₖ₎` the largest kept hash as a fraction of the hash range.
  var count: Int {
    let kept = keptCount
    guard kept == Self.capacity else { return kept }
    let fraction = Double(slot(Self.capacity - 1)) / 65_536
    return max(Self.capacity, Int(((Double(Self.capacity) - 1) / fraction).rounded()))
  }
}
