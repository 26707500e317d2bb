import Foundation

extension DiscoverIndex {
  /// The largest page a search returns: the most results one request may ask for.
  ///
  /// To see more results, page on with ``SearchResponse/nextCursor``.
  public static let maximumSearchLimit = 1000

  /// Searches the index.
  ///
  /// The query is sanitized (``QuerySanitizer``) and analyzed like documents. Every word is
  /// required; `#tag` matches hashtags and videos tagged with it, `@name` matches users and
  /// their videos, `"quoted words"` must appear as a phrase. When no document matches every
  /// word, words that match nothing at all are dropped, and failing that, documents
  /// matching the most words come first (``SearchResponse/matchedAllTerms`` is then
  /// `false`). A query with nothing searchable left gives an empty response.
  ///
  /// - Parameters:
  ///   - query: The text typed in the search bar.
  ///   - tab: Which result types to return; facet counts cover every type regardless.
  ///   - limit: How many results per page, 1 to ``DiscoverIndex/maximumSearchLimit``.
  ///   - cursor: The previous page's ``SearchResponse/nextCursor``, or `nil` for page one.
  ///   - ranking: Ranking settings: the blend of text, popularity and recency, match
  ///     quality, and the Top tab's policy (``TopTabPolicy``).
  ///   - matching: Prefix matching of the last word (search as you type) and typo
  ///     correction (on by default, when the words as typed find few hits).
  ///   - explain: Whether each result carries its ``SearchResult/explanation``.
  /// - Returns: One page of results with facet counts.
  /// - Throws: ``SearchError/Code/invalidQuery`` when `cursor` is malformed or belongs to
  ///   another query or tab; ``SearchError/Code/invalidArgument`` when `limit` is outside
  ///   1...``DiscoverIndex/maximumSearchLimit``.
  /// - Complexity: O(p) in the postings of the query's terms in the worst case; frequent
  ///   terms are counted by bitmap and ranked with block-max pruning.
  public func search(
    _ query: String, in tab: SearchTab = .top, limit: Int = 10, after cursor: SearchCursor? = nil,
    ranking: RankingOptions = RankingOptions(), matching: MatchingOptions = MatchingOptions(),
    explain: Bool = false
  ) throws -> SearchResponse {
    try search(
      SearchRequest(
        query, in: tab, limit: limit, after: cursor, matching: matching, ranking: ranking,
        explain: explain))
  }

  /// Runs a search request: ``search(_:in:limit:after:ranking:matching:explain:)`` with its
  /// parameters in one value, and a work budget (``SearchBudget``).
  ///
  /// A search checks for cancellation between its steps (each result type, each fallback)
  /// and throws `CancellationError` when the task running it is cancelled.
  ///
  /// - Throws: As ``search(_:in:limit:after:ranking:matching:explain:)``, and
  ///   `CancellationError` when cancelled.
  public func search(_ request: SearchRequest) throws -> SearchResponse {
    try searchReportingGeneration(request).response
  }

  /// ``search(_:)`` and the ``generation`` of the segments it searched, which a cache keys
  /// its answer by.
  package func searchReportingGeneration(
    _ request: SearchRequest
  ) throws -> (response: SearchResponse, generation: UInt64) {
    guard request.limit > 0 && request.limit <= Self.maximumSearchLimit else {
      throw SearchError(
        .invalidArgument,
        "search limit must be 1...\(Self.maximumSearchLimit), got \(request.limit)")
    }
    let (segments, generation) = published
    let response = try workspaces.withWorkspace { workspace in
      try segments.search(
        request.text, in: request.tab, limit: request.limit, after: request.cursor,
        ranking: request.ranking, matching: request.matching, explain: request.explain,
        budget: request.budget, workspace: workspace)
    }
    return (response, generation)
  }
}

