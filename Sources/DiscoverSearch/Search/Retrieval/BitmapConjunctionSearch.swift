extension Evaluation {
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
  mutating func runBitmapConjunction(wordCount: Int) {
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
  mutating func offer(_ batch: inout ScoringBatch, coverage: UInt8) {
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

}
