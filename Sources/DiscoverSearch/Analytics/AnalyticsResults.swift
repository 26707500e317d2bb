import Foundation

/// A query that is searched more now than usual, from ``QueryAnalytics/trendingSearches(limit:)``.
///
/// The factors of ``score`` are data, so a caller can show why a query trends; the formula is
/// in ``QueryAnalytics``'s documentation.
public struct TrendingSearch: Sendable, Hashable {
  /// The query as it was most recently typed (sanitized), for display.
  public var query: String
  /// The folded form that groups searches (``QueryAnalytics`` normalization).
  public var normalizedQuery: String
  /// What the list is sorted by: `recentCount * log2(1 + velocity)`.
  public var score: Double
  /// The number of searches, each weighted by `2^(-age / trendingHalfLife)`.
  public var recentCount: Double
  /// The number of searches, each weighted by `2^(-age / baselineHalfLife)`.
  public var baselineCount: Double
  /// The recent search rate divided by the usual (baseline) rate: about 1 for a query
  /// searched at a steady rate, above 1 for a rising one, below 1 for a fading one.
  public var velocity: Double
  /// How many different users searched the query (anonymous users count as one), counted up
  /// to 1,000.
  public var distinctUsers: Int
}

/// One of a user's recent searches, from ``QueryAnalytics/recentSearches(for:limit:)``.
public struct RecentSearch: Sendable, Hashable {
  /// The query as the user last typed it (sanitized), for display.
  public var query: String
  /// The folded form that de-duplicates the user's searches.
  public var normalizedQuery: String
  /// When the user last searched it.
  public var time: Date
}

/// A past query and how often it was searched, for completions, from
/// ``QueryAnalytics/popularQueries(withPrefix:limit:)``.
public struct PopularQuery: Sendable, Hashable {
  /// The query as it was most recently typed (sanitized), for display.
  public var query: String
  /// The folded form that groups searches.
  public var normalizedQuery: String
  /// The number of searches, each weighted by `2^(-age / baselineHalfLife)`.
  public var count: Double
  /// How many different users searched the query (anonymous users count as one), counted up
  /// to 1,000.
  public var distinctUsers: Int
}
