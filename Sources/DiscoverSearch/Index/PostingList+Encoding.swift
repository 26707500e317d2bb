/// One token occurrence, as the writer collects them: the term, and the field, the field's
/// length code and the position packed into one word. The document is implied by where the
/// entry lies: the writer records where each document's entries start
/// (`TypeBuilder.entryStarts`), which costs a word per document instead of one per token.
///
/// ```
/// fieldPosition: [field: 2 bits] [length code: 8 bits] [position: 22 bits]
/// ```
/// The writer leaves the length code 0; inversion fills it in while it sorts entries by term
/// (reading the norms in document order), so that encoding never reads the norms at random.
struct PostingEntry: Sendable, BitwiseCopyable {
  var term: UInt32
  var fieldPosition: UInt32

  /// Positions at or beyond this are stored as it (fields stop at 65,536 tokens long
  /// before).
  static let positionMask: UInt32 = (1 << 22) - 1
  static let normShift: UInt32 = 22

  @inline(__always)
  init(term: UInt32, field: Int, position: UInt32) {
    self.term = term
    fieldPosition = UInt32(field) << 30 | min(position, PostingEntry.positionMask)
  }

  @inline(__always)
  init(term: UInt32, fieldPosition: UInt32) {
    self.term = term
    self.fieldPosition = fieldPosition
  }

  @inline(__always) var field: Int { PostingEntry.field(of: fieldPosition) }
  @inline(__always) var position: UInt32 { PostingEntry.position(of: fieldPosition) }

  /// The field of a `fieldPosition` value.
  @inline(__always)
  static func field(of fieldPosition: UInt32) -> Int { Int(fieldPosition >> 30) }

  /// The position of a `fieldPosition` value.
  @inline(__always)
  static func position(of fieldPosition: UInt32) -> UInt32 { fieldPosition & positionMask }

  /// The field's length code of a `fieldPosition` value (see ``withNorm(_:)``).
  @inline(__always)
  static func normCode(of fieldPosition: UInt32) -> UInt8 {
    UInt8(truncatingIfNeeded: fieldPosition >> normShift)
  }

  /// The entry with its field's length code set.
  @inline(__always)
  func withNorm(_ code: UInt8) -> PostingEntry {
    var entry = self
    entry.fieldPosition =
      fieldPosition & ~(0xFF << PostingEntry.normShift) | UInt32(code) << PostingEntry.normShift
    return entry
  }
}

/// Encodes the postings of one content type, list by list, into a ``TypePostings``.
///
/// Everything lives in ``UnsafeGrowableBuffer``s: encoding a posting or a block allocates
/// nothing. ``finish()`` copies the results into columns and frees the buffers.
struct PostingsEncoder {
  /// Frequent terms get a bitmap when at least 1 in this many documents contains them: the
  /// bitmap (N/8 bytes) then costs at most 4 times the compressed list and makes
  /// intersection counts O(N/64) instead of a walk over both lists.
  static let bitmapDensity = 32
  /// Types with fewer documents than this keep no bitmaps; their lists are short anyway.
  static let bitmapMinimumDocuments = 4096
  /// How many of a frequent term's postings are kept in impact order (see
  /// ``TypePostings/impactDocuments``): at least this many, and an eighth of the list for
  /// the most frequent terms. The threshold algorithm usually reads a few hundred; an AND
  /// of three stop words can need thousands, and when the list runs out the search falls
  /// back to the block-max scan. The eighth costs one byte per posting of those terms.
  static let impactListLength = 4096
  static let impactListFraction = 8
  /// Terms in at least this many documents but without a bitmap keep a short impact order
  /// of ``shortImpactListLength`` postings: a one-word search for them reads its top hits
  /// there instead of scoring thousands of postings whose block bounds rarely prune
  /// (almost every block holds one short title with the word). Shorter lists are cheap to
  /// scan whole.
  static let shortImpactListMinimum = 256
  static let shortImpactListLength = 64

  let fieldCount: Int
  let documentCount: Int
  /// Per field, `FieldLength.inverseNormalization` for the field's `b` and average length,
  /// 256 values each.
  private let inverseNormalization: UnsafeMutablePointer<Float>
  /// The field weights impacts are computed with (the defaults of ``SearchField``).
  private let impactWeights: SIMD4<Float>

