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
  /// The segment's deleted documents of the type: left out of hits and counts.
  let deleted: DeletedDocuments?
  /// The deleted documents of each posting list, once counted.
  let deletedMatchCache: DeletedMatchCache?

  init(
    partition: TypePartition, k1: Float, weights: SIMD4<Float>, usesImpactOrders: Bool = true,
    factors: StaticFactors? = nil, matchQuality: MatchQualityOptions = MatchQualityOptions(),
    nameLengths: SIMD4<Int32> = SIMD4(repeating: -1), tagKey: [UInt8] = [],
    normalization: SegmentNormalization? = nil, deleted: DeletedDocuments? = nil,
    deletedMatchCache: DeletedMatchCache? = nil
  ) {
    self.deleted = deleted.flatMap { $0.count > 0 ? $0 : nil }
    self.deletedMatchCache = deletedMatchCache
    self.nameLengths = nameLengths
    self.tagKey = tagKey
    self.partition = partition
    self.usesImpactOrders = usesImpactOrders
    self.factors = factors
    self.matchQuality = matchQuality
    scorer = BM25F(
      partition: partition, k1: k1, weights: weights, normalization: normalization)
    typeIndex = UInt8(partition.type.index)
  }

  /// Finds the documents matching `terms` in this one segment.
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
    let termCount = terms.count { !$0.alternatives.isEmpty }
    guard let prepared = prepare(terms: terms, matching: matching, termCount: termCount) else {
      return .empty
    }
    return SegmentSearch(
      searcher: self, groups: prepared.groups, blend: prepared.blend, phrases: phrases,
      matching: matching
    ).search(
      limit: limit, after: after, rerankWindow: rerankWindow, mayMatchExactly: mayMatchExactly)
  }

  /// What a search of this segment runs with: the terms it has, rarest first, and the
  /// blend of its static factors and match quality; `nil` when nothing here can match.
  func prepare(terms: [TermPlan], matching: Matching, termCount: Int) -> Prepared? {
    var groups = terms.filter { !$0.alternatives.isEmpty }
    switch matching {
    case .all:
      guard !groups.isEmpty, groups.count == terms.count else { return nil }
    case .any:
      guard !groups.isEmpty else { return nil }
    }
    let postings = partition.postings
    // The rarest term leads the intersection.
    groups.sort { $0.cost(in: postings) < $1.cost(in: postings) }
    let blend = ScoreBlend(
      partition: partition, factors: factors, options: matchQuality, termCount: termCount,
      nameLengths: nameLengths, tagKey: tagKey)
    return Prepared(groups: groups, blend: blend)
  }

  /// A segment's terms and blend for one search (``prepare(terms:matching:termCount:)``).
  struct Prepared {
    var groups: [TermPlan]
    var blend: ScoreBlend
  }

  /// Multiplies the window's scores by their match quality and sorts them again.
  func rerank(_ window: [Hit], groups: [TermPlan], blend: ScoreBlend) -> [Hit] {
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
  ///
  /// - Parameter floor: A score every hit that can still matter reaches (the k-th best of
  ///   the segments searched before, in ``Matching/all`` mode); hits below it may be left
  ///   out, the count never is.
  func firstPhase(
    groups: [TermPlan], phrases: [ParsedQuery.Phrase], matching: Matching, blend: ScoreBlend,
    limit: Int, after: RankKey?, floor: Float = -.infinity
  ) -> TypeHits {
    var found = firstPhaseOfEveryDocument(
      groups: groups, phrases: phrases, matching: matching, blend: blend, limit: limit,
      after: after, floor: floor)
    if let deleted {
      // The strategies leave deleted documents out of the hits, not out of the count.
      found.count -= deletedMatches(
        deleted, groups: groups, phrases: phrases, matching: matching, blend: blend)
    }
    return found
  }

  /// ``firstPhase(groups:phrases:matching:blend:limit:after:floor:)`` with deleted
  /// documents counted (and never in the hits).
  private func firstPhaseOfEveryDocument(
    groups: [TermPlan], phrases: [ParsedQuery.Phrase], matching: Matching, blend: ScoreBlend,
    limit: Int, after: RankKey?, floor initialFloor: Float
  ) -> TypeHits {
    let postings = partition.postings
    let planner = RetrievalPlanner(
      postings: postings, scorer: scorer, usesImpactOrders: usesImpactOrders)
    let plan = planner.plan(
      groups: groups, phrases: phrases, matching: matching, blend: blend, limit: limit)
    // A score every final hit reaches, from earlier segments or a strategy that gave up.
    var floor = initialFloor
    if plan.attempt == .impactThreshold {
      var threshold = ThresholdSearch(
        partition: partition, scorer: scorer, blend: blend, groups: groups)
      threshold.deleted = deleted
      threshold.floor = initialFloor
      if let hits = threshold.run(limit: limit, after: after) { return hits }
      floor = max(floor, threshold.floorOnGivingUp)
    }
    switch plan.finish {
    case .documentFrequency:
      // Counting one list (a facet of a type the tab does not show).
      let list = postings.lists[groups[0].alternatives[0].listIndex]
      return TypeHits(hits: [], count: Int(list.documentFrequency))
    case .leadSorted:
      var search = LeadSortedSearch(
        partition: partition, scorer: scorer, blend: blend, groups: groups)
      search.deleted = deleted
      return search.run(limit: limit, after: after, floor: floor)
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
