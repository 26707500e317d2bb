/// An AND of a rarer term with frequent ones ("the cake"), ranked from the rarer term's
/// score down.
///
/// When the rarest term has no bitmap but every other term has one, a single pass over the
/// rarest list counts the matches exactly (one bitmap probe per document and term) and keeps
/// them with their frequencies of the rarest term. Their scores for that term are computed in
/// one loop of independent loads, then the matches are visited from the highest such score
/// down. A match scores at most its rarest-term score plus the other terms' list bounds, so
/// once that sum drops below the k-th best hit, no later match can enter, and the search
/// stops: the threshold algorithm with one sorted list (Fagin, Lotem and Naor, 2001). Only
/// the matches visited pay for random access into the frequent terms' lists, in staged
/// batches (``BitmapRandomAccess``). The block-max scan cannot prune here, because nearly
/// every block of a frequent term holds one document at its maximum.
struct LeadSortedSearch {
  private let partition: TypePartition
  private let scorer: BM25F
  private let blend: ScoreBlend
  private let groups: [TermPlan]
  /// The bitmap of each group after the first.
  private let bitmaps: [Int]
  /// The segment's deleted documents of the type, which never enter the hits.
  var deleted: DeletedDocuments?

  /// Prepares the search.
  ///
  /// - Precondition: ``RetrievalPlanner/leadSortedApplies(to:)``.
  init(partition: TypePartition, scorer: BM25F, blend: ScoreBlend, groups: [TermPlan]) {
    precondition(
      groups.count >= 2 && groups.allSatisfy({ $0.alternatives.count == 1 }),
      "a lead-sorted search needs two terms or more, one alternative each")
    let postings = partition.postings
    let bitmaps = groups.dropFirst().map { group in
      // The planner checked that these terms have bitmaps.
      postings.bitmapIndex(ofList: group.alternatives[0].listIndex)!
    }
    self.partition = partition
    self.scorer = scorer
    self.blend = blend
    self.groups = groups
    self.bitmaps = bitmaps
  }

  /// The exact count and the top hits.
  ///
  /// - Complexity: O(d) bitmap probes for the rarest term's d documents, O(m log m) to order
  ///   its m matches, and random access for the matches visited.
  /// - Parameter floor: A score every final top hit reaches, known beforehand (from a
  ///   threshold search that gave up): the visits stop once no remaining bound reaches it.
  func run(limit: Int, after: RankKey?, floor: Float = -.infinity) -> TypeHits {
    let postings = partition.postings
    let lead = groups[0].alternatives[0]
    let words = bitmaps.map { postings.bitmaps.base + $0 * postings.bitmapWordCount }
    guard limit > 0 else {
      return TypeHits(hits: [], count: Self.count(lead.listIndex, in: postings, and: words))
    }
    // Pass 1: count, and keep the matches with their frequencies of the rarest term. The
    // matches are at most the lead's postings, so both arrays are written in place, without
    // an append's capacity and uniqueness checks per match. Each block's documents are
    // tested first without a branch (a match is as likely as not, so a branch per test
    // would mispredict often and leave one bitmap load in flight at a time), keeping the
    // slots of its matches; then only those have their frequencies read.
    let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * PostingBlock.capacity)
    defer { scratch.deallocate() }
    let matchSlots = scratch + PostingBlock.capacity
    let capacity = Int(postings.lists[lead.listIndex].documentFrequency)
    let fieldCount = partition.fieldCount
    var frequencies: [SIMD4<UInt32>] = []
    let documents = [UInt32](unsafeUninitializedCapacity: capacity) { documents, documentCount in
      frequencies = [SIMD4<UInt32>](unsafeUninitializedCapacity: capacity) {
        frequencies, frequencyCount in
        var cursor = PostingCursor(
          postings: postings, listIndex: lead.listIndex, scratch: scratch)
        var count = 0
        while cursor.document != PostingCursor.end {
          let block = cursor.blockDocuments
          var matches = 0
          for slot in 0..<block.count {
            let document = block[slot]
            var isMatch: UInt64 = 1
            for bitmap in words { isMatch &= bitmap[Int(document >> 6)] >> UInt64(document & 63) }
            matchSlots[matches] = UInt32(slot)
            matches &+= Int(isMatch & 1)
          }
          for match in 0..<min(matches, capacity - count) {
            let slot = Int(matchSlots[match])
            documents.initializeElement(at: count, to: block[slot])
            // Lanes built whole, not set one by one (see BM25F.fieldPart).
            frequencies.initializeElement(
              at: count,
              to: SIMD4(
                cursor.frequency(inField: 0, slot: slot),
                fieldCount > 1 ? cursor.frequency(inField: 1, slot: slot) : 0,
                fieldCount > 2 ? cursor.frequency(inField: 2, slot: slot) : 0,
                fieldCount > 3 ? cursor.frequency(inField: 3, slot: slot) : 0))
            count += 1
          }
          cursor.jump(toBlock: cursor.block + 1)
        }
        frequencyCount = count
      }
      documentCount = frequencies.count
    }
    let count = documents.count
    guard count > 0 else { return TypeHits(hits: [], count: count) }