  private var termLists: UnsafeMutablePointer<UInt32>
  private let termCount: Int
  private var lists = UnsafeGrowableBuffer<PostingListInfo>(capacity: 1 << 12)
  private var listFieldMaxima = UnsafeGrowableBuffer<UInt8>(capacity: 1 << 14)
  private var blockLastDocuments = UnsafeGrowableBuffer<UInt32>(capacity: 1 << 12)
  private var blockDataOffsets = UnsafeGrowableBuffer<UInt32>(capacity: 1 << 12)
  private var blockPositionOffsets = UnsafeGrowableBuffer<UInt32>(capacity: 1 << 12)
  private var blockFieldMaxima = UnsafeGrowableBuffer<UInt8>(capacity: 1 << 14)
  private var bytes = UnsafeGrowableBuffer<UInt8>(capacity: 1 << 16)
  private var positions = UnsafeGrowableBuffer<UInt8>(capacity: 1 << 16)
  private var bitmaps = UnsafeGrowableBuffer<UInt64>(capacity: 1 << 10)
  private var bitmapLists = UnsafeGrowableBuffer<UInt32>(capacity: 64)
  private var rankDirectory = UnsafeGrowableBuffer<UInt32>(capacity: 1 << 10)
  private var impactLists = UnsafeGrowableBuffer<UInt32>(capacity: 64)
  private var impactStarts = UnsafeGrowableBuffer<UInt32>(capacity: 64)
  private var impactDocuments = UnsafeGrowableBuffer<UInt32>(capacity: 1 << 12)
  private var impactValues = UnsafeGrowableBuffer<Float>(capacity: 1 << 12)
  private var listImpacts = UnsafeGrowableBuffer<Float>(capacity: 1 << 10)
  /// Room for ``select(_:count:rank:scratch:)`` to gather values in.
  private var selectScratch = UnsafeGrowableBuffer<Float>()

  // The list being encoded.
  private var listDocuments = UnsafeGrowableBuffer<UInt32>(capacity: 1 << 10)
  private var listBlockLasts = UnsafeGrowableBuffer<UInt32>(capacity: 64)
  private var listBlockData = UnsafeGrowableBuffer<UInt32>(capacity: 64)
  private var listBlockPositions = UnsafeGrowableBuffer<UInt32>(capacity: 64)
  private var listBlockMaxima = UnsafeGrowableBuffer<UInt8>(capacity: 256)
  private var previousBlockLast: Int64 = -1
  // The block being filled: documents, then frequencies field-major (field * capacity + slot).
  private let blockDocuments: UnsafeMutablePointer<UInt32>
  private let blockFrequencies: UnsafeMutablePointer<UInt32>
  /// Each posting's `termFrequency * inverseNormalization` per field, field-major, for the
  /// block's score bounds.
  private let blockValues: UnsafeMutablePointer<Float>
  /// The posting being added: its frequency and length code per field.
  private let postingFrequencies: UnsafeMutablePointer<UInt32>
  private let postingNormCodes: UnsafeMutablePointer<UInt8>
  private var blockCount = 0
  private var blockPositionStart = 0

  init(
    fieldCount: Int, documentCount: Int, termCount: Int, inverseNormalization: [[Float]],
    impactWeights: SIMD4<Float>
  ) {
    self.fieldCount = fieldCount
    self.impactWeights = impactWeights
    impactStarts.append(0)
    self.documentCount = documentCount
    self.termCount = termCount
    self.inverseNormalization = .allocate(capacity: fieldCount * 256)
    for field in 0..<fieldCount {
      for code in 0..<256 {
        self.inverseNormalization[field * 256 + code] = inverseNormalization[field][code]
      }
    }
    termLists = .allocate(capacity: max(termCount, 1))
    termLists.update(repeating: UInt32.max, count: max(termCount, 1))
    blockDocuments = .allocate(capacity: PostingBlock.capacity)
    blockFrequencies = .allocate(capacity: PostingBlock.capacity * SearchField.maximumFieldsPerType)
    blockValues = .allocate(capacity: PostingBlock.capacity * SearchField.maximumFieldsPerType)
    postingFrequencies = .allocate(capacity: SearchField.maximumFieldsPerType)
    postingNormCodes = .allocate(capacity: SearchField.maximumFieldsPerType)
    postingNormCodes.update(repeating: 0, count: SearchField.maximumFieldsPerType)
  }

  /// Starts the list of a new term.
  @inline(__always)
  mutating func beginList() {
    listDocuments.removeAll()
    listImpacts.removeAll()
    listBlockLasts.removeAll()
    listBlockData.removeAll()
    listBlockPositions.removeAll()
    listBlockMaxima.removeAll()
    previousBlockLast = -1
    blockCount = 0
    blockPositionStart = positions.count
  }

