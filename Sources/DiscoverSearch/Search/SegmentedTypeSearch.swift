/// What the search of one type runs on: a first phase that ranks by text relevance times
/// the static factor, and the re-ranking of a window of its best hits by match quality.
/// ``search(limit:after:rerankWindow:mayMatchExactly:)`` puts them together, once for one
/// segment (``TypeSearcher``) and for several (``SegmentedTypeSearch``).
protocol WindowedSearch {
  var typeIndex: UInt8 { get }
  /// The blend of the search's static factors and match quality settings.
  var blend: ScoreBlend { get }
  /// The best `limit` hits after `after` by the first-phase score, and the exact count.
  func firstPhase(limit: Int, after: RankKey?) -> TypeHits
  /// `window`'s hits with their scores multiplied by their match quality, sorted again.
  func rerank(_ window: [Hit]) -> [Hit]
}

extension WindowedSearch {
  /// The hits of one page: the first phase's best hits, the first `rerankWindow` of them
  /// re-ranked by match quality.
  ///
  /// - Parameters:
  ///   - limit: How many hits to return; 0 counts only.
  ///   - after: Only hits ranking after this key are returned (the next page).
  ///   - rerankWindow: How many of the best first-phase hits match quality re-ranks.
  ///   - mayMatchExactly: `false` when no document can match exactly (``ExactNameFilter``).
  /// - Complexity: O(Σ postings of the terms) for the count in the worst case, far less
  ///   when bitmaps or document frequencies give it.
  func search(limit: Int, after: RankKey?, rerankWindow: Int, mayMatchExactly: Bool) -> TypeHits {
    let window = max(0, min(rerankWindow, DiscoverIndex.maximumSearchLimit))
    guard limit > 0 && window > 0 && blend.usesQuality else {
      return firstPhase(limit: limit, after: after)
    }
    if !mayMatchExactly && blend.proximity == 0 && after == nil {
      // Every match quality is 1: re-ranking the window would keep its scores and order, so
      // page one is the first phase's best hits, marked as the window would mark them.
      var first = firstPhase(limit: limit, after: nil)
      for index in first.hits.indices.prefix(window) { first.hits[index].isReranked = true }
      return first
    }
    guard let after else {
      // Page one: the window, or the page when it is longer, in one search. Hits past
      // the window are only needed to fill a page longer than it, so `max`, not the sum:
      // the k-th score of a smaller k prunes sooner.
      let first = firstPhase(limit: max(window, limit), after: nil)
      var hits = rerank(Array(first.hits.prefix(window)))
      hits += first.hits.dropFirst(window).prefix(max(0, limit - hits.count))
      return TypeHits(hits: Array(hits.prefix(limit)), count: first.count)
    }
    let first = firstPhase(limit: window, after: nil)
    var hits = rerank(first.hits).filter { after.precedes($0, typeIndex: typeIndex) }
    if let last = first.hits.last, first.hits.count == window, hits.count < limit {
      // Past the window, first-phase order continues after its last hit (or the cursor,
      // when that is further on).
      let lastKey = RankKey(
        coverage: last.coverage, score: last.score, typeIndex: typeIndex, document: last.document)
      let start = after.precedes(last, typeIndex: typeIndex) ? lastKey : after
      let inWindow = Set(first.hits.map(\.document))
      // Window hits that tie `start` exactly could come back; ask for that many more.
      let ties = first.hits.filter { $0.score == start.score }.count
      let beyond = firstPhase(limit: limit - hits.count + ties, after: start)
      hits += beyond.hits.filter { !inWindow.contains($0.document) }
    }
    return TypeHits(hits: Array(hits.prefix(limit)), count: first.count)
  }
}

/// One segment's search of one type (``TypeSearcher``), ready to run.
struct SegmentSearch: WindowedSearch {
  let searcher: TypeSearcher
  /// The terms the segment has, rarest first.
  let groups: [TermPlan]
  let blend: ScoreBlend
  let phrases: [ParsedQuery.Phrase]
  let matching: Matching

  var typeIndex: UInt8 { searcher.typeIndex }

  func firstPhase(limit: Int, after: RankKey?) -> TypeHits {
    searcher.firstPhase(
      groups: groups, phrases: phrases, matching: matching, blend: blend, limit: limit,
      after: after)
  }

  func rerank(_ window: [Hit]) -> [Hit] {
    searcher.rerank(window, groups: groups, blend: blend)
  }
}

