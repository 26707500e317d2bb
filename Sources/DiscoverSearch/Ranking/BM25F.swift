/// BM25F text relevance over the fields of one content type.
///
/// For a term t and document d with fields f:
///
/// ```
/// x(t, d)  = Σ_f  w_f · tf(t, f, d) / (1 − b_f + b_f · len(f, d) / avglen(f))
/// score    = idf(t) · x · (k1 + 1) / (k1 + x)
/// idf(t)   = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
/// ```
///
/// where `tf` is the term frequency, `len` the field length in tokens, `N` the number of
/// documents of the type and `n(t)` how many contain the term. The fields' frequencies are
/// normalized and weighted *before* the saturation, so a word in the title and the
/// description does not count twice (Robertson, Zaragoza and Taylor, "Simple BM25
/// extension to multiple weighted fields", CIKM 2004). The idf is Lucene's non-negative
/// variant of the Robertson–Spärck Jones weight (Robertson et al., "Okapi at TREC-3", 1994).
///
/// - `k1` (default 1.2) sets how fast repeated occurrences saturate.
/// - `b` (default 0.75, fixed at build time by ``IndexConfiguration``) sets how much long
///   fields are discounted.
/// - `w_f` are the field weights (``SearchField/defaultWeight``).
struct BM25F {
  /// The term-frequency saturation parameter.
  let k1: Float
  let fieldCount: Int
  /// Field weights, by slot.
  let weights: SIMD4<Float>
  /// `1 / (1 − b + b · len / avglen)` per field and length code, 256 per field.
  let inverseNormalization: UnsafePointer<Float>
  /// Length codes per document and field.
  let norms: UnsafePointer<UInt8>
  /// ``BoundCode/table``, held here so bounds read it without a lazy-global check.
  let boundValues: UnsafePointer<Float>
  /// The field weights bounds use: ``weights`` scaled by how much larger a normalized
  /// frequency can be under the index-wide average lengths than under the segment's own,
  /// which the stored bounds were computed with (``SegmentStatistics``).
  let boundWeights: SIMD4<Float>
  /// Whether scores use the normalization the segment's impacts were computed with, so that
  /// its stored impact values are exact scores' inputs.
  let normalizationIsStored: Bool

  /// The scorer of one segment's partition, normalizing field lengths by `normalization`
  /// (the index-wide averages of a segmented index), or by the partition's own averages.
  init(
    partition: TypePartition, k1: Float, weights: SIMD4<Float>,
    normalization: SegmentNormalization? = nil
  ) {
    self.k1 = k1
    fieldCount = partition.fieldCount
    self.weights = weights
    norms = partition.norms.base
    boundValues = BoundCode.table
    if let normalization {
      inverseNormalization = normalization.inverseNormalization.base
      boundWeights = weights * normalization.boundScale
      normalizationIsStored = false
    } else {
      inverseNormalization = partition.inverseNormalization.base
      boundWeights = weights
      normalizationIsStored = true
    }
  }

  /// Whether the stored impact values of `postings` are this scorer's normalized
  /// frequencies: same field weights, same normalization.
  func readsImpacts(of postings: TypePostings) -> Bool {
    normalizationIsStored && weights == postings.impactWeights
  }

  /// The inverse document frequency of a term in `documentFrequency` of `documentCount`
  /// documents.
  @inline(__always)
  static func idf(documentFrequency: Int, documentCount: Int) -> Float {
    let n = Double(documentFrequency)
    let total = Double(documentCount)
    return Float(log(1 + (total - n + 0.5) / (n + 0.5)))
  }

  /// The saturation `x · (k1 + 1) / (k1 + x)`, increasing in `x` and below `k1 + 1`.
  @inline(__always)
  func saturate(_ x: Float) -> Float {
    x * (k1 + 1) / (k1 + x)
  }

  /// The weighted, normalized frequency `x` of a term in a document, from its frequency in
  /// each field and the document's length codes.
  ///
  /// The one place `x` is computed: block bounds, impact orders and scores all call it, so
  /// equal inputs give bit-for-bit equal results wherever they are compared.
  @inline(__always)
  static func weightedFrequency(
    frequencies: SIMD4<UInt32>, normCodes: UnsafePointer<UInt8>, fieldCount: Int,
    weights: SIMD4<Float>, inverseNormalization: UnsafePointer<Float>
  ) -> Float {
    var x: Float = 0
    for field in 0..<fieldCount where frequencies[field] != 0 {
      x += fieldPart(
        frequency: frequencies[field], field: field, normCode: normCodes[field], weights: weights,
        inverseNormalization: inverseNormalization)
    }
    return x
  }

  /// One field's part of `x`; ``weightedFrequency(frequencies:normCodes:fieldCount:weights:inverseNormalization:)``
  /// adds the parts of the fields the term occurs in, in field order. Callers that read
  /// frequencies one field at a time add the parts as they go, rather than gathering them
  /// into a vector first: setting a vector's lane by a run-time index goes through memory,
  /// and reading the vector back right after stalls on the store.
  @inline(__always)
  static func fieldPart(
    frequency: UInt32, field: Int, normCode: UInt8, weights: SIMD4<Float>,
    inverseNormalization: UnsafePointer<Float>
  ) -> Float {
    weights[field] * Float(frequency) * inverseNormalization[field << 8 | Int(normCode)]
  }

  /// The weighted, normalized frequency `x` of the cursor's term in its current document.
  @inline(__always)
  func weightedFrequency(_ cursor: PostingCursor) -> Float {
    let normCodes = norms + Int(cursor.document) * fieldCount
    var x: Float = 0
    for field in 0..<fieldCount {
      let frequency = cursor.frequency(inField: field)
      if frequency != 0 {
        x += BM25F.fieldPart(
          frequency: frequency, field: field, normCode: normCodes[field], weights: weights,
          inverseNormalization: inverseNormalization)
      }
    }
    return x
  }

  /// The score of the cursor's term in its current document.
  @inline(__always)
  func score(_ cursor: PostingCursor, idf: Float) -> Float {
    idf * saturate(weightedFrequency(cursor))
  }

  /// An upper bound of the score of any document whose per-field normalized frequencies are
  /// at most `fieldMaxima` (a block's or a list's bound; see ``PostingsEncoder``).
  @inline(__always)
  func bound(fieldMaxima: UnsafePointer<UInt8>, idf: Float) -> Float {
    var x: Float = 0
    for field in 0..<fieldCount where boundWeights[field] > 0 {
      x += boundWeights[field] * boundValues[Int(fieldMaxima[field])]
    }
    // An unbounded field (code 255) bounds the saturation at its limit, k1 + 1; computing
    // ∞ / ∞ would give NaN, and NaN compares false against every threshold.
    guard x.isFinite else { return idf * (k1 + 1) }
    return idf * saturate(x)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
