import Foundation
import Testing

@testable import DiscoverSearch

/// The exact name filters format 10 saves with the index: read back instead of built on the
/// first search, answering as built ones, and refused when damaged in ways their checksums
/// cannot catch (each edit is re-checksummed).
@Suite("Storage: exact name filter sections")
struct NameFilterSectionsTests {
  typealias Image = CatalogSectionsTests.IndexFileImage

  /// Queries whose Top tab and one-term searches consult the filters: exact names, tags,
  /// mentions, and words that name nothing exactly.
  private static let queries = [
    "bruno mars", "#fyp", "@taylorswift", "minecraft", "apt", "dance", "music video",
    "official", "zzzz", "taylor swift", "mrbeast",
  ]

  private static func answers(_ index: DiscoverIndex) throws -> [SearchResponse] {
    try queries.flatMap { query in
      try [SearchTab.top, .users, .hashtags].map { try index.search(query, in: $0, limit: 10) }
    }
  }

  @Test func savedFiltersAnswerAsBuiltOnes() throws {
    let built = try RealCorpus.load().index
    try PersistenceTests.withTemporaryDirectory { directory in
      try built.save(to: directory)
      let opened = try DiscoverIndex.open(at: directory)
      #expect(opened.snapshot.exactNames.byteCount > 0, "read with the file, before a search")
      #expect(try Self.answers(opened) == Self.answers(built))
    }
  }

  /// A format 9 file, without the sections, still opens and builds its filters on the
  /// first search that needs them.
  @Test func aFormatNineFileBuildsThemOnFirstUse() throws {
    let built = try CatalogTests.makeIndex()
    var image = try SuggestionSectionsTests.savedImage()
    try image.dropNameFilterSections(settingVersion: 9)
    try PersistenceTests.withTemporaryDirectory { directory in
      try Data(image.bytes).write(to: directory.appendingPathComponent(IndexFile.fileName))
      let opened = try DiscoverIndex.open(at: directory)
      #expect(opened.snapshot.exactNames.byteCount == 0)
      #expect(opened.snapshot.suggestionCache.stored != nil)
      #expect(try Self.answers(opened) == Self.answers(built))
    }
  }

  @Test func unsortedTagKeysAreCorrupt() throws {
    var image = try SuggestionSectionsTests.savedImage()
    // The hashtags' tag keys (type 2, first section): two or more, the first made largest.
    let section = image.nameFilterSection(2 * 4)
    try #require(image.sections[section].count / 8 >= 2, "two hashtags or more")
    image.set(UInt64.max, section: section, element: 0)
    try CatalogSectionsTests.expectCorrupt(image, "an exact name filter is damaged")
  }

  @Test func aNegativeLengthCountIsCorrupt() throws {
    var image = try SuggestionSectionsTests.savedImage()
    image.set(Int32(-1), section: image.nameFilterSection(2), element: 3)
    try CatalogSectionsTests.expectCorrupt(image, "an exact name filter is damaged")
  }

  @Test func aTextSlotPastTheFieldsIsCorrupt() throws {
    var image = try SuggestionSectionsTests.savedImage()
    image.set(Int64(9), section: image.nameFilterSection(3), element: 0)
    try CatalogSectionsTests.expectCorrupt(image, "an exact name filter is damaged")
  }

  @Test func anIndexedLengthPastTheCountsIsCorrupt() throws {
    var image = try SuggestionSectionsTests.savedImage()
    image.set(Int64(128), section: image.nameFilterSection(4 + 3), element: 1)
    try CatalogSectionsTests.expectCorrupt(image, "an exact name filter is damaged")
  }
}
