/// Query-time ranking settings.
///
/// A hit's score blends text relevance with how good the match is and with static signals
/// of the document:
///
/// ```
/// score = bm25f · (1 + exactness · exact + proximity · adjacent)
///               · (1 + popularity · S / (S + pivot) + recency · decay(age))
/// ```
///
/// Every factor is at least 1 and bounded, so the blend keeps block-max pruning: a block's
/// text bound times the largest factor its documents can reach bounds its scores. A match
/// whose text score is more than `(1 + popularity + recency)` times another's always ranks
/// above it (with the defaults, 1.75 times), however popular and new the other is. See
/// <doc:Ranking>.
public struct RankingOptions: Sendable, Hashable {
  /// BM25's term-frequency saturation `k1` (default 1.2; see <doc:Ranking>). Larger values
  /// let repeated words count for longer; values outside 0.01...100 are clamped.
  public var k1: Float
  /// Field weights that replace ``SearchField/defaultWeight`` for the fields given.
  public var fieldWeights: [SearchField: Float]
  /// Whether searches may take the shortcuts for frequent terms (``ThresholdSearch`` over
  /// impact orders, ``LeadSortedSearch``, conjunctions walked over their bitmaps); tests
  /// turn it off to check that every path gives the same hits as the plain block-max scan.
  var usesImpactOrders = true
  /// Whether searches may skip work that ``ExactNameFilter`` proves cannot change a page:
  /// ranking a Top tab card type when no name of it matches exactly, and the re-ranking
  /// window of a one-term query when none does (its match quality is then 1 everywhere);
  /// tests turn it off to check that the pages are the same.
  var usesExactNameFilters = true
  /// The popularity signal and its weight.
  public var popularity: PopularityOptions
  /// The recency signal and its weight.
  public var recency: RecencyOptions
  /// The exactness and proximity factors.
  public var matchQuality: MatchQualityOptions
  /// How many of each type's best hits match quality re-ranks (default 32; 0 turns match
  /// quality off). Hits past the window keep their order; see <doc:Ranking>.
  public var rerankWindow: Int
  /// How the Top tab mixes types.
  public var topTab: TopTabPolicy

  /// Creates ranking options.
  public init(
    k1: Float = 1.2, fieldWeights: [SearchField: Float] = [:],
    popularity: PopularityOptions = PopularityOptions(),
    recency: RecencyOptions = RecencyOptions(),
    matchQuality: MatchQualityOptions = MatchQualityOptions(), rerankWindow: Int = 32
  ) {
    self.rerankWindow = rerankWindow
    topTab = TopTabPolicy()
    self.k1 = k1
    self.fieldWeights = fieldWeights
    self.popularity = popularity
    self.recency = recency
    self.matchQuality = matchQuality
  }

  /// The default ranking with popularity and recency off: text relevance, exactness and
  /// proximity only.
  public static var textOnly: RankingOptions {
    var options = RankingOptions()
    options.popularity.weight = 0
    options.recency.weight = 0
    return options
  }

  /// A weight, 0 when negative or not finite.
  @inline(__always)
  static func sanitized(_ weight: Float) -> Float { weight.isFinite ? max(weight, 0) : 0 }

  /// Whether popularity or recency change any score.
  var usesStaticSignals: Bool {
    RankingOptions.sanitized(popularity.weight) > 0 || RankingOptions.sanitized(recency.weight) > 0
  }

  /// The weights of a type's fields, by slot.
  func weights(for type: SearchResultType) -> SIMD4<Float> {
    var weights = SIMD4<Float>.zero
    for field in SearchField.fields(of: type) {
      let weight = fieldWeights[field] ?? field.defaultWeight
      weights[field.slot] = weight.isFinite ? max(weight, 0) : field.defaultWeight
    }
    return weights
  }

  /// `k1`, kept in a sane range (a negative or huge k1 would break the bounds' monotonicity).
  /// `k1` kept in 0.01...100 (1.2 when not a number): the saturation `x(k1 + 1)/(k1 + x)`
  /// is 0/0 at `k1 = 0` for a document whose weighted fields are all zero.
  var clampedK1: Float { k1.isFinite ? min(max(k1, 0.01), 100) : 1.2 }
}
