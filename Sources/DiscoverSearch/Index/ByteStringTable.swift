/// An interning table of byte strings: each distinct string gets a dense id (0, 1, 2, ...).
///
/// Strings live back to back in one arena; lookups hash the bytes and probe an
/// open-addressing table of ids (linear probing, load factor at most 1/2). Used for the term
/// dictionary and for document ids, where a `[String: Int]` would cost an allocation and
/// several pointers per entry.
struct ByteStringTable: Sendable {
  /// The bytes of every string, back to back.
  private(set) var arena: [UInt8] = []
  /// `starts[id]..<starts[id + 1]` is the string `id` in `arena`.
  private(set) var starts: [UInt32] = [0]
  /// Open-addressing slots holding `id + 1`, or 0 when empty. Capacity is a power of two.
  private(set) var slots: [UInt32]
  private var mask: Int

  /// The number of distinct strings.
  var count: Int { starts.count - 1 }

  /// Creates an empty table sized for `capacity` strings; 0 allocates nothing until the
  /// first insertion.
  init(capacity: Int = 1024) {
    guard capacity > 0 else {
      slots = []
      mask = 0
      return
    }
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = [UInt32](repeating: 0, count: size)
    mask = size - 1
  }

  /// Rebuilds a table from its arena and starts (as read from disk).
  init(arena: [UInt8], starts: [UInt32]) {
    self.init(capacity: max(starts.count - 1, 1))
    self.arena = arena
    self.starts = starts
    for id in 0..<(starts.count - 1) {
      let hash = Self.hash(of: id, arena: arena, starts: starts)
      var slot = hash & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = UInt32(id + 1)
    }
  }

  /// Restores a table saved with its slots, or returns `nil` when the parts are
  /// inconsistent (a damaged file).
  init?(arena: [UInt8], starts: [UInt32], slots: [UInt32]) {
    guard let first = starts.first, first == 0, Int(starts.last!) == arena.count,
      slots.count >= 16, slots.count & (slots.count - 1) == 0, slots.count >= 2 * (starts.count - 1)
    else { return nil }
    for index in 1..<starts.count where starts[index] < starts[index - 1] { return nil }
    let count = UInt32(starts.count - 1)
    for slot in slots where slot > count { return nil }
    self.arena = arena
    self.starts = starts
    self.slots = slots
    mask = slots.count - 1
  }

