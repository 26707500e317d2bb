import Foundation
import SyntheticCorpus
import Testing

@testable import DiscoverSearch

/// Searching several segments as one.
@Suite("Index: segments searched as one")
struct SegmentSetTests {
  /// The index of `documents` split into segments at random: each document goes to one of
  /// `segmentCount` segments, each segment built on its own.
  static func segmented(
    _ documents: [Document], segmentCount: Int, random: inout SplitMix64
  ) throws -> DiscoverIndex {
    var parts = [[Document]](repeating: [], count: segmentCount)
    for document in documents {
      parts[Int(random.next() % UInt64(segmentCount))].append(document)
    }
    let segments = try parts.map { part in
      var writer = IndexWriter(configuration: IndexConfiguration())
      try writer.add(contentsOf: part)
      return try writer.makeSnapshot()
    }
    return DiscoverIndex(segments: SegmentSet(segments: segments))
  }

  /// The real corpus's videos and sounds without what their analysis shares with other
  /// documents (creators, hashtags and tags in text, which are split by the vocabulary of
  /// the whole build): text whose postings do not depend on the split.
  static func splitIndependentDocuments() throws -> [Document] {
    func plain(_ text: String) -> String {
      String(text.unicodeScalars.filter { $0 != "#" && $0 != "@" })
    }
    return try RealCorpus.load().documents.compactMap { document in
      switch document {
      case .video(var video):
        video.title = plain(video.title)
        video.description = video.description.map(plain)
        video.hashtags = []
        video.creator = nil
        video.sound = nil
        video.effect = nil
        return .video(video)
      case .sound(var sound):
        sound.title = plain(sound.title)
        sound.artist = sound.artist.map(plain)
        return .sound(sound)
      default:
        return nil
      }
    }
  }

  /// With no deletes, a segmented index answers as one built in a single pass: the same
  /// counts, facets, and hits in the same order with the same scores (ties aside), on every
  /// tab, on the next page and with explanations, over random splits of real text.
  @Test(arguments: [2, 3, 7])
  func randomSplitsAnswerAsOneSegment(segmentCount: Int) throws {
    let documents = try Self.splitIndependentDocuments()
    let single = try DiscoverIndex.build(from: documents)
    var random = SplitMix64(seed: UInt64(segmentCount))
    let segmented = try Self.segmented(documents, segmentCount: segmentCount, random: &random)
    #expect(segmented.segments.segments.count == segmentCount)
    #expect(segmented.documentCount == single.documentCount)
    var ranking = RankingOptions()
    ranking.recency.origin = Date(timeIntervalSince1970: 1_760_000_000)
    let words = LiveIndexTests.queryWords(documents).prefix(60)
    let queries = Array(words) + ["the best", "music video", "official trailer", "love song"]
    for query in queries {
      for tab in [SearchTab.top, .videos, .sounds] {
        let expected = try single.search(query, in: tab, limit: 20, ranking: ranking)
        let found = try segmented.search(query, in: tab, limit: 20, ranking: ranking)
        #expect(found.totalHits == expected.totalHits, "\(query) \(tab)")
        #expect(found.facets == expected.facets, "\(query) \(tab)")
        #expect(Self.scored(found) == Self.scored(expected), "\(query) \(tab)")
        guard let cursor = expected.nextCursor, let next = found.nextCursor else {
          #expect(found.nextCursor == nil && expected.nextCursor == nil, "\(query) \(tab)")
          continue
        }
        let expectedNext = try single.search(
          query, in: tab, limit: 20, after: cursor, ranking: ranking)
        let foundNext = try segmented.search(
          query, in: tab, limit: 20, after: next, ranking: ranking)
        #expect(Self.scored(foundNext) == Self.scored(expectedNext), "page 2 \(query) \(tab)")
      }
    }
  }