extension SegmentSet {
  func search(
    _ query: String, in tab: SearchTab, limit: Int, after cursor: SearchCursor?,
    ranking: RankingOptions, matching: MatchingOptions = MatchingOptions(), explain: Bool = false,
    budget: SearchBudget = .unlimited, workspace: SearchWorkspace
  ) throws -> SearchResponse {
    let sanitized = QuerySanitizer.sanitize(query)
    var parsed = QueryParser.parse(sanitized, using: workspace)
    var prefixTerm =
      matching.matchesPrefixOfLastWord ? QueryExpansion.prefixTerm(of: parsed, typed: query) : nil
    let queryHash = SearchCursor.hash(query: sanitized, tab: tab, isPrefix: prefixTerm != nil)
    let position = try cursor.map {
      try $0.contents(query: sanitized, tab: tab, isPrefix: prefixTerm != nil)
    }
    guard !parsed.isEmpty else { return .empty(query: sanitized, tab: tab) }

    let didSplit =
      matching.breaksWords
      && splitUnknownWords(
        in: &parsed, prefixTerm: &prefixTerm, tolerance: matching.typoTolerance)
    var expansion = QueryExpansion(parsed: parsed)
    if let prefixTerm, matching.clampedPrefixExpansions > 0 {
      expansion.expandPrefix(
        of: prefixTerm, in: &parsed, lexicon: lexicon(), options: matching)
    }
    expansion.addWordForms(
      to: &parsed, options: matching, prefixTerm: prefixTerm,
      maximumDocuments: WordForms.maximumDocumentsAsTyped,
      documentFrequency: { self.documentFrequency(of: $0) })
    // Per segment, the term ids of every alternative; nil where its dictionary does not
    // have it.
    var termIDs = self.termIDs(of: parsed, expansion: expansion)
    // Whether each word is found as typed (or completed), before typo corrections: when
    // nothing matches, words found only through a correction are dropped before ranking by
    // words matched.
    let isKnown = parsed.terms.indices.map { Self.isFound($0, in: termIDs) }
    let everyTerm = Array(parsed.terms.indices)
    let now = Date()
    // Every page of a query measures ages from the same origin: page one's.
    var ranking = ranking
    let originSeconds =
      position.map(\.originSeconds) ?? ranking.recency.originSeconds(now: now)
    ranking.recency.origin = Date(timeIntervalSince1970: TimeInterval(originSeconds))

    let page = PageRequest(tab: tab, limit: limit, position: position, policy: ranking.topTab)
    let nameLengths =
      ranking.rerankWindow > 0 && RankingOptions.sanitized(ranking.matchQuality.exactness) > 0
      ? NameLengths(query: sanitized, workspace: workspace) : .none
    let plan = RunPlan(selected: everyTerm, phrases: parsed.phrases, matching: .all)
    let pass = Pass(page: page, ranking: ranking, now: now, nameLengths: nameLengths)
    var meter = BudgetMeter(budget)
    var attempt = Attempt(
      parsed: parsed, expansion: expansion, termIDs: termIDs,
      outcome: try run(
        meter: &meter, termIDs: termIDs, weights: expansion.weights, plan: plan, pass: pass))
    var oneTypoCandidate: String?
    let typos = matching.typoTolerance
    let exactCount = attempt.outcome.totalCount
    if typos.isEnabled && parsed.phrases.isEmpty && exactCount >= typos.minimumResults
      && exactCount < typos.didYouMeanThreshold
    {
      // A few hits as typed: a corrected query is offered beside them, from one short walk
      // per word; corrections do not join the results.
      oneTypoCandidate = QueryExpansion.oneTypoDidYouMean(
        parsed: parsed, lexicon: lexicon(), tolerance: typos,
        prefixTerm: prefixTerm, rarerThan: typos.didYouMeanThreshold)
    } else if parsed.phrases.isEmpty && exactCount < typos.minimumResults {
      try widen(
        &attempt, matching: matching, prefixTerm: prefixTerm, plan: plan, pass: pass,
        meter: &meter)
    }
    if attempt.outcome.totalCount == 0 && prefixTerm == nil {
      try tryLastWordAsPrefix(
        &attempt, typed: query, matching: matching, plan: plan, pass: pass, meter: &meter)
    }
    var finalPlan = plan
    let matchedAllTerms = try fallBackToSomeWords(
      &attempt, asTyped: isKnown, plan: &finalPlan, pass: pass, meter: &meter)
    (parsed, expansion, termIDs) = (attempt.parsed, attempt.expansion, attempt.termIDs)
    let outcome = attempt.outcome

    let ranked: [Ranked]
    if tab == .top {
      ranked = topPage(outcome: outcome, page: page)
    } else {
      ranked = outcome.hits[tab.resultTypes[0].index].prefix(limit).map {
        Ranked(hit: $0, type: tab.resultTypes[0], section: 0, sortScore: $0.score)
      }
    }

    workspace.touched = touchResultFields(ranked.map { ($0.type, $0.hit.document) })
    let highlighter = Highlighter(query: parsed, workspace: workspace)
    let context = ExplainContext(
      parsed: parsed, termIDs: termIDs, weights: expansion.weights, typos: expansion.typos,
      origins: expansion.origins, selected: finalPlan.selected, ranking: ranking, now: now,
      nameLengths: nameLengths)
    let results = try ranked.map { entry in
      let (index, document) = self.position(of: entry.hit.document, of: entry.type)
      var hit = entry.hit
      hit.document = document
      var result = segments[index].makeResult(
        type: entry.type, hit: hit, highlighter: highlighter,
        elsewhere: segments.count > 1 ? ReferenceResolver(segments: self) : nil,
        deletions: deletions[index])
      if explain {
        result.explanation = try self.explain(entry.hit, type: entry.type, context: context)
      }
      return result
    }
    let totalHits = outcome.facets.total(for: tab)
    let offset = (position?.offset ?? 0) + results.count
    var nextCursor: SearchCursor?
    if let last = ranked.last, results.count == limit, offset < totalHits,
      offset < SearchCursor.maximumDepth
    {
      nextCursor = SearchCursor(
        SearchCursor.Contents(
          queryHash: queryHash,
          key: RankKey(
            coverage: last.hit.coverage, score: last.sortScore,
            typeIndex: UInt8(last.type.index), document: last.hit.document),
          offset: offset, originSeconds: originSeconds, section: last.section))
    }
    var didYouMean: String?
    if matchedAllTerms, let first = ranked.first,
      didSplit || expansion.origins.contains(where: { $0.contains(.correction) })
    {
      didYouMean = try queryAsMatched(first.hit, type: first.type, context: context)
    } else if let oneTypoCandidate {
      didYouMean =
        try findsEveryWord(
          oneTypoCandidate, in: tab, ranking: ranking, budget: budget, workspace: workspace)
        ? oneTypoCandidate : nil
    }
    return SearchResponse(
      query: sanitized, tab: tab, results: results, facets: outcome.facets,
      totalHits: totalHits, nextCursor: nextCursor, matchedAllTerms: matchedAllTerms,
      didYouMean: didYouMean, isPartial: meter.isExhausted)
  }

