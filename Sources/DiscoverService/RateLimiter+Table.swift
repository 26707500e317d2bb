import DiscoverSearch
import Synchronization

/// One shard of a ``RateLimiter``: a flat open-addressing table of (entry key, theoretical
/// arrival time) pairs, and the GCRA step applied in place.
///
/// **Layout.** One buffer of 16-byte ``Slot``s. Entry key 0 marks an empty slot (the limiter
/// never uses 0 as a key). Collisions are resolved by linear probing (Knuth, *The Art of
/// Computer Programming* vol. 3, §6.4, Algorithm L): the table is never more than three
/// quarters full, so finding a key reads at most 2.5 slots on average, usually within one
/// cache line. A key's first slot is `(key << 8) × capacity >> 64`, Lemire's multiply-shift
/// reduction ("A fast alternative to the modulo reduction", 2016), so capacities need not be
/// powers of two; the shift drops the 8 top bits, which chose the shard and are the same for
/// every key of it.
///
/// **Expiry.** An entry whose arrival time is at or before "now" is the same as no entry (the
/// client has its whole burst back), so entries are never deleted one by one: when an insert
/// finds the table full, ``rebuild(at:makingRoom:)`` copies the live entries into a buffer of
/// twice their number (half full, within the shard's maximum), leaving the expired ones
/// behind. A rebuild follows at least 3/16 of a capacity of inserts (a quarter, below the
/// maximum), so its O(capacity) cost is O(1) per insert, amortized.
///
/// **Bounded memory.** A table never holds more than ``maximumCount`` keys. When live keys alone
/// would pass three quarters of it, the rebuild also drops the live entries with the earliest
/// arrival times, those nearest to expiring anyway, until three quarters remain: those clients
/// get their whole burst back early, the only way the limiter errs toward admitting.
///
/// Not thread-safe: ``RateLimiterShards`` keeps each table behind its own lock.
struct RateLimiterTable: ~Copyable {
  /// One entry: a key and its theoretical arrival time, in nanoseconds on the limiter's clock.
  struct Slot {
    var key: UInt64
    var arrival: Int64
  }

  /// The smallest capacity a table shrinks to: 16 slots, 256 bytes, four cache lines.
  static let minimumCapacity = 16
  /// The bytes one slot takes.
  static let slotBytes = MemoryLayout<Slot>.stride

  /// The largest number of slots this table allocates.
  let maximumCapacity: Int
  /// The most keys this table holds: three quarters of ``maximumCapacity``.
  let maximumCount: Int
  /// The live keys a rebuild keeps at most when it must evict, three quarters of
  /// ``maximumCount``, so that a quarter of the table's keys can arrive before the next
  /// rebuild.
  private let evictionTarget: Int
  private var slots: UnsafeMutablePointer<Slot>
  /// The number of slots in `slots`.
  private(set) var capacity: Int
  /// The keys held, expired or not.
  private(set) var count = 0
  /// The count at which the next insert rebuilds: three quarters of ``capacity``.
  private var growthLimit: Int

  /// An empty table of ``minimumCapacity`` slots that grows to hold up to about `maximumKeys`.
  init(maximumKeys: Int) {
    // Three quarters of the maximum capacity must hold `maximumKeys`.
    maximumCapacity = max(Self.minimumCapacity, (maximumKeys * 4 + 2) / 3)
    maximumCount = Self.growthLimit(ofCapacity: maximumCapacity)
    evictionTarget = max(1, maximumCount * 3 / 4)
    capacity = Self.minimumCapacity
    growthLimit = Self.growthLimit(ofCapacity: capacity)
    slots = Self.allocateEmptySlots(capacity)
  }

  deinit {
    slots.deallocate()
  }

  /// The bytes of the slot buffer.
  var bufferBytes: Int { capacity * Self.slotBytes }

  // MARK: The GCRA step

  /// Charges `increment` nanoseconds to `key`'s arrival time if that keeps it within
  /// `tolerance` of `now` (GCRA, virtual-scheduling form; see ``RateLimiter``).
  ///
  /// - Returns: When admitted, the headroom left: `now + tolerance` minus the new arrival time,
  ///   zero or more. When refused, a negative number: minus the nanoseconds until the same
  ///   request would be admitted.
  /// - Complexity: O(1) expected, amortized: a rebuild, O(``capacity``), follows at least
  ///   3/16 of a capacity of inserts.
  @inline(__always)
  mutating func charge(_ key: UInt64, increment: Int64, tolerance: Int64, at now: Int64) -> Int64 {
    var index = homeIndex(of: key)
    while true {
      // SAFETY: `index` stays below `capacity`; the buffer holds `capacity` initialized slots.
      let slot = slots + index
      let slotKey = slot.pointee.key
      if slotKey == key {
        // An arrival time in the past is the same as none: the client's whole burst is back.
        let newArrival = max(slot.pointee.arrival, now) &+ increment
        let headroom = now &+ tolerance &- newArrival
        if headroom >= 0 { slot.pointee.arrival = newArrival }
        return headroom
      }
      if slotKey == 0 { break }
      index &+= 1
      if index == capacity { index = 0 }
    }
    // A key the table does not hold starts from "now", as an expired entry would.
    let headroom = tolerance &- increment
    guard headroom >= 0 else { return headroom }
    if count >= growthLimit {
      rebuild(at: now, makingRoom: true)
      index = emptyIndex(for: key)
    }
    // SAFETY: `index` is an empty slot below `capacity`, found by probing for `key`.
    slots[index] = Slot(key: key, arrival: now &+ increment)
    count += 1
    return headroom
  }

