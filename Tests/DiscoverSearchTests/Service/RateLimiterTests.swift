import DiscoverSearch
import Synchronization
import Testing

@testable import DiscoverService

@Suite("RateLimiter")
struct RateLimiterTests {
  typealias Instant = RateLimiter.Instant

  /// The instant `duration` after the test clock's origin.
  static func at(_ duration: Duration) -> Instant {
    Instant(nanoseconds: 0).advanced(by: duration)
  }

  /// A limiter with `limit` on every operation.
  static func limiter(_ limit: RateLimit, maximumKeys: Int = 4_000_000) -> RateLimiter {
    RateLimiter(
      limits: RateLimiter.Limits(search: limit, completion: limit, trending: limit),
      maximumKeys: maximumKeys, clock: { Instant(nanoseconds: 0) })
  }

  // MARK: Rate

  /// A client asking far faster than its limit for 10,000 simulated seconds.
  @Test(arguments: [
    // (requests per second, burst, milliseconds between asks)
    (20.0, 40, 10),
    (7.0, 5, 20),
    (33.3, 2, 10),
    (0.5, 2, 100),
    (0.1, 1, 10),
  ])
  func admittedRateOverTenThousandSecondsIsWithinOnePercent(
    requestsPerSecond: Double, burst: Int, millisecondsBetweenAsks: Int
  ) {
    let limiter = Self.limiter(RateLimit(requestsPerSecond: requestsPerSecond, burst: burst))
    let client = ClientKey("greedy")
    let seconds = 10_000
    var admitted = 0
    for step in 0...(seconds * 1000 / millisecondsBetweenAsks) {
      let now = Self.at(.milliseconds(step * millisecondsBetweenAsks))
      if limiter.check(client, for: .search, at: now).isAllowed { admitted += 1 }
    }
    let rate = Double(admitted) / Double(seconds)
    #expect(abs(rate - requestsPerSecond) <= requestsPerSecond / 100)
    // Never more than the burst plus the rate over the time elapsed.
    #expect(Double(admitted) <= Double(burst) + requestsPerSecond * Double(seconds) + 1)
  }

