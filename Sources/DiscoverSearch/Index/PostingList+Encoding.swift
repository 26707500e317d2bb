/// One token occurrence, as the writer collects them: the term, the document, and the field
/// and position packed into one word (field in the top 2 bits).
struct PostingEntry: Sendable, BitwiseCopyable {
  var term: UInt32
  var document: UInt32
  var fieldPosition: UInt32

  static let positionMask: UInt32 = (1 << 30) - 1

  @inline(__always)
  init(term: UInt32, document: UInt32, field: Int, position: UInt32) {
    self.term = term
    self.document = document
    fieldPosition = UInt32(field) << 30 | min(position, PostingEntry.positionMask)
  }

  @inline(__always) var field: Int { Int(fieldPosition >> 30) }
  @inline(__always) var position: UInt32 { fieldPosition & PostingEntry.positionMask }
}

/// Encodes the postings of one content type, list by list, into a ``TypePostings``.
struct PostingsEncoder {
  /// Frequent terms get a bitmap when at least 1 in this many documents contains them: the
  /// bitmap (N/8 bytes) then costs at most 4 times the compressed list and makes
  /// intersection counts O(N/64) instead of a walk over both lists.
  static let bitmapDensity = 32
  /// Types with fewer documents than this keep no bitmaps; their lists are short anyway.
  static let bitmapMinimumDocuments = 4096

  let fieldCount: Int
  let documentCount: Int
  /// Per field, `FieldLength.inverseNormalization` for the field's `b` and average length.
  let inverseNormalization: [[Float]]
  /// Norm codes, `documentCount * fieldCount`, document-major.
  let norms: [UInt8]

  private(set) var termLists: [UInt32]
  private var lists: [PostingListInfo] = []
  private var listFieldMaxima: [Float] = []
  private var blockLastDocuments: [UInt32] = []
  private var blockDataOffsets: [UInt32] = []
  private var blockPositionOffsets: [UInt32] = []
  private var blockFieldMaxima: [Float] = []
  private var bytes: [UInt8] = []
  private var positions: [UInt8] = []
  private var bitmaps: [UInt64] = []

  // The list being encoded.
  private var listDocuments: [UInt32] = []
  private var listBlocks: [(last: UInt32, data: UInt32, positions: UInt32)] = []
  private var listBlockMaxima: [Float] = []
  private var previousBlockLast: Int64 = -1
  // The block being filled.
  private var blockDocuments: [UInt32]
  private var blockFrequencies: [UInt32]  // field-major: field * capacity + index
  private var blockCount = 0
  private var blockPositionStart = 0

  init(
    fieldCount: Int, documentCount: Int, termCount: Int, inverseNormalization: [[Float]],
    norms: [UInt8]
  ) {
    self.fieldCount = fieldCount
    self.documentCount = documentCount
    self.inverseNormalization = inverseNormalization
    self.norms = norms
    termLists = [UInt32](repeating: UInt32.max, count: termCount)
    blockDocuments = [UInt32](repeating: 0, count: PostingBlock.capacity)
    blockFrequencies = [UInt32](repeating: 0, count: PostingBlock.capacity * fieldCount)
  }

  /// Starts the list of `term`.
  mutating func beginList() {
    listDocuments.removeAll(keepingCapacity: true)
    listBlocks.removeAll(keepingCapacity: true)
    listBlockMaxima.removeAll(keepingCapacity: true)
    previousBlockLast = -1
    blockCount = 0
    blockPositionStart = positions.count
  }

  /// Adds one document's occurrences of the current term.
  ///
  /// - Parameter fieldPositions: The occurrences as `PostingEntry.fieldPosition` values,
  ///   sorted ascending (so by field, then position) and without duplicates.
  mutating func addPosting(document: UInt32, fieldPositions: UnsafeBufferPointer<UInt32>) {
    if blockCount == PostingBlock.capacity { flushBlock() }
    let slot = blockCount
    blockDocuments[slot] = document
    for field in 0..<fieldCount { blockFrequencies[field * PostingBlock.capacity + slot] = 0 }
    var previousField = -1
    var previousPosition: UInt32 = 0
    for value in fieldPositions {
      let field = Int(value >> 30)
      let position = value & PostingEntry.positionMask
      blockFrequencies[field * PostingBlock.capacity + slot] += 1
      if field != previousField {
        previousField = field
        previousPosition = 0
      }
      VariableByte.append(position - previousPosition, to: &positions)
      previousPosition = position
    }
    blockCount += 1
    listDocuments.append(document)
  }

