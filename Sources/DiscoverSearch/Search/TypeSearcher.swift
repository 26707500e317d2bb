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
    if limit == 0 && phrases.isEmpty && groups.count == 1 && groups[0].alternatives.count == 1 {
      // Counting one list: its document frequency (a facet of a type the tab does not show).
      let list = postings.lists[groups[0].alternatives[0].listIndex]
      return TypeHits(hits: [], count: Int(list.documentFrequency))
    }
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

  /// Top hits by the first-phase score (text relevance times the static factor).
  private func firstPhase(
    groups: [TermPlan], phrases: [ParsedQuery.Phrase], matching: Matching, blend: ScoreBlend,
    limit: Int, after: RankKey?
  ) -> TypeHits {
    let postings = partition.postings
    let isSingleTerm = groups.count == 1 && groups[0].alternatives.count == 1 && phrases.isEmpty
    // One term under the blend: the impact head, then a scan in popularity order
    // (``Evaluation/runSingleTermBlended``), instead of a threshold search that cannot stop
    // within a short head.
    // Frequent terms (with a bitmap) keep long impact lists, where the threshold search
    // does better: it stops within them (`the`: 825 µs against 3.4 ms at 1,000,000).
    let blendsOneTerm =
      isSingleTerm && matching == .all && blend.factors != nil && usesImpactOrders
      && scorer.weights == postings.impactWeights
      && postings.bitmapIndex(ofList: groups[0].alternatives[0].listIndex) == nil
    var floor = -Float.infinity
    if matching == .all && phrases.isEmpty && usesImpactOrders && !blendsOneTerm {
      if var threshold = ThresholdSearch(
        partition: partition, scorer: scorer, blend: blend, groups: groups)
      {
        if let hits = threshold.run(limit: limit, after: after) { return hits }
        floor = threshold.floorOnGivingUp
      }
      if let leadSorted = LeadSortedSearch(
        partition: partition, scorer: scorer, blend: blend, groups: groups)
      {
        return leadSorted.run(limit: limit, after: after, floor: floor)
      }
    }
    let cursorCount = groups.reduce(0) { $0 + $1.alternatives.count }
    let scratch = UnsafeMutablePointer<UInt32>.allocate(
      capacity: cursorCount * PostingBlock.capacity)
    defer { scratch.deallocate() }
    var evaluation = Evaluation(
      searcher: self, blend: blend, groups: groups, phrases: phrases, scratch: scratch,
      limit: limit, after: after)
    evaluation.floor = floor
    switch matching {
    case .all:
      if blendsOneTerm,
        let head = postings.impactRange(ofList: groups[0].alternatives[0].listIndex),
        !head.isEmpty
      {
        evaluation.runSingleTermBlended(head: head, postings: postings)
      } else if isSingleTerm {
        evaluation.runSingleTerm()
      } else {
        evaluation.runConjunction(postings: postings)
      }
    case .any:
      evaluation.runDisjunction()
    }
    return TypeHits(hits: evaluation.heap.sorted(), count: evaluation.count)
  }

}

/// One alternative's bitmap within a group, with what random access to it needs.
private struct GroupBitmap {
  let words: UnsafePointer<UInt64>
  /// The alternative's list and bitmap numbers.
  let list: Int
  let bitmap: Int
  /// The alternative's cursor (and idf and weight) index.
  let cursor: Int

  @inline(__always)
  func contains(_ document: UInt32) -> Bool {
    words[Int(document >> 6)] & (1 << UInt64(document & 63)) != 0
  }
}