  /// Eight tasks checking one key at every millisecond of ten simulated seconds, each at its
  /// own pace: whatever the interleaving, exactly `burst + rate × 10 s` are admitted.
  ///
  /// Exact because each task checks every instant in order, at steps shorter than the
  /// interval: the key's arrival time never falls behind a check, so no budget is wasted, and
  /// the last check at 10 s finds the budget spent.
  @Test func concurrentTasksOnOneKeyAreAdmittedExactlyBurstPlusRateTimesElapsed() async {
    let limiter = Self.limiter(RateLimit(requestsPerSecond: 100, burst: 20))
    let client = ClientKey(42)
    let admitted = AdmissionCounter()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for millisecond in 0...10_000 {
            let now = Self.at(.milliseconds(millisecond))
            if limiter.check(client, for: .completion, at: now).isAllowed { admitted.increment() }
            // Let the other tasks interleave with this one.
            if millisecond % 250 == 0 { await Task.yield() }
          }
        }
      }
    }
    #expect(admitted.value == 20 + 100 * 10)
    #expect(limiter.keyCount == 1)
  }

  /// Tasks inserting distinct keys at once, across shards and through their rebuilds, lose
  /// none: each key is then refused at once, its single-request budget spent.
  @Test func concurrentInsertsOfDistinctKeysLoseNone() async {
    let limiter = Self.limiter(RateLimit(requestsPerSecond: 1, burst: 1))
    let now = Self.at(.seconds(1))
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for number in 0..<20_000 {
            _ = limiter.check(ClientKey(UInt64(task * 20_000 + number)), for: .search, at: now)
            if number % 1000 == 0 { await Task.yield() }
          }
        }
      }
    }
    #expect(limiter.keyCount == 160_000)
    let remembered = (0..<160_000).filter {
      !limiter.check(ClientKey(UInt64($0)), for: .search, at: now).isAllowed
    }
    #expect(remembered.count == 160_000)
  }

  // MARK: Memory

  @Test func aMillionKeysStayWithinTheDocumentedMemory() {
    let limiter = Self.limiter(RateLimit(requestsPerSecond: 10, burst: 20))
    let now = Self.at(.seconds(1))
    for number in 0..<1_000_000 {
      _ = limiter.check(ClientKey(UInt64(number)), for: .search, at: now)
    }
    #expect(limiter.keyCount == 1_000_000)
    #expect(limiter.liveKeyCount(at: now) == 1_000_000)
    // At most 32 bytes a key beyond an empty limiter's, and within the maximum.
    #expect(limiter.memoryBytes <= 32 * 1_000_000 + limiter.minimumMemoryBytes)
    #expect(limiter.memoryBytes <= limiter.maximumMemoryBytes)
    #expect(limiter.memoryBytes >= 16 * 1_000_000)
  }

  @Test func theMaximumMemoryIsAboutTwentyOneBytesAKey() {
    let limiter = Self.limiter(RateLimit(requestsPerSecond: 10, burst: 20))
    let fixed = limiter.minimumMemoryBytes
    let perKey = Double(limiter.maximumMemoryBytes - fixed) / Double(limiter.maximumKeys)
    #expect(perKey > 21 && perKey < 21.5)
    #expect(limiter.maximumKeys >= 4_000_000 && limiter.maximumKeys < 4_000_000 + 256)
    // The fixed part: 256 shards and their smallest tables.
    #expect(fixed < 200_000)
    #expect(limiter.memoryBytes == fixed)
  }

  /// More clients than the maximum: the limiter forgets some, the ones nearest to having
  /// their budget back, and stays within its memory.
  @Test func pastTheMaximumTheKeysNearestToExpiringAreForgotten() {
    let limiter = Self.limiter(
      RateLimit(requestsPerSecond: 1, burst: 10), maximumKeys: 256 * 100)
    #expect(limiter.maximumKeys == 256 * 100)
    let now = Self.at(.seconds(5))
    // Heavy clients spend their whole burst (their budget is back in 10 s) ...
    let heavy = (0..<5_000).map { ClientKey("heavy-\($0)") }
    let heavyAdmitted = heavy.filter {
      limiter.check($0, for: .search, cost: 10, at: now).isAllowed
    }
    #expect(heavyAdmitted.count == heavy.count)
    // ... light ones a single request (back in 1 s), far more of them than the maximum.
    let lightAdmitted = (0..<200_000).filter {
      limiter.check(ClientKey(UInt64($0)), for: .search, at: now).isAllowed
    }
    #expect(lightAdmitted.count == 200_000)
    #expect(limiter.keyCount <= limiter.maximumKeys)
    #expect(limiter.memoryBytes <= limiter.maximumMemoryBytes)
    // Every heavy client is still remembered: its next request waits 1 s.
    let remembered = heavy.filter {
      limiter.check($0, for: .search, at: now) == .refused(retryAfter: .seconds(1))
    }
    #expect(remembered.count == heavy.count)
  }

  // MARK: Expiry

  @Test func idleKeysExpireAndRemovingThemGivesTheMemoryBack() {
    let limiter = Self.limiter(RateLimit(requestsPerSecond: 10, burst: 20))
    for number in 0..<100_000 {
      _ = limiter.check(ClientKey(UInt64(number)), for: .search, at: Self.at(.zero))
    }
    #expect(limiter.keyCount == 100_000)
    #expect(limiter.memoryBytes > 16 * 100_000)
    // One request's interval (100 ms) later, each budget is whole again.
    #expect(limiter.liveKeyCount(at: Self.at(.milliseconds(99))) == 100_000)
    #expect(limiter.liveKeyCount(at: Self.at(.milliseconds(100))) == 0)
    #expect(limiter.removeExpiredKeys(at: Self.at(.milliseconds(99))) == 0)
    #expect(limiter.removeExpiredKeys(at: Self.at(.seconds(1))) == 100_000)
    #expect(limiter.keyCount == 0)
    #expect(limiter.memoryBytes == limiter.minimumMemoryBytes)
  }

  /// Near the maximum, a sweep drops what has expired and nothing else: only an insert
  /// that needs room forgets live keys.
  @Test func removingExpiredKeysNeverDropsLiveOnes() {
    let limiter = Self.limiter(
      RateLimit(requestsPerSecond: 1, burst: 10), maximumKeys: 256 * 100)
    for number in 0..<20_000 {
      _ = limiter.check(ClientKey(UInt64(number)), for: .search, at: Self.at(.zero))
    }
    let held = limiter.keyCount
    #expect(held > 17_000 && held <= 20_000)
    #expect(limiter.removeExpiredKeys(at: Self.at(.milliseconds(999))) == 0)
    #expect(limiter.keyCount == held)
    #expect(limiter.liveKeyCount(at: Self.at(.milliseconds(999))) == held)
    #expect(limiter.removeExpiredKeys(at: Self.at(.seconds(1))) == held)
  }

  /// New clients every second, each seen once: without expiry the table would hold them all;
  /// with it, the slots of idle clients are reused and the table stays the size of one
  /// second's clients.
  @Test func slotsOfIdleKeysAreReusedWithoutAnExplicitSweep() {
    let limiter = Self.limiter(RateLimit(requestsPerSecond: 10, burst: 20))
    let clientsPerSecond = 10_000
    var largest = 0
    for second in 0..<50 {
      let now = Self.at(.seconds(second))
      let admitted = (0..<clientsPerSecond).filter { number in
        let client = ClientKey(UInt64(second * clientsPerSecond + number))
        return limiter.check(client, for: .search, at: now).isAllowed
      }
      #expect(admitted.count == clientsPerSecond)
      #expect(limiter.liveKeyCount(at: now) == clientsPerSecond)
      largest = max(largest, limiter.keyCount)
      #expect(limiter.memoryBytes <= 32 * limiter.keyCount + limiter.minimumMemoryBytes)
    }
    #expect(largest < 3 * clientsPerSecond)
  }

  // MARK: Refusals

  @Test func refusalsCarryTheExactWait() {
    let limiter = Self.limiter(RateLimit(requestsPerSecond: 10, burst: 3))
    let client = ClientKey("client")
    #expect(limiter.check(client, for: .search, at: Self.at(.zero)) == .allowed(remaining: 2))
    #expect(limiter.check(client, for: .search, at: Self.at(.zero)) == .allowed(remaining: 1))
    #expect(limiter.check(client, for: .search, at: Self.at(.zero)) == .allowed(remaining: 0))
    #expect(
      limiter.check(client, for: .search, at: Self.at(.zero))
        == .refused(retryAfter: .milliseconds(100)))
    // A refusal charges nothing: one nanosecond early is still refused, by that nanosecond ...
    let early = Self.at(.milliseconds(100) - .nanoseconds(1))
    #expect(limiter.check(client, for: .search, at: early) == .refused(retryAfter: .nanoseconds(1)))
    // ... and on time is admitted.
    #expect(
      limiter.check(client, for: .search, at: Self.at(.milliseconds(100)))
        == .allowed(remaining: 0))
    // A request costing 2 waits for two intervals' worth.
    #expect(
      limiter.check(client, for: .search, cost: 2, at: Self.at(.milliseconds(100)))
        == .refused(retryAfter: .milliseconds(200)))
    #expect(
      limiter.check(client, for: .search, cost: 2, at: Self.at(.milliseconds(300)))
        == .allowed(remaining: 0))
  }

  @Test func aCostAboveTheBurstIsChargedAsTheWholeBurst() {
    let limiter = Self.limiter(RateLimit(requestsPerSecond: 10, burst: 3))
    let client = ClientKey("exporter")
    #expect(
      limiter.check(client, for: .search, cost: 50, at: Self.at(.zero)) == .allowed(remaining: 0))
    #expect(
      limiter.check(client, for: .search, cost: 50, at: Self.at(.zero))
        == .refused(retryAfter: .milliseconds(300)))
    #expect(
      limiter.check(client, for: .search, at: Self.at(.zero))
        == .refused(retryAfter: .milliseconds(100)))
  }

  @Test func acquireThrowsRateLimitedWithTheWaitInTheMessage() throws {
    let limiter = Self.limiter(RateLimit(requestsPerSecond: 2, burst: 1))
    let client = ClientKey("client")
    try limiter.acquire(client, for: .completion, at: Self.at(.zero))
    let error = try #require(throws: SearchError.self) {
      try limiter.acquire(client, for: .completion, at: Self.at(.milliseconds(1)))
    }
    #expect(error.code == .rateLimited)
    #expect(error.retryAfter == .milliseconds(499))
    #expect(
      error.message
        == "too many completion requests from this client: retry after 499 ms "
        + "(the limit is 2 per second, bursts of 1)")
    try limiter.acquire(client, for: .completion, at: Self.at(.milliseconds(500)))
  }

  @Test(arguments: [
    (Duration.nanoseconds(1), "1 ms"), (.milliseconds(250), "250 ms"),
    (.microseconds(999_001), "1 s"), (.milliseconds(1500), "1.5 s"),
    (.milliseconds(61_025), "61.025 s"),
  ])
  func waitsAreWrittenInMillisecondsRoundedUp(wait: Duration, text: String) {
    #expect(RateLimiter.format(wait) == text)
  }

  /// Random requests from a few clients, checked decision by decision against a token bucket
  /// of `burst × interval` nanoseconds, filled as time passes: the model GCRA is equivalent to.
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func decisionsMatchATokenBucketModel(seed: UInt64) {
    var generator = LimiterTestGenerator(seed: seed)
    let limit = RateLimit(
      requestsPerSecond: Double(Int.random(in: 1...50, using: &generator)),
      burst: Int.random(in: 1...8, using: &generator))
    let limiter = Self.limiter(limit)
    let interval = limit.intervalNanoseconds
    let capacity = interval * Int64(limit.burst)
    // Per client: the bucket's level in nanoseconds of budget, and when it was last filled.
    var buckets = [(level: Int64, time: Int64)](repeating: (capacity, 0), count: 4)
    var now: Int64 = 0
    for step in 0..<20_000 {
      now += Int64.random(in: 0...(2 * interval / 3), using: &generator)
      let client = Int.random(in: 0..<buckets.count, using: &generator)
      let cost = Int.random(in: 1...3, using: &generator)
      let charge = interval * Int64(min(cost, limit.burst))
      var bucket = buckets[client]
      bucket.level = min(capacity, bucket.level + (now - bucket.time))
      bucket.time = now
      let expected: RateLimiter.Decision
      if bucket.level >= charge {
        bucket.level -= charge
        expected = .allowed(remaining: Int(bucket.level / interval))
      } else {
        expected = .refused(retryAfter: .nanoseconds(charge - bucket.level))
      }
      buckets[client] = bucket
      let decision = limiter.check(
        ClientKey(UInt64(client)), for: .trending, cost: cost, at: Instant(nanoseconds: now))
      #expect(decision == expected, "seed \(seed), step \(step)")
      if decision != expected { return }
    }
  }

  // MARK: Operations

  @Test func eachOperationAndClientHasItsOwnBudget() {
    let limiter = RateLimiter(
      limits: RateLimiter.Limits(
        search: RateLimit(requestsPerSecond: 1, burst: 2),
        completion: RateLimit(requestsPerSecond: 1, burst: 5),
        trending: RateLimit(requestsPerSecond: 1, burst: 1)))
    let client = ClientKey("client")
    let now = Self.at(.seconds(3))
    for _ in 0..<2 { #expect(limiter.check(client, for: .search, at: now).isAllowed) }
    #expect(!limiter.check(client, for: .search, at: now).isAllowed)
    // The same client's completions and trending lists are untouched ...
    for _ in 0..<5 { #expect(limiter.check(client, for: .completion, at: now).isAllowed) }
    #expect(!limiter.check(client, for: .completion, at: now).isAllowed)
    #expect(limiter.check(client, for: .trending, at: now) == .allowed(remaining: 0))
    #expect(!limiter.check(client, for: .trending, at: now).isAllowed)
    // ... and so are another client's searches.
    #expect(limiter.check(ClientKey("other"), for: .search, at: now) == .allowed(remaining: 1))
    #expect(limiter.keyCount == 4)
  }

  @Test func completionsGetALargerStandardBudgetThanSearches() {
    let standard = RateLimiter.Limits.standard
    #expect(standard.completion.requestsPerSecond > standard.search.requestsPerSecond)
    #expect(standard.completion.burst > standard.search.burst)
    var limits = standard
    limits[.trending] = RateLimit(requestsPerSecond: 5, burst: 5)
    #expect(limits.trending == RateLimit(requestsPerSecond: 5, burst: 5))
    #expect(limits[.search] == standard.search)
    #expect(
      RateLimiter.Operation.allCases.map(\.description) == ["search", "completion", "trending"])
  }

  @Test func theClockGivenAtCreationTimesChecksWithoutAnInstant() {
    let clock = LimiterTestClock()
    let limiter = RateLimiter(
      limits: RateLimiter.Limits(
        search: RateLimit(requestsPerSecond: 4, burst: 1),
        completion: RateLimit(requestsPerSecond: 4, burst: 1),
        trending: RateLimit(requestsPerSecond: 4, burst: 1)),
      clock: { clock.now })
    let client = ClientKey(7)
    #expect(limiter.check(client, for: .search).isAllowed)
    #expect(limiter.check(client, for: .search) == .refused(retryAfter: .milliseconds(250)))
    #expect(throws: SearchError.self) { try limiter.acquire(client, for: .search) }
    clock.advance(by: .milliseconds(250))
    #expect(throws: Never.self) { try limiter.acquire(client, for: .search) }
  }

  // MARK: Configuration

  @Test(arguments: [
    (0.0, 1), (-1.0, 5), (Double.nan, 5), (Double.infinity, 5), (-Double.infinity, 5),
    (2e9, 5), (10.0, 0), (10.0, -3), (1e-9, 1), (1.0, Int.max),
  ])
  func nonsenseLimitsAreRejectedWithAMessage(requestsPerSecond: Double, burst: Int) {
    let error = #expect(throws: SearchError.self) {
      try RateLimit(validatingRequestsPerSecond: requestsPerSecond, burst: burst)
    }
    #expect(error?.code == .invalidArgument)
    #expect(error?.message.hasPrefix("a rate limit's") == true)
  }

  @Test(arguments: [(1e9, 1), (0.5, 1), (1e-6, 300), (30.0, 60)])
  func extremeButSensibleLimitsAreAccepted(requestsPerSecond: Double, burst: Int) throws {
    let limit = try RateLimit(validatingRequestsPerSecond: requestsPerSecond, burst: burst)
    #expect(limit == RateLimit(requestsPerSecond: requestsPerSecond, burst: burst))
    #expect(limit.intervalNanoseconds >= 1)
    // A limiter with it works from the first request.
    let limiter = Self.limiter(limit)
    #expect(limiter.check(ClientKey(1), for: .search, at: Self.at(.zero)).isAllowed)
  }

  @Test func theIntervalIsRoundedToTheNanosecond() {
    #expect(RateLimit(requestsPerSecond: 3, burst: 1).interval == .nanoseconds(333_333_333))
    #expect(RateLimit(requestsPerSecond: 1.5, burst: 1).interval == .nanoseconds(666_666_667))
    #expect(RateLimit(requestsPerSecond: 1e9, burst: 1).interval == .nanoseconds(1))
    #expect(
      RateLimit(requestsPerSecond: 10, burst: 20).description == "10 per second, bursts of 20")
  }

  @Test func aNonsenseLimitIsAProgrammersMistakeThatTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = RateLimit(requestsPerSecond: .nan, burst: 1)
    }
    await #expect(processExitsWith: .failure) {
      _ = RateLimit(requestsPerSecond: 10, burst: 0)
    }
  }

  @Test func aCostBelowOneTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = RateLimiter().check(ClientKey(1), for: .search, cost: 0, at: .init(nanoseconds: 0))
    }
  }

  // MARK: Instants

  @Test func instantsAreNanosecondsApart() {
    let start = Instant(nanoseconds: 5)
    #expect(start.advanced(by: .seconds(2)).nanoseconds == 2_000_000_005)
    #expect(start.advanced(by: .milliseconds(-1)).nanoseconds == -999_995)
    #expect(start.duration(to: Instant(nanoseconds: 1_000_000_005)) == .seconds(1))
    #expect(start < start.advanced(by: .nanoseconds(1)))
    let first = Instant.now
    #expect(first <= Instant.now)
  }
}