  /// Segments built with the whole index's context (``IndexWriter/makeSegment(of:)``)
  /// analyze their documents as one build does: creators' names in other segments, tags
  /// split by the whole vocabulary, users' video counts over every video. Random splits of
  /// the real corpus, users, hashtags and `@` and `#` queries included, answer as one
  /// segment.
  @Test(arguments: [2, 5])
  func segmentsWithContextAnswerAsOneBuild(segmentCount: Int) throws {
    let documents = try RealCorpus.load().documents
    let single = try RealCorpus.load().index
    var writer = IndexWriter(configuration: IndexConfiguration())
    try writer.add(contentsOf: documents)
    var random = SplitMix64(seed: UInt64(segmentCount) &* 31)
    var parts = [[Document]](repeating: [], count: segmentCount)
    for document in documents {
      parts[Int(random.next() % UInt64(segmentCount))].append(document)
    }
    let segmented = DiscoverIndex(
      segments: SegmentSet(segments: try parts.map { try writer.makeSegment(of: $0) }))
    var ranking = RankingOptions()
    ranking.recency.origin = Date(timeIntervalSince1970: 1_760_000_000)
    let words = LiveIndexTests.queryWords(documents).prefix(40)
    let queries =
      Array(words) + [
        "#music", "@taylorswift", "bruno mars", "#dancechallenge", "dance", "mrbeast",
      ]
    for query in queries {
      for tab in SearchTab.allCases {
        let expected = try single.search(query, in: tab, limit: 20, ranking: ranking)
        let found = try segmented.search(query, in: tab, limit: 20, ranking: ranking)
        #expect(found.facets == expected.facets, "\(query) \(tab)")
        #expect(Self.scored(found) == Self.scored(expected), "\(query) \(tab)")
        // Cards, by id (ties may be ordered apart).
        let cards = Dictionary(
          found.results.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for result in expected.results {
          guard let card = cards[result.id] else { continue }
          #expect(card.subtitle == result.subtitle, "\(query) \(tab) \(result.id)")
          #expect(card.metadata == result.metadata, "\(query) \(tab) \(result.id)")
        }
      }
    }
  }

  /// A typo and a prefix find the same words through the merged lexicon of the segments,
  /// and an explanation reads the index-wide statistics.
  @Test func typosPrefixesAndExplanationsUseEverySegment() throws {
    let documents = try Self.splitIndependentDocuments()
    let single = try DiscoverIndex.build(from: documents)
    var random = SplitMix64(seed: 11)
    let segmented = try Self.segmented(documents, segmentCount: 4, random: &random)
    var ranking = RankingOptions()
    ranking.recency.origin = Date(timeIntervalSince1970: 1_760_000_000)
    let prefix = MatchingOptions(matchesPrefixOfLastWord: true)
    for query in ["musci", "offical trailer", "lov", "dan"] {
      for matching in [MatchingOptions(), prefix] {
        let expected = try single.search(
          query, in: .videos, limit: 10, ranking: ranking, matching: matching)
        let found = try segmented.search(
          query, in: .videos, limit: 10, ranking: ranking, matching: matching)
        #expect(found.totalHits == expected.totalHits, "\(query)")
        #expect(found.didYouMean == expected.didYouMean, "\(query)")
        #expect(Self.scored(found) == Self.scored(expected), "\(query)")
      }
    }
    let expected = try single.search(
      "music", in: .videos, limit: 5, ranking: ranking, explain: true)
    let found = try segmented.search(
      "music", in: .videos, limit: 5, ranking: ranking, explain: true)
    for (one, other) in zip(found.results, expected.results) where one.id == other.id {
      let mine = try #require(one.explanation)
      let theirs = try #require(other.explanation)
      #expect(abs(mine.score - theirs.score) <= 1e-4 * theirs.score)
      #expect(mine.terms.map(\.idf) == theirs.terms.map(\.idf))
      #expect(
        mine.terms.flatMap { $0.fields.map(\.averageFieldLength) }
          == theirs.terms.flatMap { $0.fields.map(\.averageFieldLength) })
    }
    #expect(!found.results.isEmpty)
  }

  /// Completions come from every segment: words with their index-wide frequencies, and
  /// sounds by title and artist, in the order one segment of everything gives them. (Title
  /// pairs are left out of the comparison: a pair counted once in each of two segments is
  /// kept by one build and not by the merge, see ``PhraseDictionary``.)
  @Test func suggestionsCompleteFromEverySegment() throws {
    let documents = try Self.splitIndependentDocuments()
    let single = try DiscoverIndex.build(from: documents)
    var random = SplitMix64(seed: 5)
    let segmented = try Self.segmented(documents, segmentCount: 3, random: &random)
    func comparable(_ suggestions: [Suggestion]) -> [String] {
      suggestions.filter { $0.kind == .sound || !$0.text.contains(" ") }
        .map { "\($0.kind) \($0.text)" }
    }
    var compared = 0
    for prefix in ["mus", "off", "lov", "the", "da", "sh", "ed", "tay"] {
      let expected = comparable(try single.suggestions(forPrefix: prefix, limit: 100))
      let found = comparable(try segmented.suggestions(forPrefix: prefix, limit: 100))
      // Title pairs, left out, take more or fewer of the 100 places: the lists agree as far
      // as both go.
      let common = min(found.count, expected.count)
      #expect(found.prefix(common) == expected.prefix(common), "\(prefix)")
      compared += common
    }
    #expect(compared > 50)
  }

