import CPrefetch

/// One alternative of a required term, as it occurs in one type.
struct AlternativePlan: Sendable {
  /// The term's posting list in the type.
  var listIndex: Int
  /// The term's idf in the type.
  var idf: Float
  /// A factor on the alternative's score (1 for what was typed).
  var weight: Float
  /// Which of the query term's alternatives this is (an index into
  /// ``ParsedQuery/Term/alternatives``).
  var alternative: Int = 0
}

/// A required term of a query in one type: a document matches it when it contains any of
/// the alternatives.
struct TermPlan: Sendable {
  var alternatives: [AlternativePlan]
  /// The term's index in the ``ParsedQuery``.
  var queryTerm: Int

  /// The postings of every alternative: the rarest term leads an intersection.
  func cost(in postings: TypePostings) -> Int {
    alternatives.reduce(0) { $0 + Int(postings.lists[$1.listIndex].documentFrequency) }
  }
}

/// How many terms a document must match.
enum Matching: Sendable {
  /// Every term (the default: a multi-word query is an AND).
  case all
  /// Any term, ranking documents that match more terms first (the fallback when no
  /// document matches all of them).
  case any
}

/// The hits of one type and how many documents of the type match.
struct TypeHits: Sendable {
  var hits: [Hit]
  var count: Int

  static let empty = TypeHits(hits: [], count: 0)
}

/// Runs one query against one content type: exact match counts and the top hits.
///
/// Counting is exact, so every matching document is visited, but only documents that can
/// enter the top hits are scored: each block's score bound (per-field maxima of the
/// normalized term frequency, see ``BM25F/bound(fieldMaxima:idf:)``) is compared with the
/// current k-th best score, the block-max idea of Ding and Suel ("Faster top-k document
/// retrieval using block-max indexes", SIGIR 2011). Where the count is known without
/// visiting documents (one term: its document frequency; terms with bitmaps: the popcount
/// of their intersection), whole blocks are skipped without decoding.
struct TypeSearcher {
  let partition: TypePartition
  let scorer: BM25F
  let typeIndex: UInt8
  let usesImpactOrders: Bool
  /// Popularity and recency factors; `nil` when they are off.
  let factors: StaticFactors?
  let matchQuality: MatchQualityOptions
  /// What an exact match's name fields measure (``NameLengths``).
  let nameLengths: SIMD4<Int32>
  let tagKey: [UInt8]

  init(
    partition: TypePartition, k1: Float, weights: SIMD4<Float>, usesImpactOrders: Bool = true,
    factors: StaticFactors? = nil, matchQuality: MatchQualityOptions = MatchQualityOptions(),
    nameLengths: SIMD4<Int32> = SIMD4(repeating: -1), tagKey: [UInt8] = []
  ) {
    self.nameLengths = nameLengths
    self.tagKey = tagKey
    self.partition = partition
    self.usesImpactOrders = usesImpactOrders
    self.factors = factors
    self.matchQuality = matchQuality
    scorer = BM25F(partition: partition, k1: k1, weights: weights)
    typeIndex = UInt8(partition.type.index)
  }