/// The mutable state of one search in one type.
private struct Evaluation {
  let scorer: BM25F
  let blend: ScoreBlend
  let typeIndex: UInt8
  let fieldCount: Int
  let after: RankKey?
  let limit: Int
  var cursors: [PostingCursor] = []
  var idfs: [Float] = []
  var weights: [Float] = []
  /// Alternatives of group `g` are cursors `groupStarts[g]..<groupStarts[g + 1]`.
  var groupStarts: [Int] = [0]
  /// The bitmaps of each group whose alternatives all have one (`nil` otherwise): a
  /// document is in the group when it is in one of them, and its frequencies are read at
  /// random through them.
  var bitmaps: [[GroupBitmap]?] = []
  let randomAccess: BitmapRandomAccess
  /// Whether a conjunction whose terms all have bitmaps walks their intersection
  /// (``runBitmapConjunction(wordCount:)``) rather than the rarest list.
  let walksBitmaps: Bool
  /// The score bound of each group over its whole list.
  var listBounds: [Float] = []
  /// Phrases with members as group indexes.
  var phrases: [[(group: Int, offset: UInt32)]] = []
  var heap: TopHits
  /// A score every final top hit reaches, known before the scan (from a threshold search
  /// that gave up): blocks and documents bounded below it are skipped even before the heap
  /// is full. Ties are kept, since the hits that set it are found again by the scan.
  var floor = -Float.infinity
  var count = 0
  /// The static factors of the current block's documents.
  var blockFactors = [Float](repeating: 1, count: PostingBlock.capacity)

  init(
    searcher: TypeSearcher, blend: ScoreBlend, groups: [TermPlan], phrases: [ParsedQuery.Phrase],
    scratch: UnsafeMutablePointer<UInt32>, limit: Int, after: RankKey?
  ) {
    scorer = searcher.scorer
    self.blend = blend
    typeIndex = searcher.typeIndex
    fieldCount = searcher.partition.fieldCount
    self.after = after
    self.limit = limit
    heap = TopHits(capacity: limit)
    let postings = searcher.partition.postings
    randomAccess = BitmapRandomAccess(postings: postings, scorer: searcher.scorer)
    walksBitmaps = searcher.usesImpactOrders
    let alternativeCount = groups.reduce(0) { $0 + $1.alternatives.count }
    cursors.reserveCapacity(alternativeCount)
    idfs.reserveCapacity(alternativeCount)
    weights.reserveCapacity(alternativeCount)
    groupStarts.reserveCapacity(groups.count + 1)
    bitmaps.reserveCapacity(groups.count)
    listBounds.reserveCapacity(groups.count)
    for group in groups {
      var bound: Float = 0
      for alternative in group.alternatives {
        let cursor = PostingCursor(
          postings: postings, listIndex: alternative.listIndex,
          scratch: scratch + cursors.count * PostingBlock.capacity)
        cursors.append(cursor)
        idfs.append(alternative.idf)
        weights.append(alternative.weight)
        let maxima = postings.listFieldMaxima.base + alternative.listIndex * postings.fieldCount
        bound = max(
          bound, alternative.weight * scorer.bound(fieldMaxima: maxima, idf: alternative.idf))
      }
      groupStarts.append(cursors.count)
      listBounds.append(bound)
      let groupBitmaps = group.alternatives.enumerated().compactMap { offset, alternative in
        postings.bitmapIndex(ofList: alternative.listIndex).map {
          GroupBitmap(
            words: postings.bitmaps.base + $0 * postings.bitmapWordCount,
            list: alternative.listIndex, bitmap: $0,
            cursor: cursors.count - group.alternatives.count + offset)
        }
      }
      bitmaps.append(groupBitmaps.count == group.alternatives.count ? groupBitmaps : nil)
    }
    for phrase in phrases {
      let members = phrase.members.compactMap { member in
        groups.firstIndex { $0.queryTerm == member.term }.map { (group: $0, offset: member.offset) }
      }
      if members.count == phrase.members.count { self.phrases.append(members) }
    }
  }

  @inline(__always)
  private func accepts(_ hit: Hit) -> Bool {
    after?.precedes(hit, typeIndex: typeIndex) ?? true
  }

