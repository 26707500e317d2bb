import DiscoverSearch

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// The elements that are followed by `quietPeriod` without another: what a search box
  /// sends once the user pauses typing. Earlier elements are dropped; when the base ends,
  /// its last element still waits out the quiet period, then the sequence ends.
  ///
  /// The debounce operator of Rx (`debounceTime`) and of Apple's swift-async-algorithms
  /// (`debounce(for:tolerance:clock:)`), written here on an `AsyncStream` because the
  /// package takes no dependencies. Errors of the base end the sequence early.
  ///
  /// - Parameters:
  ///   - quietPeriod: How long the base must stay quiet; the app's own design uses 0.5 s.
  ///   - clock: The clock the quiet period is measured on: `ContinuousClock()` in a service,
  ///     a manual clock in tests.
  public func debounced<C: Clock>(
    for quietPeriod: C.Duration, clock: C
  ) -> AsyncStream<Element> where C.Duration: Sendable {
    let base = self
    return AsyncStream { continuation in
      // The element waiting out its quiet period, numbered so that a timer that wakes after
      // a newer element arrived delivers nothing.
      let pending = Latest()
      let driver = Task {
        do {
          for try await element in base {
            let number = pending.state.withLock { state in
              state.task?.cancel()
              state.number += 1
              return state.number
            }
            let timer = Task {
              do {
                try await clock.sleep(until: clock.now.advanced(by: quietPeriod), tolerance: nil)
              } catch {
                return  // cancelled by a newer element
              }
              pending.state.withLock { state in
                if state.number == number { continuation.yield(element) }
              }
            }
            pending.state.withLock { state in
              if state.number == number { state.task = timer } else { timer.cancel() }
            }
          }
        } catch {
          // An error of the base ends the sequence; nothing waiting is delivered.
          pending.state.withLock { $0.task?.cancel() }
          continuation.finish()
          return
        }
        await pending.state.withLock { $0.task }?.value
        continuation.finish()
      }
      continuation.onTermination = { _ in
        driver.cancel()
        pending.state.withLock { $0.task?.cancel() }
      }
    }
  }

  /// The results of `transform` on each element, where a new element cancels the
  /// transform still running for the one before and drops its result (Rx's `switchMap`):
  /// a search for "danc" still running when "dance" arrives is cancelled, never shown.
  ///
  /// Each result is delivered as a `Result`, so that one failed search does not end the
  /// sequence. A transform that ignores cancellation runs on, but its result is dropped.
  /// When the base ends, the last transform finishes and is delivered, then the sequence
  /// ends.
  public func mapLatest<Output: Sendable>(
    _ transform: @escaping @Sendable (Element) async throws -> Output
  ) -> AsyncStream<Result<Output, any Error>> {
    let base = self
    return AsyncStream { continuation in
      let running = Latest()
      let driver = Task {
        do {
          for try await element in base {
            let number = running.state.withLock { state in
              state.task?.cancel()
              state.number += 1
              return state.number
            }
            let task = Task {
              let result: Result<Output, any Error>
              do {
                result = .success(try await transform(element))
              } catch {
                result = .failure(error)
              }
              running.state.withLock { state in
                // A newer element, or cancellation, makes this result stale.
                if state.number == number && !Task.isCancelled { continuation.yield(result) }
              }
            }
            running.state.withLock { state in
              if state.number == number { state.task = task } else { task.cancel() }
            }
          }
        } catch {
          continuation.yield(.failure(error))
        }
        await running.state.withLock { $0.task }?.value
        continuation.finish()
      }
      continuation.onTermination = { _ in
        driver.cancel()
        running.state.withLock { $0.task?.cancel() }
      }
    }
  }
}

/// The newest element's number and the task working for it, shared by a driver task and
/// the tasks it starts.
private final class Latest: Sendable {
  let state = Lock<(number: Int, task: Task<Void, Never>?)>((0, nil))
}
