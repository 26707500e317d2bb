import Foundation
import Synchronization
import SyntheticCorpus
import Testing

@testable import DiscoverSearch

/// What opening no longer does: decoding every posting block (each list is checked before
/// the first search that reads it) and rebuilding the completion tables and popularity
/// pivots (format 11 saves them, and opening checks them). Damage is made with the
/// checksums recomputed, so only these checks stand between it and a wrong read.
@Suite("Storage: checks deferred past open, tables saved")
struct DeferredCheckTests {
  typealias Image = CatalogSectionsTests.IndexFileImage

  /// The video postings' list table: after the document counts, the field settings and the
  /// term dictionary's three sections come the video type's term presence, term ranks and
  /// lists, as `IndexSnapshot+Storage.swift` writes them.
  static let videoListsSection = 7

  /// An index whose term `word` has a video posting list, saved, and that list's index.
  static func savedImage(word: String) throws -> (image: Image, list: Int, index: DiscoverIndex) {
    let index = try PersistenceTests.smallIndex(word)
    let snapshot = index.snapshot
    let term = try #require(Array(word.utf8).withUnsafeBytes { snapshot.terms.find($0) })
    let list = try #require(snapshot.partition(.video).postings.listIndex(for: TermID(term)))
    let bytes = try PersistenceTests.withTemporaryDirectory { directory in
      try index.save(to: directory)
      return [UInt8](try Data(contentsOf: PersistenceTests.indexFile(in: directory)))
    }
    let image = try Image(bytes)
    try #require(
      image.sections[Self.videoListsSection].count
        == snapshot.partition(.video).postings.lists.count
        * MemoryLayout<PostingListInfo>.stride,
      "the video lists are not where this suite expects them")
    return (image, list, index)
  }

  /// A list whose length disagrees with its blocks is served by nothing: the file opens (the
  /// blocks are not decoded on open), every search that needs the list fails with
  /// `corruptIndex` each time, searches that do not need it answer as before, and `.full`
  /// and `verify` refuse the file.
  @Test func aDamagedListFailsItsSearchesNotTheOpen() throws {
    var (image, list, built) = try Self.savedImage(word: "sunset")
    let frequency = image.value(
      UInt32.self,
      at: image.sections[Self.videoListsSection].lowerBound
        + list * MemoryLayout<PostingListInfo>.stride)
    image.set(frequency + 1, section: Self.videoListsSection, element: list * 4)
    try PersistenceTests.withTemporaryDirectory { directory in
      try Data(image.bytes).write(to: directory.appendingPathComponent(IndexFile.fileName))
      let opened = try DiscoverIndex.open(at: directory)
      for _ in 0..<2 {
        let error = #expect(throws: SearchError.self) { try opened.search("sunset") }
        #expect(error?.code == .corruptIndex)
        #expect(
          error?.message.contains("a posting list") == true,
          "\(String(describing: error))")
      }
      #expect(throws: SearchError.self) { try opened.search("sunset", in: .videos, explain: true) }
      #expect(try opened.search("café").results.map(\.id) == built.search("café").results.map(\.id))
      #expect(opened.referenceCounts(for: "sunset") == nil)
      let full = #expect(throws: SearchError.self) {
        _ = try DiscoverIndex.open(at: directory, verification: .full)
      }
      #expect(full?.code == .corruptIndex)
      #expect(throws: SearchError.self) { try DiscoverIndex.verify(at: directory) }
    }
  }

  /// Many searches at once on a freshly opened index check each list once and agree.
  @Test func concurrentFirstSearchesAgree() throws {
    let (image, _, built) = try Self.savedImage(word: "sunset")
    try PersistenceTests.withTemporaryDirectory { directory in
      try Data(image.bytes).write(to: directory.appendingPathComponent(IndexFile.fileName))
      let opened = try DiscoverIndex.open(at: directory)
      let queries = ["sunset", "café", "dance", "東京", "🔥", "number 7", "sunset 12"]
      let expected = try queries.map { try built.search($0).results.map(\.id) }
      let answers = Mutex<[(Int, [String]?)]>([])
      DispatchQueue.concurrentPerform(iterations: 32) { round in
        let query = round % queries.count
        let ids = try? opened.search(queries[query]).results.map(\.id)
        answers.withLock { $0.append((query, ids)) }
      }
      for (query, ids) in answers.withLock({ $0 }) {
        #expect(ids == expected[query], "\(queries[query])")
      }
    }
  }

  // MARK: Saved tables

  /// An opened file completes, searches and ranks as the index it was saved from, with its
  /// tables and pivots read rather than rebuilt.
  @Test func savedTablesAnswerAsBuiltOnes() throws {
    let built = try PersistenceTests.smallIndex()
    try PersistenceTests.withTemporaryDirectory { directory in
      try built.save(to: directory)
      let opened = try DiscoverIndex.open(at: directory)
      let (lexicon, phrases) = try #require(opened.snapshot.suggestionCache.stored)
      let (builtLexicon, builtPhrases) = built.snapshot.suggestionCache.structures(
        of: built.snapshot)
      #expect(lexicon.rootChildren.map(\.child.keys) == builtLexicon.rootChildren.map(\.child.keys))
      #expect(lexicon.rootChildren.map(\.mask) == builtLexicon.rootChildren.map(\.mask))
      #expect(lexicon.largestFrequencies == builtLexicon.largestFrequencies)
      #expect(phrases.largestWeights == builtPhrases.largestWeights)
      #expect(lexicon.frequencies.cachedRangeCount == builtLexicon.frequencies.cachedRangeCount)
      for type in SearchResultType.allCases {
        #expect(
          opened.snapshot.staticFactors.defaultPivot(snapshot: opened.snapshot, type: type)
            == StaticFactors.geometricMeanPivot(snapshot: built.snapshot, type: type))
      }
      #expect(
        try PersistenceTests.responses(opened, PersistenceTests.smallQueries)
          == PersistenceTests.responses(built, PersistenceTests.smallQueries))
    }
  }

  /// A format 10 file, without the tables, opens and builds them.
  @Test func aFormatTenFileBuildsTheTablesOnOpen() throws {
    let built = try CatalogTests.makeIndex()
    var image = try SuggestionSectionsTests.savedImage()
    try image.dropDerivedSections(settingVersion: 10)
    try PersistenceTests.withTemporaryDirectory { directory in
      try Data(image.bytes).write(to: directory.appendingPathComponent(IndexFile.fileName))
      let opened = try DiscoverIndex.open(at: directory)
      #expect(opened.snapshot.suggestionCache.stored != nil)
      for prefix in ["d", "dan", "#da", "@", "dance ch", "zzz"] {
        #expect(
          try opened.suggestions(forPrefix: prefix) == built.suggestions(forPrefix: prefix),
          "\(prefix)")
      }
    }
  }

  /// Derived section `index` of the saved catalog index: 0 to 7 the terms' tables (heads,
  /// coarse heads, buckets, third-byte pairs and starts, range-maximum levels, cached keys
  /// and positions), 8 to 10 the children of the root, `#` and `@`; 11 to 18 the phrases'
  /// tables, 19 their root's children, 20 their largest weights; 21 the pivots.
  @Test(arguments: [
    (2, "the sorted terms are damaged"), (5, "the term frequency tables are damaged"),
    (8, "the first characters of the terms are damaged"),
    (13, "the sorted phrases are damaged"), (16, "the phrase weight tables are damaged"),
    (19, "the first characters of the phrases are damaged"),
  ])
  func aTableEntryPastTheKeysIsCorrupt(section: Int, words: String) throws {
    var image = try SuggestionSectionsTests.savedImage()
    let index = image.derivedSection(section)
    try #require(image.sections[index].count >= 4, "section \(section) is empty")
    // Far past any key: a bucket's first key or a child's lower bound (words of 64 bits),
    // a position in the range-maximum levels (32 bits).
    if [5, 16].contains(section) {
      image.set(UInt32.max - 1, section: index, element: 0)
    } else {
      image.set(UInt64(UInt32.max - 1), section: index, element: 0)
    }
    try CatalogSectionsTests.expectCorrupt(image, words)
  }

  @Test func pivotsThatAreNotFiniteAreCorrupt() throws {
    var image = try SuggestionSectionsTests.savedImage()
    image.set(Double.nan.bitPattern, section: image.derivedSection(21), element: 0)
    try CatalogSectionsTests.expectCorrupt(image, "the popularity pivots are damaged")
  }

  /// Bytes of every derived section flipped, checksums recomputed: each file is refused
  /// with `corruptIndex` or opens, and then completes and searches without a crash.
  @Test func flippedTableBytesAreRefusedOrHarmless() throws {
    let image = try SuggestionSectionsTests.savedImage()
    var generator = SplitMix64(seed: 31)
    var refused = 0
    var opened = 0
    for section in 0..<CatalogSectionsTests.IndexFileImage.derivedSectionCount {
      let range = image.sections[image.derivedSection(section)]
      guard !range.isEmpty else { continue }
      for _ in 0..<12 {
        var damaged = image
        let element = Int.random(in: 0..<range.count, using: &generator)
        let byte = damaged.bytes[range.lowerBound + element]
        damaged.set(
          byte ^ UInt8.random(in: 1...255, using: &generator),
          section: image.derivedSection(section), element: element)
        try PersistenceTests.withTemporaryDirectory { directory in
          try Data(damaged.bytes).write(to: directory.appendingPathComponent(IndexFile.fileName))
          do {
            let index = try DiscoverIndex.open(at: directory)
            opened += 1
            for prefix in ["d", "da", "dance ch", "#", "#da", "@", "@d", "zz", "東"] {
              _ = try index.suggestions(forPrefix: prefix)
            }
            _ = try index.search("dance", matching: MatchingOptions(matchesPrefixOfLastWord: true))
            _ = try index.search("dacne")
          } catch let error as SearchError {
            #expect(error.code == .corruptIndex, "section \(section): \(error)")
            refused += 1
          }
        }
      }
    }
    #expect(refused > 0 && opened > 0, "refused \(refused), opened \(opened)")
  }
}
