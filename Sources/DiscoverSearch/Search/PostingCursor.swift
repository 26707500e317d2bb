/// Walks one posting list in document order, a block at a time.
///
/// Document ids of the current block are decoded into a scratch buffer; term frequencies are
/// read one value at a time, only for the documents that get scored. Skipping uses the
/// block tables: a target past the current block jumps straight to the block that may hold
/// it, without decoding the ones between (the skip structure of Moffat and Zobel,
/// "Self-indexing inverted files for fast text retrieval", TOIS 1996, in its blocked form).
///
/// The cursor reads the snapshot's columns through raw pointers; the snapshot outlives every
/// search that uses it.
struct PostingCursor {
  /// Sentinel document id of an exhausted cursor.
  static let end = UInt32.max

  let list: PostingListInfo
  let fieldCount: Int
  private let bytes: UnsafePointer<UInt8>
  private let positions: UnsafePointer<UInt8>
  /// Reads stop here: a damaged position stream cannot lead a read out of the buffer.
  private let positionLimit: Int
  private let blockLastDocuments: UnsafePointer<UInt32>
  private let blockDataOffsets: UnsafePointer<UInt32>
  private let blockPositionOffsets: UnsafePointer<UInt32>
  /// The score bound of each block and field (of the whole list when it has one block).
  let fieldMaxima: UnsafePointer<UInt8>
  /// Scratch for the current block's document ids (``PostingBlock/capacity`` values).
  private let documents: UnsafeMutablePointer<UInt32>

  /// The current block, or -1 before the first.
  private(set) var block = -1
  private(set) var count = 0
  private(set) var index = 0
  /// The current document, or ``end``.
  private(set) var document: UInt32 = 0
  private var frequencyData: UnsafePointer<UInt8>
  private var frequencyWidths: SIMD4<UInt8> = .zero
  private var frequencyOffsets: SIMD4<Int32> = .zero

  init(postings: TypePostings, listIndex: Int, scratch: UnsafeMutablePointer<UInt32>) {
    let list = postings.lists[listIndex]
    self.list = list
    fieldCount = postings.fieldCount
    bytes = postings.bytes.base
    positions = postings.positions.base
    positionLimit = postings.positions.count - PostingBlock.padding
    let first = Int(list.firstBlock)
    blockLastDocuments = postings.blockLastDocuments.base + (list.blockCount > 1 ? first : 0)
    blockDataOffsets = postings.blockDataOffsets.base + (list.blockCount > 1 ? first : 0)
    blockPositionOffsets = postings.blockPositionOffsets.base + (list.blockCount > 1 ? first : 0)
    fieldMaxima =
      list.blockCount > 1
      ? postings.blockFieldMaxima.base + first * postings.fieldCount
      : postings.listFieldMaxima.base + listIndex * postings.fieldCount
    documents = scratch
    frequencyData = postings.bytes.base
    loadBlock(0)
  }

  /// The decoded documents of the current block.
  @inline(__always) var blockDocuments: UnsafeBufferPointer<UInt32> {
    UnsafeBufferPointer(start: documents, count: count)
  }

  /// The number of blocks.
  @inline(__always) var blockCount: Int { Int(list.blockCount) }

  /// The score bounds per field of the current block.
  @inline(__always) var blockFieldMaxima: UnsafePointer<UInt8> {
    list.blockCount > 1 ? fieldMaxima + max(block, 0) * fieldCount : fieldMaxima
  }

  /// The score bounds per field of block `block`.
  @inline(__always) func fieldMaxima(ofBlock block: Int) -> UnsafePointer<UInt8> {
    list.blockCount > 1 ? fieldMaxima + block * fieldCount : fieldMaxima
  }

  /// The last document of block `block`, known without decoding it for lists of several
  /// blocks.
  @inline(__always) func lastDocument(ofBlock block: Int) -> UInt32 {
    if list.blockCount > 1 { return blockLastDocuments[block] }
    return count > 0 ? documents[count - 1] : PostingCursor.end
  }

  /// A lower bound of the first document of block `block`: one past the previous block's
  /// last document (0 for the first block).
  @inline(__always) func firstDocumentBound(ofBlock block: Int) -> UInt32 {
    list.blockCount > 1 && block > 0 ? blockLastDocuments[block - 1] &+ 1 : 0
  }

