/// Where one term's postings for one content type are, and how many there are.
struct PostingListInfo: Sendable, BitwiseCopyable {
  /// The number of documents of the type that contain the term (in any field).
  var documentFrequency: UInt32
  /// The list's first entry in the type's block tables, for lists of two or more blocks.
  var firstBlock: UInt32
  /// Byte offset of the first block in ``TypePostings/bytes``.
  var dataOffset: UInt32
  /// Byte offset of the first block's positions in ``TypePostings/positions``.
  var positionOffset: UInt32

  /// The number of blocks: every block but the last holds ``PostingBlock/capacity``
  /// postings.
  ///
  /// Written so that no count overflows: a damaged file may claim any 32-bit count, which
  /// the validator rejects only after reading this (found by fuzzing).
  @inline(__always)
  var blockCount: UInt32 {
    let capacity = UInt32(PostingBlock.capacity)
    return documentFrequency / capacity + (documentFrequency % capacity == 0 ? 0 : 1)
  }
}

/// Layout of one block of postings (up to 128 documents) in the posting bytes.
///
/// ```
/// [count - 1: 1 byte] [document gap width: 1 byte] [term frequency width: 1 byte per field]
/// [document gaps minus one, bit-packed]
/// [term frequencies of field 0, bit-packed] ... [of the last field]
/// ```
/// Gaps are taken from the previous block's last document (or from -1 for the first block).
/// A field the term never occurs in within the block has width 0 and takes no bytes.
enum PostingBlock {
  /// Postings per block: 128, as in Lucene and Tantivy; large enough to amortize the header
  /// and bounds, small enough that a block bound says something about its documents.
  static let capacity = 128
  /// Bytes after the last block that every reader may touch (a 64-bit load at the end).
  static let padding = 16
}

/// The inverted index of one content type: per term, blocked postings with term frequencies
/// per field, positions, block score bounds and, for frequent terms, a bitmap.
///
/// A class, so that searches pass one reference around instead of copying a dozen columns.
final class TypePostings: Sendable {
  /// How many fields the type has (1 to 4).
  let fieldCount: Int
  /// The type's document count, the size of its bitmaps in bits.
  let documentCount: Int
  /// Which terms occur in this type: bit `t` is set for term id `t`. Lists are made in
  /// term order, so a present term's list index is the number of present terms before it
  /// (its rank, through ``termRanks``): about 1.1 bits per term instead of 32.
  let termPresence: Column<UInt64>
  /// The number of set bits of ``termPresence`` before each run of ``rankBlockWords``
  /// words.
  let termRanks: Column<UInt32>
  let lists: Column<PostingListInfo>
  /// For each list and field, the largest `termFrequency * inverseNormalization` of any of
  /// its postings: the list's score bound per field (see ``BM25F``), as ``BoundCode``s.
  let listFieldMaxima: Column<UInt8>
  /// Block tables, for lists of two or more blocks: the last document of each block (for
  /// skipping), where its bytes and positions start, and its score bound per field.
  let blockLastDocuments: Column<UInt32>
  let blockDataOffsets: Column<UInt32>
  let blockPositionOffsets: Column<UInt32>
  let blockFieldMaxima: Column<UInt8>
  /// Every block's bytes, with ``PostingBlock/padding`` bytes at the end.
  let bytes: Column<UInt8>
  /// Positions, per posting and field with a nonzero frequency: variable-byte gaps.
  let positions: Column<UInt8>
  /// Document bitmaps of frequent terms, `bitmapWordCount` words each.
  let bitmaps: Column<UInt64>
  /// The lists that have a bitmap, ascending; bitmap `i` belongs to list `bitmapLists[i]`.
  let bitmapLists: Column<UInt32>
  /// For each bitmap, the number of set bits before each run of ``rankBlockWords`` words
  /// (`rankBlockCount` entries per bitmap).
  let rankDirectory: Column<UInt32>
  /// The lists that have an impact order, ascending. For list `impactLists[i]`, its best
  /// postings by impact are `impactDocuments[impactStarts[i]..<impactStarts[i + 1]]`, with
  /// their impacts (the pre-saturation BM25F weight `x` under ``impactWeights``) in
  /// `impactValues`; sorted by impact descending, then document ascending. Frequent terms
  /// (those with bitmaps) keep a long head, medium ones a short one (see
  /// ``PostingsEncoder``).
  let impactLists: Column<UInt32>
  let impactStarts: Column<UInt32>
  let impactDocuments: Column<UInt32>
  let impactValues: Column<Float>
  /// The field weights the impacts were computed with.
  let impactWeights: SIMD4<Float>
  /// For postings read from disk, which lists were checked; nil for postings built in
  /// memory, which need no check.
  let listChecks: PostingListChecks?

