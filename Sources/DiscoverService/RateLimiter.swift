import DiscoverSearch
import Synchronization

/// Per-client rate limits on searches, completions and trending lists, safe to share among
/// any number of tasks.
///
/// ```swift
/// let limiter = RateLimiter(limits: .standard)
/// let client = ClientKey(request.userID)
/// try limiter.acquire(client, for: .completion)  // throws SearchError(.rateLimited, …)
/// ```
///
/// **Algorithm.** The Generic Cell Rate Algorithm (GCRA) in its virtual-scheduling form, from
/// ATM networks (ITU-T Recommendation I.371, "Traffic control and congestion control in
/// B-ISDN"; ATM Forum, *Traffic Management Specification* 4.0, 1996), as redis-cell and
/// Brandur Leach's *throttled* apply it to requests. Each client key and operation has one
/// number, its *theoretical arrival time* (TAT): when its budget will be whole again. With the
/// interval *T* = 1 / rate and the tolerance τ = burst × *T*, a request of cost *c* at time
/// *now* is admitted when `max(TAT, now) + c·T ≤ now + τ`, and then TAT becomes
/// `max(TAT, now) + c·T`; refused, it could be admitted `max(TAT, now) + c·T − τ − now` later.
/// This admits what a token bucket of `burst` tokens refilled at `rate` would, with one
/// integer of state and no refill step. A cost above the burst is charged as the whole burst:
/// such a request needs a full budget and empties it.
///
/// **Concurrency.** Keys are spread over 256 shards by their hash's top 8 bits, each a
/// `Mutex` (annotated for the thread sanitizer) around its own table, held for one lookup (a
/// few nanoseconds) or, after at least 3/16 of the shard's capacity in new keys, for a
/// rebuild of that shard alone: two checks wait for each other only when their keys share a
/// shard. No lock covers the whole limiter.
///
/// **Memory.** A key here is a client and an operation it used. Each takes one 16-byte slot of
/// a flat open-addressing table (its 64-bit hash and its TAT, in nanoseconds). Tables are
/// rebuilt half full and grow at three quarters full, so a key costs 21 to 32 bytes: at most
/// `32 × keyCount` bytes plus a fixed ``minimumMemoryBytes`` (about 100 KB). A key whose TAT
/// has passed is the same as no key and is dropped at the shard's next rebuild, or by
/// ``removeExpiredKeys(at:)``. No shard holds more than its share of ``maximumKeys``: there, a
/// rebuild drops the live keys nearest to expiring (giving those clients their burst back
/// early, the only way the limiter errs toward admitting), and memory stays within
/// ``maximumMemoryBytes``, about 21.3 bytes per key of the maximum (85 MB for the default four
/// million), plus one shard's old table (1/256 of that) while a rebuild copies it.
///
/// **Time** is injected: every method takes an ``Instant`` (`at:`), or reads the `clock`
/// given at creation; nothing in the algorithm reads a clock of its own.
public final class RateLimiter: Sendable {
  /// The limits on each operation.
  public let limits: Limits
  /// The most keys the limiter holds: `maximumKeys` as given at creation, rounded up to a
  /// whole number per shard (at least 12 each).
  public let maximumKeys: Int
  private let clock: @Sendable () -> Instant
  /// Per operation, in the order of `Operation.allCases`, its limit in nanoseconds.
  private let budgets: [Budget]
  private let shards: RateLimiterShards

  /// The limit on one operation, in the integers a check computes with.
  private struct Budget: Sendable {
    /// Nanoseconds between requests at the sustained rate (*T*).
    var interval: Int64
    /// How far ahead of now a TAT may run: burst × interval (τ).
    var tolerance: Int64
    var burst: Int
    /// Mixed into a client's hash so that each operation has its own entry.
    var salt: UInt64
  }

  /// A limiter with `limits` per operation, holding at most about `maximumKeys` keys.
  ///
  /// - Parameters:
  ///   - limits: The rate and burst of each operation.
  ///   - maximumKeys: The most (client, operation) pairs held at once; past it, the keys
  ///     nearest to expiring are forgotten. Four million by default: a million clients using
  ///     every operation, with room, in at most about 85 MB.
  ///   - clock: Gives "now" to the methods called without an instant. Inject one to test.
  /// - Precondition: `maximumKeys` is between 1 and 2³⁶.
  /// - Complexity: O(1) time; allocates ``minimumMemoryBytes``.
  public init(
    limits: Limits = .standard, maximumKeys: Int = 4_000_000,
    clock: @escaping @Sendable () -> Instant = { .now }
  ) {
    precondition(
      maximumKeys >= 1 && maximumKeys <= 1 << 36,
      "RateLimiter: maximumKeys must be between 1 and 2^36; got \(maximumKeys)")
    self.limits = limits
    self.clock = clock
    // A distinct constant per operation (multiples of the golden ratio's 64-bit fraction,
    // 0 for the first), so that a client's entries for two operations are different keys in
    // unrelated slots.
    budgets = Operation.allCases.map { operation in
      let limit = limits[operation]
      return Budget(
        interval: limit.intervalNanoseconds,
        tolerance: limit.intervalNanoseconds * Int64(limit.burst), burst: limit.burst,
        salt: UInt64(operation.index) &* 0x9e37_79b9_7f4a_7c15)
    }
    let keysPerShard = (maximumKeys + RateLimiterShards.count - 1) / RateLimiterShards.count
    shards = RateLimiterShards(maximumKeysPerShard: keysPerShard)
    self.maximumKeys = RateLimiterShards.count * shards.withTable(at: 0) { $0.maximumCount }
  }

