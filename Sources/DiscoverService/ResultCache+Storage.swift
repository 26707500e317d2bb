// The recency list and the key dictionary behind a `ResultCache`, all under its mutex.
//
// Nodes live in one flat array and are linked by index: `previous` points toward the most
// recently used node (`head`), `next` toward the least recently used (`tail`), which is the
// next to be evicted. A removed node keeps its array slot, joins the free list through `next`
// and is reused by the next insert, so the array only grows to the most entries held at once.
//
// The lookup path is `@inlinable`, down to the stored properties it reads, so that a module
// holding its own `ResultCache<Key, Value>` gets it specialized for its types. Called across
// the module boundary unspecialized, every hit looked up generic metadata and hashed through
// witness tables: the benchmark's cache hit p50 fell from about 2.2 µs to 1.4-1.7 µs (three
// alternating pairs) once it could specialize.

extension ResultCache {
  /// One stored entry, or a vacant node on the free list (then `key` and `value` are `nil`).
  @usableFromInline
  struct Node: Sendable {
    var key: Key?
    @usableFromInline var value: Value?
    /// What the entry counts against the bound, overhead included.
    var bytes: Int
    /// The `now` reading when the value was stored.
    @usableFromInline var storedAt: UInt64
    /// The node used just more recently, or `none`.
    @usableFromInline var previous: Int32
    /// The node used just less recently, or `none`; on the free list, the next vacant node.
    @usableFromInline var next: Int32
  }

  /// The running counts behind ``Statistics``.
  @usableFromInline
  struct Counters: Sendable {
    @usableFromInline var hits = 0
    @usableFromInline var misses = 0
    var evictions = 0
    @usableFromInline var expirations = 0
    var invalidations = 0
    var rejections = 0
    var coalescedWaits = 0
  }

  /// Entries dropped when a newer generation arrived, kept until the lock is released so that
  /// their values are freed outside it.
  @usableFromInline
  struct Retired: Sendable {
    var slots: [Key: Int32]
    var nodes: ContiguousArray<Node>
  }

  /// Everything the mutex guards.
  @usableFromInline
  struct State: Sendable {
    /// The newest generation seen; every stored entry belongs to it.
    @usableFromInline var generation: UInt64 = 0
    /// The node of each stored key.
    @usableFromInline var slots: [Key: Int32] = [:]
    @usableFromInline var nodes: ContiguousArray<Node> = []
    /// The most recently used node, or `none`.
    @usableFromInline var head: Int32 = none
    /// The least recently used node, or `none`.
    @usableFromInline var tail: Int32 = none
    /// The first vacant node of the free list, or `none`.
    var vacant: Int32 = none
    /// The sum of the stored entries' `bytes`.
    var bytes = 0
    @usableFromInline var counters = Counters()
    /// The single-flight computations running, by key and generation.
    var flights: [FlightKey: Flight] = [:]
    @usableFromInline var retired: Retired?

    /// The index that links to no node.
    @inlinable static var none: Int32 { -1 }

    /// Advances to `generation` when it is newer than any seen, dropping every entry, and
    /// tells whether entries of `generation` may be served and stored.
    ///
    /// - Complexity: O(1); the dropped entries are freed by the caller, outside the lock.
    @inlinable
    mutating func admits(_ generation: UInt64) -> Bool {
      if generation > self.generation {
        retireAllEntries()
        self.generation = generation
      }
      return generation == self.generation
    }

    /// Moves every entry to `retired`, counting them as invalidations.
    @usableFromInline
    mutating func retireAllEntries() {
      guard !slots.isEmpty || !nodes.isEmpty else { return }
      counters.invalidations += slots.count
      // Keep one batch at most: an earlier one not yet taken is freed here, under the lock.
      retired = Retired(slots: slots, nodes: nodes)
      slots = [:]
      nodes = []
      head = Self.none
      tail = Self.none
      vacant = Self.none
      bytes = 0
    }

