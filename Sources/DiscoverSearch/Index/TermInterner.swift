import CPrefetch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The writer's term dictionary, tuned for interning one token after another.
///
/// Like ``ByteStringTable`` it gives each distinct term a dense id and keeps the bytes in one
/// arena, but each 32-byte slot (half a cache line, never split across two: the slots are
/// 64-byte aligned, which a Swift array's elements are not) also holds a
/// hash tag with the term's length and its first sixteen bytes. Nearly all terms are at
/// most sixteen bytes, so a lookup usually reads one slot and nothing else: for a term
/// seen rarely, that is one cache miss instead of three (slot, offsets, arena). A commit
/// turns it into a compact ``ByteStringTable`` for the snapshot.
struct TermInterner {
  fileprivate struct Slot {
    /// The hash's high bits, bit 7 set, and the term's length (at most 127) in the low 7
    /// bits; 0 when the slot is free.
    var tag: UInt32
    var id: UInt32
    /// How often the term occurred as a word of running text (kept here, on the cache line
    /// the lookup already read, rather than in an array by id).
    var wordCount: UInt32 = 0
    /// The hash's low 32 bits, which place the slot in any table of up to 2^32 slots: a
    /// growing table moves slots without reading the arena to hash the terms again.
    var hashLow: UInt32 = 0
    /// The term's first sixteen bytes, little-endian, zero-padded.
    var prefix: Prefix
  }

  /// The first sixteen bytes of a key.
  fileprivate struct Prefix: Equatable {
    var low: UInt64
    var high: UInt64
    static let zero = Prefix(low: 0, high: 0)
  }

  private(set) var arena: [UInt8] = []
  private(set) var starts: [UInt32] = [0]
  private var table: SlotTable
  private var mask: Int

  /// The number of distinct terms.
  var count: Int { starts.count - 1 }

  init() {
    table = SlotTable(count: 1 << 12)
    mask = table.count - 1
  }

  @inline(__always)
  private static func tag(hash: Int, length: Int) -> UInt32 {
    UInt32(truncatingIfNeeded: UInt(bitPattern: hash) >> 32) & ~0x7F | 0x80
      | UInt32(min(length, 0x7F))
  }

