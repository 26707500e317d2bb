import Foundation

@testable import DiscoverSearch

extension RankingOptions {
  /// The default ranking with a fixed recency origin, for tests that compare two searches.
  /// The default origin is the minute a search starts, so two searches that straddle a
  /// minute score recency differently and may order near ties differently.
  static let pinned: RankingOptions = {
    var ranking = RankingOptions()
    ranking.recency.origin = Date(timeIntervalSince1970: 1_732_678_800)
    return ranking
  }()
}