  /// Words per rank directory entry: 512 bits.
  static let rankBlockWords = 8

  init(
    fieldCount: Int, documentCount: Int, termPresence: Column<UInt64>, termRanks: Column<UInt32>,
    lists: Column<PostingListInfo>,
    listFieldMaxima: Column<UInt8>, blockLastDocuments: Column<UInt32>,
    blockDataOffsets: Column<UInt32>, blockPositionOffsets: Column<UInt32>,
    blockFieldMaxima: Column<UInt8>, bytes: Column<UInt8>, positions: Column<UInt8>,
    bitmaps: Column<UInt64>, bitmapLists: Column<UInt32>, rankDirectory: Column<UInt32>,
    impactLists: Column<UInt32>, impactStarts: Column<UInt32>,
    impactDocuments: Column<UInt32>, impactValues: Column<Float>, impactWeights: SIMD4<Float>,
    listChecks: PostingListChecks? = nil
  ) {
    self.fieldCount = fieldCount
    self.documentCount = documentCount
    self.termPresence = termPresence
    self.termRanks = termRanks
    self.lists = lists
    self.listFieldMaxima = listFieldMaxima
    self.blockLastDocuments = blockLastDocuments
    self.blockDataOffsets = blockDataOffsets
    self.blockPositionOffsets = blockPositionOffsets
    self.blockFieldMaxima = blockFieldMaxima
    self.bytes = bytes
    self.positions = positions
    self.bitmaps = bitmaps
    self.bitmapLists = bitmapLists
    self.rankDirectory = rankDirectory
    self.impactLists = impactLists
    self.impactStarts = impactStarts
    self.impactDocuments = impactDocuments
    self.impactValues = impactValues
    self.impactWeights = impactWeights
    self.listChecks = listChecks
  }

  /// The bitmap of list `list`, if it has one.
  ///
  /// - Complexity: O(log b) for b bitmaps (a few hundred at most).
  @inline(__always)
  func bitmapIndex(ofList list: Int) -> Int? {
    var low = 0
    var high = bitmapLists.count
    let target = UInt32(list)
    while low < high {
      let middle = (low + high) >> 1
      if bitmapLists[middle] < target { low = middle + 1 } else { high = middle }
    }
    return low < bitmapLists.count && bitmapLists[low] == target ? low : nil
  }

  /// The range of list `list`'s impact order in ``impactDocuments``, if it has one.
  ///
  /// - Complexity: O(log n) for n lists with impact orders.
  @inline(__always)
  func impactRange(ofList list: Int) -> Range<Int>? {
    var low = 0
    var high = impactLists.count
    let target = UInt32(list)
    while low < high {
      let middle = (low + high) >> 1
      if impactLists[middle] < target { low = middle + 1 } else { high = middle }
    }
    guard low < impactLists.count && impactLists[low] == target else { return nil }
    return Int(impactStarts[low])..<Int(impactStarts[low + 1])
  }

  /// Rank directory entries per bitmap.
  var rankBlockCount: Int {
    (bitmapWordCount + TypePostings.rankBlockWords - 1) / TypePostings.rankBlockWords
  }

  /// The number of documents before `document` in the list whose bitmap is `bitmap`
  /// (the document's index in the list when the list contains it).
  ///
  /// - Complexity: O(1): a directory lookup and at most eight popcounts.
  @inline(__always)
  func rank(of document: UInt32, inBitmap bitmap: Int) -> Int {
    TypePostings.rank(
      of: document, words: bitmaps.base + bitmap &* bitmapWordCount,
      directory: rankDirectory.base + bitmap &* rankBlockCount)
  }

  /// The number of set bits before bit `bit` of `words`, with `directory` holding the count
  /// before each run of ``rankBlockWords`` words.
  @inline(__always)
  static func rank(
    of bit: UInt32, words: UnsafePointer<UInt64>, directory: UnsafePointer<UInt32>
  ) -> Int {
    let word = Int(bit >> 6)
    let block = word / rankBlockWords
    var rank = Int(directory[block])
    var index = block &* rankBlockWords
    while index < word {
      rank &+= words[index].nonzeroBitCount
      index &+= 1
    }
    let mask = (UInt64(1) << UInt64(bit & 63)) &- 1
    return rank &+ (words[word] & mask).nonzeroBitCount
  }

