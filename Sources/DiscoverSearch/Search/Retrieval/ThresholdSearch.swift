/// Top hits of an AND of frequent terms by the threshold algorithm (Fagin, Lotem and Naor,
/// "Optimal aggregation algorithms for middleware", PODS 2001).
///
/// Frequent terms (those with a bitmap) keep their best postings sorted by impact, the
/// pre-saturation BM25F weight `x`. The search reads those lists from the top ("sorted
/// access"), taking next the list whose current entry weighs most; every new document is
/// checked against the other terms' bitmaps and scored exactly by reading its frequencies
/// through the bitmaps' rank directories ("random access"). The sum over terms of the
/// current entries' scores bounds every document not yet seen, so the search stops as soon
/// as the k-th best hit beats it: for "the a" it reads a few hundred postings instead of
/// half a million. Block-max bounds cannot do this when each term's maximum comes from a
/// different document.
///
/// Ties are exact: entries of equal impact are in document order, so an unseen document
/// that could only tie the k-th hit comes after it and cannot displace it (see
/// ``canStop(worst:bound:)``). When a truncated impact list runs out before the search can
/// stop, it gives up (`nil`) and the caller scans instead.
struct ThresholdSearch {
  private struct Alternative {
    /// The list's bitmap; only a lone term may lack one (its hits need no random access).
    var bitmap: UnsafePointer<UInt64>?
    var bitmapIndex: Int
    var listIndex: Int
    var list: PostingListInfo
    var documents: UnsafePointer<UInt32>
    var impacts: UnsafePointer<Float>
    var count: Int
    /// Whether the impact list holds every posting (otherwise entries past the end may
    /// have impacts up to the last one).
    var isComplete: Bool
    var position = 0
    var idf: Float
    var weight: Float

    /// The first position from `start` on whose impact is below `impact` (the list's end
    /// when there is none), found by galloping then bisecting (Bentley and Yao, "An almost
    /// optimal algorithm for unbounded searching", 1976): impacts descend, so a run of
    /// `n` equal ones costs `O(log n)` reads.
    func endOfRun(from start: Int, impact: Float) -> Int {
      var low = start
      var step = 1
      var high = start
      while high < count && impacts[high] >= impact {
        low = high + 1
        high = start + step
        step &*= 2
      }
      high = min(high, count)
      // impacts[low - 1] (or the run's first entry) is in the run; impacts[high] is not.
      while low < high {
        let middle = low + (high - low) / 2
        if impacts[middle] >= impact { low = middle + 1 } else { high = middle }
      }
      return low
    }
  }

  private let postings: TypePostings
  private let scorer: BM25F
  private let blend: ScoreBlend
  private let typeIndex: UInt8
  private let fieldCount: Int
  private var alternatives: [Alternative] = []
  /// Alternatives of group `g` are `groupStarts[g]..<groupStarts[g + 1]`.
  private var groupStarts: [Int] = [0]
  /// Each group's bound on unseen documents, as of the current round.
  private var groupBounds: [Float] = []

  /// After ``run(limit:after:)`` gave up: the k-th best score it had found, which every
  /// document of the final top hits reaches (`-infinity` when it found fewer than k). The
  /// scan that takes over prunes with it from the start instead of from nothing.
  private(set) var floorOnGivingUp = -Float.infinity
  /// The segment's deleted documents of the type, which never enter the hits.
  var deleted: DeletedDocuments?
  /// A score every hit that can still matter reaches, known beforehand (the k-th best of
  /// the segments searched before, every hit matching every term): the search stops once
  /// the bound on unseen documents falls below it, as a full heap's worst hit stops it.
  var floor = -Float.infinity

  /// Whether the query is one term with one alternative: hits are scored from their
  /// impacts, and the count is the document frequency.
  private var isSingleTerm: Bool { alternatives.count == 1 }