  // MARK: Counting and sweeping

  /// The number of keys whose arrival time is after `now`.
  ///
  /// - Complexity: O(``capacity``).
  func liveCount(at now: Int64) -> Int {
    var live = 0
    for index in 0..<capacity {
      // SAFETY: `index` is below `capacity`.
      let slot = slots[index]
      if slot.key != 0 && slot.arrival > now { live += 1 }
    }
    return live
  }

  /// Drops the expired keys and fits the buffer to the rest.
  ///
  /// - Returns: The number of keys dropped.
  /// - Complexity: O(``capacity``).
  mutating func removeExpired(at now: Int64) -> Int {
    let live = liveCount(at: now)
    let fittedCapacity = Self.fittedCapacity(for: live, maximum: maximumCapacity)
    guard live < count || fittedCapacity < capacity else { return 0 }
    let before = count
    rebuild(at: now, makingRoom: false)
    return before - count
  }

  /// Copies the live keys into a new buffer of twice their number (at least
  /// ``minimumCapacity``, at most ``maximumCapacity``), dropping the expired ones.
  ///
  /// - Parameter makingRoom: Whether an insert must follow: then, when more than three
  ///   quarters of ``maximumCount`` keys are live, those with the earliest arrival times are
  ///   dropped too, down to three quarters.
  /// - Complexity: O(``capacity``); O(*n* log *n*) in the live keys when it evicts.
  private mutating func rebuild(at now: Int64, makingRoom: Bool) {
    var live = liveCount(at: now)
    // Expired keys are dropped, and when too many are live, those arriving before
    // `evictThrough` and `tiesToEvict` of those arriving at it: exactly the excess.
    var evictThrough = now
    var tiesToEvict = 0
    if makingRoom && live > evictionTarget {
      (evictThrough, tiesToEvict) = earliestArrivals(count: live - evictionTarget, after: now)
      live = evictionTarget
    }
    let newCapacity = Self.fittedCapacity(for: live, maximum: maximumCapacity)
    let newSlots = Self.allocateEmptySlots(newCapacity)
    let oldSlots = slots
    let oldCapacity = capacity
    slots = newSlots
    capacity = newCapacity
    growthLimit = Self.growthLimit(ofCapacity: newCapacity)
    count = 0
    for index in 0..<oldCapacity {
      // SAFETY: `index` is below the old buffer's capacity.
      let slot = oldSlots[index]
      guard slot.key != 0 else { continue }
      if slot.arrival <= now || slot.arrival < evictThrough { continue }
      if slot.arrival == evictThrough && tiesToEvict > 0 {
        tiesToEvict -= 1
        continue
      }
      // SAFETY: the new buffer has room: `live` keys fill it at most three quarters.
      newSlots[emptyIndex(for: slot.key)] = slot
      count += 1
    }
    oldSlots.deallocate()
  }

  /// The arrival time at or before which the `count` earliest live entries fall, and how many
  /// entries at exactly that time are among them.
  ///
  /// - Complexity: O(*n* log *n*) in the live keys; allocates one array of them.
  private func earliestArrivals(count: Int, after now: Int64) -> (Int64, ties: Int) {
    var arrivals: [Int64] = []
    arrivals.reserveCapacity(self.count)
    for index in 0..<capacity {
      // SAFETY: `index` is below `capacity`.
      let slot = slots[index]
      if slot.key != 0 && slot.arrival > now { arrivals.append(slot.arrival) }
    }
    arrivals.sort()
    let last = arrivals[count - 1]
    // Entries before `last` all go; of those at `last`, as many as the count still needs.
    var earlier = count - 1
    while earlier > 0 && arrivals[earlier - 1] == last { earlier -= 1 }
    return (last, count - earlier)
  }

  // MARK: Slots

  /// The first slot to probe for `key`.
  @inline(__always)
  private func homeIndex(of key: UInt64) -> Int {
    Int(truncatingIfNeeded: (key &<< 8).multipliedFullWidth(by: UInt64(capacity)).high)
  }

