import DiscoverService
import Synchronization
import SyntheticCorpus
import Testing

// The time limit is a guard, not a measurement: a broken single flight leaves callers
// suspended forever, and the limit turns that hang into a failure.
@Suite("ResultCache", .timeLimit(.minutes(1)))
struct ResultCacheTests {
  /// The bytes an entry of the test caches costs beyond its value.
  static let overhead = ResultCache<String, Int>.entryOverhead

  /// A cache whose values cost their own number of bytes, with room for `entries` entries of
  /// value 10.
  private static func makeCache(
    entries: Int = 100, timeToLive: Duration? = nil, clock: NanosecondClock = NanosecondClock()
  ) -> ResultCache<String, Int> {
    ResultCache(
      maximumBytes: entries * (10 + overhead), timeToLive: timeToLive, cost: { $0 },
      now: { clock.now })
  }

  // MARK: Lookups and inserts

  @Test func hitsAndMissesAreCounted() {
    let cache = Self.makeCache()
    #expect(cache.lookup("dance", generation: 1) == nil)
    #expect(cache.insert(10, for: "dance", generation: 1))
    #expect(cache.lookup("dance", generation: 1) == 10)
    #expect(cache.lookup("dance", generation: 1) == 10)
    #expect(cache.lookup("cats", generation: 1) == nil)

    let statistics = cache.statistics
    #expect(statistics.hits == 2)
    #expect(statistics.misses == 2)
    #expect(statistics.hitRatio == 0.5)
    #expect(statistics.entries == 1)
    #expect(statistics.bytes == 10 + Self.overhead)
  }

  @Test func hitRatioIsZeroBeforeAnyLookup() {
    #expect(Self.makeCache().statistics.hitRatio == 0)
  }

  @Test func keyCostCountsAgainstTheBound() {
    let cache = ResultCache<String, Int>(
      maximumBytes: 1_000, cost: { $0 }, keyCost: { $0.utf8.count })
    cache.insert(10, for: "dance", generation: 1)
    #expect(cache.statistics.bytes == 10 + 5 + ResultCache<String, Int>.entryOverhead)
  }

  @Test func insertReplacesTheValueAndItsBytes() {
    let cache = Self.makeCache()
    cache.insert(10, for: "dance", generation: 1)
    cache.insert(30, for: "dance", generation: 1)
    #expect(cache.lookup("dance", generation: 1) == 30)
    #expect(cache.statistics.entries == 1)
    #expect(cache.statistics.bytes == 30 + Self.overhead)
  }

  @Test func leastRecentlyUsedEntryIsEvictedFirst() {
    let cache = Self.makeCache(entries: 3)
    cache.insert(10, for: "a", generation: 1)
    cache.insert(10, for: "b", generation: 1)
    cache.insert(10, for: "c", generation: 1)
    // "a" becomes the most recently used, so "b" is now the least.
    #expect(cache.lookup("a", generation: 1) == 10)
    cache.insert(10, for: "d", generation: 1)

    #expect(cache.statistics.evictions == 1)
    #expect(cache.lookup("b", generation: 1) == nil)
    #expect(cache.lookup("a", generation: 1) == 10)
    #expect(cache.lookup("c", generation: 1) == 10)
    #expect(cache.lookup("d", generation: 1) == 10)
  }

  @Test func largeInsertEvictsAsManyEntriesAsItNeeds() {
    let cache = Self.makeCache(entries: 4)
    for key in ["a", "b", "c", "d"] { cache.insert(10, for: key, generation: 1) }
    // Three entries' room: the value takes two entries' value bytes and one overhead more.
    cache.insert(30 + 2 * Self.overhead, for: "big", generation: 1)

    #expect(cache.statistics.evictions == 3)
    #expect(cache.statistics.entries == 2)
    #expect(cache.lookup("d", generation: 1) == 10)
    #expect(cache.lookup("big", generation: 1) != nil)
  }