  /// Prepares the search.
  ///
  /// - Precondition: ``RetrievalPlanner/thresholdApplies(to:)``.
  init(partition: TypePartition, scorer: BM25F, blend: ScoreBlend, groups: [TermPlan]) {
    let postings = partition.postings
    precondition(
      scorer.readsImpacts(of: postings) && !groups.isEmpty,
      "a threshold search needs the impacts' weights and a term")
    self.postings = postings
    self.scorer = scorer
    self.blend = blend
    typeIndex = UInt8(partition.type.index)
    fieldCount = partition.fieldCount
    let isSingle = groups.count == 1 && groups[0].alternatives.count == 1
    for group in groups {
      for alternative in group.alternatives {
        let list = postings.lists[alternative.listIndex]
        let range = postings.impactRange(ofList: alternative.listIndex) ?? 0..<0
        let bitmap = postings.bitmapIndex(ofList: alternative.listIndex)
        precondition(
          !range.isEmpty && (bitmap != nil || isSingle),
          "a threshold search needs impact orders, and bitmaps for several terms")
        alternatives.append(
          Alternative(
            bitmap: bitmap.map { postings.bitmaps.base + $0 * postings.bitmapWordCount },
            bitmapIndex: bitmap ?? -1, listIndex: alternative.listIndex, list: list,
            documents: postings.impactDocuments.base + range.lowerBound,
            impacts: postings.impactValues.base + range.lowerBound, count: range.count,
            isComplete: range.count == Int(list.documentFrequency), idf: alternative.idf,
            weight: alternative.weight))
      }
      groupStarts.append(alternatives.count)
    }
    groupBounds = [Float](repeating: 0, count: groups.count)
  }

