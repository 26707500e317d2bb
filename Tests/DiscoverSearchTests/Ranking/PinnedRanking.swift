@testable import DiscoverSearch

extension RankingOptions {
  /// The default ranking with a fixed recency origin, for tests that compare two searches.
  /// The default origin is the minute a search starts, so two searches that straddle a
  /// minute score recency differently and may order near ties differently.
  static let pinned: RankingOptions = {
    var ranking = RankingOptions()
    ranking.recency.origin = RankingDefaultsMeasurement.origin
    return ranking
  }()
}
