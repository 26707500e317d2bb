import Foundation

/// How popularity counts toward the score.
///
/// A document's popularity signal is its count `S` (views for videos and hashtags, followers
/// for users, videos using it for sounds) saturated as `S / (S + pivot)`: 0 for no views,
/// one half at the pivot, approaching 1 for huge counts, so a hundred million views is not
/// a thousand times a hundred thousand. This is the saturation function of Lucene's
/// `FeatureField` (Elasticsearch's `rank_feature` query), whose default pivot is also an
/// approximate geometric mean of the feature.
public struct PopularityOptions: Sendable, Hashable {
  /// How much the signal raises the score: the score is multiplied by
  /// `1 + weight · S / (S + pivot)` (together with recency, see ``RankingOptions``).
  /// 0 turns popularity off. Values below 0 or not finite count as 0.
  public var weight: Float
  /// The count at which the signal is one half, per type; a type not listed uses the
  /// geometric mean of `1 + S` over its documents, so the pivot follows the corpus.
  public var pivots: [SearchResultType: Double]

  /// Creates popularity options.
  public init(weight: Float = 0.5, pivots: [SearchResultType: Double] = [:]) {
    self.weight = weight
    self.pivots = pivots
  }

  /// The signal for count `count` with pivot `pivot`: `S / (S + pivot)`, in 0..<1.
  @inline(__always)
  public static func signal(count: Int, pivot: Double) -> Double {
    let value = Double(max(count, 0))
    guard pivot > 0, pivot.isFinite else { return value > 0 ? 1 : 0 }
    return value / (value + pivot)
  }
}

/// How recency counts toward the score: a decay over a video's age, as Elasticsearch's
/// decay functions (`exp` and `gauss` in the `function_score` query) define them.
///
/// With `age` the time from the video's creation to ``origin`` and
/// `d = max(0, age − offset)`:
///
/// - exponential: `decay^(d / scale)`, so with the default `decay` of 0.5 the signal halves
///   every `scale` (the half-life);
/// - gaussian: `exp(−d² / (2σ²))` with `σ² = −scale² / (2 ln decay)`, flat near the origin and
///   falling fast after `scale`.
///
/// Both are 1 for a video created at the origin (or in the future), and `decay` at
/// `offset + scale`. Only videos have a creation date; the other types and videos without a
/// date get 0.
public struct RecencyOptions: Sendable, Hashable {
  /// The shape of the decay.
  public enum Function: String, Sendable, Hashable, CaseIterable {
    case exponential
    case gaussian
  }

  /// How much the signal raises the score (see ``RankingOptions``). 0 turns recency off.
  public var weight: Float
  public var function: Function
  /// The age, in seconds, at which the signal has fallen to ``decay`` (past ``offset``).
  public var scale: TimeInterval
  /// Ages up to this many seconds count as new.
  public var offset: TimeInterval
  /// The signal at `offset + scale`, in 0 exclusive to 1 exclusive.
  public var decay: Double
  /// The moment ages are measured from; `nil` means the time of the search, rounded down to
  /// the minute (so scores stay comparable between the pages of one session).
  public var origin: Date?

  /// Creates recency options. The default is an exponential decay with a half-life of 14
  /// days: a two-week-old video keeps half its recency boost, a two-month-old one 5%.
  public init(
    weight: Float = 0.25, function: Function = .exponential, scale: TimeInterval = 14 * 86_400,
    offset: TimeInterval = 0, decay: Double = 0.5, origin: Date? = nil
  ) {
    self.weight = weight
    self.function = function
    self.scale = scale
    self.offset = offset
    self.decay = decay
    self.origin = origin
  }

  /// The signal of something `age` seconds old, in 0...1.
  public func signal(age: TimeInterval) -> Double {
    curve.signal(age: age)
  }

  /// The decay with its settings sanitized and its logarithm taken once, for computing the
  /// signal of many ages (``StaticFactors`` computes one per video).
  var curve: RecencyCurve {
    let decay = decay.isFinite && decay > 0 && decay < 1 ? decay : 0.5
    let scale = scale.isFinite && scale > 0 ? scale : 14 * 86_400
    return RecencyCurve(
      function: function, offset: offset.isFinite ? max(offset, 0) : 0, scale: scale,
      logDecay: log(decay))
  }

