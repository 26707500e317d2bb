import DiscoverSearch
import Synchronization

/// A bounded cache of computed answers (search results, trending lists, completions), keyed by
/// the index generation and a request, with least-recently-used eviction under a byte bound, an
/// optional time to live, and single-flight computation of misses.
///
/// The caller chooses the key: a normalized request, and for answers that decay with time the
/// minute of the recency clock they were computed for, so that one minute's answer is not
/// served in the next. The index generation is passed apart from the key, with every call:
///
/// - **Generations.** The cache holds the answers of one generation at a time, the newest it
///   has been shown. A call with a newer generation drops every stored entry first (counted in
///   ``Statistics/invalidations``); a call with an older one is a miss, and an insert with an
///   older one stores nothing. So a lookup with generation `g` never returns an entry stored
///   under another generation, and a reader still on an old snapshot computes its own answer
///   rather than being served a newer one, or serving its old one to others.
/// - **Bytes.** Each entry costs `cost(value)`, plus `keyCost(key)` when given, plus
///   ``entryOverhead`` for the cache's own bookkeeping. After every insert the entries' bytes
///   are at most ``maximumBytes``: least recently used entries are evicted to make room, and
///   an entry larger than the whole bound is not stored (counted in ``Statistics/rejections``).
/// - **Time to live.** With a ``timeToLive``, an entry whose age has reached it is a miss and
///   is removed. Ages come from the injected `now` clock, never from the wall clock.
/// - **Single flight.** The async `value(for:generation:storingIf:compute:)` runs one
///   computation for concurrent callers of the same key and generation; the others wait for
///   its answer (see `ResultCache+SingleFlight.swift`).
///
/// All methods may be called from any thread; one mutex guards the state, and the work under
/// it is a hash lookup and a few index writes. User closures (`cost`, `keyCost`, `now`,
/// `compute`) always run outside the lock.
///
/// Least-recently-used replacement is the stack algorithm of Mattson, Gecsei, Slutz and
/// Traiger, "Evaluation techniques for storage hierarchies", IBM Systems Journal 9(2), 1970.
/// The recency order is an intrusive doubly linked list threaded through a flat array of
/// nodes, with a free list of vacated nodes and a dictionary from key to node index, so that a
/// hit, an insert and an eviction each cost O(1) with no allocation on a hit.
public final class ResultCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  /// The most bytes the stored entries may cost together, overhead included.
  public let maximumBytes: Int

  /// How long an entry may be served after it was stored, or `nil` to keep entries until
  /// they are evicted or their generation is superseded.
  public let timeToLive: Duration?

  /// `timeToLive` in nanoseconds of the `now` clock.
  @usableFromInline let timeToLiveNanoseconds: UInt64?
  let cost: @Sendable (Value) -> Int
  let keyCost: (@Sendable (Key) -> Int)?
  @usableFromInline let now: @Sendable () -> UInt64
  @usableFromInline let state: Mutex<State>
  /// Names each waiter of a single-flight computation, so that a cancelled waiter removes
  /// itself and no other.
  let waiterIDs = Atomic<UInt64>(0)

  /// Creates an empty cache.
  ///
  /// - Parameters:
  ///   - maximumBytes: The most bytes the entries may cost together; at least zero.
  ///   - timeToLive: How long an entry may be served after it was stored, or `nil` for no
  ///     limit; positive when given.
  ///   - cost: The bytes a value occupies, as the caller counts them (for example the hits'
  ///     count times their size). Called once per insert, outside the lock.
  ///   - keyCost: The bytes a key holds beyond its inline size (for example the UTF-8 count
  ///     of its strings), or `nil` to count only ``entryOverhead`` for the key. Called once
  ///     per insert, outside the lock.
  ///   - now: A monotonic clock in nanoseconds, read only when `timeToLive` is given: once
  ///     per lookup and once per insert. `nil` reads `ContinuousClock`; tests pass a clock
  ///     they advance by hand.
  public init(
    maximumBytes: Int,
    timeToLive: Duration? = nil,
    cost: @escaping @Sendable (Value) -> Int,
    keyCost: (@Sendable (Key) -> Int)? = nil,
    now: (@Sendable () -> UInt64)? = nil
  ) {
    precondition(maximumBytes >= 0, "maximumBytes must be at least zero, not \(maximumBytes)")
    if let timeToLive {
      precondition(timeToLive > .zero, "timeToLive must be positive, not \(timeToLive)")
    }
    self.maximumBytes = maximumBytes
    self.timeToLive = timeToLive
    self.timeToLiveNanoseconds = timeToLive.map(Self.nanoseconds(of:))
    self.cost = cost
    self.keyCost = keyCost
    if let now {
      self.now = now
    } else {
      let origin = ContinuousClock.now
      self.now = { Self.nanoseconds(of: origin.duration(to: .now)) }
    }
    self.state = Mutex(State())
  }

  /// The bytes each entry costs beyond its value and its key's out-of-line storage: its node
  /// in the recency list plus its slot in the key dictionary.
  ///
  /// A node holds the key, the value, the entry's bytes, its storage time and two links. The
  /// dictionary slot (the key and a 32-bit node index) is counted at Swift's maximum load
  /// factor of 3/4, the least a slot can cost; the table grows by doubling, so between
  /// resizes the real figure is up to twice as much. For a key of two strings, an integer and
  /// an enumeration and a class reference as the value this comes to about 150 bytes.
  public static var entryOverhead: Int {
    MemoryLayout<Node>.stride + (MemoryLayout<Key>.stride + MemoryLayout<Int32>.stride) * 4 / 3
  }

  /// The cached value for `key` under `generation`, or `nil`.
  ///
  /// A hit moves the entry to the front of the recency order. A miss is counted whether the
  /// key is absent, its entry has expired (and is removed), or `generation` is not the newest
  /// the cache has seen; a newer `generation` drops every stored entry first.
  ///
  /// - Parameters:
  ///   - key: The request.
  ///   - generation: The generation of the index snapshot the caller reads.
  /// - Returns: The value stored for `key` under `generation` and not expired, or `nil`.
  /// - Complexity: O(1) on average, plus O(*n*) for the *n* entries dropped when `generation`
  ///   is newer than any seen before.
  @inlinable
  public func lookup(_ key: Key, generation: UInt64) -> Value? {
    let now = timeToLiveNanoseconds == nil ? 0 : self.now()
    return withState { state in
      let value = state.value(
        for: key, generation: generation, now: now, timeToLive: timeToLiveNanoseconds)
      if value == nil { state.counters.misses += 1 } else { state.counters.hits += 1 }
      return value
    }
  }

  /// Stores `value` for `key` under `generation`, evicting the least recently used entries
  /// until the bytes fit.
  ///
  /// The value replaces any earlier one for `key`. Nothing is stored when `generation` is
  /// older than the newest the cache has seen, or when the entry alone costs more than
  /// ``maximumBytes``; in the second case an earlier value for `key` is removed as well, so
  /// that a lookup never returns a value older than the last one inserted.
  ///
  /// - Parameters:
  ///   - value: The answer to store.
  ///   - key: The request it answers.
  ///   - generation: The generation of the index snapshot `value` was computed from.
  /// - Returns: Whether the value was stored.
  /// - Complexity: O(1) on average plus O(*e*) for *e* evicted entries, plus O(*n*) for the
  ///   *n* entries dropped when `generation` is newer than any seen before.
  @discardableResult
  public func insert(_ value: Value, for key: Key, generation: UInt64) -> Bool {
    let bytes = bytes(of: value, for: key)
    let now = timeToLiveNanoseconds == nil ? 0 : self.now()
    return withState { state in
      state.insert(
        value, for: key, generation: generation, bytes: bytes, now: now,
        maximumBytes: maximumBytes)
    }
  }

  /// The cached value for `key` under `generation`, or else `compute()`'s, which is then
  /// stored if `shouldStore` accepts it.
  ///
  /// This variant is for callers outside async code: it runs `compute` on the calling thread,
  /// and concurrent callers of the same key each compute. Async callers should use the
  /// single-flight variant, which a call with a plain closure picks in async code.
  ///
  /// - Parameters:
  ///   - key: The request.
  ///   - generation: The generation of the index snapshot the caller reads.
  ///   - shouldStore: Whether a computed value may be served again (`false` for a partial
  ///     answer, say); every value by default.
  ///   - compute: Computes the answer on a miss, from that snapshot.
  /// - Returns: The cached or computed value.
  /// - Throws: What `compute` throws; nothing is stored then.
  /// - Complexity: That of ``lookup(_:generation:)``, plus on a miss `compute` and
  ///   ``insert(_:for:generation:)``.
  @_disfavoredOverload
  public func value(
    for key: Key, generation: UInt64, storingIf shouldStore: (Value) -> Bool = { _ in true },
    compute: () throws -> Value
  ) rethrows -> Value {
    if let value = lookup(key, generation: generation) { return value }
    let value = try compute()
    if shouldStore(value) { insert(value, for: key, generation: generation) }
    return value
  }

  /// Removes the entry for `key` under `generation`, if one is stored.
  ///
  /// A computation running for `key` still stores its value when it finishes.
  ///
  /// - Parameters:
  ///   - key: The request.
  ///   - generation: The generation the entry was stored under.
  /// - Returns: Whether an entry was removed.
  @discardableResult
  public func remove(_ key: Key, generation: UInt64) -> Bool {
    withState { state in
      guard state.admits(generation), let slot = state.slots[key] else { return false }
      state.remove(slot)
      return true
    }
  }

  /// Removes every entry, counting them as invalidations. In-flight computations go on,
  /// and store their answers if their generation is still the newest.
  ///
  /// - Complexity: O(*n*) for *n* entries.
  public func removeAll() {
    withState { $0.retireAllEntries() }
  }

  /// The counts since the cache was created, its current size, and the computations running.
  ///
  /// - Complexity: O(*c*) for *c* computations running.
  public var statistics: Statistics {
    state.withAnnotatedLock { state in
      Statistics(
        hits: state.counters.hits, misses: state.counters.misses,
        evictions: state.counters.evictions, expirations: state.counters.expirations,
        invalidations: state.counters.invalidations, rejections: state.counters.rejections,
        coalescedWaits: state.counters.coalescedWaits, entries: state.slots.count,
        bytes: state.bytes, computations: state.flights.count,
        waitingCallers: state.flights.values.reduce(0) { $0 + $1.waiters.count })
    }
  }

  /// Runs `body` under the lock, then frees any entries it dropped once the lock is released,
  /// so that a new generation does not hold every reader while the old answers are freed.
  @inlinable
  func withState<Output: Sendable>(_ body: (inout State) -> Output) -> Output {
    // The retired entries come out of the lock in the tuple and are freed with it, here.
    let (result, _) = state.withAnnotatedLock { state in
      let result = body(&state)
      return (result, state.retired.take())
    }
    return result
  }

  /// The bytes an entry for `key` holding `value` counts against the bound.
  func bytes(of value: Value, for key: Key) -> Int {
    let keyBytes = keyCost?(key) ?? 0
    precondition(keyBytes >= 0, "keyCost returned \(keyBytes); a size is at least zero")
    let valueBytes = cost(value)
    precondition(valueBytes >= 0, "cost returned \(valueBytes); a size is at least zero")
    // A sum past Int.max costs more than any bound, so saturating keeps it out.
    let (sum, overflow) = valueBytes.addingReportingOverflow(keyBytes)
    let (total, overheadOverflow) = sum.addingReportingOverflow(Self.entryOverhead)
    return overflow || overheadOverflow ? .max : total
  }

  /// A duration in whole nanoseconds, saturating at `UInt64.max`, negative ones as zero.
  static func nanoseconds(of duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    if seconds < 0 { return 0 }
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return .max }
    // 10^9 attoseconds make one nanosecond.
    let (sum, carry) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
    return carry ? .max : sum
  }
}