  /// Adds one document's occurrences of the current term.
  ///
  /// - Parameter fieldPositions: The occurrences as `PostingEntry.fieldPosition` values with
  ///   their length codes set, sorted ascending (so by field, then position) and without
  ///   duplicates.
  @inline(__always)
  mutating func addPosting(document: UInt32, fieldPositions: UnsafeBufferPointer<UInt32>) {
    let slot = beginPosting(document: document)
    // Counts and codes go to memory the encoder owns, not into vector lanes: setting a
    // lane by a run-time index and reading the vector back stalls on the store (see
    // BM25F.fieldPart).
    let frequencies = postingFrequencies
    let normCodes = postingNormCodes
    frequencies.update(repeating: 0, count: SearchField.maximumFieldsPerType)
    var previousField = -1
    var previousPosition: UInt32 = 0
    for value in fieldPositions {
      let field = PostingEntry.field(of: value)
      let position = PostingEntry.position(of: value)
      frequencies[field] &+= 1
      if field != previousField {
        previousField = field
        previousPosition = 0
        normCodes[field] = PostingEntry.normCode(of: value)
      }
      VariableByte.append(position &- previousPosition, to: &positions)
      previousPosition = position
    }
    var x: Float = 0
    for field in 0..<fieldCount {
      let frequency = frequencies[field]
      blockFrequencies[field &* PostingBlock.capacity &+ slot] = frequency
      blockValues[field &* PostingBlock.capacity &+ slot] =
        frequency == 0
        ? 0 : Float(frequency) * inverseNormalization[field &* 256 &+ Int(normCodes[field])]
      if frequency != 0 {
        x += BM25F.fieldPart(
          frequency: frequency, field: field, normCode: normCodes[field], weights: impactWeights,
          inverseNormalization: inverseNormalization)
      }
    }
    endPosting(document: document, impact: x)
  }

  /// Adds a document that holds the current term once, at `value` (a
  /// `PostingEntry.fieldPosition` with its length code set): what
  /// ``addPosting(document:fieldPositions:)`` does for one occurrence, without the per-field
  /// counters it clears, fills and sums. Most postings are such, and the values are the same
  /// bit for bit (a frequency of 1 multiplies exactly).
  @inline(__always)
  mutating func addPosting(document: UInt32, fieldPosition value: UInt32) {
    let slot = beginPosting(document: document)
    let field = PostingEntry.field(of: value)
    let normCode = PostingEntry.normCode(of: value)
    VariableByte.append(PostingEntry.position(of: value), to: &positions)
    for other in 0..<fieldCount {
      blockFrequencies[other &* PostingBlock.capacity &+ slot] = 0
      blockValues[other &* PostingBlock.capacity &+ slot] = 0
    }
    blockFrequencies[field &* PostingBlock.capacity &+ slot] = 1
    blockValues[field &* PostingBlock.capacity &+ slot] =
      inverseNormalization[field &* 256 &+ Int(normCode)]
    let impact = BM25F.fieldPart(
      frequency: 1, field: field, normCode: normCode, weights: impactWeights,
      inverseNormalization: inverseNormalization)
    endPosting(document: document, impact: impact)
  }

  /// Gives `document` the block's next slot, flushing a full block first; returns the slot.
  @inline(__always)
  private mutating func beginPosting(document: UInt32) -> Int {
    if blockCount == PostingBlock.capacity { flushBlock() }
    blockDocuments[blockCount] = document
    return blockCount
  }

  /// Closes the posting ``beginPosting(document:)`` started, with its impact in the list.
  @inline(__always)
  private mutating func endPosting(document: UInt32, impact: Float) {
    listImpacts.append(impact)
    blockCount &+= 1
    listDocuments.append(document)
  }

