import DiscoverSearch
import Foundation

/// What a service puts between its HTTP handlers and a ``DiscoverSearch/DiscoverIndex``:
/// a rate limit per client and operation, result caches keyed by the index's generation,
/// a work budget on every search, and searches as you type that drop stale texts.
///
/// ```swift
/// let service = SearchService(index: index, trending: trending)
/// let page = try await service.search(
///   SearchRequest("dance chal", in: .videos, matching: .asYouType), from: ClientKey(userID))
/// ```
///
/// The core never learns about callers: everything here is built on the index's public
/// API, its ``DiscoverSearch/DiscoverIndex/generation`` and ``DiscoverSearch/SearchRequest``.
public final class SearchService: Sendable {
  /// How the service limits, caches and budgets.
  public struct Configuration: Sendable {
    /// Rates and bursts per operation (``RateLimiter/Limits/standard`` by default).
    public var limits: RateLimiter.Limits
    /// The most clients × operations the limiter holds (about 21 bytes each; see
    /// ``RateLimiter/init(limits:maximumKeys:clock:)``).
    public var maximumClients: Int
    /// The bytes the search results cache may hold.
    public var searchCacheBytes: Int
    /// The bytes the completions and trending caches may hold, each.
    public var smallCacheBytes: Int
    /// How long a cached search or completion answers; `nil` until the index changes.
    public var timeToLive: Duration?
    /// How long a cached trending page answers: trending lists move with every event,
    /// not with the index.
    public var trendingTimeToLive: Duration
    /// The budget of every search whose request sets none (``SearchBudget``).
    public var budget: SearchBudget

    /// Creates a configuration; the defaults suit one instance with a 1M-document index:
    /// 64 MiB of search results, 8 MiB for each small cache, answers kept 60 s (trending
    /// 10 s), and at most 20,000,000 postings or 250 ms of work a search.
    public init(
      limits: RateLimiter.Limits = .standard, maximumClients: Int = 4_000_000,
      searchCacheBytes: Int = 64 << 20, smallCacheBytes: Int = 8 << 20,
      timeToLive: Duration? = .seconds(60), trendingTimeToLive: Duration = .seconds(10),
      budget: SearchBudget = SearchBudget(
        maximumPostings: 20_000_000, timeLimit: .milliseconds(250))
    ) {
      self.limits = limits
      self.maximumClients = maximumClients
      self.searchCacheBytes = searchCacheBytes
      self.smallCacheBytes = smallCacheBytes
      self.timeToLive = timeToLive
      self.trendingTimeToLive = trendingTimeToLive
      self.budget = budget
    }
  }

  /// The index searched.
  public let index: DiscoverIndex
  /// Trending content, for ``trending(_:from:)``; `nil` when the service lists none.
  public let trendingContent: TrendingContent?
  /// Trending and recent searches for completions; `nil` for completions from the index
  /// alone.
  public let analytics: QueryAnalytics?
  /// The rate limiter every request passes first.
  public let limiter: RateLimiter
  public let configuration: Configuration
  private let searches: ResultCache<SearchRequest, SearchResponse>
  private let completions: ResultCache<SuggestRequest, [Suggestion]>
  private let trendingPages: ResultCache<TrendingRequest, TrendingPage>
  /// The wall clock: the minute a search's recency is measured from.
  private let now: @Sendable () -> Date

