import Foundation

/// The file of a segment's documents deleted since the segment was written (Lucene's
/// `.liv` live-documents file, inverted): per kind, the ``DeletedDocuments`` bits.
///
/// Layout, little-endian: the magic `DSDELET1`, then for each of the five kinds in
/// ``DocumentKind/index`` order a word count (`UInt32`, 0 when none is deleted) and that
/// many 64-bit words. The manifest holds the file's size and CRC-32C.
enum SegmentDeletesFile {
  static let magic = Array("DSDELET1".utf8)

  /// The largest file a segment can need: every kind's words.
  static func maximumBytes(of segment: IndexSnapshot) -> Int {
    magic.count
      + DocumentKind.allCases.reduce(0) { $0 + 4 + max(1, (segment.count(of: $1) + 63) / 64) * 8 }
  }

  static func encode(_ deletions: SegmentDeletions) -> [UInt8] {
    var bytes = magic
    for kind in DocumentKind.allCases {
      let words = deletions.kinds[kind.index]?.words ?? []
      BinaryLayout.append(UInt32(words.count), to: &bytes)
      for word in words { BinaryLayout.append(word, to: &bytes) }
    }
    return bytes
  }

  /// Decodes the deletions of `segment`, checking each kind's bits against its documents.
  ///
  /// - Throws: ``SearchError/Code/corruptIndex`` naming `name` when the file does not fit
  ///   the segment.
  static func decode(_ bytes: [UInt8], of segment: IndexSnapshot, name: String)
    throws(SearchError) -> SegmentDeletions
  {
    let damaged = SearchError(
      .corruptIndex, "\(name) does not fit its segment; rebuild the index with `discover index`")
    var reader = BinaryLayout.Reader(bytes)
    guard reader.take(magic.count).elementsEqual(magic) else { throw damaged }
    var deletions = SegmentDeletions.none
    for kind in DocumentKind.allCases {
      guard let wordCount = reader.uint32() else { throw damaged }
      guard wordCount > 0 else { continue }
      let documentCount = segment.count(of: kind)
      guard Int(wordCount) == max(1, (documentCount + 63) / 64),
        reader.remaining >= Int(wordCount) * 8
      else { throw damaged }
      let words = (0..<Int(wordCount)).map { _ in reader.uint64()! }
      guard let marks = DeletedDocuments(words: words, documentCount: documentCount) else {
        throw damaged
      }
      if marks.count > 0 { deletions.kinds[kind.index] = marks }
    }
    guard reader.remaining == 0 else { throw damaged }
    return deletions
  }
}

/// The file of the counts set in a segment since it was written (Lucene's doc-values
/// update files): each changed document's current value of each count column.
///
/// Layout, little-endian: the magic `DSCOUNT1`, a patch count (`UInt32`), then per patch
/// the column (`UInt8`, its place in ``CountKinds/columns``), the document's number in its
/// type (`UInt32`) and the value (`Int64`, never negative). The manifest holds the file's
/// size and CRC-32C.
enum SegmentCountsFile {
  static let magic = Array("DSCOUNT1".utf8)

  /// The largest file a segment can need: every count column of every document.
  static func maximumBytes(of segment: IndexSnapshot) -> Int {
    magic.count + 4
      + CountKinds.columns.reduce(0) { $0 + segment.count(of: $1.kind) * patchBytes }
  }

  /// The bytes of one patch: column, document, value.
  private static let patchBytes = 13

  static func encode(_ patches: [CountPatch]) -> [UInt8] {
    var bytes = magic
    bytes.reserveCapacity(magic.count + 4 + patches.count * patchBytes)
    BinaryLayout.append(UInt32(patches.count), to: &bytes)
    for patch in patches {
      let column = CountKinds.columns.firstIndex { $0.column == patch.column }!
      bytes.append(UInt8(column))
      BinaryLayout.append(patch.document, to: &bytes)
      BinaryLayout.append(UInt64(patch.value), to: &bytes)
    }
    return bytes
  }

  /// Decodes the patches of `segment`, checking each against its documents.
  ///
  /// - Throws: ``SearchError/Code/corruptIndex`` naming `name` when the file does not fit
  ///   the segment.
  static func decode(_ bytes: [UInt8], of segment: IndexSnapshot, name: String)
    throws(SearchError) -> [CountPatch]
  {
    let damaged = SearchError(
      .corruptIndex, "\(name) does not fit its segment; rebuild the index with `discover index`")
    var reader = BinaryLayout.Reader(bytes)
    guard reader.take(magic.count).elementsEqual(magic), let count = reader.uint32(),
      reader.remaining == Int(count) * patchBytes
    else { throw damaged }
    var patches: [CountPatch] = []
    patches.reserveCapacity(Int(count))
    for _ in 0..<count {
      let column = Int(reader.take(1).first!)
      let document = reader.uint32()!
      let value = reader.uint64()!
      guard column < CountKinds.columns.count, value <= UInt64(Int.max) else { throw damaged }
      let (kind, counted) = (CountKinds.columns[column].kind, CountKinds.columns[column].column)
      guard Int(document) < segment.count(of: kind) else { throw damaged }
      patches.append(CountPatch(column: counted, document: document, value: Int(value)))
    }
    return patches
  }
}

/// Little-endian integers in a byte array, for the small files beside segments.
enum BinaryLayout {
  static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  /// Reads integers off the front of a byte array; `nil` past its end.
  struct Reader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    /// The next `count` bytes, fewer at the end.
    mutating func take(_ count: Int) -> ArraySlice<UInt8> {
      let end = min(bytes.count, offset + count)
      defer { offset = end }
      return bytes[offset..<end]
    }

    mutating func uint32() -> UInt32? { integer() }
    mutating func uint64() -> UInt64? { integer() }

    private mutating func integer<T: FixedWidthInteger>() -> T? {
      let size = MemoryLayout<T>.size
      guard remaining >= size else { return nil }
      var value: T = 0
      for (shift, byte) in take(size).enumerated() { value |= T(byte) << (shift * 8) }
      return value
    }
  }
}