  private mutating func flushBlock() {
    guard blockCount > 0 else { return }
    let dataOffset = UInt32(truncatingIfNeeded: bytes.count)
    // Score bounds: the largest normalized frequency per field among the block's postings.
    // The values are never negative (nor NaN), so their bit patterns order like them: an
    // integer maximum vectorizes, where a floating-point one waits on each comparison.
    var maxima = SIMD4<Float>.zero
    for field in 0..<fieldCount {
      let values = UnsafeRawPointer(blockValues + field &* PostingBlock.capacity)
        .assumingMemoryBound(to: UInt32.self)
      var maximum: UInt32 = 0
      for index in 0..<blockCount { maximum = max(maximum, values[index]) }
      maxima[field] = Float(bitPattern: maximum)
    }
    // Documents ascend, so every gap is at least 0 and under 2^32: checked once per block
    // (the sign bits of all gaps or-ed together) instead of per posting.
    var maximumGap: Int64 = 0
    var signs: Int64 = 0
    var previous = previousBlockLast
    for index in 0..<blockCount {
      let document = Int64(blockDocuments[index])
      let gap = document &- previous &- 1
      blockDocuments[index] = UInt32(truncatingIfNeeded: gap)
      maximumGap = max(maximumGap, gap)
      signs |= gap
      previous = document
    }
    precondition(
      signs >= 0 && maximumGap <= Int64(UInt32.max), "a posting list's documents must ascend")
    let last = UInt32(truncatingIfNeeded: previous)
    let documentWidth = BitPacking.bitWidth(UInt32(truncatingIfNeeded: maximumGap))
    bytes.append(UInt8(blockCount - 1))
    bytes.append(UInt8(documentWidth))
    var widths = SIMD4<UInt8>.zero
    for field in 0..<fieldCount {
      var maximum: UInt32 = 0
      let frequencies = blockFrequencies + field &* PostingBlock.capacity
      for index in 0..<blockCount { maximum = max(maximum, frequencies[index]) }
      widths[field] = UInt8(BitPacking.bitWidth(maximum))
      bytes.append(widths[field])
    }
    BitPacking.pack(blockDocuments, count: blockCount, width: documentWidth, into: &bytes)
    for field in 0..<fieldCount where widths[field] > 0 {
      BitPacking.pack(
        blockFrequencies + field &* PostingBlock.capacity, count: blockCount,
        width: Int(widths[field]), into: &bytes)
    }
    // Round bounds up (a hair beyond, then to the next code) so that no evaluation order
    // can make a score exceed them.
    for field in 0..<fieldCount {
      listBlockMaxima.append(
        BoundCode.code(roundingUp: maxima[field] == 0 ? 0 : maxima[field].nextUp))
    }
    listBlockLasts.append(last)
    listBlockData.append(dataOffset)
    listBlockPositions.append(UInt32(truncatingIfNeeded: blockPositionStart))
    previousBlockLast = Int64(last)
    blockCount = 0
    blockPositionStart = positions.count
  }

  /// Finishes the list of `term`.
  mutating func endList(term: UInt32) {
    flushBlock()
    let blockCount = listBlockLasts.count
    guard blockCount > 0 else { return }
    if documentCount >= PostingsEncoder.bitmapMinimumDocuments
      && listDocuments.count * PostingsEncoder.bitmapDensity >= documentCount
    {
      let words = (documentCount + 63) >> 6
      bitmapLists.append(UInt32(lists.count))
      let base = bitmaps.count
      bitmaps.append(repeating: 0, count: words)
      for document in listDocuments.buffer {
        bitmaps[base + Int(document >> 6)] |= 1 << UInt64(document & 63)
      }
      appendRankDirectory(bitmapBase: base, words: words)
      appendImpactOrder(
        length: max(
          PostingsEncoder.impactListLength,
          listDocuments.count / PostingsEncoder.impactListFraction))
    } else if listDocuments.count >= PostingsEncoder.shortImpactListMinimum {
      appendImpactOrder(length: PostingsEncoder.shortImpactListLength)
    }
    var info = PostingListInfo(
      documentFrequency: UInt32(listDocuments.count), firstBlock: 0,
      dataOffset: listBlockData[0], positionOffset: listBlockPositions[0])
    if blockCount > 1 {
      info.firstBlock = UInt32(blockLastDocuments.count)
      blockLastDocuments.append(contentsOf: listBlockLasts.buffer)
      blockDataOffsets.append(contentsOf: listBlockData.buffer)
      blockPositionOffsets.append(contentsOf: listBlockPositions.buffer)
      blockFieldMaxima.append(contentsOf: listBlockMaxima.buffer)
    }
    for field in 0..<fieldCount {
      var maximum: UInt8 = 0
      for block in 0..<blockCount {
        maximum = max(maximum, listBlockMaxima[block &* fieldCount &+ field])
      }
      listFieldMaxima.append(maximum)
    }
    termLists[Int(term)] = UInt32(lists.count)
    lists.append(info)
  }