    /// The value stored for `key` under `generation` and not expired, moved to the front of
    /// the recency order; removes it if it has expired.
    ///
    /// An age is `now - storedAt`; a clock that reads earlier than `storedAt` gives age zero.
    @inlinable
    mutating func value(
      for key: Key, generation: UInt64, now: UInt64, timeToLive: UInt64?
    ) -> Value? {
      guard admits(generation), let slot = slots[key] else { return nil }
      let storedAt = nodes[Int(slot)].storedAt
      if let timeToLive, now >= storedAt, now - storedAt >= timeToLive {
        remove(slot)
        counters.expirations += 1
        return nil
      }
      moveToFront(slot)
      return nodes[Int(slot)].value
    }

    /// Stores `value` for `key` under `generation` at the front of the recency order, evicting
    /// from the tail until `bytes` more fit under `maximumBytes`; whether it was stored.
    mutating func insert(
      _ value: Value, for key: Key, generation: UInt64, bytes: Int, now: UInt64,
      maximumBytes: Int
    ) -> Bool {
      guard admits(generation) else { return false }
      let existing = slots[key]
      guard bytes <= maximumBytes else {
        // The entry can never fit; an earlier value for the key is older than this one.
        if let existing { remove(existing) }
        counters.rejections += 1
        return false
      }
      if let existing {
        let index = Int(existing)
        self.bytes += bytes - nodes[index].bytes
        nodes[index].value = value
        nodes[index].bytes = bytes
        nodes[index].storedAt = now
        moveToFront(existing)
        // The replaced entry is at the head and fits alone, so this stops before reaching it.
        evict(untilBytesAtMost: maximumBytes)
        return true
      }
      evict(untilBytesAtMost: maximumBytes - bytes)
      let slot = allocate(
        Node(
          key: key, value: value, bytes: bytes, storedAt: now, previous: Self.none, next: Self.none)
      )
      linkAtFront(slot)
      slots[key] = slot
      self.bytes += bytes
      return true
    }

    /// Removes least recently used entries until the stored bytes are at most `limit`.
    mutating func evict(untilBytesAtMost limit: Int) {
      while bytes > limit, tail != Self.none {
        remove(tail)
        counters.evictions += 1
      }
    }

    /// Removes the entry at `slot` and puts its node on the free list.
    @usableFromInline
    mutating func remove(_ slot: Int32) {
      unlink(slot)
      let index = Int(slot)
      if let key = nodes[index].key { slots.removeValue(forKey: key) }
      bytes -= nodes[index].bytes
      nodes[index].key = nil
      nodes[index].value = nil
      nodes[index].bytes = 0
      nodes[index].next = vacant
      vacant = slot
    }

    /// Places `node` in a vacant slot, or a new one at the end of the array.
    mutating func allocate(_ node: Node) -> Int32 {
      if vacant != Self.none {
        let slot = vacant
        vacant = nodes[Int(slot)].next
        nodes[Int(slot)] = node
        return slot
      }
      precondition(nodes.count < Int(Int32.max), "a result cache holds fewer than 2^31 entries")
      nodes.append(node)
      return Int32(nodes.count - 1)
    }

    /// Makes `slot` the most recently used entry.
    @inlinable
    mutating func moveToFront(_ slot: Int32) {
      guard head != slot else { return }
      unlink(slot)
      linkAtFront(slot)
    }

    /// Links the unlinked node at `slot` in as the most recently used.
    @inlinable
    mutating func linkAtFront(_ slot: Int32) {
      nodes[Int(slot)].previous = Self.none
      nodes[Int(slot)].next = head
      if head != Self.none { nodes[Int(head)].previous = slot } else { tail = slot }
      head = slot
    }

    /// Takes the node at `slot` out of the recency list.
    @inlinable
    mutating func unlink(_ slot: Int32) {
      let previous = nodes[Int(slot)].previous
      let next = nodes[Int(slot)].next
      if previous != Self.none { nodes[Int(previous)].next = next } else { head = next }
      if next != Self.none { nodes[Int(next)].previous = previous } else { tail = previous }
      nodes[Int(slot)].previous = Self.none
      nodes[Int(slot)].next = Self.none
    }
  }
}
