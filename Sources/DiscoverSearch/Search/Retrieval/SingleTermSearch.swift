extension Evaluation {
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
  mutating func scoreBlendedBlock(
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

}