  @Test func oversizeValueIsNotStored() {
    let cache = Self.makeCache(entries: 2)
    cache.insert(10, for: "small", generation: 1)
    cache.insert(10, for: "dance", generation: 1)
    let tooBig = cache.maximumBytes - Self.overhead + 1

    #expect(!cache.insert(tooBig, for: "dance", generation: 1))
    #expect(cache.lookup("dance", generation: 1) == nil, "the older value is gone too")
    #expect(cache.lookup("small", generation: 1) == 10, "nothing was evicted for it")
    #expect(cache.statistics.rejections == 1)
    #expect(cache.statistics.evictions == 0)

    #expect(cache.insert(tooBig - 1, for: "dance", generation: 1), "an entry may fill the bound")
  }

  @Test func zeroBoundStoresNothing() {
    let cache = ResultCache<String, Int>(maximumBytes: 0, cost: { _ in 0 })
    #expect(!cache.insert(1, for: "dance", generation: 1))
    #expect(cache.statistics.entries == 0)
  }

  @Test(arguments: [1, 2, 3, 0x5EED] as [UInt64])
  func bytesNeverExceedTheBoundAndOrderMatchesAPlainList(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let maximumBytes = 6 * (50 + Self.overhead)
    let cache = ResultCache<Int, Payload>(
      maximumBytes: maximumBytes, cost: { $0.size }, keyCost: { _ in 3 })
    let perEntry = ResultCache<Int, Payload>.entryOverhead + 3
    // The reference: entries most recently used first, evicted from the end.
    var model: [(key: Int, payload: Payload, bytes: Int)] = []

    for serial in 0..<5_000 {
      let key = Int.random(in: 0..<24, using: &random)
      if Bool.random(using: &random) {
        // Mostly small values, now and then one too large for the bound.
        let largest = serial % 10 == 0 ? maximumBytes : maximumBytes / 4
        let size = Int.random(in: 0...largest, using: &random)
        let payload = Payload(size: size, serial: serial)
        let stored = cache.insert(payload, for: key, generation: 7)
        model.removeAll { $0.key == key }
        if size + perEntry <= maximumBytes {
          model.insert((key, payload, size + perEntry), at: 0)
          while model.reduce(0, { $0 + $1.bytes }) > maximumBytes { model.removeLast() }
        }
        #expect(stored == (size + perEntry <= maximumBytes), "seed \(seed), step \(serial)")
        #expect(cache.statistics.bytes <= maximumBytes, "seed \(seed), step \(serial)")
      } else {
        let found = cache.lookup(key, generation: 7)
        let position = model.firstIndex { $0.key == key }
        #expect(found == position.map { model[$0].payload }, "seed \(seed), step \(serial)")
        if let position { model.insert(model.remove(at: position), at: 0) }
      }
      let statistics = cache.statistics
      #expect(statistics.entries == model.count, "seed \(seed), step \(serial)")
      #expect(statistics.bytes == model.reduce(0) { $0 + $1.bytes }, "seed \(seed), step \(serial)")
      if statistics.entries != model.count { return }
    }
  }

  @Test func removeAllDropsEveryEntry() {
    let cache = Self.makeCache()
    cache.insert(10, for: "a", generation: 1)
    cache.insert(10, for: "b", generation: 1)
    cache.removeAll()
    #expect(cache.lookup("a", generation: 1) == nil)
    #expect(cache.statistics.entries == 0)
    #expect(cache.statistics.bytes == 0)
    #expect(cache.statistics.invalidations == 2)
    cache.insert(10, for: "a", generation: 1)
    #expect(cache.lookup("a", generation: 1) == 10)
  }

  @Test func removeDropsOneEntry() {
    let cache = Self.makeCache()
    cache.insert(10, for: "a", generation: 1)
    cache.insert(20, for: "b", generation: 1)
    #expect(cache.remove("a", generation: 1))
    #expect(!cache.remove("a", generation: 1))
    #expect(!cache.remove("b", generation: 0), "nothing is stored under another generation")
    #expect(cache.lookup("a", generation: 1) == nil)
    #expect(cache.lookup("b", generation: 1) == 20)
    #expect(cache.statistics.bytes == 20 + Self.overhead)
  }

  // MARK: Time to live