  /// The exact count (popcount of the AND of each group's OR of bitmaps) and the top hits,
  /// or `nil` when the impact lists ran out first.
  ///
  /// - Complexity: O(N/64) for the count; the search reads at most the impact lists.
  mutating func run(limit: Int, after: RankKey?) -> TypeHits? {
    let count = countMatches()
    guard limit > 0 else { return TypeHits(hits: [], count: count) }
    if !isSingleTerm && !expectsEnoughMatches(count: count, limit: limit) { return nil }
    var heap = TopHits(capacity: limit)
    var seen = DocumentSet(
      expectedCount: DocumentSet.bitmapThreshold / 2, universe: postings.documentCount)
    let groupCount = groupStarts.count - 1
    let isBlended = blend.factors != nil
    var batch = Batch()
    defer { batch.deallocate() }
    var entriesRead = 0
    var nextCheckpoint = ThresholdSearch.firstWalkCheckpoint
    // Documents scored by random access, in all and as of the last checkpoint.
    var scored = 0
    var scoredAtCheckpoint = 0
    while true {
      // The bound on unseen documents, and the list to read next.
      var bound: Float = 0
      var next = -1
      var nextGroup = 0
      var nextWeight: Float = -1
      var hasUnread = false
      for group in 0..<groupCount {
        var groupBound: Float = 0
        for index in groupStarts[group]..<groupStarts[group + 1] {
          let alternative = alternatives[index]
          let weight = currentWeight(alternative)
          groupBound = max(groupBound, weight)
          if alternative.position < alternative.count {
            hasUnread = true
            if weight > nextWeight {
              nextWeight = weight
              next = index
              nextGroup = group
            }
          }
        }
        groupBounds[group] = groupBound
        bound += groupBound
      }
      if heap.isFull {
        if isBlended {
          // A blended score can tie the bound from any document, so only a strict win stops.
          let blended = ScoreBlend.combine(text: bound, factor: blend.factorMaximum)
          if heap.worst.score > blended { break }
        } else if canStop(worst: heap.worst, bound: bound) {
          break
        }
      }
      // No unseen document can reach the earlier segments' k-th best (a tie still could).
      if floor > -.infinity {
        let best = isBlended ? ScoreBlend.combine(text: bound, factor: blend.factorMaximum) : bound
        if floor > best { break }
      }
      if !hasUnread {
        // Every list is read. Complete lists have shown every matching document; a
        // truncated one may hide more.
        if alternatives.allSatisfy(\.isComplete) || isExhaustedGroupComplete() { break }
        if isBlended && !isSingleTerm
          && walkRest(
            bound: bound, heap: &heap, seen: seen, batch: &batch, after: after,
            budget: ThresholdSearch.randomAccessCost * ThresholdSearch.walkBudget)
        {
          break
        }
        if heap.isFull { floorOnGivingUp = heap.worst.score }
        return nil
      }
      // Under the blend, the documents not seen yet may be cheaper to walk than the entries
      // still to read (impact heads of stop words are thousands long). Each time the
      // entries read double, the walk is taken if it would cost less than the last
      // doubling did (its entries, and its documents scored by random access): the next
      // one would cost about as much, and may not suffice.
      if isBlended && !isSingleTerm && heap.isFull && entriesRead >= nextCheckpoint {
        nextCheckpoint *= 2
        let recent = scored - scoredAtCheckpoint
        scoredAtCheckpoint = scored
        if walkRest(
          bound: bound, heap: &heap, seen: seen, batch: &batch, after: after,
          budget: entriesRead + ThresholdSearch.randomAccessCost * recent)
        {
          break
        }
      }
      // Read a batch from this list and score it together: the random accesses of a batch
      // (static factors, and other terms' frequencies) are independent, so their cache
      // misses overlap instead of following one another. Reading a few entries more than
      // needed never breaks the bound: each is scored exactly.
      //
      // Under the blend, a new document scores at most its weight in this list plus, for
      // every other group, that group's current bound (had it been read there, it would have
      // been seen), times the largest factor of its run of 64, which stays in cache: when
      // that cannot reach the k-th hit, it is dropped before any random access. Most
      // documents of a deep read are unpopular ones ruled out this way (``mayReach``).
      var others: Float = 0
      for group in 0..<groupCount where group != nextGroup { others += groupBounds[group] }
      let threshold =
        heap.isFull && isBlended && !isSingleTerm ? heap.worst.score : Float.infinity
      let alternative = alternatives[next]
      batch.count = 0
      // At most a batch's worth of entries is read before the bound is checked again, even
      // when most are dropped: reading on would overshoot where the search can stop.
      var position = alternative.position
      let end = min(position + Batch.capacity, alternative.count)
      entriesRead += end - position
      let dropsByBound = threshold < Float.infinity
      let listsEachOnce = isSingleTerm
      // Deep in a list, runs of entries share an impact (lengths are quantized to a byte),
      // so the text bound is computed once per run, by the same expression.
      var runImpact = -Float.infinity
      var runText = Float.infinity
      while position < end {
        let document = alternative.documents[position]
        let impact = alternative.impacts[position]
        position += 1
        var text = Float.infinity
        if dropsByBound {
          if impact != runImpact {
            runImpact = impact
            runText = alternative.weight * (alternative.idf * scorer.saturate(impact)) + others
          }
          text = runText
          // A dropped document is not marked seen: it cannot enter now, nor later (the
          // k-th score only rises), so meeting it again in another list costs at most a
          // wasted scoring, and most are dropped again.
          if !Self.mayReach(threshold, text: text, factor: blend.factorBound(of: document)) {
            // Equal impacts are in document order, which is popularity order: when no
            // document from this one on has a factor that lifts the run's text bound to
            // the k-th hit, the rest of the run is dropped alike, and is passed over.
            if !Self.mayReach(
              threshold, text: text, factor: blend.factorSuffixBound(of: document))
            {
              position = alternative.endOfRun(from: position, impact: impact)
              break
            }
            continue
          }
        }
        // A document missing from another group's bitmaps matches nothing: it is dropped
        // before its factor is loaded or it is scored. The bitmaps of a few frequent
        // words stay in cache; the factors and the frequencies of a deep read do not.
        if !listsEachOnce && !isInOtherGroups(document, except: nextGroup, groupCount: groupCount) {
          continue
        }
        // A lone term lists each document once.
        guard listsEachOnce || seen.insert(document) else { continue }
        // The text bound waits in the score lane, which scoring overwrites.
        batch.scores[batch.count] = text
        batch.append(document, impact)
      }
      alternatives[next].position = position
      // Past its run's largest factor, a document's own factor (one load, overlapped across
      // the batch) with the same text bound drops more of them before random access, which
      // costs a few loads per other list.
      let hasFactors = threshold < Float.infinity && blend.factors != nil
      if hasFactors, let factors = blend.factors {
        var kept = 0
        for index in 0..<batch.count {
          let document = batch.documents[index]
          let factor = factors.factors[Int(document)]
          guard Self.mayReach(threshold, text: batch.scores[index], factor: factor) else {
            continue
          }
          batch.documents[kept] = document
          batch.impacts[kept] = batch.impacts[index]
          batch.factors[kept] = factor
          kept += 1
        }
        batch.count = kept
      }
      scored += batch.count
      if isSingleTerm {
        // A document's impact is its whole text score.
        for index in 0..<batch.count {
          batch.scores[index] =
            alternative.weight * (alternative.idf * scorer.saturate(batch.impacts[index]))
        }
      } else {
        scoreBatch(&batch, from: next)
      }
      if isBlended && !hasFactors {
        batch.loadFactors(blend, below: heap.isFull ? heap.worst.score : -Float.infinity)
      }
      offer(batch, to: &heap, after: after)
    }
    return TypeHits(hits: heap.sorted(), count: count)
  }