/// One type searched over every segment of an index as one list of documents: each
/// segment's documents follow the previous segment's (Lucene's composite reader numbering,
/// `docBase + doc`), hits and counts are merged, and match quality re-ranks the best hits of
/// the whole index, not of each segment.
///
/// Segments are searched in order, and the k-th best score found so far is the floor of the
/// next segment's search (``TypeSearcher/firstPhase(groups:phrases:matching:blend:limit:after:floor:)``),
/// so a small segment searched after a large one skips whatever cannot enter the top hits.
struct SegmentedTypeSearch: WindowedSearch {
  /// One searcher per segment, in segment order.
  let searchers: [TypeSearcher]
  /// Segment `s`'s documents are `starts[s]..<starts[s + 1]`.
  let starts: [UInt32]
  let phrases: [ParsedQuery.Phrase]
  let matching: Matching
  /// Each segment's terms and blend, `nil` where nothing can match.
  let prepared: [TypeSearcher.Prepared?]
  /// The blend of the first segment where something can match (the settings are the same
  /// in every segment).
  let blend: ScoreBlend

  /// The search of `terms` (per segment, the required terms with their alternatives
  /// there; a term without one means nothing there matches in ``Matching/all`` mode), or
  /// `nil` when nothing can match in any segment.
  init?(
    searchers: [TypeSearcher], starts: [UInt32], terms: [[TermPlan]],
    phrases: [ParsedQuery.Phrase], matching: Matching
  ) {
    self.searchers = searchers
    self.starts = starts
    self.phrases = phrases
    self.matching = matching
    prepared = Self.prepare(searchers: searchers, terms: terms, matching: matching)
    guard let blend = prepared.lazy.compactMap({ $0?.blend }).first else { return nil }
    self.blend = blend
  }

  var typeIndex: UInt8 { searchers[0].typeIndex }

  /// Each segment's terms and blend, `nil` for segments where nothing can match. The blend
  /// counts the terms found anywhere in the index, as one segment holding everything would.
  private static func prepare(
    searchers: [TypeSearcher], terms: [[TermPlan]], matching: Matching
  ) -> [TypeSearcher.Prepared?] {
    var termCount = 0
    if let first = terms.first {
      termCount = first.indices.count { term in
        terms.contains { !$0[term].alternatives.isEmpty }
      }
    }
    return zip(searchers, terms).map { searcher, terms in
      searcher.prepare(terms: terms, matching: matching, termCount: termCount)
    }
  }

  /// The first phase over every segment, in the set's numbering: each segment's best hits
  /// after `after`, merged, and the sum of the counts.
  func firstPhase(limit: Int, after: RankKey?) -> TypeHits {
    var merged: [Hit] = []
    var count = 0
    for (segment, searcher) in searchers.enumerated() {
      guard let segmentPlan = prepared[segment] else { continue }
      let start = starts[segment]
      // The k-th best so far bounds what can still enter, when every hit matches every
      // term (coverage then never outranks the score).
      let floor =
        matching == .all && limit > 0 && merged.count >= limit
        ? merged[limit - 1].score : -.infinity
      let found = searcher.firstPhase(
        groups: segmentPlan.groups, phrases: phrases, matching: matching,
        blend: segmentPlan.blend, limit: limit,
        after: after?.local(typeIndex: typeIndex, start: start, end: starts[segment + 1]),
        floor: floor)
      count += found.count
      guard !found.hits.isEmpty else { continue }
      merged += found.hits.map { hit in
        var hit = hit
        hit.document += start
        return hit
      }
      merged.sort { $0.ranksBefore($1) }
      if merged.count > limit { merged.removeLast(merged.count - limit) }
    }
    return TypeHits(hits: merged, count: count)
  }

  /// Re-ranks `window` (hits in the set's numbering) by match quality, each hit in its own
  /// segment, and sorts them again.
  func rerank(_ window: [Hit]) -> [Hit] {
    var hits: [Hit] = []
    hits.reserveCapacity(window.count)
    for (segment, searcher) in searchers.enumerated() {
      let range = starts[segment]..<starts[segment + 1]
      let local = window.filter { range.contains($0.document) }.map { hit in
        var hit = hit
        hit.document -= range.lowerBound
        return hit
      }
      guard !local.isEmpty, let segmentPlan = prepared[segment] else { continue }
      hits += searcher.rerank(local, groups: segmentPlan.groups, blend: segmentPlan.blend).map {
        hit in
        var hit = hit
        hit.document += range.lowerBound
        return hit
      }
    }
    hits.sort { $0.ranksBefore($1) }
    return hits
  }
}