  /// Rank directory of the bitmap just written: the number of set bits before every block
  /// of ``TypePostings/rankBlockWords`` words, so a document's position in the list is a
  /// lookup and a few popcounts (the rank structure of Jacobson, "Space-efficient static
  /// trees and graphs", FOCS 1989, in its simple two-level form).
  private mutating func appendRankDirectory(bitmapBase: Int, words: Int) {
    let directory = TypePostings.makeRankDirectory(
      UnsafeBufferPointer(start: bitmaps.base + bitmapBase, count: words))
    directory.withUnsafeBufferPointer { rankDirectory.append(contentsOf: $0) }
  }

  /// The list's first `length` postings by impact (descending, ties by document
  /// ascending), for the threshold algorithm.
  private mutating func appendImpactOrder(length: Int) {
    impactLists.append(UInt32(lists.count))
    let count = listDocuments.count
    let kept = min(count, length)
    // The impact of the kept-th best posting: O(n), instead of sorting the whole list.
    let cut = PostingsEncoder.select(
      UnsafePointer(listImpacts.base), count: count, rank: kept - 1, scratch: &selectScratch)
    // Postings above the cut, sorted; then those at the cut in document order (the list is
    // in document order already), until `kept` are taken.
    // Impacts are non-negative, so their bit patterns order like the values: a key of
    // (inverted impact bits, document) sorts by impact descending, then document ascending.
    var above: [UInt64] = []
    above.reserveCapacity(kept)
    for index in 0..<count where listImpacts[index] > cut {
      above.append(UInt64(~listImpacts[index].bitPattern) << 32 | UInt64(listDocuments[index]))
    }
    above.radixSort()
    for key in above {
      impactDocuments.append(UInt32(truncatingIfNeeded: key))
      impactValues.append(Float(bitPattern: ~UInt32(key >> 32)))
    }
    var taken = above.count
    var index = 0
    while taken < kept && index < count {
      if listImpacts[index] == cut {
        impactDocuments.append(listDocuments[index])
        impactValues.append(cut)
        taken += 1
      }
      index += 1
    }
    impactStarts.append(UInt32(impactDocuments.count))
  }

  /// The value of rank `rank` (0 = largest) among `count` values, none negative or NaN.
  ///
  /// Long lists are first narrowed by a sample (Floyd and Rivest, "Algorithm 489: The
  /// algorithm SELECT", CACM 1975): the sample's values around the rank's expected place
  /// bound the value sought, one pass counts the values above the bounds and gathers those
  /// between them into `scratch`, and the rank is selected among the few gathered. When the
  /// rank falls outside the bounds (a rare sample), or too many values tie inside them,
  /// the whole list is selected from instead.
  static func select(
    _ values: UnsafePointer<Float>, count: Int, rank: Int,
    scratch: inout UnsafeGrowableBuffer<Float>
  ) -> Float {
    precondition(rank >= 0 && rank < count, "rank \(rank) out of 0..<\(count)")
    let sampleCount = 1024
    guard count >= 4 * sampleCount else { return radixSelect(values, count: count, rank: rank) }
    // Every stride-th value, ascending: `descending(i)` is the sample's i-th largest.
    let stride = count / sampleCount
    var sample = (0..<sampleCount).map { values[$0 &* stride] }
    sample.sort()
    func descending(_ place: Int) -> Float { sample[sampleCount - 1 - place] }
    // The rank's expected place in the sample, widened by three standard deviations of a
    // sampled rank (at most 16 for 1,024 draws) either way.
    let margin = 48
    let place = min(rank / stride, sampleCount - 1)
    let upper = descending(max(place - margin, 0))
    let lower = descending(min(place + margin, sampleCount - 1))
    // Gathered values are stored branch-free, the last slot taking any overflow.
    let capacity = count / 2
    scratch.removeAll()
    let gathered = scratch.appendUninitialized(count: capacity)
    var above = 0
    var between = 0
    for index in 0..<count {
      let value = values[index]
      above &+= value > upper ? 1 : 0
      gathered[min(between, capacity &- 1)] = value
      between &+= value >= lower && value <= upper ? 1 : 0
    }
    guard between < capacity, above <= rank, rank < above &+ between else {
      return radixSelect(values, count: count, rank: rank)
    }
    return radixSelect(UnsafePointer(gathered), count: between, rank: rank &- above)
  }

  /// The digits of ``radixSelect(_:count:rank:)``, most significant first: where each
  /// starts in the 32 bits and how wide it is.
  private static let radixDigits: [(shift: UInt32, width: UInt32)] = [(21, 11), (10, 11), (0, 10)]