  /// Offers `document` with text score `text`.
  @inline(__always)
  private mutating func offer(text: Float, document: UInt32, coverage: UInt8) {
    let hit = Hit(
      score: ScoreBlend.combine(text: text, factor: blend.factor(of: document)),
      document: document, coverage: coverage)
    if accepts(hit) { heap.insert(hit) }
  }

  /// Whether a document scoring at most `bound` can be among the top hits.
  @inline(__always)
  private func canEnter(bound: Float, coverage: UInt8) -> Bool {
    bound >= floor && heap.admits(bound: bound, coverage: coverage)
  }

  /// Whether pruning by bounds can skip anything yet.
  @inline(__always)
  private var prunes: Bool { heap.isFull || floor > -Float.infinity }

  /// The bound of block `block` of cursor 0 given its text bound.
  @inline(__always)
  private func blendedBound(text: Float, block: Int) -> Float {
    ScoreBlend.combine(
      text: text,
      factor: blend.factorMaximum(
        from: cursors[0].firstDocumentBound(ofBlock: block),
        through: cursors[0].lastDocument(ofBlock: block)))
  }

  // MARK: One term

  /// One term with one alternative: the count is its document frequency, and blocks whose
  /// bound cannot beat the current top hits are never decoded.
  mutating func runSingleTerm() {
    count = Int(cursors[0].list.documentFrequency)
    guard limit > 0 else { return }
    let idf = idfs[0]
    let weight = weights[0]
    let blockCount = cursors[0].blockCount
    for block in 0..<blockCount {
      let text =
        weight * scorer.bound(fieldMaxima: cursors[0].fieldMaxima(ofBlock: block), idf: idf)
      if prunes && !canEnter(bound: blendedBound(text: text, block: block), coverage: 1) {
        continue
      }
      if cursors[0].block != block { cursors[0].jump(toBlock: block) }
      if let factors = blend.factors {
        scoreBlendedBlock(factors: factors, blockText: text, skipping: nil)
        continue
      }
      while cursors[0].block == block {
        offer(
          text: weight * scorer.score(cursors[0], idf: idf), document: cursors[0].document,
          coverage: 1)
        cursors[0].next()
      }
    }
  }

  /// Scores the rest of cursor 0's current block under the blend (one term), then moves to
  /// the next block.
  ///
  /// The block's static factors are loaded first, in one loop: the loads are independent,
  /// so their cache misses overlap instead of following one another. A document is scored
  /// only when `blockText` (a bound of its text score) times its own factor can reach the
  /// k-th hit, so most never have their norms read; documents in `seen` (already scored from
  /// an impact head) are skipped. The scan visits each document once, so it only reads
  /// `seen`.
  private mutating func scoreBlendedBlock(
    factors: StaticFactors, blockText: Float, skipping seen: DocumentSet?
  ) {
    let block = cursors[0].block
    let documents = cursors[0].blockDocuments
    let base = factors.factors.baseAddress!
    // A document whose run of 64 cannot reach the k-th hit (the threshold only rises) is
    // skipped without loading its own factor: the run maxima stay in cache, the factors
    // do not. Skipped documents get factor 0.
    let threshold = heap.isFull ? max(heap.worst.score, floor) : floor
    for slot in 0..<documents.count {
      let document = documents[slot]
      blockFactors[slot] =
        ScoreBlend.combine(text: blockText, factor: factors.chunkMaximum(of: document))
          < threshold ? 0 : base[Int(document)]
    }
    var slot = cursors[0].index
    while cursors[0].block == block {
      let document = cursors[0].document
      let bound = ScoreBlend.combine(text: blockText, factor: blockFactors[slot])
      if blockFactors[slot] > 0, bound >= floor, heap.admitsOrTies(bound: bound, coverage: 1),
        !(seen?.contains(document) ?? false)
      {
        let hit = Hit(
          score: ScoreBlend.combine(
            text: weights[0] * scorer.score(cursors[0], idf: idfs[0]), factor: blockFactors[slot]),
          document: document, coverage: 1)
        if accepts(hit) { heap.insert(hit) }
      }
      cursors[0].next()
      slot += 1
    }
  }