@Suite("ClientKey")
struct ClientKeyTests {
  /// wyhash's reference test vectors (final version 4.2, default secret): each message with
  /// its seed.
  @Test(
    arguments: [
      ("", 0x0, 0x9322_8a4d_e0ee_c5a2),
      ("a", 0x1, 0xc5ba_c3db_1787_13c4),
      ("abc", 0x2, 0xa97f_2f7b_1d9b_3314),
      ("1234", 0x3, 0x0d3f_a000_fdb4_22cf),
      ("12345", 0x4, 0x160e_fc62_77fc_ec80),
      ("123456", 0x5, 0xb220_5dc6_29f3_ef52),
      ("1234567", 0x6, 0xfcbd_904b_20d5_022c),
      ("12345678", 0x7, 0xb4d6_4b1f_c5ef_c3f8),
      ("123456789", 0x8, 0x84c1_2a0b_fe6d_670b),
      ("123456789A", 0x9, 0x63f3_5c1f_12d4_c922),
      ("123456789AB", 0xa, 0x4a7b_5d20_0a58_60b2),
      ("123456789ABC", 0xb, 0x313b_0ac3_7c8c_c1ce),
      ("123456789ABCD", 0xc, 0x73a2_1fc7_838e_0aec),
      ("123456789ABCDE", 0xd, 0x4fd0_b1e1_8c59_f85d),
      ("123456789ABCDEF", 0xe, 0xb3d8_8614_f07f_1708),
      ("123456789ABCDEFG", 0xf, 0xd0f6_23b2_f2c1_015f),
      ("message digest", 0x10, 0xe580_b70f_3cb7_1bf0),
      ("abcdefghijklmnopqrstuvwxyz", 0x11, 0x425f_9435_10e0_4fc3),
      (
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 0x12,
        0x70c9_a223_6889_e825
      ),
      (String(repeating: "1234567890", count: 8), 0x13, 0xb650_386c_8c24_729e),
    ] as [(String, UInt64, UInt64)])
  func hashesStringsAsWyhashDoes(message: String, seed: UInt64, expected: UInt64) {
    let hash = Array(message.utf8).withUnsafeBytes { ClientKey.wyhash($0, seed: seed) }
    #expect(hash == expected)
  }