  /// A search's query as it stands, and what it found.
  private struct Attempt {
    var parsed: ParsedQuery
    var expansion: QueryExpansion
    var termIDs: [[[TermID?]]]
    var outcome: Outcome
  }

  /// What every run of one search shares.
  private struct Pass {
    let page: PageRequest
    let ranking: RankingOptions
    let now: Date
    let nameLengths: NameLengths
  }

  /// When the words as typed (with their other forms) find fewer than
  /// ``TypoTolerance/minimumResults``: the partial last word's rarer completions and the
  /// closest words of the index join the search (Typesense's
  /// `typo_tokens_threshold`), weighed by their penalties, so hits with every word as typed
  /// keep their full score. A query that finds enough as typed keeps its ranking. The
  /// widened query is kept for the fallbacks even when it finds no more.
  private func widen(
    _ attempt: inout Attempt, matching: MatchingOptions, prefixTerm: Int?, plan: RunPlan,
    pass: Pass, meter: inout BudgetMeter
  ) throws {
    var parsed = attempt.parsed
    var expansion = attempt.expansion
    var added = false
    if let prefixTerm, matching.clampedPrefixExpansions > 0 {
      // The partial word's rarer completions too: the other words narrow them down, and
      // the one meant (`chi` for "chihuahua") is seldom among the most frequent few.
      let before = parsed.terms[prefixTerm].alternatives.count
      expansion.expandPrefix(
        of: prefixTerm, in: &parsed, lexicon: lexicon(), options: matching,
        count: MatchingOptions.maximumPrefixExpansionsWhenFew)
      added = added || parsed.terms[prefixTerm].alternatives.count > before
    }
    if matching.typoTolerance.isEnabled {
      let corrected = expansion.addCorrections(
        to: &parsed, lexicon: lexicon(), options: matching, prefixTerm: prefixTerm)
      added = added || corrected
    }
    guard added else { return }
    let termIDs = self.termIDs(of: parsed, expansion: expansion)
    let outcome = try run(
      meter: &meter, termIDs: termIDs, weights: expansion.weights, plan: plan, pass: pass)
    (attempt.parsed, attempt.expansion, attempt.termIDs) = (parsed, expansion, termIDs)
    if outcome.totalCount > attempt.outcome.totalCount { attempt.outcome = outcome }
  }

  /// Nothing with every word, as typed or corrected: before giving up on some words, the
  /// last may be a word not finished (`tayl`), as Meilisearch and Typesense always take it.
  private func tryLastWordAsPrefix(
    _ attempt: inout Attempt, typed: String, matching: MatchingOptions, plan: RunPlan,
    pass: Pass, meter: inout BudgetMeter
  ) throws {
    guard matching.clampedPrefixExpansions > 0,
      let last = QueryExpansion.prefixTerm(of: attempt.parsed, typed: typed)
    else { return }
    var parsed = attempt.parsed
    var expansion = attempt.expansion
    expansion.expandPrefix(of: last, in: &parsed, lexicon: lexicon(), options: matching)
    let termIDs = self.termIDs(of: parsed, expansion: expansion)
    let outcome = try run(
      meter: &meter, termIDs: termIDs, weights: expansion.weights, plan: plan, pass: pass)
    guard outcome.totalCount > 0 else { return }
    attempt = Attempt(parsed: parsed, expansion: expansion, termIDs: termIDs, outcome: outcome)
  }