  @Test func entryExpiresWhenItsAgeReachesTheTimeToLive() {
    let clock = NanosecondClock()
    let cache = Self.makeCache(timeToLive: .seconds(60), clock: clock)
    cache.insert(10, for: "dance", generation: 1)
    clock.advance(by: .seconds(30))
    cache.insert(10, for: "cats", generation: 1)

    clock.advance(by: .seconds(30) - .nanoseconds(1))
    #expect(cache.lookup("dance", generation: 1) == 10)
    clock.advance(by: .nanoseconds(1))
    #expect(cache.lookup("dance", generation: 1) == nil)
    #expect(cache.lookup("cats", generation: 1) == 10, "stored later, still young")

    let statistics = cache.statistics
    #expect(statistics.expirations == 1)
    #expect(statistics.entries == 1)
    #expect(statistics.bytes == 10 + Self.overhead)
  }

  @Test func insertRestartsAnEntrysAge() {
    let clock = NanosecondClock()
    let cache = Self.makeCache(timeToLive: .seconds(60), clock: clock)
    cache.insert(10, for: "dance", generation: 1)
    clock.advance(by: .seconds(50))
    cache.insert(11, for: "dance", generation: 1)
    clock.advance(by: .seconds(50))
    #expect(cache.lookup("dance", generation: 1) == 11)
  }

  // MARK: Generations

  @Test func newerGenerationNeverServesAnOlderAnswer() {
    let cache = Self.makeCache()
    cache.insert(1, for: "dance", generation: 1)
    #expect(cache.lookup("dance", generation: 2) == nil)
    #expect(cache.statistics.invalidations == 1)
    #expect(cache.statistics.entries == 0)

    cache.insert(2, for: "dance", generation: 2)
    #expect(cache.lookup("dance", generation: 2) == 2)
    #expect(cache.lookup("dance", generation: 1) == nil, "an old reader is not served a new answer")
    #expect(!cache.insert(1, for: "dance", generation: 1), "an old answer is not stored")
    #expect(cache.lookup("dance", generation: 2) == 2)
  }

  @Test func insertOfANewerGenerationDropsTheOlderEntries() {
    let cache = Self.makeCache()
    cache.insert(1, for: "a", generation: 1)
    cache.insert(1, for: "b", generation: 1)
    cache.insert(3, for: "c", generation: 3)
    #expect(cache.statistics.entries == 1)
    #expect(cache.statistics.bytes == 3 + Self.overhead)
    #expect(cache.lookup("a", generation: 1) == nil)
    #expect(cache.lookup("a", generation: 3) == nil)
  }

  // MARK: Synchronous compute

