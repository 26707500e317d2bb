/// Where one term's postings for one content type are, and how many there are.
struct PostingListInfo: Sendable, BitwiseCopyable {
  /// The number of documents of the type that contain the term (in any field).
  var documentFrequency: UInt32
  /// The list's first entry in the type's block tables, for lists of two or more blocks.
  var firstBlock: UInt32
  /// The number of blocks of up to ``PostingBlock/capacity`` postings.
  var blockCount: UInt32
  /// Byte offset of the first block in ``TypePostings/bytes``.
  var dataOffset: UInt32
  /// Byte offset of the first block's positions in ``TypePostings/positions``.
  var positionOffset: UInt32
  /// Index of the list's document bitmap, or `UInt32.max` when the list is too sparse for one.
  var bitmap: UInt32
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
  /// For each term id, its list index in ``lists``, or `UInt32.max` when the term does not
  /// occur in this type.
  let termLists: Column<UInt32>
  let lists: Column<PostingListInfo>
  /// For each list and field, the largest `termFrequency * inverseNormalization` of any of
  /// its postings: the list's score bound per field (see ``BM25F``).
  let listFieldMaxima: Column<Float>
  /// Block tables, for lists of two or more blocks: the last document of each block (for
  /// skipping), where its bytes and positions start, and its score bound per field.
  let blockLastDocuments: Column<UInt32>
  let blockDataOffsets: Column<UInt32>
  let blockPositionOffsets: Column<UInt32>
  let blockFieldMaxima: Column<Float>
  /// Every block's bytes, with ``PostingBlock/padding`` bytes at the end.
  let bytes: Column<UInt8>
  /// Positions, per posting and field with a nonzero frequency: variable-byte gaps.
  let positions: Column<UInt8>
  /// Document bitmaps of frequent terms, `bitmapWordCount` words each.
  let bitmaps: Column<UInt64>
  /// For each bitmap, the number of set bits before each run of ``rankBlockWords`` words
  /// (`rankBlockCount` entries per bitmap).
  let rankDirectory: Column<UInt32>
  /// For the list of bitmap `i`, its best postings by impact are
  /// `impactDocuments[impactStarts[i]..<impactStarts[i + 1]]`, with their impacts (the
  /// pre-saturation BM25F weight `x` under ``impactWeights``) in `impactValues`; sorted by
  /// impact descending, then document ascending.
  let impactStarts: Column<UInt32>
  let impactDocuments: Column<UInt32>
  let impactValues: Column<Float>
  /// The field weights the impacts were computed with.
  let impactWeights: SIMD4<Float>

  /// Words per rank directory entry: 512 bits.
  static let rankBlockWords = 8

  init(
    fieldCount: Int, documentCount: Int, termLists: Column<UInt32>, lists: Column<PostingListInfo>,
    listFieldMaxima: Column<Float>, blockLastDocuments: Column<UInt32>,
    blockDataOffsets: Column<UInt32>, blockPositionOffsets: Column<UInt32>,
    blockFieldMaxima: Column<Float>, bytes: Column<UInt8>, positions: Column<UInt8>,
    bitmaps: Column<UInt64>, rankDirectory: Column<UInt32>, impactStarts: Column<UInt32>,
    impactDocuments: Column<UInt32>, impactValues: Column<Float>, impactWeights: SIMD4<Float>
  ) {
    self.fieldCount = fieldCount
    self.documentCount = documentCount
    self.termLists = termLists
    self.lists = lists
    self.listFieldMaxima = listFieldMaxima
    self.blockLastDocuments = blockLastDocuments
    self.blockDataOffsets = blockDataOffsets
    self.blockPositionOffsets = blockPositionOffsets
    self.blockFieldMaxima = blockFieldMaxima
    self.bytes = bytes
    self.positions = positions
    self.bitmaps = bitmaps
    self.rankDirectory = rankDirectory
    self.impactStarts = impactStarts
    self.impactDocuments = impactDocuments
    self.impactValues = impactValues
    self.impactWeights = impactWeights
  }

  /// Rank directory entries per bitmap.
  var rankBlockCount: Int { (bitmapWordCount + TypePostings.rankBlockWords - 1) / TypePostings.rankBlockWords }

  /// The number of documents before `document` in the list whose bitmap is `bitmap`
  /// (the document's index in the list when the list contains it).
  ///
  /// - Complexity: O(1): a directory lookup and at most eight popcounts.
  @inline(__always)
  func rank(of document: UInt32, inBitmap bitmap: Int) -> Int {
    let words = bitmaps.base + bitmap &* bitmapWordCount
    let word = Int(document >> 6)
    let block = word / TypePostings.rankBlockWords
    var rank = Int(rankDirectory[bitmap &* rankBlockCount &+ block])
    var index = block &* TypePostings.rankBlockWords
    while index < word {
      rank &+= words[index].nonzeroBitCount
      index &+= 1
    }
    let mask = (UInt64(1) << UInt64(document & 63)) &- 1
    return rank &+ (words[word] & mask).nonzeroBitCount
  }

  /// Words per bitmap.
  var bitmapWordCount: Int { (documentCount + 63) >> 6 }

  /// The list of a term, if the term occurs in this type.
  @inline(__always)
  func list(for term: TermID) -> PostingListInfo? {
    guard Int(term.rawValue) < termLists.count else { return nil }
    let index = termLists[Int(term.rawValue)]
    return index == UInt32.max ? nil : lists[Int(index)]
  }

  /// The list index of a term, if the term occurs in this type.
  @inline(__always)
  func listIndex(for term: TermID) -> Int? {
    guard Int(term.rawValue) < termLists.count else { return nil }
    let index = termLists[Int(term.rawValue)]
    return index == UInt32.max ? nil : Int(index)
  }

  /// The bytes everything takes.
  var byteCount: Int {
    termLists.byteCount + lists.byteCount + listFieldMaxima.byteCount
      + blockLastDocuments.byteCount + blockDataOffsets.byteCount
      + blockPositionOffsets.byteCount + blockFieldMaxima.byteCount + bytes.byteCount
      + positions.byteCount + bitmaps.byteCount + rankDirectory.byteCount
      + impactStarts.byteCount + impactDocuments.byteCount + impactValues.byteCount
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
