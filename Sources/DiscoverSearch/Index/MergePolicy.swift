import Foundation

/// When a writer merges an index's segments, and which ones: a tiered policy after Lucene's
/// `TieredMergePolicy` (Michael McCandless, "Visualizing Lucene's segment merges", 2011).
///
/// Each publish of new documents adds a small segment. Segments are sorted by size; a
/// segment smaller than ``floorDocuments`` counts as that size. The index may hold
/// ``segmentsPerTier`` segments of each size tier, tiers growing by ``maximumMergeAtOnce``
/// from the floor up: with more segments than that budget, the policy merges the window of
/// up to ``maximumMergeAtOnce`` neighbours (by size) whose merge is least skewed (the largest
/// segment's share of the merge), so that merges combine segments of similar size and each
/// document is merged about log(n) times. No merge produces more than
/// ``maximumMergedDocuments`` documents; larger segments only change at a full build.
///
/// Merges run on a task of their own, so neither searches nor the writer wait for them;
/// their result replaces their segments when it is done. When merges fall behind and the
/// index holds more than ``maximumSegments``, a publish merges before it returns
/// (back-pressure). A merge orders its documents by their current popularity, as a full
/// build does, which keeps block-max pruning tight.
///
/// A delete or an update marks the published document deleted in its segment. A segment
/// whose deleted share passes ``deletedDocumentsAllowance`` is merged on its own when no
/// tier needs a merge (Lucene's `deletesPctAllowed`), which leaves its deleted documents
/// behind; so do the merges of tiers. A merge on a task of its own writes its segment into
/// the index's directory, for the next commit to name.
public struct MergePolicy: Sendable, Hashable {
  /// Segments smaller than this count as this many documents when tiers are formed, so
  /// that tiny segments merge eagerly (Lucene's `floorSegmentMB`).
  public var floorDocuments: Int
  /// How many segments of one tier the index may hold (Lucene's `segmentsPerTier`).
  public var segmentsPerTier: Int
  /// The most segments one merge takes (Lucene's `maxMergeAtOnce`).
  public var maximumMergeAtOnce: Int
  /// The most documents a merge produces (Lucene's `maxMergedSegmentMB`).
  public var maximumMergedDocuments: Int
  /// The most segments an index holds: past it, a publish waits for a merge.
  public var maximumSegments: Int
  /// Whether merges run on a task of their own (the default) or within the publish that
  /// selects them.
  public var mergesInBackground: Bool
  /// The share of a segment's documents that may be deleted before the segment is merged
  /// on its own, in 0...1.
  public var deletedDocumentsAllowance: Double

  public init(
    floorDocuments: Int = 20_000, segmentsPerTier: Int = 3, maximumMergeAtOnce: Int = 10,
    maximumMergedDocuments: Int = 5_000_000, maximumSegments: Int = 50,
    mergesInBackground: Bool = true, deletedDocumentsAllowance: Double = 0.2
  ) {
    self.deletedDocumentsAllowance = deletedDocumentsAllowance
    self.floorDocuments = floorDocuments
    self.segmentsPerTier = segmentsPerTier
    self.maximumMergeAtOnce = maximumMergeAtOnce
    self.maximumMergedDocuments = maximumMergedDocuments
    self.maximumSegments = maximumSegments
    self.mergesInBackground = mergesInBackground
  }

  /// The segments to merge next, as indexes into `sizes` (each segment's live documents),
  /// or `nil` when the index is within its budget: a merge of a tier, or else the segment
  /// with the largest share of deleted documents (`deleted`, per segment) past
  /// ``deletedDocumentsAllowance``.
  ///
  /// - Complexity: O(s log s) for s segments.
  public func merge(sizes: [Int], deleted: [Int]) -> [Int]? {
    if let merge = merge(sizes: sizes) { return merge }
    let allowance = deletedDocumentsAllowance.isNaN ? 1 : min(max(deletedDocumentsAllowance, 0), 1)
    var worst: (share: Double, index: Int)?
    for (index, count) in deleted.enumerated() where index < sizes.count && count > 0 {
      let share = Double(count) / (Double(max(sizes[index], 0)) + Double(count))
      if share > allowance && share > (worst?.share ?? 0) { worst = (share, index) }
    }
    return worst.map { [$0.index] }
  }

  /// The segments to merge next by tiers alone, as indexes into `sizes` (each segment's
  /// documents), or `nil` when the index is within its budget.
  ///
  /// - Complexity: O(s log s) for s segments.
  public func merge(sizes: [Int]) -> [Int]? {
    // Sizes and limits from outside are clamped to 0...2^48 documents, so no sum below can
    // overflow.
    let cap = 1 << 48
    let sizes = sizes.map { min(max($0, 0), cap) }
    let maximumMergedDocuments = min(max(self.maximumMergedDocuments, 0), cap)
    let floor = min(max(floorDocuments, 1), cap)
    let perTier = max(segmentsPerTier, 2)
    let atOnce = max(maximumMergeAtOnce, 2)
    // Largest first; segments too large to merge stay out of it and out of the budget.
    let eligible = sizes.indices.filter { sizes[$0] < maximumMergedDocuments / 2 }
      .sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
    guard eligible.count >= 2 else { return nil }
    if eligible.count
      <= allowedSegmentCount(
        sizes: eligible.map { max(sizes[$0], floor) }, floor: floor, perTier: perTier,
        atOnce: atOnce)
    {
      return nil
    }
    var best: (score: Double, window: [Int])?
    for start in eligible.indices {
      var window: [Int] = []
      var total = 0
      for index in eligible[start...].prefix(atOnce) {
        guard total + sizes[index] <= maximumMergedDocuments else { break }
        window.append(index)
        total += sizes[index]
      }
      guard window.count >= 2 else { continue }
      // Skew: the largest segment's share, floored as tiers are; a slight preference for
      // smaller merges (Lucene's `mergeScore`).
      let largest = Double(max(sizes[window[0]], floor))
      let floored = window.reduce(0.0) { $0 + Double(max(sizes[$1], floor)) }
      let score = largest / floored * pow(Double(max(total, 1)), 0.05)
      if best.map({ score < $0.score }) ?? true { best = (score, window) }
    }
    return best?.window.sorted()
  }

  /// How many segments of `sizes` (floored, largest first) the tiers allow: ``segmentsPerTier``
  /// of each tier, tiers `floor · atOnce^k` documents large.
  private func allowedSegmentCount(sizes: [Int], floor: Int, perTier: Int, atOnce: Int) -> Int {
    var remaining = sizes.reduce(0.0) { $0 + Double($1) }
    var tierSize = Double(max(sizes.min() ?? floor, floor))
    var allowed = 0.0
    while true {
      let count = remaining / tierSize
      if count < Double(perTier) {
        allowed += count.rounded(.up)
        break
      }
      allowed += Double(perTier)
      remaining -= Double(perTier) * tierSize
      tierSize *= Double(atOnce)
    }
    return max(Int(allowed), perTier)
  }
}