  @Test func synchronousValueComputesOnlyOnAMiss() throws {
    let cache = Self.makeCache()
    var computations = 0
    let first = cache.value(for: "dance", generation: 1) { () -> Int in
      computations += 1
      return 10
    }
    let second = cache.value(for: "dance", generation: 1) { () -> Int in
      computations += 1
      return 11
    }
    #expect(first == 10)
    #expect(second == 10)
    #expect(computations == 1)

    #expect(throws: TestFailure.self) {
      try cache.value(for: "cats", generation: 1) { () throws -> Int in throw TestFailure() }
    }
    #expect(cache.lookup("cats", generation: 1) == nil, "an error is not cached")
  }

  @Test func synchronousValueStoresOnlyWhatItIsAllowedTo() {
    let cache = Self.makeCache()
    // As a service keeps a partial answer (a negative one, here) from being served again.
    let isComplete: (Int) -> Bool = { $0 >= 0 }
    let partial = cache.value(for: "dance", generation: 1, storingIf: isComplete) { -1 }
    #expect(partial == -1)
    #expect(cache.lookup("dance", generation: 1) == nil)
    let complete = cache.value(for: "dance", generation: 1, storingIf: isComplete) { 10 }
    #expect(complete == 10)
    #expect(cache.lookup("dance", generation: 1) == 10)
  }

  // MARK: Single flight

  @Test func concurrentCallersOfOneKeyComputeOnce() async throws {
    let cache = Self.makeCache()
    let computations = Counter()
    let gate = Gate()
    let callers = 8

    try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<callers {
        group.addTask {
          try await cache.value(for: "dance", generation: 1) {
            computations.increment()
            await gate.wait()
            return 10
          }
        }
      }
      await waitUntil { cache.statistics.waitingCallers == callers }
      #expect(cache.statistics.computations == 1)
      gate.open()
      var values: [Int] = []
      for try await value in group { values.append(value) }
      #expect(values == Array(repeating: 10, count: callers))
    }

    #expect(computations.value == 1)
    let statistics = cache.statistics
    #expect(statistics.coalescedWaits == callers - 1)
    #expect(statistics.computations == 0)
    #expect(statistics.waitingCallers == 0)
    #expect(cache.lookup("dance", generation: 1) == 10, "the value was stored")
  }

  @Test func errorReachesEveryWaiterAndIsNotCached() async throws {
    let cache = Self.makeCache()
    let computations = Counter()
    let gate = Gate()
    let callers = 5

    await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<callers {
        group.addTask {
          do {
            _ = try await cache.value(for: "dance", generation: 1) { () async throws -> Int in
              computations.increment()
              await gate.wait()
              throw TestFailure()
            }
            return false
          } catch {
            return error is TestFailure
          }
        }
      }
      await waitUntil { cache.statistics.waitingCallers == callers }
      gate.open()
      var failures = 0
      for await failed in group where failed { failures += 1 }
      #expect(failures == callers)
    }

    #expect(computations.value == 1)
    #expect(cache.statistics.entries == 0)
    let value = try await cache.value(for: "dance", generation: 1) { 10 }
    #expect(value == 10, "the next caller computes afresh")
  }

  @Test func valueNotToBeStoredStillReachesEveryWaiter() async throws {
    let cache = Self.makeCache()
    let computations = Counter()
    let gate = Gate()
    let callers = 4
    let isComplete: @Sendable (Int) -> Bool = { $0 >= 0 }

    try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<callers {
        group.addTask {
          try await cache.value(for: "dance", generation: 1, storingIf: isComplete) {
            computations.increment()
            await gate.wait()
            return -1
          }
        }
      }
      await waitUntil { cache.statistics.waitingCallers == callers }
      gate.open()
      var values: [Int] = []
      for try await value in group { values.append(value) }
      #expect(values == Array(repeating: -1, count: callers))
    }

    #expect(computations.value == 1)
    #expect(cache.statistics.entries == 0)
  }

  @Test func cancellingTheFirstCallerStillDeliversToTheOthers() async throws {
    let cache = Self.makeCache()
    let computations = Counter()
    let gate = Gate()
    let compute: @Sendable () async throws -> Int = {
      computations.increment()
      await gate.wait()
      return 10
    }

    let first = Task { try await cache.value(for: "dance", generation: 1, compute: compute) }
    await waitUntil { cache.statistics.waitingCallers == 1 }
    let others = (0..<3).map { _ in
      Task { try await cache.value(for: "dance", generation: 1, compute: compute) }
    }
    await waitUntil { cache.statistics.waitingCallers == 4 }

    first.cancel()
    let firstOutcome = await first.result
    #expect(throws: CancellationError.self) { try firstOutcome.get() }
    #expect(cache.statistics.waitingCallers == 3, "the first stopped waiting before the value")

    gate.open()
    for other in others { #expect(try await other.value == 10) }
    #expect(computations.value == 1)
    #expect(cache.statistics.coalescedWaits == 3)
    #expect(cache.lookup("dance", generation: 1) == 10)
  }

  @Test func computationIsCancelledWhenEveryWaiterHasGoneAndItsAnswerDropped() async throws {
    let cache = Self.makeCache()
    let (gate, opener) = AsyncStream<Void>.makeStream()
    let (observed, observer) = AsyncStream<Bool>.makeStream()
    let (released, releaser) = AsyncStream<Void>.makeStream()

    let caller = Task {
      // Freed with the computation's closure, once its task has finished.
      let sentinel = Sentinel { releaser.finish() }
      return try await cache.value(for: "dance", generation: 1) { () async throws -> Int in
        // The iteration ends when the gate opens or when this task is cancelled.
        for await _ in gate {}
        observer.yield(Task.isCancelled)
        withExtendedLifetime(sentinel) {}
        // What a computation that stops early returns: part of an answer.
        return 10
      }
    }
    await waitUntil { cache.statistics.waitingCallers == 1 }
    caller.cancel()
    let callerOutcome = await caller.result
    #expect(throws: CancellationError.self) { try callerOutcome.get() }

    var observations = observed.makeAsyncIterator()
    #expect(await observations.next() == true, "the computation saw its task cancelled")
    for await _ in released {}
    #expect(cache.statistics.entries == 0, "an answer no caller waited for is not stored")
    #expect(cache.statistics.computations == 0)
    opener.finish()

    let value = try await cache.value(for: "dance", generation: 1) { 11 }
    #expect(value == 11, "a later caller starts afresh")
  }

  @Test func cancelledCallerThrowsWithoutComputing() async {
    let cache = Self.makeCache()
    let computations = Counter()
    let caller = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await cache.value(for: "dance", generation: 1) {
        computations.increment()
        return 10
      }
    }
    let callerOutcome = await caller.result
    #expect(throws: CancellationError.self) { try callerOutcome.get() }
    #expect(computations.value == 0)
    #expect(cache.statistics.computations == 0)
  }

  @Test func hitIsServedWithoutComputing() async throws {
    let cache = Self.makeCache()
    cache.insert(10, for: "dance", generation: 1)
    let value = try await cache.value(for: "dance", generation: 1) { () async throws -> Int in
      throw TestFailure()
    }
    #expect(value == 10)
    #expect(cache.statistics.hits == 1)
  }

  @Test func generationsDoNotShareAComputation() async throws {
    let cache = Self.makeCache()
    let gate = Gate()
    let old = Task {
      try await cache.value(for: "dance", generation: 1) {
        await gate.wait()
        return 1
      }
    }
    await waitUntil { cache.statistics.waitingCallers == 1 }
    // A commit: generation 2 computes its own answer, not waiting on generation 1's.
    let new = try await cache.value(for: "dance", generation: 2) { 2 }
    #expect(new == 2)

    gate.open()
    #expect(try await old.value == 1, "the old reader still gets its own answer")
    #expect(cache.lookup("dance", generation: 2) == 2, "and the old answer was not stored")
    #expect(cache.statistics.coalescedWaits == 0)
  }

  /// Yields until `condition` holds; the other tasks make progress in the meantime. A bug that
  /// never satisfies it is reported after many yields rather than hanging the suite.
  private func waitUntil(
    _ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    for _ in 0..<1_000_000 {
      if condition() { return }
      await Task.yield()
    }
    Issue.record("the condition never held", sourceLocation: sourceLocation)
  }
}