  /// Finds the documents matching `terms`.
  ///
  /// - Parameters:
  ///   - terms: The required terms, each with its alternatives in this type. A term with no
  ///     alternative here means nothing matches in ``Matching/all`` mode.
  ///   - phrases: Quoted phrases, by query term index and offset.
  ///   - limit: How many hits to return; 0 counts only.
  ///   - after: Only hits ranking after this key are returned (the next page).
  ///   - rerankWindow: How many of the best first-phase hits match quality re-ranks.
  ///   - mayMatchExactly: `false` when no document can match exactly (``ExactNameFilter``).
  /// - Complexity: O(Σ postings of the terms) for the count in the worst case, far less
  ///   when bitmaps or document frequencies give it.
  func search(
    terms: [TermPlan], phrases: [ParsedQuery.Phrase], matching: Matching, limit: Int,
    after: RankKey?, rerankWindow: Int = 0, mayMatchExactly: Bool = true
  ) -> TypeHits {
    var groups = terms.filter { !$0.alternatives.isEmpty }
    switch matching {
    case .all:
      guard !groups.isEmpty, groups.count == terms.count else { return .empty }
    case .any:
      guard !groups.isEmpty else { return .empty }
    }
    let postings = partition.postings
    // The rarest term leads the intersection.
    groups.sort { $0.cost(in: postings) < $1.cost(in: postings) }
    let blend = ScoreBlend(
      partition: partition, factors: factors, options: matchQuality, termCount: groups.count,
      nameLengths: nameLengths, tagKey: tagKey)
    let window = max(0, min(rerankWindow, DiscoverIndex.maximumSearchLimit))
    guard limit > 0 && window > 0 && blend.usesQuality else {
      return firstPhase(
        groups: groups, phrases: phrases, matching: matching, blend: blend, limit: limit,
        after: after)
    }
    if !mayMatchExactly && blend.proximity == 0 && after == nil {
      // Every match quality is 1: re-ranking the window would keep its scores and order, so
      // page one is the first phase's best hits, marked as the window would mark them.
      var first = firstPhase(
        groups: groups, phrases: phrases, matching: matching, blend: blend, limit: limit,
        after: nil)
      for index in first.hits.indices.prefix(window) { first.hits[index].isReranked = true }
      return first
    }
    func run(limit: Int, after: RankKey?) -> TypeHits {
      firstPhase(
        groups: groups, phrases: phrases, matching: matching, blend: blend, limit: limit,
        after: after)
    }
    guard let after else {
      // Page one: the window, or the page when it is longer, in one search. Hits past
      // the window are only needed to fill a page longer than it, so `max`, not the sum:
      // the k-th score of a smaller k prunes sooner.
      let first = run(limit: max(window, limit), after: nil)
      var hits = rerank(Array(first.hits.prefix(window)), groups: groups, blend: blend)
      hits += first.hits.dropFirst(window).prefix(max(0, limit - hits.count))
      return TypeHits(hits: Array(hits.prefix(limit)), count: first.count)
    }
    let first = run(limit: window, after: nil)
    var hits = rerank(first.hits, groups: groups, blend: blend).filter {
      after.precedes($0, typeIndex: typeIndex)
    }
    if let last = first.hits.last, first.hits.count == window, hits.count < limit {
      // Past the window, first-phase order continues after its last hit (or the cursor,
      // when that is further on).
      let lastKey = RankKey(
        coverage: last.coverage, score: last.score, typeIndex: typeIndex, document: last.document)
      let start = after.precedes(last, typeIndex: typeIndex) ? lastKey : after
      let inWindow = Set(first.hits.map(\.document))
      // Window hits that tie `start` exactly could come back; ask for that many more.
      let ties = first.hits.filter { $0.score == start.score }.count
      let beyond = run(limit: limit - hits.count + ties, after: start)
      hits += beyond.hits.filter { !inWindow.contains($0.document) }
    }
    return TypeHits(hits: Array(hits.prefix(limit)), count: first.count)
  }

  /// Multiplies the window's scores by their match quality and sorts them again.
  private func rerank(_ window: [Hit], groups: [TermPlan], blend: ScoreBlend) -> [Hit] {
    guard !window.isEmpty else { return window }
    var probe = QualityProbe(postings: partition.postings, groups: groups)
    defer { probe.deallocate() }
    // In document order, so the probe's cursors only move forward.
    var hits = window.sorted { $0.document < $1.document }
    for index in hits.indices {
      let quality = probe.quality(of: hits[index].document, blend: blend)
      hits[index].score = ScoreBlend.combine(
        score: hits[index].score, quality: blend.multiplier(quality))
      hits[index].isReranked = true
      hits[index].isExact = quality.isExact
    }
    hits.sort { $0.ranksBefore($1) }
    return hits
  }

  /// Top hits by the first-phase score (text relevance times the static factor), by the
  /// strategies ``RetrievalPlanner`` chooses, tried in order.
  private func firstPhase(
    groups: [TermPlan], phrases: [ParsedQuery.Phrase], matching: Matching, blend: ScoreBlend,
    limit: Int, after: RankKey?
  ) -> TypeHits {
    let postings = partition.postings
    let planner = RetrievalPlanner(
      postings: postings, scorer: scorer, usesImpactOrders: usesImpactOrders)
    let plan = planner.plan(
      groups: groups, phrases: phrases, matching: matching, blend: blend, limit: limit)
    // A score every final hit reaches, from a strategy that gave up.
    var floor = -Float.infinity
    if plan.attempt == .impactThreshold {
      var threshold = ThresholdSearch(
        partition: partition, scorer: scorer, blend: blend, groups: groups)
      if let hits = threshold.run(limit: limit, after: after) { return hits }
      floor = threshold.floorOnGivingUp
    }
    switch plan.finish {
    case .documentFrequency:
      // Counting one list (a facet of a type the tab does not show).
      let list = postings.lists[groups[0].alternatives[0].listIndex]
      return TypeHits(hits: [], count: Int(list.documentFrequency))
    case .leadSorted:
      return LeadSortedSearch(partition: partition, scorer: scorer, blend: blend, groups: groups)
        .run(limit: limit, after: after, floor: floor)
    case .singleTermBlended, .singleTerm, .bitmapConjunction, .conjunction, .disjunction:
      let cursorCount = groups.reduce(0) { $0 + $1.alternatives.count }
      let scratch = UnsafeMutablePointer<UInt32>.allocate(
        capacity: cursorCount * PostingBlock.capacity)
      defer { scratch.deallocate() }
      var evaluation = Evaluation(
        searcher: self, blend: blend, groups: groups, phrases: phrases, scratch: scratch,
        limit: limit, after: after)
      evaluation.floor = floor
      evaluation.run(plan.finish, groups: groups, postings: postings)
      return TypeHits(hits: evaluation.heap.sorted(), count: evaluation.count)
    case .impactThreshold:
      preconditionFailure("a retrieval plan ends with a strategy that finishes: \(plan)")
    }
  }
}
