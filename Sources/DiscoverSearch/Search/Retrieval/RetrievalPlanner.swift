/// A way of finding one type's match count and first-phase top hits. Each has a file of its
/// own in this folder; ``RetrievalPlanner`` chooses.
enum RetrievalStrategy: Sendable, Hashable {
  /// One term, counted but not ranked: the count is its document frequency.
  case documentFrequency
  /// Impact-ordered lists read best first, others probed by bitmap, until no unseen
  /// document can enter the top hits (``ThresholdSearch``, after Fagin, Lotem and Naor's
  /// threshold algorithm). Gives up when the lists run out first, passing on the k-th score
  /// it reached as a floor.
  case impactThreshold
  /// The rarest term's postings probed in the others' bitmaps, matches visited by their
  /// bound (``LeadSortedSearch``).
  case leadSorted
  /// One term under the blend: its impact head, then its list in popularity order
  /// (``Evaluation/runSingleTermBlended(head:postings:)``).
  case singleTermBlended
  /// One term: block-max pruning over its list (``Evaluation/runSingleTerm()``).
  case singleTerm
  /// Every term with bitmaps: their intersection walked 64 documents at a time
  /// (``Evaluation/runBitmapConjunction(wordCount:)``).
  case bitmapConjunction
  /// Every term, document at a time: the rarest leads, the others are skipped to it or
  /// probed by bitmap, with block-max pruning (``Evaluation/runConjunction(postings:)``).
  case conjunction
  /// Any term, documents matching more terms first (``Evaluation/runDisjunction()``).
  case disjunction
}

/// What a type's first phase runs: a strategy that may give up, if any, then one that
/// always finishes. (Two values rather than an array: a plan is made per type and query, and
/// needs no allocation.)
struct RetrievalPlan: Sendable, Hashable {
  /// ``RetrievalStrategy/impactThreshold`` when it applies.
  var attempt: RetrievalStrategy?
  var finish: RetrievalStrategy

  /// The strategies in the order they are tried.
  var strategies: [RetrievalStrategy] { (attempt.map { [$0] } ?? []) + [finish] }
}

/// Chooses how a type's first phase runs: the one place that weighs a query's shape (terms,
/// alternatives, phrases, matching) against what the postings hold (impact orders, bitmaps)
/// and what the ranking asks for (blend, field weights).
///
/// Every strategy but ``RetrievalStrategy/impactThreshold`` ends the search, so a plan is
/// that one or nothing, then one that always finishes (``RetrievalPlan``).
struct RetrievalPlanner {
  let postings: TypePostings
  let scorer: BM25F
  /// Whether impact orders, and the bitmap walks that pair with them, may be used
  /// (``RankingOptions/usesImpactOrders``).
  let usesImpactOrders: Bool

  /// The strategies to try for `groups` (sorted rarest first, none without alternatives),
  /// in order.
  ///
  /// - Parameters:
  ///   - blend: The score blend; one term is searched differently with static factors.
  ///   - limit: The hits wanted; 0 counts only.
  func plan(
    groups: [TermPlan], phrases: [ParsedQuery.Phrase], matching: Matching, blend: ScoreBlend,
    limit: Int
  ) -> RetrievalPlan {
    let isSingleTerm = groups.count == 1 && groups[0].alternatives.count == 1 && phrases.isEmpty
    if limit == 0 && isSingleTerm { return RetrievalPlan(finish: .documentFrequency) }
    // One term under the blend, without a bitmap: its impact head, then a scan in
    // popularity order, where a threshold search could not stop within a short head.
    // Frequent terms (with a bitmap) keep long impact lists, where the threshold search
    // does better: it stops within them (`the`: 825 µs against 3.4 ms at 1,000,000).
    let blendsOneTerm =
      isSingleTerm && matching == .all && blend.factors != nil && usesImpactOrders
      && scorer.readsImpacts(of: postings)
      && postings.bitmapIndex(ofList: groups[0].alternatives[0].listIndex) == nil
      && !(postings.impactRange(ofList: groups[0].alternatives[0].listIndex)?.isEmpty ?? true)
    var attempt: RetrievalStrategy?
    if matching == .all && phrases.isEmpty && usesImpactOrders && !blendsOneTerm {
      if thresholdApplies(to: groups) { attempt = .impactThreshold }
      if leadSortedApplies(to: groups) {
        return RetrievalPlan(attempt: attempt, finish: .leadSorted)
      }
    }
    let finish: RetrievalStrategy =
      switch matching {
      case .any: .disjunction
      case .all where blendsOneTerm: .singleTermBlended
      case .all where isSingleTerm: .singleTerm
      case .all where usesImpactOrders && phrases.isEmpty && groups.allSatisfy(hasBitmaps):
        .bitmapConjunction
      case .all: .conjunction
      }
    return RetrievalPlan(attempt: attempt, finish: finish)
  }

  /// Whether ``ThresholdSearch`` can run: the ranking's field weights are those the impacts
  /// were computed with, every alternative has an impact order, and (unless the query is
  /// one term with one alternative) a bitmap for random access.
  func thresholdApplies(to groups: [TermPlan]) -> Bool {
    guard scorer.readsImpacts(of: postings), !groups.isEmpty else { return false }
    let isSingle = groups.count == 1 && groups[0].alternatives.count == 1
    return groups.allSatisfy { group in
      !group.alternatives.isEmpty
        && group.alternatives.allSatisfy { alternative in
          !(postings.impactRange(ofList: alternative.listIndex)?.isEmpty ?? true)
            && (isSingle || postings.bitmapIndex(ofList: alternative.listIndex) != nil)
        }
    }
  }

  /// Whether ``LeadSortedSearch`` can run: two terms or more, one alternative each, and a
  /// bitmap for every term after the rarest.
  func leadSortedApplies(to groups: [TermPlan]) -> Bool {
    groups.count >= 2 && groups.allSatisfy { $0.alternatives.count == 1 }
      && groups.dropFirst().allSatisfy(hasBitmaps)
  }

  /// Whether every alternative of `group` has a bitmap.
  func hasBitmaps(_ group: TermPlan) -> Bool {
    group.alternatives.allSatisfy { postings.bitmapIndex(ofList: $0.listIndex) != nil }
  }
}