  @inline(__always)
  private static func prefix(of key: UnsafeRawBufferPointer) -> Prefix {
    let count = key.count
    if count >= 16 {
      return Prefix(
        low: key.loadUnaligned(as: UInt64.self),
        high: key.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    }
    if count >= 8 {
      return Prefix(low: key.loadUnaligned(as: UInt64.self), high: partialWord(key, from: 8))
    }
    return Prefix(low: partialWord(key, from: 0), high: 0)
  }

  /// ``prefix(of:)`` of a key followed by at least 15 more readable bytes: whole-word loads
  /// with the bytes past the key masked off, instead of loops over its last bytes.
  @inline(__always)
  private static func prefix(ofPadded key: UnsafeRawBufferPointer) -> Prefix {
    let count = key.count
    guard count > 0 else { return .zero }
    let low = key.baseAddress!.loadUnaligned(as: UInt64.self)
    let high = key.baseAddress!.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    if count >= 16 { return Prefix(low: low, high: high) }
    if count >= 8 {
      // Past-width shifts give 0: a key of 8 bytes keeps no high bytes.
      return Prefix(low: low, high: high & (UInt64.max >> UInt64(128 - 8 * count)))
    }
    return Prefix(low: low & (UInt64.max >> UInt64(64 - 8 * count)), high: 0)
  }

  /// Bytes `start..<min(start + 8, count)` of `key`, little-endian, zero-padded.
  @inline(__always)
  private static func partialWord(_ key: UnsafeRawBufferPointer, from start: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in start..<min(start + 8, key.count) {
      value |= UInt64(key[index]) << UInt64((index - start) * 8)
    }
    return value
  }

  /// The tag holds the length up to 127 (terms are at most ``Tokenizer/maximumTokenBytes``
  /// long; document ids may be longer). A key of at most sixteen bytes matches on tag and
  /// prefix alone: a longer stored key has a different length in its tag. Longer keys
  /// compare the rest, length included.
  @inline(__always)
  private func probe(_ key: UnsafeRawBufferPointer, hash: Int, tag: UInt32, prefix: Prefix)
    -> (id: UInt32?, slot: Int)
  {
    var slot = hash & mask
    let slots = table.slots
    while true {
      let candidate = slots[slot]
      if candidate.tag == 0 { return (nil, slot) }
      if candidate.tag == tag && candidate.prefix == prefix
        && (key.count <= 16 || restMatches(candidate.id, key))
      {
        return (candidate.id, slot)
      }
      slot = (slot + 1) & mask
    }
  }

  /// Whether bytes 16 onward of term `id` equal those of `key`, and the lengths too.
  private func restMatches(_ id: UInt32, _ key: UnsafeRawBufferPointer) -> Bool {
    let start = Int(starts[Int(id)])
    return arena.withUnsafeBytes { arena in
      guard Int(starts[Int(id) + 1]) - start == key.count else { return false }
      return UnsafeRawBufferPointer(rebasing: arena[(start + 16)..<(start + key.count)])
        .elementsEqual(UnsafeRawBufferPointer(rebasing: key[16...]))
    }
  }

  /// The id of `key`, adding it if it is new; counts it as a word of running text when
  /// `isWord`.
  ///
  /// - Complexity: O(length of `key`) amortized.
  @inline(__always)
  mutating func intern(_ key: UnsafeRawBufferPointer, isWord: Bool = false) -> UInt32 {
    intern(key, hash: ByteStringTable.hash(key), isWord: isWord)
  }

  /// Starts loading the slot where a lookup of a term with hash `hash` starts, so that a
  /// caller can bring the slots of many terms into the cache together before interning them
  /// one by one.
  @inline(__always)
  func prefetch(hash: Int) {
    cprefetch_for_writing(table.slots + (hash & mask))
  }

  /// Makes the slot table this interner's own, as ``internUnique(_:hash:isWord:)``
  /// requires (a copy of the interner shares it until then).
  @inline(__always)
  mutating func makeTableUnique() {
    if !isKnownUniquelyReferenced(&table) { table = table.copy() }
  }

  /// ``intern(_:isWord:)`` with the key's hash (``ByteStringTable/hash(_:)``) already
  /// computed.
  @inline(__always)
  mutating func intern(_ key: UnsafeRawBufferPointer, hash: Int, isWord: Bool) -> UInt32 {
    makeTableUnique()
    return internUnique(key, hash: hash, isWord: isWord)
  }

  /// ``intern(_:hash:isWord:)`` for a caller that has called ``makeTableUnique()`` since
  /// this interner was last copied: a loop over many tokens checks once. When `isPadded`,
  /// at least 15 readable bytes follow the key.
  @inline(__always)
  mutating func internUnique(
    _ key: UnsafeRawBufferPointer, hash: Int, isWord: Bool, isPadded: Bool = false
  ) -> UInt32 {
    assert(isKnownUniquelyReferenced(&table), "internUnique needs makeTableUnique() first")
    let tag = Self.tag(hash: hash, length: key.count)
    let prefix = isPadded ? Self.prefix(ofPadded: key) : Self.prefix(of: key)
    var (found, slot) = probe(key, hash: hash, tag: tag, prefix: prefix)
    if let found {
      if isWord { table.slots[slot].wordCount &+= 1 }
      return found
    }
    let id = UInt32(count)
    arena.append(contentsOf: key)
    // Past 4 GB the offsets wrap; the writer refuses to commit such a dictionary.
    starts.append(UInt32(truncatingIfNeeded: arena.count))
    if count * 2 > table.count {
      grow()
      slot = probe(key, hash: hash, tag: tag, prefix: prefix).slot
    }
    table.slots[slot] = Slot(
      tag: tag, id: id, wordCount: isWord ? 1 : 0,
      hashLow: UInt32(truncatingIfNeeded: hash), prefix: prefix)
    return id
  }

  /// The id of `key`, if present.
  func find(_ key: UnsafeRawBufferPointer) -> UInt32? {
    let hash = ByteStringTable.hash(key)
    return probe(
      key, hash: hash, tag: Self.tag(hash: hash, length: key.count), prefix: Self.prefix(of: key)
    ).id
  }

  /// How often `key` occurred as a word of running text; 0 when it is not a term.
  func wordCount(of key: UnsafeRawBufferPointer) -> UInt32 {
    let hash = ByteStringTable.hash(key)
    let (found, slot) = probe(
      key, hash: hash, tag: Self.tag(hash: hash, length: key.count), prefix: Self.prefix(of: key))
    return found == nil ? 0 : table.slots[slot].wordCount
  }

  /// Makes room for `minimumCount` terms in all, so that interning up to that many moves
  /// no slot: a caller that knows how many keys are coming (a batch of documents' ids)
  /// saves the table's doublings, each of which writes a new table into fresh memory.
  mutating func reserveCapacity(_ minimumCount: Int) {
    starts.reserveCapacity(adding: minimumCount - count)
    var size = table.count
    while minimumCount * 2 > size { size *= 2 }
    if size > table.count { grow(to: size) }
  }

  private mutating func grow() {
    grow(to: table.count * 2)
  }

  private mutating func grow(to size: Int) {
    let newTable = SlotTable(count: size)
    let newSlots = newTable.slots
    let newMask = size - 1
    for slot in table.buffer where slot.tag != 0 {
      let hash =
        size <= 1 << 32
        ? Int(slot.hashLow) : withBytes(of: slot.id) { ByteStringTable.hash($0) }
      var index = hash & newMask
      while newSlots[index].tag != 0 { index = (index + 1) & newMask }
      newSlots[index] = slot
    }
    table = newTable
    mask = newMask
  }

  /// Calls `body` with the bytes of term `id`.
  func withBytes<R>(of id: UInt32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    let start = Int(starts[Int(id)])
    let end = Int(starts[Int(id) + 1])
    return try arena.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
  }

  /// How often each term occurred as a word of running text, by id.
  func wordCounts() -> [UInt32] {
    var counts = [UInt32](repeating: 0, count: count)
    for slot in table.buffer where slot.tag != 0 { counts[Int(slot.id)] = slot.wordCount }
    return counts
  }

  /// The compact, lookup-only table a snapshot keeps.
  func makeTable() -> ByteStringTable {
    ByteStringTable(arena: arena, starts: starts)
  }
}

/// The slots of a ``TermInterner``: 64-byte aligned, so that no 32-byte slot straddles two
/// cache lines (a Swift array's elements start 32 bytes into its allocation, which puts
/// every such slot across a line boundary and makes a rare term's lookup two misses).
///
/// Copy on write: an interner's copy shares the table until one of them interns.
private final class SlotTable {
  let slots: UnsafeMutablePointer<TermInterner.Slot>
  let count: Int
  /// What `calloc` returned, which `slots` is `allocation` rounded up to 64 bytes.
  private let allocation: UnsafeMutableRawPointer

