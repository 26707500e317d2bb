import Foundation
import Testing

@testable import DiscoverSearch

/// The completion structures format 9 saves with the index: read back ready, the same
/// completions as built ones, and refused when damaged in ways their checksums cannot
/// catch (each edit is re-checksummed).
@Suite("Storage: suggestion sections")
struct SuggestionSectionsTests {
  typealias Image = CatalogSectionsTests.IndexFileImage

  private static let prefixes = [
    "d", "da", "dan", "dance ", "dance ch", "#da", "@", "@dan", "gre", "tok", "zzz", "東",
  ]

  private static func suggestions(_ index: DiscoverIndex) throws -> [[Suggestion]] {
    try prefixes.map { try index.suggestions(forPrefix: $0, limit: 10) }
  }

  /// An opened index holds its structures before any completion (nothing to build on the
  /// first one) and completes every prefix as the index it was saved from.
  @Test func savedStructuresCompleteAsBuiltOnes() throws {
    let built = try CatalogTests.makeIndex()
    try PersistenceTests.withTemporaryDirectory { directory in
      try built.save(to: directory)
      let opened = try DiscoverIndex.open(at: directory)
      #expect(opened.snapshot.suggestionCache.stored != nil)
      #expect(try Self.suggestions(opened) == Self.suggestions(built))
      // The real corpus too, phrases and typos included.
      let real = try RealCorpus.load().index
      try real.save(to: directory)
      let reopened = try DiscoverIndex.open(at: directory)
      let texts = ["bruno m", "taylor sw", "#fy", "dance challe", "minecraf", "tayl"]
      for text in texts {
        #expect(
          try reopened.suggestions(forPrefix: text) == real.suggestions(forPrefix: text),
          "\(text)")
      }
    }
  }

  /// A file of format 8, without the sections, still opens, and builds its structures on
  /// the first completion.
  @Test func aFormatEightFileBuildsThemOnFirstUse() throws {
    let built = try CatalogTests.makeIndex()
    var image = try Self.savedImage()
    try image.dropSuggestionSections(settingVersion: 8)
    try PersistenceTests.withTemporaryDirectory { directory in
      try Data(image.bytes).write(to: directory.appendingPathComponent(IndexFile.fileName))
      let opened = try DiscoverIndex.open(at: directory)
      #expect(opened.snapshot.suggestionCache.stored == nil)
      #expect(try Self.suggestions(opened) == Self.suggestions(built))
    }
  }

  static func savedImage() throws -> Image {
    let index = try CatalogTests.makeIndex()
    return try PersistenceTests.withTemporaryDirectory { directory in
      try index.save(to: directory)
      return try Image([UInt8](try Data(contentsOf: PersistenceTests.indexFile(in: directory))))
    }
  }

  @Test func termsOutOfOrderAreCorrupt() throws {
    var image = try Self.savedImage()
    // The first term's first byte made 0xFF, which no UTF-8 text holds: it now sorts after
    // the second.
    try #require(image.sections[image.suggestionSection(1)].count / 4 > 2, "two terms or more")
    image.set(UInt8(255), section: image.suggestionSection(0), element: 0)
    try CatalogSectionsTests.expectCorrupt(image, "the sorted terms are damaged")
  }

  @Test func aTermStartPastTheBytesIsCorrupt() throws {
    var image = try Self.savedImage()
    let count = image.sections[image.suggestionSection(1)].count / 4
    image.set(UInt32.max, section: image.suggestionSection(1), element: count - 1)
    try CatalogSectionsTests.expectCorrupt(image, "the sorted terms are damaged")
  }

  @Test func phraseStartsThatGoBackAreCorrupt() throws {
    var image = try Self.savedImage()
    image.set(UInt32(1_000_000), section: image.suggestionSection(4), element: 1)
    try CatalogSectionsTests.expectCorrupt(image, "the sorted phrases are damaged")
  }

  @Test func aPhraseTargetPastItsDocumentsIsCorrupt() throws {
    var image = try Self.savedImage()
    // Every phrase's target set past the users and sounds: pairs need UInt32.max, display
    // names and sounds a document.
    let count = image.sections[image.suggestionSection(7)].count / 4
    try #require(count > 0)
    for element in 0..<count {
      image.set(UInt32(1 << 20), section: image.suggestionSection(7), element: element)
    }
    try CatalogSectionsTests.expectCorrupt(image, "a phrase names no document of its kind")
  }

  @Test func anUnknownPhraseSourceIsCorrupt() throws {
    var image = try Self.savedImage()
    image.set(UInt8(9), section: image.suggestionSection(6), element: 0)
    try CatalogSectionsTests.expectCorrupt(image, "a phrase names no document of its kind")
  }

  /// A format 9 file cut after its first two suggestion sections (a table and footer made
  /// anew, so only the reader's section count stands in the way).
  @Test func aFileMissingSuggestionSectionsIsCorrupt() throws {
    var image = try Self.savedImage()
    try image.dropSuggestionSections(settingVersion: 9, keeping: 2)
    try CatalogSectionsTests.expectCorrupt(image, "fewer sections")
  }
}
