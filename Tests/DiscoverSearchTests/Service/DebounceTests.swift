import DiscoverSearch
import DiscoverService
import Synchronization
import Testing

/// Debouncing a search box and cancelling the searches of stale texts, on a manual clock.
@Suite("Service: debounce and latest-only searches")
struct DebounceTests {
  /// What a consumer received, in order.
  final class Received<Element: Sendable>: Sendable {
    let values = Mutex<[Element]>([])
    func append(_ value: Element) { values.withLock { $0.append(value) } }
    var all: [Element] { values.withLock { $0 } }
  }

  @Test func onlyTextsFollowedByAQuietPeriodAreDelivered() async throws {
    let clock = SleepingClock()
    let (texts, input) = AsyncStream.makeStream(of: String.self)
    let received = Received<String>()
    let consumer = Task {
      for await text in texts.debounced(for: .milliseconds(500), clock: clock) {
        received.append(text)
      }
    }
    let start = clock.now
    input.yield("d")
    await clock.waitUntil { $0 == [start.advanced(by: .milliseconds(500))] }
    clock.advance(by: .milliseconds(200))
    input.yield("da")
    await clock.waitUntil { $0 == [start.advanced(by: .milliseconds(700))] }
    clock.advance(by: .milliseconds(499))
    #expect(received.all.isEmpty)
    clock.advance(by: .milliseconds(1))
    await waitFor { received.all == ["da"] }
    // A later burst: only its last text, after its own quiet period.
    input.yield("dan")
    input.yield("danc")
    input.yield("dance")
    await clock.waitUntil { $0 == [start.advanced(by: .milliseconds(1_200))] }
    clock.advance(by: .milliseconds(500))
    await waitFor { received.all == ["da", "dance"] }
    // The end of the input waits out the last quiet period, then ends the sequence.
    input.yield("dance c")
    await clock.waitUntil { $0.count == 1 }
    input.finish()
    clock.advance(by: .milliseconds(500))
    await consumer.value
    #expect(received.all == ["da", "dance", "dance c"])
  }

  @Test func aNewTextCancelsTheSearchStillRunningForTheOldOne() async throws {
    let clock = SleepingClock()
    let (texts, input) = AsyncStream.makeStream(of: String.self)
    let started = Received<String>()
    let cancelled = Received<String>()
    let results = texts.mapLatest { text -> String in
      started.append(text)
      do {
        try await clock.sleep(until: clock.now.advanced(by: .milliseconds(100)))
      } catch {
        cancelled.append(text)
        throw error
      }
      return text.uppercased()
    }
    let received = Received<String>()
    let consumer = Task {
      for await result in results {
        if case .success(let value) = result { received.append(value) }
      }
    }
    input.yield("danc")
    await clock.waitUntil { $0.count == 1 }
    input.yield("dance")
    await waitFor { cancelled.all == ["danc"] && started.all == ["danc", "dance"] }
    await clock.waitUntil { $0.count == 1 }
    clock.advance(by: .milliseconds(100))
    await waitFor { received.all == ["DANCE"] }
    input.finish()
    await consumer.value
    #expect(received.all == ["DANCE"])
  }

  @Test func debouncedSearchesOfARealIndexShowOnlyTheLastText() async throws {
    let index = try RealCorpus.load().index
    let clock = SleepingClock()
    let (texts, input) = AsyncStream.makeStream(of: String.self)
    let pages = texts.debounced(for: .milliseconds(500), clock: clock).mapLatest { text in
      try index.search(SearchRequest(text, in: .videos, matching: .asYouType))
    }
    let received = Received<String>()
    let consumer = Task {
      for await page in pages { received.append(try page.get().query) }
    }
    for text in ["b", "br", "bru", "brun", "bruno"] { input.yield(text) }
    await clock.waitUntil { $0.count == 1 }
    input.finish()
    clock.advance(by: .milliseconds(500))
    try await consumer.value
    #expect(received.all == ["bruno"])
  }

  /// Yields until `condition` holds (the tasks under test run on other threads).
  private func waitFor(_ condition: () -> Bool) async {
    for _ in 0..<100_000 {
      if condition() { return }
      await Task.yield()
    }
    Issue.record("the condition never held")
  }
}