extension ResultCache {
  /// What a cache has counted since it was created, and its current size.
  ///
  /// Every ``ResultCache/lookup(_:generation:)``, and every call of either
  /// `value(for:generation:compute:)`, counts one hit or one miss. A miss answered by another
  /// caller's computation also counts one coalesced wait.
  public struct Statistics: Sendable, Equatable {
    /// Lookups that returned a stored value.
    public var hits: Int
    /// Lookups that found no value: absent, expired, or of an older generation.
    public var misses: Int
    /// Entries removed to keep the bytes under the bound.
    public var evictions: Int
    /// Entries removed because their age reached the time to live.
    public var expirations: Int
    /// Entries dropped because a newer generation was seen, or by `removeAll()`.
    public var invalidations: Int
    /// Values not stored because their entry alone cost more than the bound.
    public var rejections: Int
    /// Callers that missed and received the outcome, value or error, of a computation another
    /// caller started, rather than computing their own.
    public var coalescedWaits: Int
    /// The entries stored now.
    public var entries: Int
    /// The bytes the stored entries cost now, overhead included.
    public var bytes: Int
    /// The single-flight computations running now.
    public var computations: Int
    /// The callers waiting now for a single-flight computation, their own or another's.
    public var waitingCallers: Int

    /// The share of lookups that hit, from 0 to 1; 0 before any lookup.
    public var hitRatio: Double {
      let lookups = hits + misses
      return lookups == 0 ? 0 : Double(hits) / Double(lookups)
    }
  }
}