  /// The threshold search's batches (``ScoringBatch``).
  private typealias Batch = ScoringBatch

  /// Scores a batch: every document's exact score, or `isMatch` false when it misses a
  /// group. Groups are summed in the same order as the scanning search, and the document's
  /// weighted frequency in the list it was read from is its stored impact (computed by the
  /// same function from the same frequencies and norms), so scores are bit-identical to the
  /// scan's. Random accesses go in stages across the batch (membership, then rank and
  /// block, then frequencies and norms), so that the loads of one stage do not wait on each
  /// other. With a bitmap, a posting's index is the document's rank, and every block but
  /// the last holds exactly 128 postings, so its block and slot follow.
  private func scoreBatch(_ batch: inout Batch, from source: Int) {
    let count = batch.count
    let access = BitmapRandomAccess(postings: postings, scorer: scorer)
    let best = batch.best
    let present = batch.present
    let x = batch.x
    for index in 0..<count {
      batch.scores[index] = 0
      batch.isMatch[index] = true
      x[index] = -1
    }
    for group in 0..<(groupStarts.count - 1) {
      for index in 0..<count {
        best[index] = 0
        present[index] = false
      }
      for alternativeIndex in groupStarts[group]..<groupStarts[group + 1] {
        let alternative = alternatives[alternativeIndex]
        if alternativeIndex == source {
          for index in 0..<count { x[index] = batch.impacts[index] }
        } else {
          guard alternative.bitmap != nil else { continue }
          access.weightedFrequencies(
            of: UnsafeBufferPointer(start: batch.documents, count: count),
            isWanted: UnsafeBufferPointer(start: batch.isMatch, count: count),
            listIndex: alternative.listIndex, bitmapIndex: alternative.bitmapIndex,
            into: UnsafeMutableBufferPointer(start: x, count: count))
        }
        for index in 0..<count where batch.isMatch[index] && x[index] >= 0 {
          present[index] = true
          best[index] = max(
            best[index], alternative.weight * (alternative.idf * scorer.saturate(x[index])))
        }
      }
      for index in 0..<count {
        if present[index] {
          batch.scores[index] += best[index]
        } else {
          batch.isMatch[index] = false
        }
      }
    }
  }