  /// The first empty slot on `key`'s probe sequence. The key must not be in the table.
  private func emptyIndex(for key: UInt64) -> Int {
    var index = homeIndex(of: key)
    // SAFETY: `index` stays below `capacity`; the table always has an empty slot.
    while slots[index].key != 0 {
      index += 1
      if index == capacity { index = 0 }
    }
    return index
  }

  private static func allocateEmptySlots(_ capacity: Int) -> UnsafeMutablePointer<Slot> {
    let slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
    slots.initialize(repeating: Slot(key: 0, arrival: 0), count: capacity)
    return slots
  }

  /// Three quarters of `capacity`: linear probing reads about ½(1 + 1 / (1 − load)²) slots
  /// to find a key absent, 8.5 at this load, and ½(1 + 1 / (1 − load)) to find one present,
  /// 2.5 (Knuth, §6.4).
  private static func growthLimit(ofCapacity capacity: Int) -> Int {
    capacity * 3 / 4
  }

  /// Twice `count`, so that a rebuilt table is half full, within the table's bounds.
  private static func fittedCapacity(for count: Int, maximum: Int) -> Int {
    min(maximum, max(minimumCapacity, count * 2))
  }
}

/// The shards of a ``RateLimiter``: a mutex and a table each, on cache lines of their own.
///
/// One buffer holds every shard, so that a check reaches its lock and table header with one
/// address computation, and no reference count changes on the way.
struct RateLimiterShards: ~Copyable, @unchecked Sendable {
  // @unchecked Sendable: `base` is allocated and every shard initialized in `init`, never
  // reassigned, and freed in `deinit`, once nothing else can reach it; between, a table is
  // read and written only inside its own `Mutex`'s `withLock`.

  /// `Mutex`, not DiscoverSearch's `Lock`: see `withAnnotatedLock`.
  private typealias Shard = Mutex<RateLimiterTable>

  /// The number of shards, chosen by a key's top 8 bits: with 256, two threads checking
  /// random keys meet on one lock in one check out of 256.
  static let count = 256
  /// The bits of a key below those that choose its shard.
  private static let shardShift: UInt64 = 64 - 8
  /// Bytes from one shard to the next: whole pairs of 64-byte cache lines, so that no two
  /// shards share a line, nor a pair of lines the adjacent-line prefetcher fetches together.
  private static let stride = (MemoryLayout<Shard>.size + 127) / 128 * 128
  /// The bytes of the shard buffer.
  static let bufferBytes = count * stride

  private let base: UnsafeMutableRawPointer

  /// 256 empty shards, each holding up to about `maximumKeysPerShard` keys.
  init(maximumKeysPerShard: Int) {
    base = UnsafeMutableRawPointer.allocate(byteCount: Self.bufferBytes, alignment: 128)
    for index in 0..<Self.count {
      // SAFETY: `index * stride` is inside the buffer, 128-byte aligned, which is more than a
      // shard's alignment; each shard is initialized once, here.
      (base + index * Self.stride).bindMemory(to: Shard.self, capacity: 1).initialize(
        to: Mutex(RateLimiterTable(maximumKeys: maximumKeysPerShard)))
    }
  }

  deinit {
    for index in 0..<Self.count {
      // SAFETY: every shard was initialized in `init` and is deinitialized once, here.
      (base + index * Self.stride).assumingMemoryBound(to: Shard.self).deinitialize(count: 1)
    }
    base.deallocate()
  }

  /// Calls `body` with the table of `key`'s shard, holding that shard's lock.
  @inline(__always)
  func withTable<Result: Sendable>(
    forKey key: UInt64, _ body: (inout sending RateLimiterTable) -> Result
  ) -> Result {
    withTable(at: Int(truncatingIfNeeded: key &>> Self.shardShift), body)
  }

  /// Calls `body` with the table of shard `index`, holding its lock.
  @inline(__always)
  func withTable<Result: Sendable>(
    at index: Int, _ body: (inout sending RateLimiterTable) -> Result
  ) -> Result {
    precondition(index >= 0 && index < Self.count)
    // SAFETY: `index` is a shard's, checked above; shards live as long as `self`.
    return (base + index * Self.stride).assumingMemoryBound(to: Shard.self).pointee
      .withAnnotatedLock { (table: inout sending RateLimiterTable) -> sending Result in
        body(&table)
      }
  }

  /// The sum over every shard of `body` applied to its table, each shard's lock held in turn.
  func sum(_ body: (inout sending RateLimiterTable) -> Int) -> Int {
    var total = 0
    for index in 0..<Self.count { total += withTable(at: index, body) }
    return total
  }
}