  /// ``select(_:count:rank:scratch:)`` over every value.
  ///
  /// A radix select (the most significant digit first, as in MSD radix sort; Knuth, *The
  /// Art of Computer Programming* vol. 3, 5.2.5): a non-negative float's bit pattern orders
  /// like its value, so three passes of 11, 11 and 10 bits each count the values that share
  /// the digits chosen so far, and pick the digit the rank falls in. Every pass is a
  /// straight loop without a data-dependent branch; a quickselect (Hoare, "Algorithm 65:
  /// Find", CACM 1961) mispredicted about half of its comparisons, and had to reorder a copy.
  static func radixSelect(_ values: UnsafePointer<Float>, count: Int, rank: Int) -> Float {
    precondition(rank >= 0 && rank < count, "rank \(rank) out of 0..<\(count)")
    let bits = UnsafeRawPointer(values).assumingMemoryBound(to: UInt32.self)
    let bucketCount = 1 << 11
    // One more counter, which values outside the current prefix are counted in.
    let histogram = UnsafeMutablePointer<Int>.allocate(capacity: bucketCount + 1)
    defer { histogram.deallocate() }
    var prefix: UInt32 = 0
    var prefixMask: UInt32 = 0
    // How many values above the prefix's bucket still rank before the one sought.
    var remaining = rank
    for (shift, width) in PostingsEncoder.radixDigits {
      let digitMask: UInt32 = (1 << width) &- 1
      histogram.update(repeating: 0, count: bucketCount + 1)
      for index in 0..<count {
        let value = bits[index]
        let digit = Int(truncatingIfNeeded: value >> shift & digitMask)
        histogram[value & prefixMask == prefix ? digit : bucketCount] &+= 1
      }
      var digit = Int(digitMask)
      while remaining >= histogram[digit] {
        remaining &-= histogram[digit]
        digit &-= 1
      }
      prefix |= UInt32(truncatingIfNeeded: digit) << shift
      prefixMask |= digitMask << shift
    }
    return Float(bitPattern: prefix)
  }

  /// Whether offsets still fit the 32-bit fields of the block tables.
  var fitsOffsets: Bool {
    bytes.count < Int(UInt32.max) && positions.count < Int(UInt32.max)
  }

  /// The finished postings; the encoder's memory is freed and it must not be used again.
  mutating func finish() -> TypePostings {
    bytes.append(repeating: 0, count: PostingBlock.padding)
    positions.append(repeating: 0, count: PostingBlock.padding)
    var presence = [UInt64](repeating: 0, count: (termCount + 63) >> 6)
    for term in 0..<termCount where termLists[term] != UInt32.max {
      presence[term >> 6] |= 1 << UInt64(term & 63)
    }
    let presenceRanks = presence.withUnsafeBufferPointer { TypePostings.makeRankDirectory($0) }
    let postings = TypePostings(
      fieldCount: fieldCount, documentCount: documentCount,
      termPresence: Column(presence), termRanks: Column(presenceRanks),
      lists: lists.makeColumn(), listFieldMaxima: listFieldMaxima.makeColumn(),
      blockLastDocuments: blockLastDocuments.makeColumn(),
      blockDataOffsets: blockDataOffsets.makeColumn(),
      blockPositionOffsets: blockPositionOffsets.makeColumn(),
      blockFieldMaxima: blockFieldMaxima.makeColumn(), bytes: bytes.makeColumn(),
      positions: positions.makeColumn(), bitmaps: bitmaps.makeColumn(),
      bitmapLists: bitmapLists.makeColumn(), rankDirectory: rankDirectory.makeColumn(),
      impactLists: impactLists.makeColumn(), impactStarts: impactStarts.makeColumn(),
      impactDocuments: impactDocuments.makeColumn(), impactValues: impactValues.makeColumn(),
      impactWeights: impactWeights)
    // The columns own the buffers above now.
    listImpacts.deallocate()
    selectScratch.deallocate()
    listDocuments.deallocate()
    listBlockLasts.deallocate()
    listBlockData.deallocate()
    listBlockPositions.deallocate()
    listBlockMaxima.deallocate()
    termLists.deallocate()
    inverseNormalization.deallocate()
    blockDocuments.deallocate()
    blockFrequencies.deallocate()
    blockValues.deallocate()
    postingFrequencies.deallocate()
    postingNormCodes.deallocate()
    return postings
  }
}
