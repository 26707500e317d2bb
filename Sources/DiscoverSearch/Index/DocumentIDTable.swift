import CPrefetch

/// The writer's table of document ids: each distinct id gets a dense number, in the order
/// added.
///
/// Ids are looked up when a document is added (almost always a new id, to refuse
/// duplicates), and once per video for its creator and once for its sound (as it is added,
/// and again at commit for those added after it). The table is open addressing with linear
/// probing (Knuth, *The Art of Computer Programming*, vol. 3, section 6.4, algorithm L) at a
/// load of at most one half, and each 8-byte slot holds 32 bits of the id's hash beside its
/// number. A new id is refused or placed by reading its slots alone: a stored id's bytes are
/// read only when the hash bits agree, which for a new id happens about once in four
/// billion probes.
///
/// ``TermInterner``'s 32-byte slots, which carry a term's first bytes to spare the arena
/// read on every match, would make this table four times larger for lookups that match only
/// for references (whose arena reads the writer loads ahead, ``candidate(hash:)``); a
/// million ids took 64 MB of slots there and take 16 MB here, and every page of a growing
/// table is fresh memory the kernel must clear.
struct DocumentIDTable {
  /// The bytes of every id, back to back.
  private var arena: [UInt8] = []
  /// `starts[n]..<starts[n + 1]` is id `n` in ``arena``; the writer keeps the arena under
  /// 4 GB (``byteCount``), so the offsets never wrap.
  private var starts: [UInt32] = [0]
  private var table = SlotTable(count: 1 << 12)

  /// The number of distinct ids.
  var count: Int { starts.count - 1 }

  /// The bytes of all ids.
  var byteCount: Int { arena.count }

  /// A slot: the hash's high 32 bits above the id's number plus one; 0 when free.
  @inline(__always)
  private static func slot(hash: Int, id: UInt32) -> UInt64 {
    UInt64(UInt(bitPattern: hash) >> 32) << 32 | UInt64(id + 1)
  }

  @inline(__always)
  private static func matchesHash(_ slot: UInt64, _ hash: Int) -> Bool {
    slot >> 32 == UInt64(UInt(bitPattern: hash) >> 32)
  }

  /// Looks `key` up, returning its number if present and otherwise the free slot where it
  /// belongs.
  @inline(__always)
  private func probe(_ key: UnsafeRawBufferPointer, hash: Int) -> (id: UInt32?, slot: Int) {
    let slots = table.slots
    let mask = table.count - 1
    var index = hash & mask
    while true {
      let slot = slots[index]
      if slot == 0 { return (nil, index) }
      if Self.matchesHash(slot, hash) {
        let id = UInt32(truncatingIfNeeded: slot) - 1
        if bytesEqual(id, key) { return (id, index) }
      }
      index = (index + 1) & mask
    }
  }

  private func bytesEqual(_ id: UInt32, _ key: UnsafeRawBufferPointer) -> Bool {
    let start = Int(starts[Int(id)])
    let end = Int(starts[Int(id) + 1])
    guard end - start == key.count else { return false }
    // An empty arena may have no address; an empty key matches an empty id.
    guard !key.isEmpty else { return true }
    return arena.withUnsafeBytes {
      ByteStringTable.bytesEqual($0.baseAddress! + start, key.baseAddress, key.count)
    }
  }

  /// Starts loading the slot where a lookup of an id with hash `hash`
  /// (``ByteStringTable/hash(_:)``) starts.
  @inline(__always)
  func prefetch(hash: Int) {
    cprefetch_for_writing(table.slots + (hash & (table.count - 1)))
  }

  /// Starts loading the slot where registering or resolving `id` will start.
  func prefetch(id: String) {
    var id = id
    id.withUTF8 { prefetch(hash: ByteStringTable.hash(UnsafeRawBufferPointer($0))) }
  }

  /// The number of the first id whose slot agrees with `hash`, before comparing any bytes:
  /// the id a lookup of a key with that hash most likely finds. For a caller that loads
  /// what the lookup will read ahead of it (``prefetchStart(of:)``,
  /// ``prefetchBytes(of:)``), once the slot itself is in the cache (``prefetch(hash:)``).
  func candidate(hash: Int) -> UInt32? {
    let slots = table.slots
    let mask = table.count - 1
    var index = hash & mask
    while true {
      let slot = slots[index]
      if slot == 0 { return nil }
      if Self.matchesHash(slot, hash) { return UInt32(truncatingIfNeeded: slot) - 1 }
      index = (index + 1) & mask
    }
  }