  /// Hashes bytes eight at a time with the multiply-rotate mix of FxHash (rustc-hash, after
  /// Firefox's hasher), then a final avalanche (the MurmurHash3 64-bit finalizer).
  @inline(__always)
  static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
    var (hash, offset) = hashWholeWords(bytes)
    let count = bytes.count
    if offset < count {
      var word: UInt64 = 0
      var shift: UInt64 = 0
      while offset < count {
        word |= UInt64(bytes[offset]) << shift
        shift += 8
        offset += 1
      }
      hash = mix(hash, word)
    }
    return finish(hash)
  }

  /// ``hash(_:)`` of bytes followed by at least 7 more readable bytes: the last, partial word
  /// is one load with the bytes past the end masked off, instead of a loop over its bytes.
  /// The same value.
  @inline(__always)
  static func hash(paddedBytes bytes: UnsafeRawBufferPointer) -> Int {
    var (hash, offset) = hashWholeWords(bytes)
    let rest = bytes.count - offset
    if rest > 0 {
      let word = bytes.baseAddress!.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      hash = mix(hash, word & (UInt64.max >> UInt64(64 - 8 * rest)))
    }
    return finish(hash)
  }

  /// The hash state after the length and every whole 8-byte word, and where the rest starts.
  @inline(__always)
  private static func hashWholeWords(_ bytes: UnsafeRawBufferPointer) -> (UInt64, Int) {
    var hash = UInt64(truncatingIfNeeded: bytes.count) &* hashSeed
    var offset = 0
    let count = bytes.count
    while offset + 8 <= count {
      hash = mix(hash, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset += 8
    }
    return (hash, offset)
  }

  private static let hashSeed: UInt64 = 0x517c_c1b7_2722_0a95

  @inline(__always)
  private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
    ((hash << 5) | (hash >> 59) ^ word) &* hashSeed
  }

  @inline(__always)
  private static func finish(_ hash: UInt64) -> Int {
    var hash = hash
    hash ^= hash >> 33
    hash &*= 0xff51_afd7_ed55_8ccd
    hash ^= hash >> 33
    return Int(truncatingIfNeeded: hash)
  }

  private static func hash(of id: Int, arena: [UInt8], starts: [UInt32]) -> Int {
    arena.withUnsafeBytes { raw in
      hash(UnsafeRawBufferPointer(rebasing: raw[Int(starts[id])..<Int(starts[id + 1])]))
    }
  }

  /// The id of `key`, if present.
  ///
  /// - Complexity: O(length of `key`) expected.
  @inline(__always)
  func find(_ key: UnsafeRawBufferPointer) -> UInt32? {
    if slots.isEmpty { return nil }
    return probe(key, hash: Self.hash(key)).id
  }

  /// Looks `key` up, returning its id if present and otherwise the free slot where it
  /// belongs.
  @inline(__always)
  private func probe(_ key: UnsafeRawBufferPointer, hash: Int) -> (id: UInt32?, slot: Int) {
    var slot = hash & mask
    return slots.withUnsafeBufferPointer { slots in
      starts.withUnsafeBufferPointer { starts in
        arena.withUnsafeBytes { arena in
          while true {
            let entry = slots[slot]
            if entry == 0 { return (nil, slot) }
            let id = Int(entry - 1)
            let start = Int(starts[id])
            if Int(starts[id + 1]) - start == key.count
              && Self.bytesEqual(arena.baseAddress! + start, key.baseAddress, key.count)
            {
              return (UInt32(id), slot)
            }
            slot = (slot + 1) & mask
          }
        }
      }
    }
  }

  /// Compares short byte strings eight bytes at a time, inline: terms are short, and a call
  /// to `memcmp` costs more than the comparison.
  @inline(__always)
  static func bytesEqual(
    _ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer?, _ count: Int
  ) -> Bool {
    guard count > 0, let rhs else { return true }
    var offset = 0
    while offset + 8 <= count {
      if lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      {
        return false
      }
      offset += 8
    }
    while offset < count {
      if lhs.load(fromByteOffset: offset, as: UInt8.self)
        != rhs.load(fromByteOffset: offset, as: UInt8.self)
      {
        return false
      }
      offset += 1
    }
    return true
  }

  /// The id of `key`, adding it if it is new.
  ///
  /// - Complexity: O(length of `key`) amortized.
  @inline(__always)
  mutating func intern(_ key: UnsafeRawBufferPointer) -> (id: UInt32, isNew: Bool) {
    if slots.isEmpty { grow() }
    let hash = Self.hash(key)
    var (found, slot) = probe(key, hash: hash)
    if let found { return (found, false) }
    let id = UInt32(count)
    arena.append(contentsOf: key)
    // Past 4 GB the offsets wrap; the writer refuses to commit such a dictionary.
    starts.append(UInt32(truncatingIfNeeded: arena.count))
    if count * 2 > slots.count {
      grow()
      slot = probe(key, hash: hash).slot
    }
    slots[slot] = id + 1
    return (id, true)
  }

  private mutating func grow() {
    let size = max(slots.count * 2, 16)
    var newSlots = [UInt32](repeating: 0, count: size)
    let newMask = size - 1
    for id in 0..<count {
      var slot = Self.hash(of: id, arena: arena, starts: starts) & newMask
      while newSlots[slot] != 0 { slot = (slot + 1) & newMask }
      newSlots[slot] = UInt32(id + 1)
    }
    slots = newSlots
    mask = newMask
  }

  /// Calls `body` with the bytes of string `id`.
  @inline(__always)
  func withBytes<R>(of id: UInt32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    let start = Int(starts[Int(id)])
    let end = Int(starts[Int(id) + 1])
    return try arena.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
  }

  /// String `id` decoded as UTF-8.
  func string(_ id: UInt32) -> String {
    withBytes(of: id) { String(decoding: $0, as: UTF8.self) }
  }

  /// Bytes held: arena, starts and slots.
  var memoryBytes: Int { arena.capacity + starts.capacity * 4 + slots.capacity * 4 }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