  /// `count` free slots. A table of millions of terms is read at random, one slot per
  /// token: on 4 KB pages nearly every read also misses the TLB, so large tables are offered
  /// for huge pages before their first write (``LargeMemory/adviseHugePages(_:byteCount:)``).
  ///
  /// A free slot is all zero bits, so the table comes from `calloc`: a large one is fresh
  /// mapped memory, which the kernel has zeroed already, and is not written twice (filling
  /// the slots one by one cost 67 million instructions while adding 200,000 documents).
  init(count: Int) {
    let byteCount = count * MemoryLayout<TermInterner.Slot>.stride
    guard let allocation = calloc(byteCount + 64, 1) else {
      fatalError("out of memory allocating \(byteCount) bytes")
    }
    let aligned = UnsafeMutableRawPointer(
      bitPattern: (Int(bitPattern: allocation) + 63) & ~63)!
    LargeMemory.adviseHugePages(aligned, byteCount: byteCount)
    self.allocation = allocation
    slots = aligned.bindMemory(to: TermInterner.Slot.self, capacity: count)
    self.count = count
  }

  var buffer: UnsafeBufferPointer<TermInterner.Slot> {
    UnsafeBufferPointer(start: slots, count: count)
  }

  func copy() -> SlotTable {
    let copy = SlotTable(count: count)
    copy.slots.update(from: slots, count: count)
    return copy
  }

  deinit {
    // Slots are plain values: nothing to deinitialize.
    free(allocation)
  }
}
