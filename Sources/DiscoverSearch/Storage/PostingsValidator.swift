/// Checks that a type's postings read from disk are internally consistent, so that a
/// damaged or crafted file whose checksums still match cannot make a search read out of
/// bounds: every list, block header, bit width, offset and document id is verified.
///
/// The tables are checked on open (``validateTables(termCount:)``); a list's blocks, in
/// ``IndexVerification/full`` mode on open too, otherwise before the first search that reads
/// the list (``PostingListChecks``).
struct PostingsValidator {
  let postings: TypePostings
  let path: String

  private func corrupt(_ what: String) -> SearchError {
    SearchError(.corruptIndex, "\(path): \(what); rebuild the index")
  }

  /// Checks the tables and every list.
  ///
  /// - Complexity: O(p) in the number of postings (every block is decoded once).
  func validate(termCount: Int) throws {
    try validateTables(termCount: termCount)
    for list in 0..<postings.lists.count { try validateList(list) }
  }

  /// Checks what every list points into: the tables' sizes and orders, and the term ranks.
  ///
  /// - Complexity: O(t / 64 + l) for t terms in the dictionary and l lists with bitmaps or
  ///   impact orders.
  func validateTables(termCount: Int) throws {
    let fieldCount = postings.fieldCount
    guard postings.termPresence.count == (termCount + 63) >> 6,
      postings.listFieldMaxima.count == postings.lists.count * fieldCount,
      postings.blockDataOffsets.count == postings.blockLastDocuments.count,
      postings.blockPositionOffsets.count == postings.blockLastDocuments.count,
      postings.blockFieldMaxima.count == postings.blockLastDocuments.count * fieldCount,
      postings.bytes.count >= PostingBlock.padding,
      postings.positions.count >= PostingBlock.padding,
      postings.bitmaps.count % max(postings.bitmapWordCount, 1) == 0
    else { throw corrupt("posting tables of mismatched sizes") }
    let bitmapTotal =
      postings.bitmapWordCount == 0 ? 0 : postings.bitmaps.count / postings.bitmapWordCount
    guard postings.rankDirectory.count == bitmapTotal * postings.rankBlockCount,
      postings.impactStarts.count == postings.impactLists.count + 1,
      postings.impactStarts[0] == 0,
      Int(postings.impactStarts[postings.impactLists.count]) == postings.impactDocuments.count,
      postings.impactValues.count == postings.impactDocuments.count
    else { throw corrupt("impact tables of mismatched sizes") }
    for index in 0..<postings.impactLists.count {
      guard postings.impactStarts[index] <= postings.impactStarts[index + 1],
        Int(postings.impactLists[index]) < postings.lists.count,
        index == 0 || postings.impactLists[index] > postings.impactLists[index - 1]
      else { throw corrupt("impact tables out of order") }
      let length = Int(postings.impactStarts[index + 1] - postings.impactStarts[index])
      guard length <= Int(postings.lists[Int(postings.impactLists[index])].documentFrequency) else {
        throw corrupt("an impact order is longer than its list")
      }
    }
    // The term ranks must be those of the presence bits, and count exactly the lists.
    let ranks = TypePostings.makeRankDirectory(postings.termPresence.buffer)
    guard ranks.count == postings.termRanks.count,
      ranks.elementsEqual(postings.termRanks.buffer),
      postings.termPresence.buffer.reduce(0, { $0 + $1.nonzeroBitCount }) == postings.lists.count
    else { throw corrupt("the term table of a type is damaged") }
    let bitmapCount =
      postings.bitmapWordCount == 0 ? 0 : postings.bitmaps.count / postings.bitmapWordCount
    guard postings.bitmapLists.count == bitmapCount else {
      throw corrupt("bitmap tables of mismatched sizes")
    }
    for index in 0..<postings.bitmapLists.count {
      guard Int(postings.bitmapLists[index]) < postings.lists.count,
        index == 0 || postings.bitmapLists[index] > postings.bitmapLists[index - 1]
      else { throw corrupt("the bitmap table is damaged") }
    }
  }