  /// Finishes a blended search by walking the documents of the conjunction not seen yet,
  /// once the impact lists ran out or are long to read on; returns `false`, having changed
  /// nothing, when the walk would cost more than `budget`.
  ///
  /// Every unseen document weighs at most the current impact in each list (the last one
  /// once a list ran out), so its text scores at most `bound`, the sum of those: far less
  /// than the lists' own bounds after a few thousand entries. Times its static factor,
  /// which is read in document order from memory that streams, that bound rules out most
  /// documents before any random access. Documents are in popularity order, so the walk
  /// ends where the largest factor of every later document cannot lift `bound` to the k-th
  /// hit. A first pass estimates the cost of the walk (``randomAccessCost``); past
  /// `budget`, reading on, or (once the lists ran out) the lead-sorted search, which pays
  /// per posting of the rarest term rather than per random access, is cheaper.
  private mutating func walkRest(
    bound: Float, heap: inout TopHits, seen: DocumentSet, batch: inout Batch, after: RankKey?,
    budget: Int
  ) -> Bool {
    guard let factors = blend.factors, heap.isFull else { return false }
    let conjunction = makeConjunction()
    /// Whether a document with static factor `factor` (or a run whose largest it is) may
    /// still enter.
    func mayEnter(_ factor: Float) -> Bool {
      Self.mayReach(heap.worst.score, text: bound, factor: factor)
    }
    let chunk = UnsafeMutablePointer<UInt64>.allocate(capacity: BitmapConjunction.chunkWords)
    defer { chunk.deallocate() }
    /// Whether no document from `first` on can lift `bound` to the k-th hit.
    func isPastTheLast(_ first: UInt32) -> Bool {
      !mayEnter(factors.suffixMaximum(of: first))
    }
    // The walk's cost is estimated from one word of the conjunction in ``walkSampling``,
    // and the count stops past the budget: the estimate only chooses between two exact
    // searches, and a search that reads on pays for it each time the entries read double.
    // Each document of a run of 64 that may enter costs a check of its factor, and each
    // that passes, random access in every list.
    var cost = 0
    let sampledBudget = budget / ThresholdSearch.walkSampling
    for word in stride(from: 0, to: conjunction.wordCount, by: ThresholdSearch.walkSampling) {
      let first = UInt32(word << 6)
      if isPastTheLast(first) || cost > sampledBudget { break }
      var bits = conjunction.word(at: word)
      guard bits != 0, mayEnter(factors.chunkMaximum(of: first)) else { continue }
      cost += bits.nonzeroBitCount
      while bits != 0 {
        let factor = factors.factors[Int(first) + bits.trailingZeroBitCount]
        bits &= bits &- 1
        if mayEnter(factor) { cost += ThresholdSearch.randomAccessCost }
      }
    }
    guard cost <= sampledBudget else { return false }
    func flush() {
      scoreBatch(&batch, from: -1)
      offer(batch, to: &heap, after: after)
      batch.count = 0
    }
    batch.count = 0
    var start = 0
    while start < conjunction.wordCount && !isPastTheLast(UInt32(start << 6)) {
      let count = min(BitmapConjunction.chunkWords, conjunction.wordCount - start)
      defer { start += count }
      guard conjunction.fill(from: start, count: count, into: chunk) > 0 else { continue }
      for offset in 0..<count {
        var bits = chunk[offset]
        let first = UInt32((start + offset) << 6)
        guard bits != 0, mayEnter(factors.chunkMaximum(of: first)) else { continue }
        while bits != 0 {
          let document = first + UInt32(bits.trailingZeroBitCount)
          bits &= bits &- 1
          let factor = factors.factors[Int(document)]
          guard mayEnter(factor), !seen.contains(document) else { continue }
          batch.append(document, 0)
          batch.factors[batch.count - 1] = factor
          if batch.count == Batch.capacity { flush() }
        }
      }
    }
    flush()
    return true
  }

