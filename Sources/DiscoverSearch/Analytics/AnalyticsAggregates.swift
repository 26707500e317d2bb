import Foundation

/// The in-memory aggregates behind ``QueryAnalytics``: per-query statistics, kept in a
/// dictionary and in a list sorted by UTF-8 bytes for prefix lookups.
///
/// The in-memory store and the SQLite store share this code; SQLite only persists the events
/// and replays them into a fresh value on open.
struct AnalyticsAggregates: Sendable {
  /// How many queries of the trending top ``QueryAnalytics/isTrending(normalizedQuery:)``
  /// considers: about the length of a "trending" screen plus its "see more".
  static let trendingTopCount = 50
  /// A query trends only with at least this decayed recent count: about one search within
  /// the last trending half-life. Without it, a query from last week would still trend
  /// with a score of nearly zero when nothing else is searched.
  static let minimumRecentCount = 1.0
  /// When the tracked queries exceed the cap, eviction brings them down to this fraction of
  /// it, so the O(n log n) eviction pass runs at most once per 10% of the cap new queries.
  static let evictionTarget = 0.9
  /// How long, in seconds, a cached trending top stays valid when no search is recorded: a
  /// second changes a one-hour decay by 0.02%, far below what could reorder the top.
  static let trendingCacheLifetime: TimeInterval = 1

  let scorer: TrendingScorer
  let minimumDistinctUsers: Int
  let maximumTrackedQueries: Int
  /// Normalized blocklist entries.
  let blocklist: Set<String>

  /// Statistics by normalized query.
  private(set) var queries: [String: QueryStatistics] = [:]
  /// The keys of ``queries`` sorted by their UTF-8 bytes.
  private(set) var sortedQueries: [String] = []
  /// The latest event time seen, for eviction, in seconds since the landmark.
  private var latestTime = -Double.infinity
  /// Changes on every recorded search, to invalidate ``trendingCache``.
  private var generation = 0
  private var trendingCache: (generation: Int, now: TimeInterval, queries: Set<String>)?

  init(configuration: AnalyticsConfiguration) {
    scorer = TrendingScorer(configuration: configuration)
    minimumDistinctUsers = configuration.minimumDistinctUsers
    maximumTrackedQueries = max(1, configuration.maximumTrackedQueries)
    blocklist = Set(
      configuration.blocklist.map { QueryAnalytics.normalize($0) }.filter { !$0.isEmpty })
  }

  // MARK: Recording

  /// Records one search of an already normalized, non-empty query.
  ///
  /// - Complexity: O(log n) to find a new query's place, plus O(n) to insert it, in the
  ///   number of tracked queries; amortized O(log n) for eviction.
  mutating func recordSearch(
    normalized: String, display: String, userID: String?, time: TimeInterval, resultCount: Int
  ) {
    let scorer = scorer
    modifyStatistics(of: normalized) {
      $0.addSearch(
        display: display, userID: userID, time: time, resultCount: resultCount, scorer: scorer)
    }
    latestTime = max(latestTime, time)
    generation &+= 1
    evictIfNeeded()
  }

  /// Records one click on a result of an already normalized, non-empty query.
  mutating func recordClick(normalized: String, resultID: String) {
    modifyStatistics(of: normalized) { $0.addClick(on: resultID) }
    evictIfNeeded()
  }

  private mutating func modifyStatistics(
    of normalized: String, _ body: (inout QueryStatistics) -> Void
  ) {
    if queries[normalized] == nil {
      queries[normalized] = QueryStatistics(isBlocked: isBlocked(normalized))
      sortedQueries.insert(normalized, at: lowerBound(of: normalized))
    }
    body(&queries[normalized]!)
  }

  /// Drops the queries with the lowest baseline counts when there are too many.
  private mutating func evictIfNeeded() {
    guard queries.count > maximumTrackedQueries else { return }
    let keep = Int(Double(maximumTrackedQueries) * Self.evictionTarget)
    let now = latestTime.isFinite ? latestTime : 0
    let rate = scorer.baseline
    // The element type and the comparison are spelled out: inferred, this one expression
    // took the type checker 16 seconds, a sixth of the library's release build.
    var byCount: [(key: String, count: Double)] = []
    byCount.reserveCapacity(queries.count)
    for (key, statistics) in queries {
      byCount.append((key, statistics.baseline.value(at: now, rate: rate)))
    }
    byCount.sort { (left: (key: String, count: Double), right: (key: String, count: Double)) in
      if left.count != right.count { return left.count > right.count }
      return left.key < right.key
    }
    for entry in byCount.dropFirst(keep) {
      queries[entry.key] = nil
    }
    sortedQueries.removeAll { queries[$0] == nil }
  }

  // MARK: Reading

