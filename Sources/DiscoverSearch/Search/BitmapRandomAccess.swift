/// Reads a frequent term's weighted frequency `x` in many documents at once, through its
/// bitmap and rank directory.
///
/// A document's rank in the bitmap is its posting's index in the list, and every block but
/// the last holds exactly 128 postings, so the posting's block and slot follow without
/// decoding anything. The work goes in stages across the documents (membership, then rank
/// and block, then frequencies and norms): the loads of one stage do not depend on each
/// other, so their cache misses overlap instead of following one another.
struct BitmapRandomAccess {
  let postings: TypePostings
  let scorer: BM25F
  private let fieldCount: Int

  init(postings: TypePostings, scorer: BM25F) {
    self.postings = postings
    self.scorer = scorer
    fieldCount = postings.fieldCount
  }

  /// Sets `x[i]` to the term's weighted frequency in `documents[i]`, or to -1 when the
  /// document does not contain it, for every `i` where `isWanted[i]` (others are left
  /// alone).
  ///
  /// - Parameters:
  ///   - listIndex: The term's list, which must have a bitmap (`bitmapIndex`).
  /// - Complexity: O(n) for n documents, with at most a few cache misses each, overlapped.
  func weightedFrequencies(
    of documents: UnsafeBufferPointer<UInt32>, isWanted: UnsafeBufferPointer<Bool>,
    listIndex: Int, bitmapIndex: Int, into x: UnsafeMutableBufferPointer<Float>
  ) {
    let count = documents.count
    let bitmap = postings.bitmaps.base + bitmapIndex * postings.bitmapWordCount
    let list = postings.lists[listIndex]
    withUnsafeTemporaryAllocation(of: Int.self, capacity: count * 2) { scratch in
      let slots = scratch.baseAddress!
      let offsets = slots + count
      // Stage 1: membership.
      for index in 0..<count where isWanted[index] {
        let document = documents[index]
        let isMember = bitmap[Int(document >> 6)] & (1 << UInt64(document & 63)) != 0
        x[index] = isMember ? 0 : -1
      }
      // Stage 2: rank, block and slot, and the block's offset.
      for index in 0..<count where isWanted[index] && x[index] == 0 {
        let rank = postings.rank(of: documents[index], inBitmap: bitmapIndex)
        slots[index] = rank & (PostingBlock.capacity - 1)
        offsets[index] = blockOffset(ofRank: rank, in: list)
      }
      // Stage 3: frequencies and norms.
      for index in 0..<count where isWanted[index] && x[index] == 0 {
        x[index] = weightedFrequency(
          offset: offsets[index], slot: slots[index], document: documents[index])
      }
    }
  }

  /// The weighted frequency of one document, which must be in the list's bitmap.
  @inline(__always)
  func weightedFrequency(ofMember document: UInt32, listIndex: Int, bitmapIndex: Int) -> Float {
    let rank = postings.rank(of: document, inBitmap: bitmapIndex)
    return weightedFrequency(
      offset: blockOffset(ofRank: rank, in: postings.lists[listIndex]),
      slot: rank & (PostingBlock.capacity - 1), document: document)
  }

  /// The byte offset of the block holding the list's posting number `rank`.
  @inline(__always)
  private func blockOffset(ofRank rank: Int, in list: PostingListInfo) -> Int {
    list.blockCount > 1
      ? Int(postings.blockDataOffsets[Int(list.firstBlock) + (rank >> 7)])
      : Int(list.dataOffset)
  }

  /// The weighted frequency of the posting at `slot` of the block at byte `offset`.
  @inline(__always)
  func weightedFrequency(offset: Int, slot: Int, document: UInt32) -> Float {
    let header = postings.bytes.base + offset
    let count = Int(header[0]) + 1
    var data =
      UnsafeRawPointer(header + 2 + fieldCount)
      + BitPacking.byteCount(count: count, width: Int(header[1]))
    let normCodes = scorer.norms + Int(document) * fieldCount
    // The parts in field order, as BM25F.weightedFrequency adds them.
    var x: Float = 0
    for field in 0..<fieldCount {
      let width = Int(header[2 + field])
      if width > 0 {
        let frequency = BitPacking.value(at: slot, from: data, width: width)
        data += BitPacking.byteCount(count: count, width: width)
        if frequency != 0 {
          x += BM25F.fieldPart(
            frequency: frequency, field: field, normCode: normCodes[field],
            weights: scorer.weights, inverseNormalization: scorer.inverseNormalization)
        }
      }
    }
    return x
  }
}