  /// The origin of a search made at `now`, as whole seconds since 1970, within the
  /// ±10^15 seconds documents' dates are checked against (an origin out there, or not a
  /// number, cannot overflow an age).
  func originSeconds(now: Date) -> Int64 {
    func clamped(_ seconds: TimeInterval) -> Int64 {
      guard seconds.isFinite else { return 0 }
      return Int64(min(max(seconds, -1e15), 1e15).rounded(.down))
    }
    if let origin {
      let seconds = origin.timeIntervalSince1970
      return seconds.isFinite ? clamped(seconds) : clamped(now.timeIntervalSince1970)
    }
    let seconds = clamped(now.timeIntervalSince1970)
    return seconds - seconds % 60
  }
}

/// How matches of the whole name and of adjacent words count toward the score
/// (Meilisearch's `exactness` and `proximity` ranking rules, as factors on the text score).
public struct MatchQualityOptions: Sendable, Hashable {
  /// The text score of an exact match is multiplied by `1 + exactness`. A match is exact
  /// when a name field (a video's or sound's title, a hashtag's name, a user's username or
  /// display name) holds the query's words and nothing else, in any order and counting
  /// repeats.
  public var exactness: Float
  /// The text score is multiplied by `1 + proximity · a`, where `a` is the share of
  /// consecutive query word pairs that appear next to each other, in order, in some field
  /// (1 when the whole query appears as a phrase). Queries of one word get no proximity.
  public var proximity: Float

  /// Creates match quality options.
  public init(exactness: Float = 1, proximity: Float = 0.5) {
    self.exactness = exactness
    self.proximity = proximity
  }
}

/// How the Top tab mixes the four types.
///
/// The Top tab shows three sections, in this order:
///
/// 1. **Cards**: for each of users, hashtags and sounds, up to ``leadSlots`` of its best
///    hits, when their name matches the query exactly (``requiresExactMatch``); they come
///    first, ordered by their score normalized by their type's best score.
/// 2. **Videos**, in the order of the Videos tab.
/// 3. **Everything else**: the other types' remaining hits, interleaved by normalized score
///    (a hit's score divided by the best score of its type, so each type's best is 1: the
///    max normalization of Lee, "Analyses of multiple evidence combination", SIGIR 1997).
///
/// So a strong user or hashtag match shows as a card at the top and videos fill the rest.
/// Facet counts stay exact per type, and the tab's total counts every hit of every type.
public struct TopTabPolicy: Sendable, Hashable {
  /// How many hits of each non-video type may lead as cards. Default: one user, one
  /// hashtag and one sound.
  public var leadSlots: [SearchResultType: Int]
  /// Whether a card needs an exact name match (default `true`); when `false`, the type's
  /// best hits lead whatever their match.
  public var requiresExactMatch: Bool

  /// Creates a policy.
  public init(
    leadSlots: [SearchResultType: Int] = [.user: 1, .hashtag: 1, .sound: 1],
    requiresExactMatch: Bool = true
  ) {
    self.leadSlots = leadSlots
    self.requiresExactMatch = requiresExactMatch
  }

  /// The lead slots of a type, 0 for videos, at most ``DiscoverIndex/maximumSearchLimit``.
  func slots(for type: SearchResultType) -> Int {
    guard type != .video else { return 0 }
    return min(max(leadSlots[type] ?? 0, 0), DiscoverIndex.maximumSearchLimit)
  }
}

/// ``RecencyOptions/signal(age:)`` with the settings prepared: the same expressions, so the
/// same values, without a logarithm per age.
struct RecencyCurve {
  let function: RecencyOptions.Function
  let offset: TimeInterval
  let scale: TimeInterval
  /// The logarithm of the (sanitized) decay.
  let logDecay: Double

  @inline(__always)
  func signal(age: TimeInterval) -> Double {
    let distance = max(0, age - offset)
    guard distance > 0 else { return 1 }
    switch function {
    case .exponential:
      return exp(logDecay * distance / scale)
    case .gaussian:
      let variance = -scale * scale / (2 * logDecay)
      return exp(-distance * distance / (2 * variance))
    }
  }
}