  /// The trending lists' catalog reads every segment: the same videos (with their creators,
  /// sounds and hashtags), hashtags, sounds and effects as one segment of the real corpus.
  @Test func theCatalogReadsEverySegment() throws {
    let documents = try RealCorpus.load().documents
    let single = TrendingCatalog(snapshot: try RealCorpus.load().index.snapshot)
    var random = SplitMix64(seed: 8)
    let segmented = try Self.segmented(documents, segmentCount: 3, random: &random)
    let catalog = TrendingCatalog(segments: segmented.segments)
    func all<T: Hashable>(_ count: Int, _ read: (Int) -> T) -> Set<T> { Set((0..<count).map(read)) }
    let (one, many) = (single.segments, catalog.segments)
    #expect(many.catalogVideoCount == one.catalogVideoCount)
    #expect(
      all(many.catalogVideoCount, many.catalogVideo(at:))
        == all(one.catalogVideoCount, one.catalogVideo(at:)))
    #expect(
      all(many.catalogHashtagCount, many.catalogHashtag(at:))
        == all(one.catalogHashtagCount, one.catalogHashtag(at:)))
    #expect(
      all(many.catalogSoundCount, many.catalogSound(at:))
        == all(one.catalogSoundCount, one.catalogSound(at:)))
    #expect(
      all(many.catalogEffectCount, many.catalogEffect(at:))
        == all(one.catalogEffectCount, one.catalogEffect(at:)))
    for position in 0..<many.catalogVideoCount {
      #expect(catalog.id(.video, at: position) == many.catalogVideo(at: position).id)
    }
  }

  /// A video whose creator and sound are in another segment shows them on its card, found
  /// by id, as one segment of everything shows them.
  @Test func referencesResolveAcrossSegments() throws {
    let documents = try RealCorpus.load().documents
    let single = try RealCorpus.load().index
    // Users and sounds in the first segment, everything else in the second.
    let parts = [
      documents.filter { $0.kind == .user || $0.kind == .sound },
      documents.filter { $0.kind != .user && $0.kind != .sound },
    ]
    let segments = try parts.map { part in
      var writer = IndexWriter(configuration: IndexConfiguration())
      try writer.add(contentsOf: part)
      return try writer.makeSnapshot()
    }
    let segmented = DiscoverIndex(segments: SegmentSet(segments: segments))
    var compared = 0
    for query in ["music", "official", "love", "trailer", "live"] {
      let expected = try single.search(query, in: .videos, limit: 50)
      let found = Dictionary(
        try segmented.search(query, in: .videos, limit: 50).results.map { ($0.id, $0) },
        uniquingKeysWith: { first, _ in first })
      for result in expected.results {
        guard let other = found[result.id], case .video(let mine) = other.metadata,
          case .video(let theirs) = result.metadata
        else { continue }
        #expect(mine.creatorID == theirs.creatorID, "\(result.id)")
        #expect(mine.creatorUsername == theirs.creatorUsername, "\(result.id)")
        #expect(mine.soundID == theirs.soundID, "\(result.id)")
        #expect(mine.soundTitle == theirs.soundTitle, "\(result.id)")
        #expect(other.subtitle == result.subtitle, "\(result.id)")
        if theirs.creatorUsername != nil { compared += 1 }
      }
    }
    #expect(compared >= 20)
  }

  /// Results beyond the last score's ties, as `id score` with scores rounded to what float
  /// rounding of the pivot leaves equal.
  static func scored(_ response: SearchResponse) -> [String] {
    let results = response.results
    guard let last = results.last?.score else { return [] }
    let complete = response.totalHits <= results.count
    return results.filter { complete || abs($0.score - last) > 1e-5 * last }
      .sorted { ($0.score, $1.id) > ($1.score, $0.id) }
      .map { "\($0.id) \(($0.score * 1e4).rounded() / 1e4)" }
  }
}