  /// Nothing has every word: first drop words found nowhere, then words found only
  /// through a typo correction (`asTyped` says which were found before), then rank by
  /// words matched.
  ///
  /// - Returns: Whether the results have every word (also when no fallback found any).
  private func fallBackToSomeWords(
    _ attempt: inout Attempt, asTyped isKnown: [Bool], plan: inout RunPlan, pass: Pass,
    meter: inout BudgetMeter
  ) throws -> Bool {
    let everyTerm = Array(attempt.parsed.terms.indices)
    guard attempt.outcome.totalCount == 0 && everyTerm.count >= 2 else { return true }
    let known = everyTerm.filter { Self.isFound($0, in: attempt.termIDs) }
    let asTyped = known.filter { isKnown[$0] }
    func tryPlan(_ selected: [Int], _ matching: Matching) throws {
      plan = RunPlan(selected: selected, phrases: [], matching: matching)
      attempt.outcome = try run(
        meter: &meter, termIDs: attempt.termIDs, weights: attempt.expansion.weights, plan: plan,
        pass: pass)
    }
    if !known.isEmpty && known.count < everyTerm.count { try tryPlan(known, .all) }
    if attempt.outcome.totalCount == 0 && !asTyped.isEmpty && asTyped.count < known.count {
      try tryPlan(asTyped, .all)
    }
    if attempt.outcome.totalCount == 0 && known.count >= 2 { try tryPlan(known, .any) }
    // No fallback found anything: no result matches only some words.
    return attempt.outcome.totalCount == 0
  }

  /// A hit placed on a page.
  private struct Ranked {
    var hit: Hit
    var type: SearchResultType
    /// The Top tab's section (0 cards, 1 videos, 2 the rest); 0 in other tabs.
    var section: UInt8
    /// What the page is ordered by: the score, or in the Top tab's cards and last section
    /// the score normalized by the type's best.
    var sortScore: Float
  }

  /// Which terms a run requires, and how.
  private struct RunPlan {
    var selected: [Int]
    var phrases: [ParsedQuery.Phrase]
    var matching: Matching
  }

  /// How many hits each type must give for a page, and after which key.
  private struct PageRequest {
    var limits: [Int]
    var afters: [RankKey?]
    let limit: Int
    let position: SearchCursor.Contents?
    let policy: TopTabPolicy
    let isTop: Bool

    init(tab: SearchTab, limit: Int, position: SearchCursor.Contents?, policy: TopTabPolicy) {
      self.limit = limit
      isTop = tab == .top
      self.position = position
      self.policy = policy
      limits = [0, 0, 0, 0]
      afters = [nil, nil, nil, nil]
      guard tab == .top else {
        let type = tab.resultTypes[0]
        limits[type.index] = limit
        afters[type.index] = position?.key
        return
      }
      let section = position?.section ?? 0
      for type in SearchResultType.allCases {
        if type == .video {
          limits[type.index] = section <= 1 ? limit : 0
          afters[type.index] = section == 1 ? position?.key : nil
        } else {
          // Cards are a type's best hits, so each page finds them again from the start;
          // past the videos, every remaining hit up to the page's depth is needed.
          limits[type.index] = section == 2 ? restDepth(for: type) : policy.slots(for: type)
        }
      }
    }

    /// The re-ranking window of users, hashtags and sounds in the Top tab, on every page
    /// (one window, so that every page agrees on the cards): an exact name match, worth
    /// twice its text score, is nearly always among the first few hits, and a small window
    /// keeps the tab's three extra searches cheap.
    static let cardWindow = 8

    /// Whether `type` is searched with ``cardWindow``.
    func usesCardWindow(_ type: SearchResultType) -> Bool {
      isTop && type != .video
    }

    /// Whether the page shows `type`'s hits only as cards, which need an exact name match:
    /// a Top tab page before the last section whose videos have not run out (`fillsRest`),
    /// under a policy that requires exact matches.
    func showsOnlyCards(of type: SearchResultType, fillsRest: Bool) -> Bool {
      usesCardWindow(type) && (position?.section ?? 0) < 2 && !fillsRest
        && policy.requiresExactMatch
    }

    /// How many of a type's hits the last section needs: everything up to this page.
    func restDepth(for type: SearchResultType) -> Int {
      min(
        (position?.offset ?? 0) + limit + policy.slots(for: type), SearchCursor.maximumDepth + limit
      )
    }
  }