  // MARK: Checking

  /// Whether `key` may make a request of `operation` at `now`, charging it if so.
  ///
  /// An admitted request is counted against the key's budget; a refused one is not, so a
  /// client that retries too early does not push its own admission further away.
  ///
  /// - Parameters:
  ///   - key: The client the request counts against.
  ///   - operation: Which budget it draws from.
  ///   - cost: How many requests it counts as; 1 unless some requests weigh more. A cost above
  ///     the operation's burst is charged as the burst.
  ///   - now: The request's time. Instants may arrive slightly out of order from concurrent
  ///     tasks: an earlier one is judged against the budget the later ones left.
  /// - Returns: ``Decision/allowed(remaining:)`` with the requests of cost 1 still admissible
  ///   at `now`, or ``Decision/refused(retryAfter:)`` with the exact wait before this request
  ///   would be admitted.
  /// - Precondition: `cost` is at least 1.
  /// - Complexity: O(1) expected, amortized; no allocation, except when the key's shard
  ///   rebuilds its table, after at least 3/16 of its capacity in new keys.
  public func check(
    _ key: ClientKey, for operation: Operation, cost: Int = 1, at now: Instant
  ) -> Decision {
    let budget = budgets[operation.index]
    let headroom = charge(key, budget, cost: cost, at: now)
    guard headroom >= 0 else { return .refused(retryAfter: .nanoseconds(-headroom)) }
    return .allowed(remaining: Int(truncatingIfNeeded: headroom / budget.interval))
  }

  /// The GCRA step of ``check(_:for:cost:at:)`` and ``acquire(_:for:cost:at:)``: the
  /// headroom left after charging the request, or minus the nanoseconds to wait.
  ///
  /// `acquire` needs only the sign and the wait, so it skips `check`'s division into
  /// requests left.
  @inline(__always)
  private func charge(_ key: ClientKey, _ budget: Budget, cost: Int, at now: Instant) -> Int64 {
    precondition(cost >= 1, "RateLimiter: a request's cost must be at least 1; got \(cost)")
    let increment = budget.interval &* Int64(min(cost, budget.burst))
    var entry = key.fingerprint ^ budget.salt
    // 0 marks an empty slot; 1 stands for it (two keys in 2⁶⁴ share a budget this way).
    if entry == 0 { entry = 1 }
    return shards.withTable(forKey: entry) {
      $0.charge(entry, increment: increment, tolerance: budget.tolerance, at: now.nanoseconds)
    }
  }

  /// Whether `key` may make a request of `operation` now, by the limiter's clock, charging it
  /// if so; see ``check(_:for:cost:at:)``.
  ///
  /// - Complexity: O(1) expected, plus one reading of the clock.
  public func check(_ key: ClientKey, for operation: Operation, cost: Int = 1) -> Decision {
    check(key, for: operation, cost: cost, at: clock())
  }

  /// Charges a request of `operation` to `key` at `now`, or throws if its budget is spent.
  ///
  /// For a service handler: the error says how long to wait, in its message for a person and
  /// in ``SearchError/retryAfter`` for an HTTP `Retry-After` header.
  ///
  /// - Throws: ``SearchError`` with code ``SearchError/Code/rateLimited`` and the exact wait
  ///   as its ``SearchError/retryAfter``, when refused.
  /// - Precondition: `cost` is at least 1.
  /// - Complexity: O(1) expected; see ``check(_:for:cost:at:)``.
  public func acquire(
    _ key: ClientKey, for operation: Operation, cost: Int = 1, at now: Instant
  ) throws(SearchError) {
    let headroom = charge(key, budgets[operation.index], cost: cost, at: now)
    guard headroom < 0 else { return }
    let retryAfter = Duration.nanoseconds(-headroom)
    throw SearchError.rateLimited(
      "too many \(operation) requests from this client: retry after "
        + "\(Self.format(retryAfter)) (the limit is \(limits[operation]))",
      retryAfter: retryAfter)
  }