  /// Whether a document whose text scores at most `text` and whose factor is at most
  /// `factor` may reach `threshold`. The margin covers rounding in the order the exact
  /// score is summed, so a bound never drops a document that ties.
  @inline(__always)
  private static func mayReach(_ threshold: Float, text: Float, factor: Float) -> Bool {
    !(ScoreBlend.combine(text: text, factor: factor) * (1 + 1e-5) < threshold)
  }

  /// Offers the scored matches of `batch` to `heap`, past the cursor `after`.
  @inline(__always)
  private func offer(_ batch: Batch, to heap: inout TopHits, after: RankKey?) {
    let coverage = UInt8(clamping: groupStarts.count - 1)
    for index in 0..<batch.count where batch.isMatch[index] {
      let hit = Hit(
        score: ScoreBlend.combine(text: batch.scores[index], factor: batch.factors[index]),
        document: batch.documents[index], coverage: coverage)
      if hit.isWanted(after: after, typeIndex: typeIndex, deleted: deleted) { heap.insert(hit) }
    }
  }

  /// Unseen documents that may enter, past which ``walkRest`` leaves the rest to the
  /// lead-sorted search once the impact lists ran out (as a cost, times
  /// ``randomAccessCost``).
  static let walkBudget = 16_384
  /// Entries read before the first check whether walking the rest is cheaper than reading
  /// on (then at every doubling): a walk costs a pass over the bitmaps first, worth it
  /// only once the reading is long.
  static let firstWalkCheckpoint = 2_048
  /// One word of the conjunction in this many is counted to estimate a walk's cost.
  static let walkSampling = 32
  /// The cost of scoring a document by random access in every list, in units of reading
  /// one entry or checking one document's factor (which mostly hit memory that streams or
  /// stays in cache): a few dependent cache misses per list against a fraction of one.
  static let randomAccessCost = 8

  /// Whether reading some impact list whole is expected to meet several times `limit`
  /// matches.
  ///
  /// Sorted access meets matches at about the rate `count / documentFrequency` of each list.
  /// When even a whole list is expected to yield few (words that rarely meet, like "to
  /// life this"), the search would read every list to its end, paying random access for
  /// each entry, and then give up; the scan led by the rarest list is cheaper from the
  /// start.
  private func expectsEnoughMatches(count: Int, limit: Int) -> Bool {
    let expected = alternatives.map {
      Double($0.count) * Double(count) / Double(max($0.list.documentFrequency, 1))
    }
    return (expected.max() ?? 0) >= Double(ThresholdSearch.matchesPerHit * limit)
  }

  /// Matches per requested hit that sorted access must be expected to meet.
  static let matchesPerHit = 32

  /// Whether `document` is in the bitmap of some alternative of every group but `except`
  /// (every alternative of a query of several terms has one).
  @inline(__always)
  private func isInOtherGroups(_ document: UInt32, except: Int, groupCount: Int) -> Bool {
    let word = Int(document >> 6)
    let bit: UInt64 = 1 << UInt64(document & 63)
    for group in 0..<groupCount where group != except {
      var isMember = false
      for index in groupStarts[group]..<groupStarts[group + 1]
      where alternatives[index].bitmap![word] & bit != 0 {
        isMember = true
        break
      }
      if !isMember { return false }
    }
    return true
  }

  /// Whether some group's lists are all complete and read, so every match was seen.
  private func isExhaustedGroupComplete() -> Bool {
    for group in 0..<(groupStarts.count - 1) {
      let range = groupStarts[group]..<groupStarts[group + 1]
      if range.allSatisfy({
        alternatives[$0].isComplete && alternatives[$0].position >= alternatives[$0].count
      }) {
        return true
      }
    }
    return false
  }