  /// The clicks on `resultID` for a normalized query.
  func clickCount(normalized: String, resultID: String) -> Int {
    queries[normalized]?.clicks[resultID] ?? 0
  }

  /// The surfaceable queries with the highest trending scores at `now`, best first.
  ///
  /// - Complexity: O(n + m log m) for n tracked queries of which m trend.
  func trendingSearches(at now: TimeInterval, limit: Int) -> [TrendingSearch] {
    guard limit > 0 else { return [] }
    let now = readTime(now)
    var trending: [TrendingSearch] = []
    for (normalized, statistics) in queries
    where statistics.isSurfaceable(minimumDistinctUsers: minimumDistinctUsers) {
      let recentCount = statistics.recent.value(at: now, rate: scorer.recent)
      guard recentCount >= Self.minimumRecentCount else { continue }
      let baselineCount = statistics.baseline.value(at: now, rate: scorer.baseline)
      let velocity = scorer.velocity(recentCount: recentCount, baselineCount: baselineCount)
      trending.append(
        TrendingSearch(
          query: statistics.display, normalizedQuery: normalized,
          score: scorer.score(recentCount: recentCount, velocity: velocity),
          recentCount: recentCount, baselineCount: baselineCount, velocity: velocity,
          distinctUsers: statistics.distinctUsers))
    }
    trending.sort {
      $0.score > $1.score || ($0.score == $1.score && $0.normalizedQuery < $1.normalizedQuery)
    }
    return Array(trending.prefix(limit))
  }

  /// Whether a normalized query is among the ``trendingTopCount`` best trending at `now`.
  ///
  /// The top is cached until the next search is recorded or ``trendingCacheLifetime``
  /// passes, so checking every suggestion of a list computes it once.
  mutating func isTrending(normalized: String, at now: TimeInterval) -> Bool {
    if let cache = trendingCache, cache.generation == generation,
      abs(now - cache.now) < Self.trendingCacheLifetime
    {
      return cache.queries.contains(normalized)
    }
    let top = Set(
      trendingSearches(at: now, limit: Self.trendingTopCount).map(\.normalizedQuery))
    trendingCache = (generation, now, top)
    return top.contains(normalized)
  }

  /// Surfaceable queries whose normalized form starts with `prefix` (compared as UTF-8
  /// bytes), by decayed baseline count, best first.
  ///
  /// - Complexity: O(log n + m log m) for n tracked queries of which m start with `prefix`.
  func popularQueries(withPrefix prefix: String, at now: TimeInterval, limit: Int)
    -> [PopularQuery]
  {
    guard limit > 0 else { return [] }
    let now = readTime(now)
    var popular: [PopularQuery] = []
    var index = lowerBound(of: prefix)
    while index < sortedQueries.count, sortedQueries[index].utf8.starts(with: prefix.utf8) {
      let normalized = sortedQueries[index]
      index += 1
      guard let statistics = queries[normalized],
        statistics.isSurfaceable(minimumDistinctUsers: minimumDistinctUsers)
      else { continue }
      popular.append(
        PopularQuery(
          query: statistics.display, normalizedQuery: normalized,
          count: statistics.baseline.value(at: now, rate: scorer.baseline),
          distinctUsers: statistics.distinctUsers))
    }
    popular.sort {
      $0.count > $1.count || ($0.count == $1.count && $0.normalizedQuery < $1.normalizedQuery)
    }
    return Array(popular.prefix(limit))
  }

  // MARK: Helpers

  /// The time counts are read at: `now`, or the latest search if that is later. A search
  /// dated after the reader's clock (a skewed clock, or a file written by a process whose
  /// clock ran ahead) would otherwise weigh `2^(ahead / halfLife)`: 50 days ahead overflows
  /// to infinity, and infinity over infinity is NaN. Read no earlier than the latest search,
  /// every weight is at most 1 and every score finite.
  private func readTime(_ now: TimeInterval) -> TimeInterval {
    latestTime.isFinite ? max(now, latestTime) : now
  }

  /// Whether a normalized query equals a blocklist entry or has a word (with or without its
  /// `#`/`@` marker) that does.
  func isBlocked(_ normalized: String) -> Bool {
    guard !blocklist.isEmpty else { return false }
    if blocklist.contains(normalized) { return true }
    for word in normalized.split(separator: " ") {
      if blocklist.contains(String(word)) { return true }
      if let marker = word.first, marker == "#" || marker == "@",
        blocklist.contains(String(word.dropFirst()))
      {
        return true
      }
    }
    return false
  }

  /// The first position in ``sortedQueries`` whose key is not below `key` in UTF-8 order.
  private func lowerBound(of key: String) -> Int {
    var low = 0
    var high = sortedQueries.count
    while low < high {
      let middle = (low + high) / 2
      if sortedQueries[middle].utf8.lexicographicallyPrecedes(key.utf8) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }
}