  /// The rank directory of `words` (see ``rankDirectory``).
  static func makeRankDirectory(_ words: UnsafeBufferPointer<UInt64>) -> [UInt32] {
    var directory: [UInt32] = []
    directory.reserveCapacity(words.count / rankBlockWords + 1)
    var total: UInt32 = 0
    for (index, word) in words.enumerated() {
      if index % rankBlockWords == 0 { directory.append(total) }
      total &+= UInt32(word.nonzeroBitCount)
    }
    return directory
  }

  /// Words per bitmap.
  var bitmapWordCount: Int { (documentCount + 63) >> 6 }

  /// The list of a term, if the term occurs in this type.
  @inline(__always)
  func list(for term: TermID) -> PostingListInfo? {
    listIndex(for: term).map { lists[$0] }
  }

  /// The list index of a term, if the term occurs in this type. Searches go through
  /// ``checkedListIndex(for:)`` instead, which checks a list read from disk before its first
  /// use.
  ///
  /// - Complexity: O(1): a bit test, a directory lookup and at most eight popcounts.
  @inline(__always)
  func listIndex(for term: TermID) -> Int? {
    let word = Int(term.rawValue >> 6)
    guard word < termPresence.count,
      termPresence[word] & (1 << UInt64(term.rawValue & 63)) != 0
    else { return nil }
    return TypePostings.rank(of: term.rawValue, words: termPresence.base, directory: termRanks.base)
  }

  /// The bytes everything takes.
  var byteCount: Int {
    termPresence.byteCount + termRanks.byteCount + lists.byteCount + listFieldMaxima.byteCount
      + blockLastDocuments.byteCount + blockDataOffsets.byteCount
      + blockPositionOffsets.byteCount + blockFieldMaxima.byteCount + bytes.byteCount
      + positions.byteCount + bitmaps.byteCount + bitmapLists.byteCount + rankDirectory.byteCount
      + impactLists.byteCount + impactStarts.byteCount + impactDocuments.byteCount
      + impactValues.byteCount
  }
}

/// Score bounds in one byte: a geometric scale with 5% steps, always rounded up.
///
/// A block's bound per field (the largest normalized term frequency in it) only has to be
/// an upper bound; 5% of slack costs little pruning, and one byte instead of four keeps the
/// block tables small. Code 0 is 0; codes 1 to 254 cover 0.005 to about 1,150 (0.005 ·
/// 1.05^253), far beyond a normalized frequency in a title or description; code 255 is
/// infinity, which ``BM25F/bound(fieldMaxima:idf:)`` treats as the saturation limit.
enum BoundCode {
  private static let smallest: Float = 0.005
  private static let ratio: Float = 1.05

  /// The value each code stands for.
  static let values: [Float] = (0..<256).map { code -> Float in
    switch code {
    case 0: 0
    case 255: .infinity
    default: smallest * pow(ratio, Float(code - 1))
    }
  }

  /// ``values`` in memory that lives as long as the process, for hot loops to read through
  /// a plain pointer.
  nonisolated(unsafe) static let table: UnsafePointer<Float> = {
    let table = UnsafeMutablePointer<Float>.allocate(capacity: 256)
    for code in 0..<256 { table[code] = values[code] }
    return UnsafePointer(table)
  }()

  /// The smallest code whose value is at least `value`.
  ///
  /// A binary search of ``table`` (eight comparisons): the encoder asks for four codes per
  /// block, and most lists are a single block of one posting. The search is branch-free
  /// (the halving steps of Knuth, *The Art of Computer Programming* vol. 3, 6.2.1, each a
  /// conditional move): which way a comparison goes follows no pattern a branch predictor
  /// can learn, and mispredicted branches cost more than the comparisons.
  static func code(roundingUp value: Float) -> UInt8 {
    guard value > 0 else { return 0 }
    guard value.isFinite else { return 255 }
    let table = self.table
    // The largest code whose value is below `value`: code 0 (value 0) is, code 255
    // (infinity) is not, and the steps add up to 255. The answer is the code after it.
    var below = 0
    var step = 128
    while step > 0 {
      let probe = below &+ step
      below = table[probe] < value ? probe : below
      step &>>= 1
    }
    return UInt8(truncatingIfNeeded: below &+ 1)
  }
}

/// A term's dense identifier in the term dictionary.
struct TermID: Hashable, Sendable, Comparable {
  var rawValue: UInt32
  init(_ rawValue: UInt32) { self.rawValue = rawValue }
  static func < (lhs: TermID, rhs: TermID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A document's number within its content type, from 0.
struct DocID: Hashable, Sendable, Comparable {
  var rawValue: UInt32
  init(_ rawValue: UInt32) { self.rawValue = rawValue }
  static func < (lhs: DocID, rhs: DocID) -> Bool { lhs.rawValue < rhs.rawValue }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