  /// One term under the blend, whose best postings by text are in an impact head.
  ///
  /// The threshold algorithm over the head alone rarely stops: an unseen document may have
  /// the largest static factor. So this reads two orders (Fagin, Lotem and Naor's threshold
  /// algorithm over two sorted lists): the head, where every later posting's text score is
  /// at most the last one's, then the list itself in document order, which is popularity
  /// order (``DocumentOrder``), where every later document's factor is at most the largest
  /// factor from there to the end. Their product bounds every document not yet seen; the
  /// scan stops when it cannot beat the k-th hit, and skips blocks whose own bound cannot.
  mutating func runSingleTermBlended(head: Range<Int>, postings: TypePostings) {
    count = Int(cursors[0].list.documentFrequency)
    guard limit > 0, let factors = blend.factors else { return }
    let idf = idfs[0]
    let weight = weights[0]
    let documentsInHead = postings.impactDocuments.base + head.lowerBound
    let impacts = postings.impactValues.base + head.lowerBound
    // A long head (a frequent term's) is read in part: what follows weighs at most the last
    // entry read.
    let headRead = min(head.count, 256)
    var seen = DocumentSet(expectedCount: headRead)
    for index in 0..<headRead {
      let document = documentsInHead[index]
      _ = seen.insert(document)
      let hit = Hit(
        score: ScoreBlend.combine(
          text: weight * (idf * scorer.saturate(impacts[index])),
          factor: factors.factors[Int(document)]),
        document: document, coverage: 1)
      if accepts(hit) { heap.insert(hit) }
    }
    // A complete head, read whole, held every posting.
    if headRead == count { return }
    // Postings not read weigh at most the last entry read.
    let textCap = weight * (idf * scorer.saturate(impacts[headRead - 1]))
    for block in 0..<cursors[0].blockCount {
      let first = cursors[0].firstDocumentBound(ofBlock: block)
      let text = min(
        textCap,
        weight * scorer.bound(fieldMaxima: cursors[0].fieldMaxima(ofBlock: block), idf: idf))
      if heap.isFull {
        // Nothing from here on can reach the k-th hit (not even tie it): stop.
        let rest = ScoreBlend.combine(
          text: textCap, factor: factors.suffixMaximum(of: first))
        if rest < heap.worst.score { break }
        let bound = ScoreBlend.combine(
          text: text,
          factor: factors.maximum(from: first, through: cursors[0].lastDocument(ofBlock: block)))
        if !heap.admitsOrTies(bound: bound, coverage: 1) { continue }
      }
      if cursors[0].block != block { cursors[0].jump(toBlock: block) }
      scoreBlendedBlock(factors: factors, blockText: text, skipping: seen)
    }
  }

  // MARK: All terms

  /// The smallest current document among group `group`'s alternatives after moving them
  /// to `target` or beyond.
  @inline(__always)
  private mutating func advance(group: Int, to target: UInt32) -> UInt32 {
    var smallest = PostingCursor.end
    for index in groupStarts[group]..<groupStarts[group + 1] {
      cursors[index].advance(to: target)
      smallest = min(smallest, cursors[index].document)
    }
    return smallest
  }

  /// The best alternative score of group `group` in `document` (its cursors are there or past).
  @inline(__always)
  private func score(group: Int, document: UInt32) -> Float {
    var best: Float = 0
    for index in groupStarts[group]..<groupStarts[group + 1]
    where cursors[index].document == document {
      best = max(best, weights[index] * scorer.score(cursors[index], idf: idfs[index]))
    }
    return best
  }

