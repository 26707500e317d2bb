import Foundation

/// Scores a query for trending from its two decayed counts: rising queries first.
///
/// - `recentCount` is the query's count decayed with the short half-life, `baselineCount`
///   with the long one (``DecayedCounter``). Dividing each by its window's mean lifetime
///   τ = halfLife / ln 2 turns it into a rate (searches per second) comparable across the
///   windows: a query searched at a steady rate `r` has counts `r·τ_short` and `r·τ_long`.
/// - `velocity = (recentCount / τ_short) / ((baselineCount + priorCount) / τ_long)`: the
///   recent rate over the usual rate, about 1 for a steady query. The prior of
///   ``priorCount`` searches per baseline lifetime is additive smoothing: a brand-new query's
///   baseline equals its recent count, so without it one search would have the largest
///   possible velocity, τ_long / τ_short (168 with the default windows). With it, a new query
///   needs about ``priorCount`` searches to reach half of that.
/// - `score = recentCount * log2(1 + velocity)`: volume, boosted by how unusual it is. A
///   steady query scores its recent count (log2(2) = 1); a query rising 15 times above its
///   usual rate scores four times its count. Velocity enters through a logarithm so that a
///   small burst from nothing (velocity near its maximum of 168) does not outrank real
///   volume: the same damping as the log10 of votes in Reddit's "hot" ranking. Comparing a
///   stream's current rate with its base rate is the idea of burst detection (Kleinberg,
///   "Bursty and Hierarchical Structure in Streams", KDD 2002).
struct TrendingScorer: Sendable, Hashable {
  /// The smoothing prior, in searches per baseline lifetime (about 10 searches a week with the
  /// default seven-day half-life): small next to a popular query's baseline, large next to a
  /// one-off.
  static let priorCount = 10.0

  /// The short window's decay.
  let recent: DecayRate
  /// The long window's decay.
  let baseline: DecayRate

  init(configuration: AnalyticsConfiguration) {
    recent = DecayRate(halfLife: configuration.trendingHalfLife)
    baseline = DecayRate(halfLife: configuration.baselineHalfLife)
  }

  /// The recent rate over the usual rate, about 1 for a query searched steadily.
  func velocity(recentCount: Double, baselineCount: Double) -> Double {
    let recentRate = recentCount / recent.meanLifetime
    let usualRate = (baselineCount + Self.priorCount) / baseline.meanLifetime
    return recentRate / usualRate
  }

  /// `recentCount * log2(1 + velocity)`.
  func score(recentCount: Double, velocity: Double) -> Double {
    recentCount * log2(1 + velocity)
  }
}