  /// Charges a request of `operation` to `key` now, by the limiter's clock, or throws if its
  /// budget is spent; see ``acquire(_:for:cost:at:)``.
  ///
  /// - Throws: ``SearchError`` with code ``SearchError/Code/rateLimited`` and the exact wait
  ///   as its ``SearchError/retryAfter``, when refused.
  /// - Complexity: O(1) expected, plus one reading of the clock.
  public func acquire(_ key: ClientKey, for operation: Operation, cost: Int = 1)
    throws(SearchError)
  {
    try acquire(key, for: operation, cost: cost, at: clock())
  }

  /// A wait as a person reads it, rounded up to the millisecond: `250 ms`, `1.5 s`.
  static func format(_ wait: Duration) -> String {
    let nanoseconds = Instant.nanoseconds(in: wait)
    let milliseconds = (nanoseconds + 999_999) / 1_000_000
    guard milliseconds >= 1000 else { return "\(milliseconds) ms" }
    var fraction = String(milliseconds % 1000)
    fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
    while fraction.last == "0" { fraction.removeLast() }
    return "\(milliseconds / 1000)" + (fraction.isEmpty ? "" : "." + fraction) + " s"
  }

  // MARK: Memory

  /// The keys held: those with a budget in use, and expired ones not yet dropped.
  ///
  /// - Complexity: O(1): one read per shard, under its lock, 256 in all.
  public var keyCount: Int {
    shards.sum { $0.count }
  }

  /// The keys whose budget is not whole at `now`: those a forgetful limiter would get wrong.
  ///
  /// - Complexity: O(*n*) in the slots held, taking each shard's lock in turn.
  public func liveKeyCount(at now: Instant) -> Int {
    shards.sum { $0.liveCount(at: now.nanoseconds) }
  }

  /// The bytes the limiter holds: its tables, its shards and its locks.
  ///
  /// At most `32 × keyCount + minimumMemoryBytes`, and at most ``maximumMemoryBytes``.
  ///
  /// - Complexity: O(1): one read per shard, under its lock, 256 in all.
  public var memoryBytes: Int {
    Self.fixedBytes + shards.sum { $0.bufferBytes }
  }

  /// The bytes an empty limiter holds: 256 shards with their smallest tables.
  public var minimumMemoryBytes: Int {
    Self.fixedBytes + RateLimiterShards.count * RateLimiterTable.minimumCapacity
      * RateLimiterTable.slotBytes
  }

  /// The most bytes the limiter holds at ``maximumKeys``, apart from the moment a shard
  /// rebuilds (when its old table, 1/256 of the tables, is held too).
  public var maximumMemoryBytes: Int {
    let maximumCapacity = shards.withTable(at: 0) { $0.maximumCapacity }
    return Self.fixedBytes + RateLimiterShards.count * maximumCapacity
      * RateLimiterTable.slotBytes
  }

  /// The bytes besides the slot buffers: the limiter object, its budgets, and the shard
  /// buffer (each shard's lock and table fields, on cache lines of their own).
  private static let fixedBytes: Int = {
    // An object header (16 bytes), `limits`, then `maximumKeys`, `clock` (a function and its
    // context), `budgets` and `shards`, a word each.
    let limiter = 16 + MemoryLayout<Limits>.size + 5 * 8
    // An array's header is 32 bytes, its elements follow.
    let budgets = 32 + Operation.allCases.count * MemoryLayout<Budget>.stride
    return limiter + budgets + RateLimiterShards.bufferBytes
  }()

  /// Drops every key whose budget is whole at `now`, and shrinks the tables to fit the rest.
  ///
  /// Optional: expired keys also make way for new ones whenever a shard's table fills. Call it
  /// after a burst of traffic from many clients, to give the memory back.
  ///
  /// - Returns: The number of keys dropped.
  /// - Complexity: O(*n*) in the slots held, taking each shard's lock in turn.
  @discardableResult
  public func removeExpiredKeys(at now: Instant) -> Int {
    shards.sum { $0.removeExpired(at: now.nanoseconds) }
  }
}

extension RateLimiter {
  /// What ``RateLimiter/check(_:for:cost:at:)`` decided.
  public enum Decision: Hashable, Sendable {
    /// The request is admitted and charged; `remaining` more requests of cost 1 would be
    /// admitted at the same instant.
    case allowed(remaining: Int)
    /// The request is refused and not charged; the same request would be admitted after
    /// `retryAfter`, if no other request of its key is admitted meanwhile.
    case refused(retryAfter: Duration)

    /// Whether the request was admitted.
    public var isAllowed: Bool {
      if case .allowed = self { return true }
      return false
    }
  }
}