  /// The bound of group `group` over the blocks its cursors are in.
  @inline(__always)
  private func blockBound(group: Int) -> Float {
    var best: Float = 0
    for index in groupStarts[group]..<groupStarts[group + 1]
    where cursors[index].document != PostingCursor.end {
      best = max(
        best,
        weights[index]
          * scorer.bound(fieldMaxima: cursors[index].blockFieldMaxima, idf: idfs[index]))
    }
    return best
  }

  /// Every term: the rarest leads, the others are probed by bitmap or by skipping.
  mutating func runConjunction(postings: TypePostings) {
    let groupCount = groupStarts.count - 1
    let coverage = UInt8(clamping: groupCount)
    // With bitmaps for every term, the matches and their count come from the bitmaps.
    if walksBitmaps && phrases.isEmpty && bitmaps.allSatisfy({ $0 != nil }) {
      runBitmapConjunction(wordCount: postings.bitmapWordCount)
      return
    }
    var restBound: Float = 0
    for group in 1..<max(groupCount, 1) { restBound += listBounds[group] }

    // Every match is counted, so no block of the lead can be skipped. A lone lead's block
    // bound is computed once per block, not once per match.
    let leadIsSingle = groupStarts[1] - groupStarts[0] == 1
    var boundBlock = -1
    var leadBlockBound: Float = 0
    var lead = advance(group: 0, to: 0)
    let prefetchesAhead = leadIsSingle && limit > 0
    while lead != PostingCursor.end {
      if prefetchesAhead { prefetchMatchData(ahead: Evaluation.prefetchDistance) }
      var target = lead
      var isMatch = true
      var isExhausted = false
      for group in 1..<groupCount {
        if let groupBitmaps = bitmaps[group] {
          if !groupBitmaps.contains(where: { $0.contains(lead) }) {
            isMatch = false
            break
          }
          continue
        }
        let document = advance(group: group, to: lead)
        if document == PostingCursor.end {
          isExhausted = true
          isMatch = false
          break
        }
        if document != lead {
          isMatch = false
          target = document
          break
        }
      }
      if isExhausted { break }
      if isMatch && !phrases.isEmpty {
        for group in 1..<groupCount { _ = advance(group: group, to: lead) }
        isMatch = phrasesHold(in: lead)
      }
      if isMatch {
        count += 1
        if limit > 0 {
          // The largest factor of the match's run of 64 (in cache) rules most matches out
          // once the heap holds popular documents; only the others load their own factor.
          if !leadIsSingle {
            leadBlockBound = blockBound(group: 0)
          } else if cursors[0].block != boundBlock {
            boundBlock = cursors[0].block
            leadBlockBound = blockBound(group: 0)
          }
          let text = leadBlockBound + restBound
          if canEnter(
            bound: ScoreBlend.combine(text: text, factor: blend.factorBound(of: lead)),
            coverage: coverage),
            canEnter(
              bound: ScoreBlend.combine(text: text, factor: blend.factor(of: lead)),
              coverage: coverage)
          {
            var total: Float = 0
            for group in 0..<groupCount {
              // A group with bitmaps is read at the document, without decoding its
              // blocks on the way (phrases need its cursors' positions).
              if walksBitmaps && group > 0 && phrases.isEmpty, bitmaps[group] != nil {
                total += bitmapScore(group: group, document: lead)
                continue
              }
              _ = advance(group: group, to: lead)
              total += score(group: group, document: lead)
            }
            offer(text: total, document: lead, coverage: coverage)
          }
        }
        lead = advance(group: 0, to: lead &+ 1)
      } else {
        lead = advance(group: 0, to: max(target, lead &+ 1))
      }
    }
  }

  /// Postings of a lone lead ahead of the current one whose static factor and field lengths
  /// ``prefetchMatchData(ahead:)`` fetches.
  static let prefetchDistance = 8

