/// Query-time ranking settings.
public struct RankingOptions: Sendable, Hashable {
  /// BM25's term-frequency saturation `k1` (default 1.2; see ``BM25F``). Larger values let
  /// repeated words count for longer.
  public var k1: Float
  /// Field weights that replace ``SearchField/defaultWeight`` for the fields given.
  public var fieldWeights: [SearchField: Float]
  /// Whether frequent terms may be ranked from their impact orders (``ThresholdSearch``);
  /// tests turn it off to check that both paths give the same hits.
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
      weights[field.slot] = max(fieldWeights[field] ?? field.defaultWeight, 0)
    }
    return weights
  }

  /// `k1`, kept in a sane range (a negative or huge k1 would break the bounds' monotonicity).
  var clampedK1: Float { min(max(k1, 0), 100) }
}