  /// A Top tab page: cards, then videos, then the other types interleaved by normalized
  /// score (``TopTabPolicy``). When the videos run out, `run` has already searched the
  /// other types deep enough for the last section (``Outcome/fillsRest``).
  private func topPage(outcome: Outcome, page: PageRequest) -> [Ranked] {
    let section = page.position?.section ?? 0
    let key = page.position?.key
    let others: [SearchResultType] = [.user, .hashtag, .sound]
    var best: [Float] = [0, 0, 0, 0]
    var cards: [Ranked] = []
    for type in others {
      let hits = outcome.hits[type.index]
      best[type.index] = hits.first?.score ?? 0
      for hit in hits.prefix(page.policy.slots(for: type))
      where hit.isExact || !page.policy.requiresExactMatch {
        cards.append(Ranked(hit: hit, type: type, section: 0, sortScore: 0))
      }
    }
    func normalized(_ hit: Hit, _ type: SearchResultType) -> Float {
      best[type.index] > 0 ? hit.score / best[type.index] : 0
    }
    func ranksBefore(_ lhs: Ranked, _ rhs: Ranked) -> Bool {
      if lhs.hit.coverage != rhs.hit.coverage { return lhs.hit.coverage > rhs.hit.coverage }
      if lhs.sortScore != rhs.sortScore { return lhs.sortScore > rhs.sortScore }
      if lhs.type.index != rhs.type.index { return lhs.type.index < rhs.type.index }
      return lhs.hit.document < rhs.hit.document
    }
    for index in cards.indices {
      cards[index].sortScore = normalized(cards[index].hit, cards[index].type)
    }
    cards.sort(by: ranksBefore)

    var result: [Ranked] = []
    if section == 0 {
      var start = 0
      if let key,
        let found = cards.firstIndex(where: {
          $0.type.index == Int(key.typeIndex) && $0.hit.document == key.document
        })
      {
        start = found + 1
      }
      result += cards[start...]
    }
    let videos = outcome.hits[SearchResultType.video.index]
    if section <= 1 {
      result += videos.map { Ranked(hit: $0, type: .video, section: 1, sortScore: $0.score) }
    }
    if result.count < page.limit && (section == 2 || outcome.fillsRest) {
      func cardKey(_ type: SearchResultType, _ document: UInt32) -> UInt64 {
        UInt64(type.index) << 32 | UInt64(document)
      }
      let isCard = Set(cards.map { cardKey($0.type, $0.hit.document) })
      var rest: [Ranked] = []
      for type in others {
        for hit in outcome.hits[type.index] where !isCard.contains(cardKey(type, hit.document)) {
          rest.append(Ranked(hit: hit, type: type, section: 2, sortScore: normalized(hit, type)))
        }
      }
      rest.sort(by: ranksBefore)
      if section == 2, let key {
        let cursor = Ranked(
          hit: Hit(score: 0, document: key.document, coverage: key.coverage),
          type: SearchResultType.allCases[Int(key.typeIndex)], section: 2, sortScore: key.score)
        rest.removeAll { !ranksBefore(cursor, $0) }
      }
      result += rest
    }
    return Array(result.prefix(page.limit))
  }

  /// Hits of the tab's types and counts of all types.
  private struct Outcome {
    var hits: [[Hit]]
    var facets: FacetCounts
    var totalCount: Int
    /// Whether the Top tab's other types were already searched deep enough for the last
    /// section.
    var fillsRest = false
    /// Whether the budget left a type out.
    var isPartial = false
  }

  /// One pass of the search over every type: each type's hits and count, in a step of the
  /// budget of its own (a type the budget refuses is left out, the outcome partial).
  ///
  /// - Throws: `CancellationError` when the task is cancelled, checked before each type.
  private func run(
    meter: inout BudgetMeter, termIDs: [[[TermID?]]], weights: [[Float]], plan: RunPlan,
    pass: Pass
  ) throws -> Outcome {
    try run(
      meter: &meter, termIDs: termIDs, weights: weights, plan: plan, page: pass.page,
      ranking: pass.ranking, now: pass.now, nameLengths: pass.nameLengths)
  }

  private func run(
    meter: inout BudgetMeter, termIDs: [[[TermID?]]], weights: [[Float]], plan: RunPlan,
    page: PageRequest, ranking: RankingOptions, now: Date, nameLengths: NameLengths
  ) throws -> Outcome {
    var outcome = Outcome(
      hits: Array(repeating: [], count: 4), facets: FacetCounts(), totalCount: 0)
    var page = page
    for type in SearchResultType.allCases {
      try Task.checkCancellation()
      let plans = try termPlans(
        of: type, termIDs: termIDs, weights: weights, selected: plan.selected)
      guard meter.admits(postings: plannedPostings(of: type, plans: plans)) else {
        outcome.isPartial = true
        continue
      }
      var limit = page.limits[type.index]
      let showsOnlyCards = page.showsOnlyCards(of: type, fillsRest: outcome.fillsRest)
      var mayMatchExactly = true
      // The filter serves the Top tab's card types, and page one of one-term queries (the
      // only ones whose match quality can be 1 everywhere).
      if limit > 0 && ranking.usesExactNameFilters
        && (showsOnlyCards || (plan.selected.count == 1 && page.afters[type.index] == nil))
      {
        mayMatchExactly = segments.indices.contains { index in
          let segment = segments[index]
          return segment.exactNames.mayMatchExactly(
            type, in: segment, groups: plans[index], termIDs: termIDs[index],
            nameLengths: nameLengths.lengths(of: type), tagKey: nameLengths.tagKey)
        }
        // No card can come from this type and its hits are not shown: count it only.
        if !mayMatchExactly && showsOnlyCards { limit = 0 }
      }
      let rerankWindow =
        page.usesCardWindow(type)
        ? min(ranking.rerankWindow, PageRequest.cardWindow) : ranking.rerankWindow
      // Static factors only rank: a type whose hits are not asked for is only counted.
      let factors =
        ranking.usesStaticSignals && limit > 0
        ? staticFactors(of: type, ranking: ranking, now: now) : nil
      func searcher(_ index: Int) -> TypeSearcher {
        self.searcher(
          of: type, in: index, ranking: ranking, factors: factors?[index] ?? nil,
          nameLengths: nameLengths)
      }
      let result =
        segments.count == 1
        ? searcher(0).search(
          terms: plans[0], phrases: plan.phrases, matching: plan.matching, limit: limit,
          after: page.afters[type.index], rerankWindow: rerankWindow,
          mayMatchExactly: mayMatchExactly)
        : SegmentedTypeSearch(
          searchers: segments.indices.map(searcher), starts: starts[type.index], terms: plans,
          phrases: plan.phrases, matching: plan.matching
        )?.search(
          limit: limit, after: page.afters[type.index], rerankWindow: rerankWindow,
          mayMatchExactly: mayMatchExactly) ?? .empty
      outcome.hits[type.index] = result.hits
      outcome.facets[type] = result.count
      outcome.totalCount += result.count
      // Top tab: when the videos run out on this page, the other types fill it, so ask
      // them for a page's worth now rather than searching them twice.
      if page.isTop && type == .video && (page.position?.section ?? 0) < 2
        && result.hits.count < limit
      {
        for type in [SearchResultType.user, .hashtag, .sound] {
          page.limits[type.index] = page.limit + page.policy.slots(for: type)
        }
        outcome.fillsRest = true
      }
    }
    return outcome
  }