  /// Creates a service over `index`.
  ///
  /// - Parameters:
  ///   - now: The wall clock, read once per search for the minute its recency counts from
  ///     (which is part of the cache key). Inject one to test.
  ///   - monotonic: Nanoseconds on a monotonic clock, for the limiter and the caches'
  ///     time to live; `nil` reads `ContinuousClock`. Inject one to test.
  public init(
    index: DiscoverIndex, trending: TrendingContent? = nil, analytics: QueryAnalytics? = nil,
    configuration: Configuration = Configuration(),
    now: @escaping @Sendable () -> Date = { Date() },
    monotonic: (@Sendable () -> UInt64)? = nil
  ) {
    self.index = index
    self.trendingContent = trending
    self.analytics = analytics
    self.configuration = configuration
    self.now = now
    let origin = ContinuousClock.now
    let monotonic = monotonic ?? { Self.nanoseconds(origin.duration(to: .now)) }
    limiter = RateLimiter(
      limits: configuration.limits, maximumKeys: configuration.maximumClients,
      clock: { RateLimiter.Instant(nanoseconds: Int64(clamping: monotonic())) })
    searches = ResultCache(
      maximumBytes: configuration.searchCacheBytes, timeToLive: configuration.timeToLive,
      cost: { $0.approximateBytes }, keyCost: { $0.approximateBytes }, now: monotonic)
    completions = ResultCache(
      maximumBytes: configuration.smallCacheBytes, timeToLive: configuration.timeToLive,
      cost: { $0.reduce(64) { $0 + 64 + $1.text.utf8.count } },
      keyCost: { $0.prefix.utf8.count + ($0.userID?.utf8.count ?? 0) }, now: monotonic)
    trendingPages = ResultCache(
      maximumBytes: configuration.smallCacheBytes,
      timeToLive: configuration.trendingTimeToLive,
      cost: { $0.approximateBytes }, keyCost: { $0.region?.utf8.count ?? 0 }, now: monotonic)
  }

  // MARK: Requests

  /// Searches for `client`: rate limited, answered from the cache when the same request
  /// was answered on the same generation of the index in the same minute, and run under
  /// the configured ``Configuration/budget`` when the request sets none.
  ///
  /// Concurrent identical requests search once. A partial answer (the budget ran out) is
  /// returned but not cached.
  ///
  /// - Throws: ``DiscoverSearch/SearchError/Code/rateLimited`` (with
  ///   ``DiscoverSearch/SearchError/retryAfter``) when the client is over its rate; the
  ///   search's own errors; `CancellationError` when the calling task is cancelled.
  public func search(_ request: SearchRequest, from client: ClientKey) async throws
    -> SearchResponse
  {
    try limiter.acquire(client, for: .search)
    let key = normalized(request)
    let generation = index.generation
    let index = self.index
    let searches = self.searches
    // A partial answer depends on the machine's load as much as on the request: it is
    // returned to the callers waiting for it, never stored.
    return try await searches.value(
      for: key, generation: generation, storingIf: { !$0.isPartial },
      compute: { try index.search(key) })
  }

  /// Completions for `client`, rate limited under the completion budget (one request per
  /// keystroke) and cached by generation like searches.
  ///
  /// - Throws: ``DiscoverSearch/SearchError/Code/rateLimited`` when the client is over its
  ///   rate; ``DiscoverSearch/SearchError/Code/invalidArgument`` for a limit outside
  ///   1...100; `CancellationError` when cancelled.
  public func suggestions(_ request: SuggestRequest, from client: ClientKey) async throws
    -> [Suggestion]
  {
    try limiter.acquire(client, for: .completion)
    var normalized = request
    // Without analytics, suggestions do not depend on who asks.
    if analytics == nil { normalized.userID = nil }
    let key = normalized
    let index = self.index
    let analytics = self.analytics
    return try await completions.value(for: key, generation: index.generation) {
      try index.suggestions(key, analytics: analytics)
    }
  }

  /// A trending list page for `client`, rate limited and cached for
  /// ``Configuration/trendingTimeToLive``.
  ///
  /// - Throws: ``DiscoverSearch/SearchError/Code/rateLimited`` when the client is over its
  ///   rate; ``DiscoverSearch/SearchError/Code/invalidArgument`` when the service has no
  ///   trending content, or for a bad limit or cursor; `CancellationError` when cancelled.
  public func trending(_ request: TrendingRequest, from client: ClientKey) async throws
    -> TrendingPage
  {
    try limiter.acquire(client, for: .trending)
    guard let trendingContent else {
      throw SearchError(
        .invalidArgument, "this service lists no trending content; create it with trending:")
    }
    var normalized = request
    normalized.region = request.region?.uppercased()
    let key = normalized
    return try await trendingPages.value(for: key, generation: index.generation) {
      try trendingContent.list(key)
    }
  }

