import Foundation
import Testing

@testable import DiscoverSearch

/// The sections format 8 added for the trending lists (video hashtags and effects, hashtag
/// descriptions, the effects table), damaged in ways their checksums cannot catch: each
/// edit is re-checksummed, so only the reader's validation stands between it and a crash.
@Suite("Storage: catalog sections")
struct CatalogSectionsTests {
  /// A saved index file whose sections can be edited, with every checksum brought up to date.
  struct IndexFileImage {
    var bytes: [UInt8]
    /// Each section's place in `bytes`, in file order.
    private(set) var sections: [Range<Int>] = []
    private let tableOffset: Int

    init(_ bytes: [UInt8]) throws {
      self.bytes = bytes
      let footer = bytes.count - IndexFile.footerSize
      tableOffset = Int(Self.load(UInt64.self, bytes, at: footer))
      let count = Int(Self.load(UInt64.self, bytes, at: footer + 8))
      try #require(tableOffset + count * IndexFile.tableEntrySize == footer)
      for index in 0..<count {
        let entry = tableOffset + index * IndexFile.tableEntrySize
        let offset = Int(Self.load(UInt64.self, bytes, at: entry))
        let length = Int(Self.load(UInt64.self, bytes, at: entry + 8))
        sections.append(offset..<(offset + length))
      }
    }