  /// The searcher of `type` in segment `index`, with its static `factors` (`nil` when hits
  /// are only counted, or the signals are off).
  private func searcher(
    of type: SearchResultType, in index: Int, ranking: RankingOptions, factors: StaticFactors?,
    nameLengths: NameLengths
  ) -> TypeSearcher {
    TypeSearcher(
      partition: segments[index].partition(type), k1: ranking.clampedK1,
      weights: ranking.weights(for: type), usesImpactOrders: ranking.usesImpactOrders,
      factors: factors, matchQuality: ranking.matchQuality,
      nameLengths: nameLengths.lengths(of: type), tagKey: nameLengths.tagKey,
      normalization: normalizations[index][type.index], deleted: deletions[index].of(type),
      deletedMatchCache: deletedMatchCaches[index][type.index])
  }

  /// The postings `plans` (per segment) may read in `type`: the sum of their lists'
  /// document frequencies, what a step costs a ``SearchBudget``.
  private func plannedPostings(of type: SearchResultType, plans: [[TermPlan]]) -> Int {
    var total = 0
    for (index, segmentPlans) in plans.enumerated() {
      let postings = segments[index].partition(type).postings
      for plan in segmentPlans { total += plan.cost(in: postings) }
    }
    return total
  }

  /// Per segment, the term ids of every alternative of `parsed` (`nil` where the segment's
  /// dictionary does not have it).
  func termIDs(of parsed: ParsedQuery, expansion: QueryExpansion) -> [[[TermID?]]] {
    guard segments.count > 1 else { return [expansion.termIDs(of: parsed, in: segments[0].terms)] }
    return segments.map { expansion.termIDs(of: parsed, in: $0.terms) }
  }

  /// Whether any alternative of query term `term` is in any segment's dictionary.
  static func isFound(_ term: Int, in termIDs: [[[TermID?]]]) -> Bool {
    termIDs.contains { $0[term].contains { $0 != nil } }
  }

  /// Per segment, the plan of each selected query term in `type`, with index-wide idfs: a
  /// term's document frequency is the sum of its segments' (``SegmentStatistics``).
  ///
  /// No alternative's idf exceeds that of the word as typed, where the type holds it: a
  /// plural, a joined word or a completion is rarer than the word typed, and would
  /// otherwise outscore it on the same document (Lucene's `SynonymQuery` likewise scores
  /// the forms of one word with one document frequency, the largest).
  ///
  /// - Throws: ``SearchError/Code/corruptIndex`` when a list read from disk is damaged.
  func termPlans(
    of type: SearchResultType, termIDs: [[[TermID?]]], weights: [[Float]], selected: [Int]
  ) throws -> [[TermPlan]] {
    guard segments.count > 1 else {
      return [
        try segments[0].termPlans(
          in: segments[0].partition(type), termIDs: termIDs[0], weights: weights,
          selected: selected)
      ]
    }
    // Pass 1: each alternative's posting list in each segment (flat: segment `s`, term
    // `t`, alternative `a` at `s * width + offsets[t] + a`, -1 where the segment lacks it)
    // and its document frequency summed over the segments.
    var offsets: [Int] = []
    offsets.reserveCapacity(selected.count)
    var width = 0
    for term in selected {
      offsets.append(width)
      width += termIDs[0][term].count
    }
    var lists = [Int](repeating: -1, count: width * segments.count)
    var frequencies = [Int](repeating: 0, count: width)
    for (index, segment) in segments.enumerated() {
      let postings = segment.partition(type).postings
      for (slot, term) in selected.enumerated() {
        for (alternative, id) in termIDs[index][term].enumerated() {
          guard let id, let list = try postings.checkedListIndex(for: id) else { continue }
          lists[index * width + offsets[slot] + alternative] = list
          frequencies[offsets[slot] + alternative] += Int(postings.lists[list].documentFrequency)
        }
      }
    }
    // Pass 2: the plans, with idfs from the summed frequencies.
    let statistics = self.statistics[type.index]
    let idfs = frequencies.map { statistics.idf(documentFrequency: $0) }
    return segments.indices.map { index in
      selected.enumerated().map { slot, term in
        var alternatives: [AlternativePlan] = []
        let typedIDF = frequencies[offsets[slot]] > 0 ? idfs[offsets[slot]] : .infinity
        for alternative in termIDs[index][term].indices {
          let flat = offsets[slot] + alternative
          let list = lists[index * width + flat]
          guard list >= 0 else { continue }
          alternatives.append(
            AlternativePlan(
              listIndex: list, idf: min(idfs[flat], typedIDF),
              weight: weights.isEmpty ? 1 : weights[term][alternative], alternative: alternative))
        }
        return TermPlan(alternatives: alternatives, queryTerm: term)
      }
    }
  }