  /// Checks list `listIndex`: its header, every block (offsets, bit widths, document ids
  /// against the block table and the document count), its length, its bitmap's bits and its
  /// impact entries. Relies on ``validateTables(termCount:)`` having passed.
  ///
  /// - Complexity: O(p) in the list's postings.
  func validateList(_ listIndex: Int) throws {
    let fieldCount = postings.fieldCount
    let documentCount = postings.documentCount
    let dataLimit = postings.bytes.count - PostingBlock.padding
    let list = postings.lists[listIndex]
    let blockCount = Int(list.blockCount)
    guard blockCount >= 1, Int(list.documentFrequency) <= documentCount else {
      throw corrupt("a posting list header is damaged")
    }
    if blockCount > 1 {
      guard Int(list.firstBlock) + blockCount <= postings.blockLastDocuments.count else {
        throw corrupt("a posting list points past the block table")
      }
    }
    let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: PostingBlock.capacity)
    defer { scratch.deallocate() }
    var previous: Int64 = -1
    var total = 0
    for block in 0..<blockCount {
      let offset =
        blockCount > 1
        ? Int(postings.blockDataOffsets[Int(list.firstBlock) + block]) : Int(list.dataOffset)
      let positionOffset =
        blockCount > 1
        ? Int(postings.blockPositionOffsets[Int(list.firstBlock) + block])
        : Int(list.positionOffset)
      guard offset + 2 + fieldCount <= dataLimit, positionOffset < postings.positions.count else {
        throw corrupt("a posting block lies outside the postings")
      }
      let header = postings.bytes.base + offset
      let count = Int(header[0]) + 1
      // The count byte can say 256, but decoders unpack into buffers of a block's 128, and
      // random access finds a posting's block and slot from its rank, as if every block
      // but the last were full.
      guard count <= PostingBlock.capacity,
        block == blockCount - 1 || count == PostingBlock.capacity
      else { throw corrupt("a posting block holds the wrong number of postings") }
      let documentWidth = Int(header[1])
      var size = 2 + fieldCount + BitPacking.byteCount(count: count, width: documentWidth)
      guard documentWidth <= 32 else { throw corrupt("a posting block has a bad bit width") }
      for field in 0..<fieldCount {
        let width = Int(header[2 + field])
        guard width <= 32 else { throw corrupt("a posting block has a bad bit width") }
        size += BitPacking.byteCount(count: count, width: width)
      }
      guard offset + size <= dataLimit else {
        throw corrupt("a posting block runs past the postings")
      }
      BitPacking.unpack(
        from: UnsafeRawPointer(header + 2 + fieldCount), count: count, width: documentWidth,
        into: scratch)
      // Wrapping sums, which the compiler vectorizes: 128 deltas of 32 bits cannot
      // overflow 64.
      var deltas: UInt64 = 0
      for slot in 0..<count { deltas &+= UInt64(scratch[slot]) }
      previous += Int64(deltas) + Int64(count)
      guard previous < Int64(documentCount) else {
        throw corrupt("a posting names a document that does not exist")
      }
      if blockCount > 1
        && Int64(postings.blockLastDocuments[Int(list.firstBlock) + block]) != previous
      {
        throw corrupt("a block's last document does not match its postings")
      }
      total += count
    }
    guard total == Int(list.documentFrequency) else {
      throw corrupt("a posting list's length does not match its document frequency")
    }
    if let bitmap = postings.bitmapIndex(ofList: listIndex) {
      // Random access ranks documents by their bitmap and its rank directory; both must
      // agree with the list, and no bit may stand past the last document.
      let wordCount = postings.bitmapWordCount
      let words = postings.bitmaps.base + bitmap * wordCount
      let directory = postings.rankDirectory.base + bitmap * postings.rankBlockCount
      var bits = 0
      for word in 0..<wordCount {
        if word % TypePostings.rankBlockWords == 0
          && Int(directory[word / TypePostings.rankBlockWords]) != bits
        {
          throw corrupt("a bitmap's rank directory is damaged")
        }
        bits &+= words[word].nonzeroBitCount
      }
      let tailBits = documentCount & 63
      guard bits == total, tailBits == 0 || words[wordCount - 1] >> UInt64(tailBits) == 0 else {
        throw corrupt("a bitmap does not match its posting list")
      }
    }
    if let impacts = postings.impactRange(ofList: listIndex) {
      for entry in impacts where Int(postings.impactDocuments[entry]) >= documentCount {
        throw corrupt("an impact entry names a document that does not exist")
      }
    }
  }
}
