/// Query-time ranking settings.
public struct RankingOptions: Sendable, Hashable {
  /// BM25's term-frequency saturation `k1` (default 1.2; see <doc:Ranking>). Larger values
  /// let repeated words count for longer; values outside 0.01...100 are clamped.
  public var k1: Float
  /// Field weights that replace ``SearchField/defaultWeight`` for the fields given.
  public var fieldWeights: [SearchField: Float]
  /// Whether searches may take the shortcuts for frequent terms (``ThresholdSearch`` over
  /// impact orders, ``LeadSortedSearch``); tests turn it off to check that every path gives
  /// the same hits as the plain block-max scan.
  var usesImpactOrders = true

  /// Creates ranking options.
  public init(k1: Float = 1.2, fieldWeights: [SearchField: Float] = [:]) {
    self.k1 = k1
    self.fieldWeights = fieldWeights
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