  /// Brings what the result cards of a page read into the cache, segment by segment
  /// (``IndexSnapshot/touchResultFields(_:)``).
  func touchResultFields(_ page: [(type: SearchResultType, document: UInt32)]) -> UInt32 {
    guard segments.count > 1 else { return segments[0].touchResultFields(page) }
    var sum: UInt32 = 0
    for (index, segment) in segments.enumerated() {
      let local = page.compactMap { entry -> (type: SearchResultType, document: UInt32)? in
        let starts = self.starts[entry.type.index]
        guard starts[index] <= entry.document && entry.document < starts[index + 1] else {
          return nil
        }
        return (entry.type, entry.document - starts[index])
      }
      if !local.isEmpty { sum &+= segment.touchResultFields(local) }
    }
    return sum
  }
}

extension IndexSnapshot {
  /// The plan of each selected query term in one type: the term's alternatives found in the
  /// type, with their idf there (at most the typed word's, as in
  /// ``SegmentSet/termPlans(of:termIDs:weights:selected:)``) and their weight (1 unless
  /// `weights` says otherwise: typo corrections and prefix completions weigh less).
  ///
  /// - Throws: ``SearchError/Code/corruptIndex`` when a list read from disk is damaged.
  func termPlans(
    in partition: TypePartition, termIDs: [[TermID?]], weights: [[Float]] = [],
    selected: [Int]
  ) throws -> [TermPlan] {
    try selected.map { term in
      var typedIDF = Float.infinity
      return TermPlan(
        alternatives: try termIDs[term].enumerated().compactMap {
          offset, id -> AlternativePlan? in
          guard let id, let listIndex = try partition.postings.checkedListIndex(for: id) else {
            return nil
          }
          let frequency = Int(partition.postings.lists[listIndex].documentFrequency)
          let idf = BM25F.idf(documentFrequency: frequency, documentCount: partition.documentCount)
          if offset == 0 { typedIDF = idf }
          return AlternativePlan(
            listIndex: listIndex, idf: min(idf, typedIDF),
            weight: weights.isEmpty ? 1 : weights[term][offset], alternative: offset)
        },
        queryTerm: term)
    }
  }

  /// Brings what the result cards of a page read into the cache, one level of indirection
  /// at a time across the page: offsets and references, then the strings they point to.
  /// A card reads about twenty values at random; read card by card, each cache miss waits
  /// for the one before, while the loads of a stage are independent and overlap (the
  /// staging of ``BitmapRandomAccess``). Returns a sum of what it read, which the caller
  /// keeps so that the loads are not optimized away.
  func touchResultFields(_ page: [(type: SearchResultType, document: UInt32)]) -> UInt32 {
    var sum: UInt32 = 0
    for includingBytes in [false, true] {
      for (type, document) in page {
        let partition = self.partition(type)
        let index = Int(document)
        sum &+= partition.ids.touch(index, includingBytes: includingBytes)
        sum &+= partition.titles.touch(index, includingBytes: includingBytes)
        switch type {
        case .video:
          let creator = videos.creators[index]
          let sound = videos.sounds[index]
          if !includingBytes {
            sum &+= creator &+ sound &+ UInt32(videos.thumbnails.templateIndexes[index])
            sum &+= UInt32(truncatingIfNeeded: videos.viewCounts[index])
            continue
          }
          // The creator's and sound's offsets; their bytes are read by the card itself.
          if creator != UInt32.max {
            let users = self.partition(.user)
            sum &+= users.ids.touch(Int(creator), includingBytes: false)
            sum &+= users.titles.touch(Int(creator), includingBytes: false)
            sum &+= self.users.displayNames.touch(Int(creator), includingBytes: false)
          }
          if sound != UInt32.max {
            let sounds = self.partition(.sound)
            sum &+= sounds.ids.touch(Int(sound), includingBytes: false)
            sum &+= sounds.titles.touch(Int(sound), includingBytes: false)
          }
        case .user:
          sum &+= users.displayNames.touch(index, includingBytes: includingBytes)
        case .sound:
          sum &+= sounds.artists.touch(index, includingBytes: includingBytes)
        case .hashtag:
          break
        }
      }
    }
    return sum
  }