  /// The pages of a search box: `texts` as the user types them, searched once each text
  /// has stood for `quietPeriod` (0.5 s by default), the search of an older text cancelled
  /// when a newer one arrives and its answer dropped (``AsyncSequence/debounced(for:clock:)``
  /// and ``AsyncSequence/mapLatest(_:)``).
  ///
  /// - Parameters:
  ///   - template: Everything but the text: tab, limit, matching (as you type by default).
  public func searchesAsYouType<Texts: AsyncSequence & Sendable, C: Clock>(
    _ texts: Texts, template: SearchRequest = SearchRequest("", matching: .asYouType),
    from client: ClientKey, quietPeriod: C.Duration, clock: C
  ) -> AsyncStream<Result<SearchResponse, any Error>>
  where Texts.Element == String, C.Duration: Sendable {
    texts.debounced(for: quietPeriod, clock: clock).mapLatest { text in
      var request = template
      request.text = text
      return try await self.search(request, from: client)
    }
  }

  /// ``searchesAsYouType(_:template:from:quietPeriod:clock:)`` on the continuous clock,
  /// with the app's quiet period of 0.5 s.
  public func searchesAsYouType<Texts: AsyncSequence & Sendable>(
    _ texts: Texts, template: SearchRequest = SearchRequest("", matching: .asYouType),
    from client: ClientKey
  ) -> AsyncStream<Result<SearchResponse, any Error>> where Texts.Element == String {
    searchesAsYouType(
      texts, template: template, from: client, quietPeriod: .milliseconds(500),
      clock: ContinuousClock())
  }

  // MARK: Statistics

  /// The caches' and the limiter's figures.
  public struct Statistics: Sendable {
    public var searches: ResultCache<SearchRequest, SearchResponse>.Statistics
    public var completions: ResultCache<SuggestRequest, [Suggestion]>.Statistics
    public var trending: ResultCache<TrendingRequest, TrendingPage>.Statistics
    /// Clients × operations the limiter holds.
    public var limiterKeys: Int
    /// The bytes the limiter holds.
    public var limiterBytes: Int
  }

  /// The caches' hits, misses, evictions and bytes, and the limiter's keys, now.
  public var statistics: Statistics {
    Statistics(
      searches: searches.statistics, completions: completions.statistics,
      trending: trendingPages.statistics, limiterKeys: limiter.keyCount,
      limiterBytes: limiter.memoryBytes)
  }

  // MARK: Keys

  /// The request as the cache keys it: the text sanitized as the search will see it, no
  /// user (the index does not read it), the service's budget where the request sets none,
  /// and the recency origin pinned to the current minute (the search ranks by the same
  /// origin, so a cached answer is the one a search now would give).
  func normalized(_ request: SearchRequest) -> SearchRequest {
    var key = request
    key.text = QuerySanitizer.sanitize(request.text)
    key.userID = nil
    if key.budget == .unlimited { key.budget = configuration.budget }
    if key.ranking.recency.origin == nil && key.cursor == nil {
      let seconds = now().timeIntervalSince1970
      let minute = seconds.isFinite ? (seconds / 60).rounded(.down) * 60 : 0
      key.ranking.recency.origin = Date(timeIntervalSince1970: minute)
    }
    return key
  }

  private static func nanoseconds(_ duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    return UInt64(max(seconds, 0)) &* 1_000_000_000 &+ UInt64(max(attoseconds, 0) / 1_000_000_000)
  }
}