  /// Whether no unseen document can displace `worst`: it scores at most `bound`, and when
  /// that equals `worst`'s score, it comes after `worst` in document order. An unseen
  /// document scoring exactly `bound` sits at the current impact level of every
  /// single-alternative group's list, past its next entry, because equal impacts are in
  /// document order.
  private func canStop(worst: Hit, bound: Float) -> Bool {
    if worst.score > bound { return true }
    guard worst.score == bound else { return false }
    for group in 0..<(groupStarts.count - 1) where groupStarts[group + 1] - groupStarts[group] == 1
    {
      let alternative = alternatives[groupStarts[group]]
      if alternative.position < alternative.count
        && alternative.documents[alternative.position] > worst.document
      {
        return true
      }
    }
    return false
  }

  /// The score any unseen document can get from this alternative.
  @inline(__always)
  private func currentWeight(_ alternative: Alternative) -> Float {
    let x: Float
    if alternative.position < alternative.count {
      x = alternative.impacts[alternative.position]
    } else if alternative.isComplete {
      return 0
    } else {
      x = alternative.impacts[alternative.count - 1]
    }
    return alternative.weight * (alternative.idf * scorer.saturate(x))
  }

  /// Documents matching every group: popcount of the AND over groups of the OR of their
  /// alternatives' bitmaps.
  private func countMatches() -> Int {
    if isSingleTerm { return Int(alternatives[0].list.documentFrequency) }
    return makeConjunction().count()
  }

  /// The AND over groups of the OR of their alternatives' bitmaps (which every alternative
  /// has unless the query is a lone term).
  private func makeConjunction() -> BitmapConjunction {
    let groups = (0..<(groupStarts.count - 1)).map { group in
      alternatives[groupStarts[group]..<groupStarts[group + 1]].map { $0.bitmap! }
    }
    return BitmapConjunction(groups: groups, wordCount: postings.bitmapWordCount)
  }
}

/// A set of document ids, for the documents a search has already scored. It starts as a
/// small open-addressing table (linear probing; Knuth, *The Art of Computer Programming*,
/// vol. 3, §6.4) and turns into a bitmap over the type's documents once it holds
/// ``bitmapThreshold`` of them: a deep threshold search sees thousands of documents, and
/// a bitmap insert is one load and one store, without probing or rehashing.
struct DocumentSet {
  /// Entries past which the table turns into a bitmap.
  static let bitmapThreshold = 1_024
  private var slots: [UInt32]
  private var count = 0
  private var bits: [UInt64] = []

  /// Documents below this number: the size of the bitmap, allocated once (0: sized by the
  /// largest document seen, and grown as needed).
  private let universe: Int

  /// A set sized to take `expectedCount` documents without growing, of documents below
  /// `universe` when it is known.
  init(expectedCount: Int = 0, universe: Int = 0) {
    var size = 256
    while size < expectedCount * 2 + 2 { size *= 2 }
    slots = [UInt32](repeating: UInt32.max, count: size)
    self.universe = universe
  }

  /// Whether `document` is in the set.
  func contains(_ document: UInt32) -> Bool {
    if !bits.isEmpty {
      let word = Int(document >> 6)
      return word < bits.count && bits[word] & (1 << UInt64(document & 63)) != 0
    }
    let mask = slots.count - 1
    var slot = Int(document &* 0x9E37_79B1) & mask
    while true {
      let value = slots[slot]
      if value == document { return true }
      if value == UInt32.max { return false }
      slot = (slot + 1) & mask
    }
  }

  /// Inserts `document`; returns `false` when it was already there.
  mutating func insert(_ document: UInt32) -> Bool {
    if !bits.isEmpty { return insertBit(document) }
    if count * 2 >= slots.count { grow(including: document) }
    if !bits.isEmpty { return insertBit(document) }
    let mask = slots.count - 1
    var slot = Int(document &* 0x9E37_79B1) & mask
    while true {
      let value = slots[slot]
      if value == document { return false }
      if value == UInt32.max {
        slots[slot] = document
        count += 1
        return true
      }
      slot = (slot + 1) & mask
    }
  }

