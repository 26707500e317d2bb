import DiscoverSearch
import DiscoverService
import Foundation
import Synchronization
import Testing

/// The service layer end to end on the real corpus: limits, caches by generation and
/// minute, budgets, and searches as you type.
@Suite("Service: SearchService")
struct SearchServiceTests {
  /// A monotonic clock and a wall clock a test moves by hand.
  final class Clocks: Sendable {
    let nanoseconds = Atomic<UInt64>(1_000_000_000)
    let wall = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    func advance(seconds: Double) {
      nanoseconds.add(UInt64(seconds * 1e9), ordering: .relaxed)
      wall.withLock { $0 += seconds }
    }

    /// The default configuration but for the budget's time limit, which would make an
    /// answer depend on the machine's speed (under the thread sanitizer, 250 ms is short).
    static let untimed = SearchService.Configuration(
      budget: SearchBudget(maximumPostings: 20_000_000))

    func service(
      _ index: DiscoverIndex, trending: TrendingContent? = nil,
      configuration: SearchService.Configuration = Clocks.untimed
    ) -> SearchService {
      SearchService(
        index: index, trending: trending, configuration: configuration,
        now: { self.wall.withLock { $0 } },
        monotonic: { self.nanoseconds.load(ordering: .relaxed) })
    }
  }

  static func index() throws -> DiscoverIndex {
    try DiscoverIndex.build(from: [
      Fixtures.video("v1", "dance challenge", hashtags: ["dance"], creator: "u1"),
      Fixtures.video("v2", "dance tutorial"),
      Fixtures.user("u1", "dance_queen", displayName: "Dance Queen"),
      Fixtures.hashtag("h1", "dance"),
    ])
  }

  @Test func aRepeatedRequestIsAnsweredFromTheCache() async throws {
    let index = try RealCorpus.load().index
    let clocks = Clocks()
    let service = clocks.service(index)
    let client = ClientKey("viewer-1")
    let request = SearchRequest("bruno mars", in: .top, limit: 10)
    let first = try await service.search(request, from: client)
    let second = try await service.search(request, from: ClientKey("viewer-2"))
    #expect(first == second)
    #expect(first.results.map(\.id) == (try index.search(request)).results.map(\.id))
    let statistics = service.statistics.searches
    #expect(statistics.hits == 1 && statistics.misses == 1)
    #expect(statistics.bytes > 0)
    // Spaces the sanitizer folds share the entry.
    _ = try await service.search(SearchRequest("  bruno   mars ", in: .top), from: client)
    #expect(service.statistics.searches.hits == 2)
  }

  @Test func aNewGenerationNeverServesAnOldAnswer() async throws {
    let index = try Self.index()
    let service = Clocks().service(index)
    let client = ClientKey("viewer")
    let request = SearchRequest("dance", in: .videos)
    #expect(try await service.search(request, from: client).totalHits == 2)
    var writer = try index.makeWriter()
    try writer.add(Fixtures.video("v3", "dance battle"))
    try writer.publish()
    #expect(try await service.search(request, from: client).totalHits == 3)
    writer.delete(id: "v1")
    try writer.publish()
    let after = try await service.search(request, from: client)
    #expect(after.totalHits == 2)
    #expect(!after.results.contains { $0.id == "v1" })
  }

  @Test func theNextMinuteIsANewKey() async throws {
    let index = try Self.index()
    let clocks = Clocks()
    let service = clocks.service(index)
    let request = SearchRequest("dance")
    _ = try await service.search(request, from: ClientKey("a"))
    clocks.advance(seconds: 1)
    _ = try await service.search(request, from: ClientKey("a"))
    #expect(service.statistics.searches.hits == 1)
    clocks.advance(seconds: 60)
    _ = try await service.search(request, from: ClientKey("a"))
    #expect(service.statistics.searches.misses == 2)
  }

