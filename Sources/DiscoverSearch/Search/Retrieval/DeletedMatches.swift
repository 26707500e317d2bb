extension TypeSearcher {
  /// How many of the segment's `deleted` documents match: what a strategy's count, which
  /// visits or counts every match, holds beyond the live ones. Lucene's collectors check
  /// each match against the live documents instead; here the strategies that count without
  /// visiting matches (a document frequency, a popcount of bitmaps) keep doing so, and
  /// this one correction covers them all.
  ///
  /// - Complexity: O(w) for w bitmap words when every term has a bitmap; otherwise the
  ///   rarest term's postings and the deleted documents are walked together (each skips to
  ///   the other), O(min(d, p) · t) for d deleted documents, p postings of the rarest term
  ///   and t terms.
  func deletedMatches(
    _ deleted: DeletedDocuments, groups: [TermPlan], phrases: [ParsedQuery.Phrase],
    matching: Matching, blend: ScoreBlend
  ) -> Int {
    if let cache = deletedMatchCache, phrases.isEmpty, groups.count == 1,
      groups[0].alternatives.count == 1
    {
      // One term: what it holds of the deleted documents is fixed for the set's life.
      return cache.count(ofList: groups[0].alternatives[0].listIndex) {
        countDeletedMatches(
          deleted, groups: groups, phrases: phrases, matching: matching, blend: blend)
      }
    }
    return countDeletedMatches(
      deleted, groups: groups, phrases: phrases, matching: matching, blend: blend)
  }

  /// ``deletedMatches(_:groups:phrases:matching:blend:)``, counted.
  private func countDeletedMatches(
    _ deleted: DeletedDocuments, groups: [TermPlan], phrases: [ParsedQuery.Phrase],
    matching: Matching, blend: ScoreBlend
  ) -> Int {
    let postings = partition.postings
    if matching == .all && phrases.isEmpty,
      let bitmaps = Self.bitmapWords(of: groups, in: postings)
    {
      return deleted.words.withUnsafeBufferPointer { words in
        BitmapConjunction(
          groups: bitmaps + [[words.baseAddress!]],
          wordCount: min(postings.bitmapWordCount, words.count)
        ).count()
      }
    }
    let cursorCount = groups.reduce(0) { $0 + $1.alternatives.count }
    let scratch = UnsafeMutablePointer<UInt32>.allocate(
      capacity: max(cursorCount, 1) * PostingBlock.capacity)
    defer { scratch.deallocate() }
    var evaluation = Evaluation(
      searcher: self, blend: blend, groups: groups, phrases: phrases, scratch: scratch,
      limit: 0, after: nil)
    return evaluation.countMatches(among: deleted, matching: matching)
  }

  /// Each group's bitmaps, when every alternative of every group has one.
  private static func bitmapWords(of groups: [TermPlan], in postings: TypePostings)
    -> [[UnsafePointer<UInt64>]]?
  {
    var result: [[UnsafePointer<UInt64>]] = []
    for group in groups {
      var words: [UnsafePointer<UInt64>] = []
      for alternative in group.alternatives {
        guard let bitmap = postings.bitmapIndex(ofList: alternative.listIndex) else {
          return nil
        }
        words.append(UnsafePointer(postings.bitmaps.base + bitmap * postings.bitmapWordCount))
      }
      result.append(words)
    }
    return result
  }
}

extension Evaluation {
  /// How many documents of `deleted` match the groups (and phrases) under `matching`.
  ///
  /// For ``Matching/all``, the rarest group and the deleted documents leapfrog: each moves
  /// to the other's next document, so the walk costs the smaller of the two.
  mutating func countMatches(among deleted: DeletedDocuments, matching: Matching) -> Int {
    let groupCount = groupStarts.count - 1
    guard groupCount > 0 else { return 0 }
    var count = 0
    var target: UInt32 = 0
    while let candidate = deleted.next(from: target) {
      switch matching {
      case .all:
        let lead = advance(group: 0, to: candidate)
        guard lead != PostingCursor.end else { return count }
        guard lead == candidate else {
          target = lead
          continue
        }
        var isMatch = true
        for group in 1..<groupCount where advance(group: group, to: candidate) != candidate {
          isMatch = false
          break
        }
        if isMatch && (phrases.isEmpty || phrasesHold(in: candidate)) { count += 1 }
      case .any:
        var isPresent = false
        for group in 0..<groupCount where advance(group: group, to: candidate) == candidate {
          isPresent = true
        }
        if isPresent && (phrases.isEmpty || phrasesHold(in: candidate)) { count += 1 }
      }
      guard candidate < UInt32.max - 1 else { break }
      target = candidate + 1
    }
    return count
  }
}