  private mutating func flushBlock() {
    guard blockCount > 0 else { return }
    let dataOffset = UInt32(truncatingIfNeeded: bytes.count)
    var maximumGap: UInt32 = 0
    var previous = previousBlockLast
    for index in 0..<blockCount {
      let gap = UInt32(Int64(blockDocuments[index]) - previous - 1)
      blockDocuments[index] = gap
      maximumGap = max(maximumGap, gap)
      previous += Int64(gap) + 1
    }
    let last = UInt32(previous)
    bytes.append(UInt8(blockCount - 1))
    bytes.append(UInt8(BitPacking.bitWidth(maximumGap)))
    var widths = [Int](repeating: 0, count: fieldCount)
    for field in 0..<fieldCount {
      var maximum: UInt32 = 0
      for index in 0..<blockCount {
        maximum = max(maximum, blockFrequencies[field * PostingBlock.capacity + index])
      }
      widths[field] = BitPacking.bitWidth(maximum)
      bytes.append(UInt8(widths[field]))
    }
    blockDocuments.withUnsafeBufferPointer { gaps in
      BitPacking.pack(
        UnsafeBufferPointer(rebasing: gaps[0..<blockCount]),
        width: BitPacking.bitWidth(maximumGap), into: &bytes)
    }
    blockFrequencies.withUnsafeBufferPointer { frequencies in
      for field in 0..<fieldCount where widths[field] > 0 {
        let start = field * PostingBlock.capacity
        BitPacking.pack(
          UnsafeBufferPointer(rebasing: frequencies[start..<(start + blockCount)]),
          width: widths[field], into: &bytes)
      }
    }
    // Score bounds: the largest normalized frequency per field among the block's postings.
    // Recompute documents from the gaps to read their norms.
    var document = previousBlockLast
    var maxima = [Float](repeating: 0, count: fieldCount)
    for index in 0..<blockCount {
      document += Int64(blockDocuments[index]) + 1
      let normBase = Int(document) * fieldCount
      for field in 0..<fieldCount {
        let frequency = blockFrequencies[field * PostingBlock.capacity + index]
        if frequency > 0 {
          let value = Float(frequency) * inverseNormalization[field][Int(norms[normBase + field])]
          maxima[field] = max(maxima[field], value)
        }
      }
    }
    // Round bounds up a hair so float evaluation order can never make a score exceed them.
    listBlockMaxima.append(contentsOf: maxima.map { $0 == 0 ? 0 : $0.nextUp })
    listBlocks.append((last, dataOffset, UInt32(truncatingIfNeeded: blockPositionStart)))
    previousBlockLast = Int64(last)
    blockCount = 0
    blockPositionStart = positions.count
  }

  /// Finishes the list of `term`.
  mutating func endList(term: UInt32) {
    flushBlock()
    guard let first = listBlocks.first else { return }
    var bitmap = UInt32.max
    if documentCount >= PostingsEncoder.bitmapMinimumDocuments
      && listDocuments.count * PostingsEncoder.bitmapDensity >= documentCount
    {
      let words = (documentCount + 63) >> 6
      bitmap = UInt32(bitmaps.count / words)
      let base = bitmaps.count
      bitmaps.append(contentsOf: repeatElement(0, count: words))
      for document in listDocuments {
        bitmaps[base + Int(document >> 6)] |= 1 << UInt64(document & 63)
      }
    }
    var info = PostingListInfo(
      documentFrequency: UInt32(listDocuments.count), firstBlock: 0,
      blockCount: UInt32(listBlocks.count), dataOffset: first.data,
      positionOffset: first.positions, bitmap: bitmap)
    if listBlocks.count > 1 {
      info.firstBlock = UInt32(blockLastDocuments.count)
      for block in listBlocks {
        blockLastDocuments.append(block.last)
        blockDataOffsets.append(block.data)
        blockPositionOffsets.append(block.positions)
      }
      blockFieldMaxima.append(contentsOf: listBlockMaxima)
    }
    for field in 0..<fieldCount {
      var maximum: Float = 0
      for block in 0..<listBlocks.count {
        maximum = max(maximum, listBlockMaxima[block * fieldCount + field])
      }
      listFieldMaxima.append(maximum)
    }
    termLists[Int(term)] = UInt32(lists.count)
    lists.append(info)
  }

  /// Whether offsets still fit the 32-bit fields of the block tables.
  var fitsOffsets: Bool {
    bytes.count < Int(UInt32.max) && positions.count < Int(UInt32.max)
  }

  /// The finished postings.
  func build() -> TypePostings {
    var padded = bytes
    padded.append(contentsOf: repeatElement(0, count: PostingBlock.padding))
    var paddedPositions = positions
    paddedPositions.append(contentsOf: repeatElement(0, count: PostingBlock.padding))
    return TypePostings(
      fieldCount: fieldCount, documentCount: documentCount, termLists: Column(termLists),
      lists: Column(lists), listFieldMaxima: Column(listFieldMaxima),
      blockLastDocuments: Column(blockLastDocuments), blockDataOffsets: Column(blockDataOffsets),
      blockPositionOffsets: Column(blockPositionOffsets),
      blockFieldMaxima: Column(blockFieldMaxima), bytes: Column(padded),
      positions: Column(paddedPositions), bitmaps: Column(bitmaps))
  }
}