  @inline(__always)
  private mutating func insertBit(_ document: UInt32) -> Bool {
    let word = Int(document >> 6)
    if word >= bits.count {
      bits.append(contentsOf: repeatElement(0, count: word + 1 - bits.count))
    }
    let mask: UInt64 = 1 << UInt64(document & 63)
    if bits[word] & mask != 0 { return false }
    bits[word] |= mask
    return true
  }

  /// Doubles the table, or turns it into a bitmap sized by the largest document seen.
  private mutating func grow(including document: UInt32) {
    let old = slots
    count = 0
    if old.count / 2 >= DocumentSet.bitmapThreshold {
      // Sized once for every document when their number is known: growing it as larger
      // documents come copies it again and again.
      var largest = document
      for value in old where value != UInt32.max { largest = max(largest, value) }
      bits = [UInt64](repeating: 0, count: max(Int(largest >> 6), universe >> 6) + 1)
      slots = []
      for value in old where value != UInt32.max { _ = insertBit(value) }
      return
    }
    slots = [UInt32](repeating: UInt32.max, count: old.count * 2)
    for value in old where value != UInt32.max { _ = insert(value) }
  }
}

/// Up to ``capacity`` documents scored together, in storage allocated once per search: the
/// threshold search's batches, and the matches of the bitmap walk
/// (`Evaluation.offer(_:coverage:)` in TypeSearcher.swift). Scoring a batch reads each list
/// for all its documents in stages, so that their cache misses overlap.
struct ScoringBatch {
  static let capacity = 16
  var count = 0
  /// One allocation: documents, impacts, scores, factors, then the scratch of
  /// `scoreBatch` (best, x), then isMatch and present.
  private let storage = UnsafeMutableRawPointer.allocate(
    byteCount: ScoringBatch.capacity * (4 * 6 + 2), alignment: 16)
  var documents: UnsafeMutablePointer<UInt32> {
    storage.assumingMemoryBound(to: UInt32.self)
  }
  /// The weighted frequency of each document in the list it was read from.
  var impacts: UnsafeMutablePointer<Float> { floats(lane: 1) }
  var scores: UnsafeMutablePointer<Float> { floats(lane: 2) }
  var factors: UnsafeMutablePointer<Float> { floats(lane: 3) }
  var best: UnsafeMutablePointer<Float> { floats(lane: 4) }
  var x: UnsafeMutablePointer<Float> { floats(lane: 5) }

  /// The `lane`-th run of ``capacity`` four-byte values of the storage.
  @inline(__always)
  private func floats(lane: Int) -> UnsafeMutablePointer<Float> {
    (storage + lane * 4 * ScoringBatch.capacity).assumingMemoryBound(to: Float.self)
  }

  var isMatch: UnsafeMutablePointer<Bool> {
    (storage + 24 * ScoringBatch.capacity).assumingMemoryBound(to: Bool.self)
  }
  var present: UnsafeMutablePointer<Bool> {
    (storage + 25 * ScoringBatch.capacity).assumingMemoryBound(to: Bool.self)
  }

  init() {
    for index in 0..<ScoringBatch.capacity {
      isMatch[index] = true
      factors[index] = 1
    }
  }

  mutating func append(_ document: UInt32, _ impact: Float) {
    documents[count] = document
    impacts[count] = impact
    isMatch[count] = true
    count += 1
  }

  /// Reads the static factor of every match that could score at least `threshold` with
  /// the largest factor of its run of 64 documents, and drops the others; the loads are
  /// independent of each other.
  func loadFactors(_ blend: ScoreBlend, below threshold: Float) {
    guard let factors = blend.factors else { return }
    for index in 0..<count where isMatch[index] {
      // The largest factor of the document's run of 64 (in cache) before its own.
      let runMaximum = factors.chunkMaximum(of: documents[index])
      if ScoreBlend.combine(text: scores[index], factor: runMaximum) < threshold {
        isMatch[index] = false
      } else {
        self.factors[index] = factors.factors[Int(documents[index])]
      }
    }
  }

  func deallocate() { storage.deallocate() }
}