  /// Starts loading the static factor and the field lengths of the lead's document
  /// `distance` postings ahead in its decoded block.
  ///
  /// A match reads both from memory that does not stay in cache (4 bytes and a few bytes
  /// per document of the type), right after the other lists agree on it: each read waits
  /// for its miss, one match after the other. The lead's next documents are already
  /// decoded, so theirs are fetched while the matches before them are tested and scored.
  @inline(__always)
  private func prefetchMatchData(ahead distance: Int) {
    let documents = cursors[0].blockDocuments
    let slot = cursors[0].index &+ distance
    guard slot < documents.count else { return }
    let document = Int(documents[slot])
    if let factors = blend.factors, let base = factors.factors.baseAddress {
      cprefetch_for_reading(base + document)
    }
    cprefetch_for_reading(blend.norms + document &* fieldCount)
  }

  /// The best alternative score of group `group` in `document`, read through the group's
  /// bitmaps (which it must have), as ``score(group:document:)`` computes it from cursors.
  @inline(__always)
  private func bitmapScore(group: Int, document: UInt32) -> Float {
    var best: Float = 0
    for bitmap in bitmaps[group]! where bitmap.contains(document) {
      let x = randomAccess.weightedFrequency(
        ofMember: document, listIndex: bitmap.list, bitmapIndex: bitmap.bitmap)
      best = max(best, weights[bitmap.cursor] * (idfs[bitmap.cursor] * scorer.saturate(x)))
    }
    return best
  }

  /// Every term, each with bitmaps: the matches are the set bits of the AND over groups of
  /// the OR of their bitmaps, visited in document order, 64 at a time.
  ///
  /// The count falls out of the same pass. A word of 64 documents is skipped when the sum
  /// of the groups' list bounds times the largest static factor among its documents cannot
  /// reach the top hits; a match is scored only when that sum times its own factor can, and
  /// then every group is read at random through its bitmap's rank directory
  /// (``BitmapRandomAccess``), for sixteen such matches at a time (``offer(_:coverage:)``).
  /// Nothing is decoded on the way: walking the rarest list instead
  /// would decode and probe each of its postings, and for frequent words nearly every block
  /// holds a posting at the list's bound, so block-max pruning skips nothing.
  private mutating func runBitmapConjunction(wordCount: Int) {
    let groupCount = groupStarts.count - 1
    let coverage = UInt8(clamping: groupCount)
    let textBound = listBounds.reduce(0, +)
    let conjunction = BitmapConjunction(
      groups: bitmaps.map { $0!.map(\.words) }, wordCount: wordCount)
    guard limit > 0 else {
      count = conjunction.count()
      return
    }
    var total = 0
    let chunk = UnsafeMutablePointer<UInt64>.allocate(capacity: BitmapConjunction.chunkWords)
    defer { chunk.deallocate() }
    var batch = ScoringBatch()
    defer { batch.deallocate() }
    var start = 0
    while start < wordCount {
      let chunkCount = min(BitmapConjunction.chunkWords, wordCount - start)
      total &+= conjunction.fill(from: start, count: chunkCount, into: chunk)
      for offset in 0..<chunkCount {
        var bits = chunk[offset]
        guard bits != 0 else { continue }
        let first = UInt32((start + offset) << 6)
        if prunes
          && !canEnter(
            bound: ScoreBlend.combine(
              text: textBound, factor: blend.factorMaximum(from: first, through: first + 63)),
            coverage: coverage)
        {
          continue
        }
        while bits != 0 {
          let document = first + UInt32(bits.trailingZeroBitCount)
          bits &= bits &- 1
          let factor = blend.factor(of: document)
          guard
            canEnter(
              bound: ScoreBlend.combine(text: textBound, factor: factor), coverage: coverage)
          else { continue }
          batch.append(document, 0)
          batch.factors[batch.count - 1] = factor
          if batch.count == ScoringBatch.capacity { offer(&batch, coverage: coverage) }
        }
      }
      start += chunkCount
    }
    offer(&batch, coverage: coverage)
    count = total
  }