  @Test func aStringKeyIsItsUTF8BytesHashedWithSeedZero() {
    let hash = Array("user-42".utf8).withUnsafeBytes { ClientKey.wyhash($0, seed: 0) }
    #expect(ClientKey("user-42").fingerprint == hash)
    #expect(ClientKey("user-42") == ClientKey("user-42"[...]))
    #expect(ClientKey("user-42") != ClientKey("user-43"))
  }

  @Test func keysAreBytesNotCanonicalEquivalents() {
    let precomposed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    #expect(precomposed == decomposed)
    #expect(ClientKey(precomposed) != ClientKey(decomposed))
    #expect(ClientKey("42") != ClientKey(42))
  }

  @Test func distinctNumbersAndNamesMakeDistinctKeys() {
    let numbers = Set((0..<100_000).map { ClientKey(UInt64($0)).fingerprint })
    #expect(numbers.count == 100_000)
    let names = Set((0..<100_000).map { ClientKey("client-\($0)").fingerprint })
    #expect(names.count == 100_000)
    // Consecutive ids spread over every shard (the top 8 bits).
    let shards = Set((0..<10_000).map { ClientKey(UInt64($0)).fingerprint >> 56 })
    #expect(shards.count == 256)
  }

  @Test func describesItselfByItsFingerprint() {
    let key = ClientKey(0)
    #expect(key.description == "ClientKey(0x0000000000000000)")
    #expect(ClientKey(1).description.count == "ClientKey(0x0000000000000000)".count)
  }
}

/// A count that concurrent tasks add to.
private final class AdmissionCounter: Sendable {
  private let count = Atomic<Int>(0)

  var value: Int { count.load(ordering: .relaxed) }

  func increment() { count.add(1, ordering: .relaxed) }
}

/// A clock a test moves by hand.
private final class LimiterTestClock: Sendable {
  private let nanoseconds = Atomic<Int64>(0)

  var now: RateLimiter.Instant {
    RateLimiter.Instant(nanoseconds: nanoseconds.load(ordering: .relaxed))
  }

  func advance(by duration: Duration) {
    nanoseconds.add(RateLimiter.Instant.nanoseconds(in: duration), ordering: .relaxed)
  }
}

/// SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): a seeded generator for reproducible tests.
private struct LimiterTestGenerator: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    return ClientKey.splitMix64(state)
  }
}