    // Pass 2: the rarest term's score of every match, as the scan computes it.
    var leadScores = [Float](repeating: 0, count: count)
    for index in 0..<count {
      let x = BM25F.weightedFrequency(
        frequencies: frequencies[index],
        normCodes: scorer.norms + Int(documents[index]) * partition.fieldCount,
        fieldCount: partition.fieldCount, weights: scorer.weights,
        inverseNormalization: scorer.inverseNormalization)
      leadScores[index] = lead.weight * (lead.idf * scorer.saturate(x))
    }
    var restBound: Float = 0
    for group in groups.dropFirst() {
      let alternative = group.alternatives[0]
      let maxima = postings.listFieldMaxima.base + alternative.listIndex * postings.fieldCount
      restBound += alternative.weight * scorer.bound(fieldMaxima: maxima, idf: alternative.idf)
    }
    // Each match's bound: its rarest-term score plus the others' list bounds, times its own
    // static factor. Matches are visited from the best bound down (ties in document order),
    // popped from a heap: the search usually stops after a small part of them, so sorting
    // them all would cost more than the visits.
    var order = VisitOrder(count: count) { index in
      ScoreBlend.combine(
        text: leadScores[index] + restBound, factor: blend.factor(of: documents[index]))
    }

    // Pass 3: from the best rarest-term score down, in batches, until nothing can enter.
    let access = BitmapRandomAccess(postings: postings, scorer: scorer)
    let typeIndex = UInt8(partition.type.index)
    let coverage = UInt8(clamping: groups.count)
    var heap = TopHits(capacity: limit)
    let batchSize = 16
    var batchDocuments = [UInt32](repeating: 0, count: batchSize)
    var totals = [Float](repeating: 0, count: batchSize)
    var x = [Float](repeating: 0, count: batchSize)
    let isWanted = [Bool](repeating: true, count: batchSize)
    while let best = order.peekBound {
      // Bounds only fall from here: stop when even the best remaining cannot beat the k-th.
      if best < floor || (heap.isFull && best < heap.worst.score) { break }
      var size = 0
      while size < batchSize, let index = order.pop() {
        batchDocuments[size] = documents[index]
        totals[size] = leadScores[index]
        size += 1
      }
      for (groupOffset, group) in groups.dropFirst().enumerated() {
        let alternative = group.alternatives[0]
        batchDocuments.withUnsafeBufferPointer { batch in
          isWanted.withUnsafeBufferPointer { isWanted in
            x.withUnsafeMutableBufferPointer { x in
              access.weightedFrequencies(
                of: UnsafeBufferPointer(rebasing: batch[0..<size]),
                isWanted: UnsafeBufferPointer(rebasing: isWanted[0..<size]),
                listIndex: alternative.listIndex, bitmapIndex: bitmaps[groupOffset], into: x)
            }
          }
        }
        for offset in 0..<size {
          totals[offset] += alternative.weight * (alternative.idf * scorer.saturate(x[offset]))
        }
      }
      for offset in 0..<size {
        let document = batchDocuments[offset]
        let hit = Hit(
          score: ScoreBlend.combine(text: totals[offset], factor: blend.factor(of: document)),
          document: document, coverage: coverage)
        if hit.isWanted(after: after, typeIndex: typeIndex, deleted: deleted) { heap.insert(hit) }
      }
    }
    return TypeHits(hits: heap.sorted(), count: count)
  }

  /// The number of documents of list `listIndex` set in every bitmap of `words`: a facet
  /// count, which needs no frequency. Each block's documents are decoded once and tested
  /// without a branch per document.
  private static func count(
    _ listIndex: Int, in postings: TypePostings, and words: [UnsafePointer<UInt64>]
  ) -> Int {
    let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: PostingBlock.capacity)
    defer { scratch.deallocate() }
    var cursor = PostingCursor(postings: postings, listIndex: listIndex, scratch: scratch)
    var count = 0
    while cursor.document != PostingCursor.end {
      for document in cursor.blockDocuments {
        var isMatch: UInt64 = 1
        for bitmap in words { isMatch &= bitmap[Int(document >> 6)] >> UInt64(document & 63) }
        count &+= Int(isMatch & 1)
      }
      cursor.jump(toBlock: cursor.block + 1)
    }
    return count
  }
}

/// Match indexes popped from the best bound down, ties by index: a binary max-heap over
/// keys that pack a bound's bits with the complemented index, built in O(n) (Floyd,
/// "Algorithm 245: Treesort 3", 1964) and popped in O(log n).
struct VisitOrder {
  private var keys: [UInt64]

  /// - Parameter bound: each index's bound, non-negative (whose bits then order as the
  ///   values do).
  init(count: Int, bound: (Int) -> Float) {
    keys = (0..<count).map { index in
      UInt64(max(bound(index), 0).bitPattern) << 32 | UInt64(UInt32.max - UInt32(index))
    }
    var node = keys.count / 2
    while node > 0 {
      node -= 1
      siftDown(node)
    }
  }

  /// The best remaining bound, or `nil` when every index was popped.
  var peekBound: Float? {
    keys.first.map { Float(bitPattern: UInt32($0 >> 32)) }
  }

  mutating func pop() -> Int? {
    guard let top = keys.first else { return nil }
    let last = keys.removeLast()
    if !keys.isEmpty {
      keys[0] = last
      siftDown(0)
    }
    return Int(UInt32.max - UInt32(truncatingIfNeeded: top))
  }

  private mutating func siftDown(_ start: Int) {
    let count = keys.count
    keys.withUnsafeMutableBufferPointer { keys in
      var node = start
      let value = keys[node]
      while true {
        var child = 2 * node + 1
        if child >= count { break }
        if child + 1 < count && keys[child + 1] > keys[child] { child += 1 }
        if keys[child] <= value { break }
        keys[node] = keys[child]
        node = child
      }
      keys[node] = value
    }
  }
}