  /// Scores the matches waiting in `batch` and offers them, then empties it.
  ///
  /// Every group is read through its bitmaps for the whole batch at once
  /// (``BitmapRandomAccess/weightedFrequencies(of:isWanted:listIndex:bitmapIndex:into:)``):
  /// the rank, block and frequency loads of different documents are independent, so their
  /// cache misses overlap instead of each waiting for the one before, as they do when the
  /// matches are scored one by one. Groups are summed in order and each takes its best
  /// alternative, as ``bitmapScore(group:document:)`` does, so the scores are the same.
  /// Matches were admitted against the heap as it was when they joined the batch, which
  /// only keeps a few more than needed: each is scored exactly.
  private mutating func offer(_ batch: inout ScoringBatch, coverage: UInt8) {
    let count = batch.count
    guard count > 0 else { return }
    let documents = UnsafeBufferPointer(start: batch.documents, count: count)
    // Every match joined with `isMatch` set, and is read in every list.
    let isWanted = UnsafeBufferPointer(start: batch.isMatch, count: count)
    let x = UnsafeMutableBufferPointer(start: batch.x, count: count)
    for index in 0..<count { batch.scores[index] = 0 }
    for groupBitmaps in bitmaps {
      for index in 0..<count { batch.best[index] = 0 }
      for bitmap in groupBitmaps! {
        randomAccess.weightedFrequencies(
          of: documents, isWanted: isWanted, listIndex: bitmap.list,
          bitmapIndex: bitmap.bitmap, into: x)
        let weight = weights[bitmap.cursor]
        let idf = idfs[bitmap.cursor]
        for index in 0..<count where x[index] >= 0 {
          batch.best[index] = max(batch.best[index], weight * (idf * scorer.saturate(x[index])))
        }
      }
      for index in 0..<count { batch.scores[index] += batch.best[index] }
    }
    for index in 0..<count {
      let hit = Hit(
        score: ScoreBlend.combine(text: batch.scores[index], factor: batch.factors[index]),
        document: batch.documents[index], coverage: coverage)
      if accepts(hit) { heap.insert(hit) }
    }
    batch.count = 0
  }

  /// Whether every phrase occurs in `document`: its terms at consecutive positions of one
  /// field (all cursors are at `document` or past it).
  private func phrasesHold(in document: UInt32) -> Bool {
    for members in phrases {
      var candidates: [UInt32] = []  // field << 30 | start position
      var isFirst = true
      for member in members {
        var found: [UInt32] = []
        for index in groupStarts[member.group]..<groupStarts[member.group + 1]
        where cursors[index].document == document {
          cursors[index].forEachPosition { field, position in
            if position >= member.offset {
              found.append(UInt32(field) << 30 | (position - member.offset))
            }
          }
        }
        if isFirst {
          candidates = found
          isFirst = false
        } else {
          candidates = candidates.filter { found.contains($0) }
        }
        if candidates.isEmpty { return false }
      }
    }
    return true
  }

  // MARK: Any term

  /// Any term, documents matching more terms first; every posting is visited.
  mutating func runDisjunction() {
    let groupCount = groupStarts.count - 1
    while true {
      var document = PostingCursor.end
      for cursor in cursors { document = min(document, cursor.document) }
      if document == PostingCursor.end { break }
      var coverage: UInt8 = 0
      var total: Float = 0
      for group in 0..<groupCount {
        var isPresent = false
        for index in groupStarts[group]..<groupStarts[group + 1]
        where cursors[index].document == document {
          isPresent = true
        }
        if isPresent {
          coverage += 1
          total += score(group: group, document: document)
        }
      }
      if phrases.isEmpty || phrasesHold(in: document) {
        count += 1
        if limit > 0 { offer(text: total, document: document, coverage: coverage) }
      }
      for index in cursors.indices where cursors[index].document == document {
        cursors[index].next()
      }
    }
  }
}