  /// The result card of a hit. A video's creator or sound that no live document of this
  /// segment is (none, or one of `deletions`), `elsewhere` finds by id in another segment.
  func makeResult(
    type: SearchResultType, hit: Hit, highlighter: Highlighter,
    elsewhere: ReferenceResolver? = nil, deletions: SegmentDeletions = .none
  ) -> SearchResult {
    let partition = self.partition(type)
    let document = Int(hit.document)
    let id = partition.ids.string(at: document)
    let title = partition.titles.string(at: document)
    var subtitle: String?
    var thumbnail: String?
    let metadata: SearchResultMetadata
    switch type {
    case .video:
      var references = Array(videos.unresolvedReferences(of: hit.document))
      let creator = liveReference(
        videos.creators[document], .creator, of: hit.document, deletions: deletions,
        unresolved: &references)
      let sound = liveReference(
        videos.sounds[document], .sound, of: hit.document, deletions: deletions,
        unresolved: &references)
      var creatorID: String?
      var creatorUsername: String?
      if creator != UInt32.max {
        (creatorID, creatorUsername, subtitle) = creatorCard(of: Int(creator))
      }
      var soundID: String?
      var soundTitle: String?
      if sound != UInt32.max {
        let sounds = self.partition(.sound)
        soundID = sounds.ids.string(at: Int(sound))
        soundTitle = sounds.titles.string(at: Int(sound))
      }
      for reference in references {
        let found = elsewhere?.resolve(reference.id, as: reference.kind)
        switch reference.kind {
        case .creator:
          creatorID = reference.id
          if let (segment, user) = found {
            (_, creatorUsername, subtitle) = segment.creatorCard(of: user)
          }
        case .sound:
          soundID = reference.id
          if let (segment, sound) = found {
            soundTitle = segment.partition(.sound).titles.string(at: sound)
          }
        case .effect: break
        }
      }
      thumbnail = videos.thumbnails.url(at: document, id: id)
      let createdAt = videos.createdAt[document]
      metadata = .video(
        VideoMetadata(
          viewCount: videos.viewCounts[document], likeCount: videos.likeCounts[document],
          createdAt: createdAt.map { Date(timeIntervalSince1970: TimeInterval($0)) },
          creatorID: creatorID, creatorUsername: creatorUsername, soundID: soundID,
          soundTitle: soundTitle))
    case .user:
      let displayName = users.displayNames.string(at: document)
      subtitle = displayName.isEmpty ? nil : displayName
      metadata = .user(
        UserMetadata(
          displayName: subtitle, followerCount: users.followerCounts[document],
          videoCount: Int(users.videoCounts[document]), isVerified: users.isVerified[document] != 0)
      )
    case .hashtag:
      metadata = .hashtag(
        HashtagMetadata(
          viewCount: hashtags.viewCounts[document], videoCount: hashtags.videoCounts[document]))
    case .sound:
      let artist = sounds.artists.string(at: document)
      subtitle = artist.isEmpty ? nil : artist
      metadata = .sound(SoundMetadata(artist: subtitle, videoCount: sounds.videoCounts[document]))
    }
    return SearchResult(
      id: id, type: type, title: title, subtitle: subtitle, thumbnailURL: thumbnail,
      metadata: metadata, highlights: highlighter.highlights(in: title, type: type),
      score: Double(hit.score))
  }

  /// Video `video`'s creator or sound `number` (`UInt32.max` for none), or `UInt32.max` when
  /// `deletions` holds it (it was deleted, or replaced by a later segment's version): it is
  /// then added to `unresolved` by id, to be looked up as one never resolved here is.
  private func liveReference(
    _ number: UInt32, _ kind: UnresolvedReference.Kind, of video: UInt32,
    deletions: SegmentDeletions, unresolved: inout [UnresolvedReference]
  ) -> UInt32 {
    guard number != UInt32.max, deletions.contains(number, of: kind.documentKind) else {
      return number
    }
    unresolved.append(
      UnresolvedReference(
        video: video, kind: kind, id: ids(of: kind.documentKind).string(at: Int(number))))
    return UInt32.max
  }

  /// A video card's creator fields from user `user`: id, username, and the subtitle (the
  /// display name, or the username without one).
  func creatorCard(of user: Int) -> (id: String, username: String, subtitle: String) {
    let users = self.partition(.user)
    let username = users.titles.string(at: user)
    let displayName = self.users.displayNames.string(at: user)
    return (users.ids.string(at: user), username, displayName.isEmpty ? username : displayName)
  }
}
