// Single flight: concurrent misses of one key and generation share one computation, so that
// a hot query after a commit computes once instead of once per caller (a stampede).
//
// The scheme is Go's `singleflight.Group.Do` (golang.org/x/sync/singleflight, from Brad
// Fitzpatrick's groupcache), adapted to structured cancellation: the computation runs in an
// unstructured task owned by the flight, not by the caller that started it, so that caller's
// cancellation reaches none of the others; each caller waits on its own continuation, which
// its cancellation handler resumes at once; and when the last caller has gone the task is
// cancelled too.

extension ResultCache {
  /// The identity of a computation: the request and the generation it reads.
  struct FlightKey: Hashable, Sendable {
    var key: Key
    var generation: UInt64
  }

  /// A computation running for one key and generation, and the callers waiting for it.
  struct Flight {
    /// The number of the waiter that started it, which tells it from a later flight for the
    /// same key once it has been abandoned.
    let id: UInt64
    let task: Task<Void, Never>
    /// The callers waiting, by waiter number.
    var waiters: [UInt64: CheckedContinuation<Value, any Error>]
  }

  /// The cached value for `key` under `generation`, or else the value of one `compute()`
  /// shared by every concurrent caller with the same key and generation, which is then stored
  /// if `shouldStore` accepts it.
  ///
  /// On a miss, the first caller starts `compute` in a task of its own; callers that miss
  /// while it runs wait for it rather than computing again, and all receive its value or its
  /// error (each of the others counted in ``Statistics/coalescedWaits``). A value is stored
  /// when `shouldStore` accepts it and its generation is still the newest; an error never
  /// is, so the next caller computes afresh.
  ///
  /// Cancellation: a cancelled caller stops waiting at once and throws `CancellationError`,
  /// while the computation goes on for the others, even when the cancelled caller started it.
  /// When every waiting caller has been cancelled the computation's task is cancelled, its
  /// value is not stored, and a later caller starts a new computation.
  ///
  /// - Parameters:
  ///   - key: The request.
  ///   - generation: The generation of the index snapshot the caller reads.
  ///   - shouldStore: Whether a computed value may be served again (`false` for a partial
  ///     answer, say); every value by default. The callers waiting receive the value either
  ///     way.
  ///   - compute: Computes the answer from that snapshot; it runs in an unstructured task,
  ///     not in the caller's, and should stop with `CancellationError` when that is
  ///     cancelled.
  /// - Returns: The cached or computed value.
  /// - Throws: What `compute` throws, or `CancellationError` when the caller is cancelled
  ///   before the value arrives.
  /// - Complexity: That of ``lookup(_:generation:)`` on a hit; on a miss O(1) on average
  ///   besides `compute`, plus ``insert(_:for:generation:)`` once for all callers.
  public func value(
    for key: Key, generation: UInt64,
    storingIf shouldStore: @escaping @Sendable (Value) -> Bool = { _ in true },
    compute: @escaping @Sendable () async throws -> Value
  ) async throws -> Value {
    // A hit allocates no continuation.
    if let value = lookup(key, generation: generation) { return value }
    let flightKey = FlightKey(key: key, generation: generation)
    let waiter = waiterIDs.wrappingAdd(1, ordering: .relaxed).newValue
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        if let outcome = join(
          flightKey, as: waiter, continuation: continuation, shouldStore: shouldStore,
          compute: compute)
        {
          continuation.resume(with: outcome)
        }
      }
    } onCancel: {
      leave(flightKey, as: waiter)
    }
  }

  /// Registers `continuation` with the computation for `flightKey`, starting it when none
  /// runs; or returns what to resume it with at once: a value stored since the caller's
  /// lookup, or `CancellationError` when the caller was cancelled before registering.
  func join(
    _ flightKey: FlightKey, as waiter: UInt64,
    continuation: CheckedContinuation<Value, any Error>,
    shouldStore: @escaping @Sendable (Value) -> Bool,
    compute: @escaping @Sendable () async throws -> Value
  ) -> Result<Value, any Error>? {
    let now = timeToLiveNanoseconds == nil ? 0 : self.now()
    return withState { state in
      // Another caller's computation may have finished since the lookup that missed.
      if let value = state.value(
        for: flightKey.key, generation: flightKey.generation, now: now,
        timeToLive: timeToLiveNanoseconds)
      {
        state.counters.coalescedWaits += 1
        return .success(value)
      }
      // The cancellation flag is set before the handler runs, and the handler takes this
      // lock: either it ran first and found no waiter to remove, and the flag is seen here,
      // or it runs after and removes the waiter registered here.
      if Task.isCancelled { return .failure(CancellationError()) }
      if state.flights[flightKey] != nil {
        state.flights[flightKey]?.waiters[waiter] = continuation
        return nil
      }
      let task = Task {
        await self.run(compute, storingIf: shouldStore, for: flightKey, flight: waiter)
      }
      state.flights[flightKey] = Flight(id: waiter, task: task, waiters: [waiter: continuation])
      return nil
    }
  }

  /// Runs `compute`, stores its value if `shouldStore` accepts it, and hands its outcome to
  /// the flight's waiters.
  func run(
    _ compute: @Sendable () async throws -> Value, storingIf shouldStore: (Value) -> Bool,
    for flightKey: FlightKey, flight id: UInt64
  ) async {
    let outcome: Result<Value, any Error>
    do {
      outcome = .success(try await compute())
    } catch {
      outcome = .failure(error)
    }
    // A computation cancelled because every caller left may have returned early with part
    // of an answer: that is not stored.
    var bytes: Int?
    if case .success(let value) = outcome, !Task.isCancelled, shouldStore(value) {
      bytes = self.bytes(of: value, for: flightKey.key)
    }
    let now = timeToLiveNanoseconds == nil ? 0 : self.now()
    let waiters = withState { state -> [CheckedContinuation<Value, any Error>] in
      if case .success(let value) = outcome, let bytes {
        _ = state.insert(
          value, for: flightKey.key, generation: flightKey.generation, bytes: bytes, now: now,
          maximumBytes: maximumBytes)
      }
      // An abandoned flight was removed, and perhaps replaced by a later one: leave that be.
      guard state.flights[flightKey]?.id == id,
        let flight = state.flights.removeValue(forKey: flightKey)
      else { return [] }
      let starterWaits = flight.waiters[id] != nil
      state.counters.coalescedWaits += flight.waiters.count - (starterWaits ? 1 : 0)
      return Array(flight.waiters.values)
    }
    for waiter in waiters { waiter.resume(with: outcome) }
  }

  /// Stops `waiter` waiting for the computation for `flightKey`, resuming it with
  /// `CancellationError`, and cancels the computation when no one waits for it any more.
  func leave(_ flightKey: FlightKey, as waiter: UInt64) {
    let (continuation, abandoned) = withState {
      state -> (CheckedContinuation<Value, any Error>?, Task<Void, Never>?) in
      guard let continuation = state.flights[flightKey]?.waiters.removeValue(forKey: waiter)
      else { return (nil, nil) }
      guard state.flights[flightKey]?.waiters.isEmpty == true else { return (continuation, nil) }
      // A later caller starts afresh rather than joining a cancelled computation.
      return (continuation, state.flights.removeValue(forKey: flightKey)?.task)
    }
    continuation?.resume(throwing: CancellationError())
    abandoned?.cancel()
  }
}
