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
struct TypePostings: Sendable {
  /// How many fields the type has (1 to 4).
  var fieldCount: Int
  /// The type's document count, the size of its bitmaps in bits.
  var documentCount: Int
  /// For each term id, its list index in ``lists``, or `UInt32.max` when the term does not
  /// occur in this type.
  var termLists: Column<UInt32>
  var lists: Column<PostingListInfo>
  /// For each list and field, the largest `termFrequency * inverseNormalization` of any of
  /// its postings: the list's score bound per field (see ``BM25F``).
  var listFieldMaxima: Column<Float>
  /// Block tables, for lists of two or more blocks: the last document of each block (for
  /// skipping), where its bytes and positions start, and its score bound per field.
  var blockLastDocuments: Column<UInt32>
  var blockDataOffsets: Column<UInt32>
  var blockPositionOffsets: Column<UInt32>
  var blockFieldMaxima: Column<Float>
  /// Every block's bytes, with ``PostingBlock/padding`` bytes at the end.
  var bytes: Column<UInt8>
  /// Positions, per posting and field with a nonzero frequency: variable-byte gaps.
  var positions: Column<UInt8>
  /// Document bitmaps of frequent terms, `bitmapWordCount` words each.
  var bitmaps: Column<UInt64>

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
      + positions.byteCount + bitmaps.byteCount
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