  /// Decodes block `target` and moves to its first document.
  @inline(__always)
  mutating func loadBlock(_ target: Int) {
    guard target < blockCount else {
      block = blockCount
      document = PostingCursor.end
      return
    }
    block = target
    let offset = list.blockCount > 1 ? Int(blockDataOffsets[target]) : Int(list.dataOffset)
    let header = bytes + offset
    count = Int(header[0]) + 1
    let documentWidth = Int(header[1])
    var cursor = 2 + fieldCount
    let data = header + cursor
    BitPacking.unpack(
      from: UnsafeRawPointer(data), count: count, width: documentWidth, into: documents)
    var previous: UInt32 = target == 0 ? 0 : blockLastDocuments[target - 1] &+ 1
    for slot in 0..<count {
      previous &+= documents[slot]
      documents[slot] = previous
      previous &+= 1
    }
    cursor = BitPacking.byteCount(count: count, width: documentWidth)
    frequencyData = data + cursor
    var offsetSoFar: Int32 = 0
    for field in 0..<fieldCount {
      let width = header[2 + field]
      frequencyWidths[field] = width
      frequencyOffsets[field] = offsetSoFar
      offsetSoFar += Int32(BitPacking.byteCount(count: count, width: Int(width)))
    }
    index = 0
    document = documents[0]
  }

  /// Moves to the next document.
  @inline(__always)
  mutating func next() {
    index += 1
    if index < count {
      document = documents[index]
    } else {
      loadBlock(block + 1)
    }
  }

  /// Moves to the first document at or after `target` (staying put if already there).
  @inline(__always)
  mutating func advance(to target: UInt32) {
    if document >= target { return }
    if list.blockCount > 1 && target > blockLastDocuments[block] {
      // Gallop over the block table to the first block whose last document reaches target.
      var low = block + 1
      var step = 1
      var high = low
      while high < blockCount && blockLastDocuments[high] < target {
        low = high + 1
        high += step
        step <<= 1
      }
      high = min(high, blockCount)
      while low < high {
        let middle = (low + high) >> 1
        if blockLastDocuments[middle] < target { low = middle + 1 } else { high = middle }
      }
      loadBlock(low)
      if document >= target { return }
    }
    var slot = index + 1
    while slot < count && documents[slot] < target { slot += 1 }
    if slot < count {
      index = slot
      document = documents[slot]
    } else {
      loadBlock(block + 1)
    }
  }

  /// Moves to block `target`'s first document (a later block than the current one).
  @inline(__always)
  mutating func jump(toBlock target: Int) {
    loadBlock(target)
  }

  /// The term's frequency in `field` of the current document.
  @inline(__always)
  func frequency(inField field: Int) -> UInt32 {
    let width = Int(frequencyWidths[field])
    if width == 0 { return 0 }
    return BitPacking.value(
      at: index, from: UnsafeRawPointer(frequencyData + Int(frequencyOffsets[field])), width: width)
  }

  /// Frequency of `field` for the posting at `slot` of the current block.
  @inline(__always)
  func frequency(inField field: Int, slot: Int) -> UInt32 {
    let width = Int(frequencyWidths[field])
    if width == 0 { return 0 }
    return BitPacking.value(
      at: slot, from: UnsafeRawPointer(frequencyData + Int(frequencyOffsets[field])), width: width)
  }

  /// Calls `body` with each (field, position) of the term in the current document.
  ///
  /// - Complexity: O(p) in the positions of the block's earlier postings, which are skipped:
  ///   their number is the sum of the earlier frequencies (read field by field, in order),
  ///   and each is skipped by finding its last byte, without decoding it.
  func forEachPosition(_ body: (_ field: Int, _ position: UInt32) -> Void) {
    var offset =
      list.blockCount > 1 ? Int(blockPositionOffsets[block]) : Int(list.positionOffset)
    var skipped = 0
    for field in 0..<fieldCount where frequencyWidths[field] != 0 {
      let width = Int(frequencyWidths[field])
      let data = UnsafeRawPointer(frequencyData + Int(frequencyOffsets[field]))
      skipped += BitPacking.sum(count: index, from: data, width: width)
    }
    offset = VariableByte.skip(skipped, in: positions, from: offset, limit: positionLimit)
    for field in 0..<fieldCount {
      let frequency = frequency(inField: field, slot: index)
      var position: UInt32 = 0
      for _ in 0..<frequency where offset < positionLimit {
        position &+= VariableByte.read(from: positions, offset: &offset)
        body(field, position)
      }
    }
  }
}
