import CPrefetch

/// One alternative's bitmap within a group, with what random access to it needs.
struct GroupBitmap {
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
/// The document-at-a-time strategies' shared state (``RetrievalStrategy/singleTerm``,
/// ``RetrievalStrategy/singleTermBlended``, ``RetrievalStrategy/conjunction``,
/// ``RetrievalStrategy/bitmapConjunction``, ``RetrievalStrategy/disjunction``): cursors
/// over every alternative's postings, the top hits, the count and the pruning floor. Each
/// strategy is in a file of its own.
struct Evaluation {
  let scorer: BM25F
  let blend: ScoreBlend
  let typeIndex: UInt8
  let fieldCount: Int
  let after: RankKey?
  let limit: Int
  /// The segment's deleted documents of the type, which never enter the hits.
  let deleted: DeletedDocuments?
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
  /// Whether a conjunction reads the terms that have bitmaps at random through them
  /// (``BitmapRandomAccess``) rather than by decoding their blocks: with impact orders on,
  /// as the bitmap strategies run.
  let readsBitmaps: Bool
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
    deleted = searcher.deleted
    heap = TopHits(capacity: limit)
    let postings = searcher.partition.postings
    randomAccess = BitmapRandomAccess(postings: postings, scorer: searcher.scorer)
    readsBitmaps = searcher.usesImpactOrders
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

  /// Runs `strategy`, one of the document-at-a-time ones.
  mutating func run(_ strategy: RetrievalStrategy, groups: [TermPlan], postings: TypePostings) {
    switch strategy {
    case .singleTermBlended:
      // The planner checked that the one term has an impact head.
      let head = postings.impactRange(ofList: groups[0].alternatives[0].listIndex) ?? 0..<0
      runSingleTermBlended(head: head, postings: postings)
    case .singleTerm: runSingleTerm()
    case .bitmapConjunction: runBitmapConjunction(wordCount: postings.bitmapWordCount)
    case .conjunction: runConjunction()
    case .disjunction: runDisjunction()
    case .documentFrequency, .impactThreshold, .leadSorted:
      preconditionFailure("\(strategy) is not a document-at-a-time strategy")
    }
  }

  @inline(__always)
  func accepts(_ hit: Hit) -> Bool {
    hit.isWanted(after: after, typeIndex: typeIndex, deleted: deleted)
  }

  /// Offers `document` with text score `text`.
  @inline(__always)
  mutating func offer(text: Float, document: UInt32, coverage: UInt8) {
    let hit = Hit(
      score: ScoreBlend.combine(text: text, factor: blend.factor(of: document)),
      document: document, coverage: coverage)
    if accepts(hit) { heap.insert(hit) }
  }

  /// Whether a document scoring at most `bound` can be among the top hits.
  @inline(__always)
  func canEnter(bound: Float, coverage: UInt8) -> Bool {
    bound >= floor && heap.admits(bound: bound, coverage: coverage)
  }

  /// Whether pruning by bounds can skip anything yet.
  @inline(__always)
  var prunes: Bool { heap.isFull || floor > -Float.infinity }

  /// The bound of block `block` of cursor 0 given its text bound.
  @inline(__always)
  func blendedBound(text: Float, block: Int) -> Float {
    ScoreBlend.combine(
      text: text,
      factor: blend.factorMaximum(
        from: cursors[0].firstDocumentBound(ofBlock: block),
        through: cursors[0].lastDocument(ofBlock: block)))
  }
  // MARK: All terms

  /// The smallest current document among group `group`'s alternatives after moving them
  /// to `target` or beyond.
  @inline(__always)
  mutating func advance(group: Int, to target: UInt32) -> UInt32 {
    var smallest = PostingCursor.end
    for index in groupStarts[group]..<groupStarts[group + 1] {
      cursors[index].advance(to: target)
      smallest = min(smallest, cursors[index].document)
    }
    return smallest
  }

  /// The best alternative score of group `group` in `document` (its cursors are there or past).
  @inline(__always)
  func score(group: Int, document: UInt32) -> Float {
    var best: Float = 0
    for index in groupStarts[group]..<groupStarts[group + 1]
    where cursors[index].document == document {
      best = max(best, weights[index] * scorer.score(cursors[index], idf: idfs[index]))
    }
    return best
  }

  /// The bound of group `group` over the blocks its cursors are in.
  @inline(__always)
  func blockBound(group: Int) -> Float {
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

  /// Whether every phrase occurs in `document`: its terms at consecutive positions of one
  /// field (all cursors are at `document` or past it).
  func phrasesHold(in document: UInt32) -> Bool {
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

}