  /// Starts loading where id `id`'s bytes start and end.
  @inline(__always)
  func prefetchStart(of id: UInt32) {
    starts.withUnsafeBufferPointer { cprefetch_for_reading($0.baseAddress! + Int(id)) }
  }

  /// Starts loading id `id`'s bytes; their start should be in the cache by now.
  @inline(__always)
  func prefetchBytes(of id: UInt32) {
    let start = Int(starts[Int(id)])
    arena.withUnsafeBufferPointer {
      if let base = $0.baseAddress, start < $0.count { cprefetch_for_reading(base + start) }
    }
  }

  /// The number of `key`, adding it if it is new.
  ///
  /// - Complexity: O(length of `key`) amortized.
  mutating func intern(_ key: UnsafeRawBufferPointer) -> (id: UInt32, isNew: Bool) {
    let hash = ByteStringTable.hash(key)
    var (found, index) = probe(key, hash: hash)
    if let found { return (found, false) }
    let id = UInt32(count)
    if (count + 1) * 2 > table.count {
      rehash(slotCount: table.count * 2)
      index = probe(key, hash: hash).slot
    } else if !isKnownUniquelyReferenced(&table) {
      // A copy of the writer shares the slots until one of them adds.
      rehash(slotCount: table.count)
      index = probe(key, hash: hash).slot
    }
    arena.append(contentsOf: key)
    starts.append(UInt32(truncatingIfNeeded: arena.count))
    table.slots[index] = Self.slot(hash: hash, id: id)
    return (id, true)
  }

  /// Calls `body` with the bytes of id `id`.
  func withBytes<R>(of id: UInt32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    let start = Int(starts[Int(id)])
    let end = Int(starts[Int(id) + 1])
    return try arena.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
  }

  /// The number of `key`, if present.
  func find(_ key: UnsafeRawBufferPointer) -> UInt32? {
    probe(key, hash: ByteStringTable.hash(key)).id
  }

  /// ``find(_:)`` with the key's hash (``ByteStringTable/hash(_:)``) already computed.
  func find(_ key: UnsafeRawBufferPointer, hash: Int) -> UInt32? {
    probe(key, hash: hash).id
  }

  /// Makes room for `minimumCount` ids in all, so that adding up to that many moves no
  /// slot: the writer reserves for each batch of documents before adding it.
  mutating func reserveCapacity(_ minimumCount: Int) {
    starts.reserveCapacity(adding: minimumCount - count)
    var size = table.count
    while minimumCount * 2 > size { size *= 2 }
    if size > table.count { rehash(slotCount: size) }
  }

  /// Moves every id into a new table of `size` slots. The slots keep only half the hash, so
  /// the ids are hashed again, in the order added: the arena is read front to back.
  private mutating func rehash(slotCount size: Int) {
    let newTable = SlotTable(count: size)
    let newSlots = newTable.slots
    let mask = size - 1
    arena.withUnsafeBytes { arena in
      for id in 0..<count {
        let start = Int(starts[id])
        let end = Int(starts[id + 1])
        let hash = ByteStringTable.hash(UnsafeRawBufferPointer(rebasing: arena[start..<end]))
        var index = hash & mask
        while newSlots[index] != 0 { index = (index + 1) & mask }
        newSlots[index] = Self.slot(hash: hash, id: UInt32(id))
      }
    }
    table = newTable
  }
}

/// The slots of a ``DocumentIDTable``, shared by copies of the table until one of them adds
/// an id (which then rehashes into a table of its own).
private final class SlotTable {
  let slots: UnsafeMutablePointer<UInt64>
  let count: Int

  /// `count` free slots.
  init(count: Int) {
    slots = LargeMemory.allocate(UInt64.self, capacity: count)
    slots.initialize(repeating: 0, count: count)
    self.count = count
  }

  deinit { LargeMemory.deallocate(slots) }
}