/// A value with a size to count and a serial number to tell insertions apart.
private struct Payload: Equatable {
  let size: Int
  let serial: Int
}

private struct TestFailure: Error {}

/// Counts computations across tasks.
private final class Counter: Sendable {
  private let count = Atomic<Int>(0)

  var value: Int { count.load(ordering: .relaxed) }

  func increment() { count.add(1, ordering: .relaxed) }
}

/// A clock the test advances by hand, in nanoseconds.
private final class NanosecondClock: Sendable {
  private let reading = Atomic<UInt64>(0)

  var now: UInt64 { reading.load(ordering: .relaxed) }

  func advance(by duration: Duration) {
    let (seconds, attoseconds) = duration.components
    // 10^9 nanoseconds in a second, 10^9 attoseconds in a nanosecond.
    let nanoseconds = UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    reading.add(nanoseconds, ordering: .relaxed)
  }
}

/// Calls a closure when it is freed.
private final class Sentinel: Sendable {
  let onDeinit: @Sendable () -> Void

  init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }

  deinit { onDeinit() }
}

/// Holds computations until the test opens it.
private final class Gate: Sendable {
  private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  func wait() async {
    await withCheckedContinuation { continuation in
      let isOpen = state.withLock { state in
        if !state.isOpen { state.waiters.append(continuation) }
        return state.isOpen
      }
      if isOpen { continuation.resume() }
    }
  }

  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
