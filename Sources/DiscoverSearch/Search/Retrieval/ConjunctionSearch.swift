import CPrefetch

extension Evaluation {
  /// Every term: the rarest leads, the others are probed by bitmap or by skipping.
  mutating func runConjunction() {
    let groupCount = groupStarts.count - 1
    let coverage = UInt8(clamping: groupCount)
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
              if readsBitmaps && group > 0 && phrases.isEmpty, bitmaps[group] != nil {
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
  func prefetchMatchData(ahead distance: Int) {
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
  func bitmapScore(group: Int, document: UInt32) -> Float {
    var best: Float = 0
    for bitmap in bitmaps[group]! where bitmap.contains(document) {
      let x = randomAccess.weightedFrequency(
        ofMember: document, listIndex: bitmap.list, bitmapIndex: bitmap.bitmap)
      best = max(best, weights[bitmap.cursor] * (idfs[bitmap.cursor] * scorer.saturate(x)))
    }
    return best
  }

}