    private static func load<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int)
      -> T
    {
      bytes.withUnsafeBytes {
        T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self))
      }
    }

    private mutating func store<T: FixedWidthInteger>(_ value: T, at offset: Int) {
      withUnsafeBytes(of: value.littleEndian) {
        bytes.replaceSubrange(offset..<(offset + $0.count), with: $0)
      }
    }

    /// The suggestion sections format 9 writes after the catalog: sorted terms (bytes,
    /// starts), their frequencies, sorted phrases (bytes, starts), their weights, sources
    /// and targets.
    static let suggestionSectionCount = 8
    /// The exact name filter sections format 10 writes last: per type, tag keys, name
    /// terms, length counts and settings.
    static let nameFilterSectionCount = 16
    /// The derived tables format 11 writes last: for the terms, eight tables, the root's
    /// children and those of `#` and `@`; for the phrases, eight tables, the root's children
    /// and the largest weights; then the default popularity pivots.
    static let derivedSectionCount = 22

    /// The sections after the catalog.
    static var trailingSectionCount: Int {
      suggestionSectionCount + nameFilterSectionCount + derivedSectionCount
    }

    /// The offset in ``sections`` of section `index` counted from the end of the catalog
    /// sections (1 is the last of them, just before the suggestion sections).
    func offset(fromEnd index: Int) -> Int {
      sections.count - Self.trailingSectionCount - index
    }

    /// Section `index` counted from the end of the catalog sections.
    func section(fromEnd index: Int) -> Range<Int> { sections[offset(fromEnd: index)] }

    /// Suggestion section `index` (0 for the sorted terms' bytes).
    func suggestionSection(_ index: Int) -> Int {
      sections.count - Self.trailingSectionCount + index
    }

    /// Exact name filter section `index` (0 for the videos' tag keys; 4 per type).
    func nameFilterSection(_ index: Int) -> Int {
      sections.count - Self.derivedSectionCount - Self.nameFilterSectionCount + index
    }

    /// Derived table section `index` (0 for the terms' heads).
    func derivedSection(_ index: Int) -> Int {
      sections.count - Self.derivedSectionCount + index
    }

    /// The value at byte `offset` of the file.
    func value<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
      Self.load(T.self, bytes, at: offset)
    }

    /// Rewrites the file without its derived tables, exact name filter sections and its last
    /// suggestion sections (all but the first `kept`), with `version` in its header, as a file of that
    /// version would be: the sections that remain, a new table and footer.
    mutating func dropSuggestionSections(settingVersion version: UInt32, keeping kept: Int = 0)
      throws
    {
      try dropTrailingSections(settingVersion: version, keeping: kept)
    }

    /// Rewrites the file without its exact name filter sections, as format 9 wrote it.
    mutating func dropNameFilterSections(settingVersion version: UInt32) throws {
      try dropTrailingSections(settingVersion: version, keeping: Self.suggestionSectionCount)
    }

    /// Rewrites the file without its derived tables, as format 10 wrote it.
    mutating func dropDerivedSections(settingVersion version: UInt32) throws {
      try dropTrailingSections(
        settingVersion: version,
        keeping: Self.suggestionSectionCount + Self.nameFilterSectionCount)
    }

    /// Rewrites the file keeping the first `kept` sections after the catalog.
    private mutating func dropTrailingSections(settingVersion version: UInt32, keeping kept: Int)
      throws
    {
      let remaining = sections.count - Self.trailingSectionCount + kept
      let end = sections[remaining - 1].upperBound
      let entries = bytes[tableOffset..<(tableOffset + remaining * IndexFile.tableEntrySize)]
      var rebuilt = Array(bytes[..<end])
      while rebuilt.count % IndexFile.alignment != 0 { rebuilt.append(0) }
      let newTable = rebuilt.count
      rebuilt += entries
      let tableChecksum = rebuilt.withUnsafeBytes {
        CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[newTable...]))
      }
      for word in [UInt64(newTable), UInt64(remaining)] {
        withUnsafeBytes(of: word.littleEndian) { rebuilt += $0 }
      }
      withUnsafeBytes(of: tableChecksum.littleEndian) { rebuilt += $0 }
      withUnsafeBytes(of: UInt32(0)) { rebuilt += $0 }
      rebuilt += IndexFile.magic
      withUnsafeBytes(of: version.littleEndian) {
        rebuilt.replaceSubrange(8..<12, with: $0)
      }
      self = try IndexFileImage(rebuilt)
    }

    /// Sets element `element` of section `index` (counted from the first) and re-checksums.
    mutating func set<T: FixedWidthInteger>(_ value: T, section index: Int, element: Int) {
      store(value, at: sections[index].lowerBound + element * T.bitWidth / 8)
      updateChecksums(ofSection: index)
    }

    /// Element `element` of section `index` (from the end), read as `T`.
    func value<T: FixedWidthInteger>(_: T.Type, fromEnd index: Int, element: Int) -> T {
      Self.load(T.self, bytes, at: section(fromEnd: index).lowerBound + element * T.bitWidth / 8)
    }

    /// Sets element `element` of section `index` (from the end) and re-checksums.
    mutating func set<T: FixedWidthInteger>(_ value: T, fromEnd index: Int, element: Int) {
      set(value, section: offset(fromEnd: index), element: element)
    }

    /// Sets element `element` of the first section and re-checksums.
    mutating func setFirst<T: FixedWidthInteger>(_ value: T, element: Int) {
      store(value, at: sections[0].lowerBound + element * T.bitWidth / 8)
      updateChecksums(ofSection: 0)
    }

    private mutating func updateChecksums(ofSection index: Int) {
      let range = sections[index]
      let checksum = bytes.withUnsafeBytes {
        CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[range]))
      }
      store(checksum, at: tableOffset + index * IndexFile.tableEntrySize + 20)
      let footer = bytes.count - IndexFile.footerSize
      let table = bytes.withUnsafeBytes {
        CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[tableOffset..<footer]))
      }
      store(table, at: footer + 16)
    }
  }

  // Sections counted from the end of the catalog sections, as `IndexSnapshot+Storage.swift`
  // writes them.
  static let effectUseCountWidth = 2
  static let effectThumbnailTemplates = 8
  static let effectNameBytes = 10
  static let hashtagDescriptionOffsets = 17
  static let referenceKinds = 32
  static let videoEffects = 34
  static let videoHashtagBytes = 37

  static func savedImage() throws -> IndexFileImage {
    let index = try CatalogTests.makeIndex()
    let bytes = try PersistenceTests.withTemporaryDirectory { directory in
      try index.save(to: directory)
      return [UInt8](try Data(contentsOf: PersistenceTests.indexFile(in: directory)))
    }
    let image = try IndexFileImage(bytes)
    // The layout this suite edits, checked against what the index holds.
    let tags = image.section(fromEnd: videoHashtagBytes)
    try #require(
      String(decoding: image.bytes[tags], as: UTF8.self).contains("DanceChallenge\u{FFFD}"),
      "video hashtags are not where this suite expects them")
    let names = image.section(fromEnd: effectNameBytes)
    try #require(String(decoding: image.bytes[names], as: UTF8.self) == "Green ScreenBlur")
    try #require(image.sections[0].count == 5 * 8, "five document counts")
    try #require(image.value(UInt64.self, fromEnd: effectUseCountWidth, element: 0) == 1)
    return image
  }

  /// Expects opening `image` to fail with `corruptIndex` and a message containing `words`.
  static func expectCorrupt(_ image: IndexFileImage, _ words: String) throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      try Data(image.bytes).write(to: directory.appendingPathComponent(IndexFile.fileName))
      let error = #expect(throws: SearchError.self, "\(words)") {
        _ = try DiscoverIndex.open(at: directory)
      }
      #expect(error?.code == .corruptIndex, "\(words): \(String(describing: error))")
      #expect(error?.message.contains(words) == true, "\(String(describing: error))")
    }
  }

  @Test func theUndamagedImageOpens() throws {
    let image = try Self.savedImage()
    try PersistenceTests.withTemporaryDirectory { directory in
      try Data(image.bytes).write(to: directory.appendingPathComponent(IndexFile.fileName))
      #expect(try DiscoverIndex.open(at: directory).effectCount == 2)
    }
  }

  @Test func aHashtagListWithoutItsTerminatorIsCorrupt() throws {
    var image = try Self.savedImage()
    let tags = image.section(fromEnd: Self.videoHashtagBytes)
    try #require(image.bytes[tags.upperBound - 1] == StringListColumn.terminator)
    image.set(UInt8(ascii: "x"), fromEnd: Self.videoHashtagBytes, element: tags.count - 1)
    try Self.expectCorrupt(image, "the video hashtags are damaged")
  }

  @Test func aVideosEffectPastTheEffectsIsCorrupt() throws {
    var image = try Self.savedImage()
    // One byte a video: effect numbers plus one, and two effects.
    try #require(image.section(fromEnd: Self.videoEffects).count == 4)
    image.set(UInt8(7), fromEnd: Self.videoEffects, element: 0)
    try Self.expectCorrupt(image, "a video's effect points past the effects")
  }

  @Test func aReferenceOfUnknownKindIsCorrupt() throws {
    var image = try Self.savedImage()
    try #require(
      image.section(fromEnd: Self.referenceKinds).count == 4, "four unresolved references")
    image.set(UInt8(9), fromEnd: Self.referenceKinds, element: 0)
    try Self.expectCorrupt(image, "a reference is of an unknown kind")
  }

  @Test func descriptionOffsetsOutOfOrderAreCorrupt() throws {
    var image = try Self.savedImage()
    image.set(UInt32(0xFFFF), fromEnd: Self.hashtagDescriptionOffsets, element: 1)
    try Self.expectCorrupt(image, "a string column is damaged")
  }

  @Test func aUseCountOfImpossibleWidthIsCorrupt() throws {
    var image = try Self.savedImage()
    image.set(UInt64(3), fromEnd: Self.effectUseCountWidth, element: 0)
    try Self.expectCorrupt(image, "an integer column is damaged")
  }

  @Test func anEffectThumbnailWithoutItsTemplateIsCorrupt() throws {
    var image = try Self.savedImage()
    image.set(UInt16(100), fromEnd: Self.effectThumbnailTemplates, element: 0)
    try Self.expectCorrupt(image, "a URL column is damaged")
  }

  @Test func anEffectCountThatDisagreesWithTheColumnsIsCorrupt() throws {
    for count: UInt64 in [0, 1, 3, 1 << 40] {
      var image = try Self.savedImage()
      image.setFirst(count, element: 4)
      try Self.expectCorrupt(image, "rebuild the index")
    }
  }

  @Test func aFlippedByteInTheEffectNamesFailsItsChecksum() throws {
    var image = try Self.savedImage()
    image.bytes[image.section(fromEnd: Self.effectNameBytes).lowerBound] ^= 0x20
    try Self.expectCorrupt(image, "fails its checksum")
  }
}
