import Foundation

/// The settings of ``QueryAnalytics``: decay windows, privacy thresholds and limits.
public struct AnalyticsConfiguration: Sendable, Hashable {
  /// The half-life of the short (trending) window, in seconds: a search counts half as much
  /// toward ``TrendingSearch/recentCount`` after this long. One hour by default.
  public var trendingHalfLife: TimeInterval = 3600
  /// The half-life of the long (baseline) window, in seconds: a search counts half as much
  /// toward ``TrendingSearch/baselineCount`` and ``PopularQuery/count`` after this long.
  /// Seven days by default.
  public var baselineHalfLife: TimeInterval = 7 * 86400
  /// How many different users must have searched a query before it may trend or be
  /// suggested, so that one person's searches are never shown to others. 3 by default.
  public var minimumDistinctUsers: Int = 3
  /// Words and whole queries never surfaced in trending searches or popular queries.
  ///
  /// Entries are normalized like queries. A query is blocked when its normalized form equals
  /// an entry, or when one of its words (with or without a `#`/`@` marker) equals an entry.
  public var blocklist: Set<String> = []
  /// How many recent searches are kept per user; older ones are dropped. 20 by default.
  public var recentSearchLimit: Int = 20
  /// How many queries are tracked at most; past it, the ones with the lowest baseline counts
  /// are forgotten. 100,000 queries take tens of megabytes; internal, so tests can lower it.
  var maximumTrackedQueries = 100_000

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - trendingHalfLife: The half-life of the short window in seconds; must be positive.
  ///   - baselineHalfLife: The half-life of the long window in seconds; must be positive.
  ///   - minimumDistinctUsers: Users needed before a query may trend or be suggested.
  ///   - blocklist: Words and whole queries never surfaced.
  ///   - recentSearchLimit: Recent searches kept per user.
  public init(
    trendingHalfLife: TimeInterval = 3600,
    baselineHalfLife: TimeInterval = 7 * 86400,
    minimumDistinctUsers: Int = 3,
    blocklist: Set<String> = [],
    recentSearchLimit: Int = 20
  ) {
    self.trendingHalfLife = trendingHalfLife
    self.baselineHalfLife = baselineHalfLife
    self.minimumDistinctUsers = minimumDistinctUsers
    self.blocklist = blocklist
    self.recentSearchLimit = recentSearchLimit
  }
}