  @Test func aClientOverItsRateIsRefusedWithTheWait() async throws {
    let index = try Self.index()
    let clocks = Clocks()
    var configuration = Clocks.untimed
    configuration.limits = RateLimiter.Limits(
      search: RateLimit(requestsPerSecond: 2, burst: 3),
      completion: RateLimit(requestsPerSecond: 20, burst: 10),
      trending: RateLimit(requestsPerSecond: 1, burst: 1))
    let service = clocks.service(index, configuration: configuration)
    let client = ClientKey("busy")
    for _ in 0..<3 { _ = try await service.search(SearchRequest("dance"), from: client) }
    do {
      _ = try await service.search(SearchRequest("dance"), from: client)
      Issue.record("a fourth search at once was admitted")
    } catch let error as SearchError {
      #expect(error.code == .rateLimited)
      #expect(error.retryAfter == .milliseconds(500))
    }
    // Another client, and another operation, have budgets of their own.
    _ = try await service.search(SearchRequest("dance"), from: ClientKey("calm"))
    _ = try await service.suggestions(SuggestRequest("dan"), from: client)
    clocks.advance(seconds: 0.5)
    _ = try await service.search(SearchRequest("dance"), from: client)
  }

  @Test func partialAnswersAreReturnedButNotCached() async throws {
    let index = try RealCorpus.load().index
    var configuration = Clocks.untimed
    configuration.budget = SearchBudget(maximumPostings: 1)
    let service = Clocks().service(index, configuration: configuration)
    let first = try await service.search(SearchRequest("music"), from: ClientKey("a"))
    #expect(first.isPartial)
    _ = try await service.search(SearchRequest("music"), from: ClientKey("a"))
    #expect(service.statistics.searches.hits == 0)
    #expect(service.statistics.searches.entries == 0)
  }

  @Test func concurrentIdenticalRequestsSearchOnce() async throws {
    let index = try RealCorpus.load().index
    let service = Clocks().service(index)
    let request = SearchRequest("official music video", in: .top, limit: 20)
    let pages = try await withThrowingTaskGroup(of: SearchResponse.self) { group in
      for client in 0..<16 {
        group.addTask { try await service.search(request, from: ClientKey("c\(client)")) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(Set(pages).count == 1)
    // One caller searched; each other one waited for it or found its answer stored.
    let statistics = service.statistics.searches
    #expect(statistics.hits + statistics.coalescedWaits == 15)
    #expect(statistics.entries == 1 && statistics.computations == 0)
  }

  @Test func completionsAndTrendingAreCachedAndChecked() async throws {
    let index = try RealCorpus.load().index
    let service = Clocks().service(index)
    let client = ClientKey("typist")
    let first = try await service.suggestions(SuggestRequest("bru", limit: 5), from: client)
    let again = try await service.suggestions(SuggestRequest("bru", limit: 5), from: client)
    #expect(first == again && !first.isEmpty)
    #expect(service.statistics.completions.hits == 1)
    await #expect(throws: SearchError.self) {
      try await service.suggestions(SuggestRequest("bru", limit: 0), from: client)
    }
    await #expect(throws: SearchError.self) {
      try await service.trending(TrendingRequest(.video), from: client)
    }
  }

  @Test func searchesAsYouTypeShowTheLastTextOnly() async throws {
    let index = try RealCorpus.load().index
    let service = Clocks().service(index)
    let clock = SleepingClock()
    let (texts, input) = AsyncStream.makeStream(of: String.self)
    let pages = service.searchesAsYouType(
      texts, template: SearchRequest("", in: .videos, matching: .asYouType),
      from: ClientKey("typist"), quietPeriod: .milliseconds(500), clock: clock)
    let received = DebounceTests.Received<String>()
    let consumer = Task {
      for await page in pages { received.append(try page.get().query) }
    }
    for text in ["b", "br", "bru"] { input.yield(text) }
    await clock.waitUntil { $0.count == 1 }
    clock.advance(by: .milliseconds(500))
    // "bru" is searched once the user pauses; the next burst comes after its page.
    for _ in 0..<100_000 where received.all.isEmpty { await Task.yield() }
    for text in ["brun", "bruno"] { input.yield(text) }
    await clock.waitUntil { $0.count == 1 }
    input.finish()
    clock.advance(by: .milliseconds(500))
    try await consumer.value
    let queries = received.all
    #expect(queries == ["bru", "bruno"])
  }
}
