import Foundation
import SyntheticCorpus
import Testing

@testable import DiscoverSearch

/// Deletes and updates that mark published documents deleted in their segments instead of
/// rebuilding the index.
@Suite("Index: deletes and updates in segments")
struct DeletionTests {
  /// An index of `base` published in one segment, then `batch` in a second, by a writer
  /// that never merges.
  static func twoSegments(base: [Document], batch: [Document]) throws -> (
    DiscoverIndex, IndexWriter
  ) {
    let index = try DiscoverIndex.build(from: base)
    var writer = try index.makeWriter()
    writer.mergePolicy = MergePolicy(segmentsPerTier: 100, mergesInBackground: false)
    try writer.publish()
    try writer.add(contentsOf: batch)
    try writer.publish()
    return (index, writer)
  }

  /// Deletes `id` with `writer`, returning whether it held it.
  static func delete(_ id: String, from writer: inout IndexWriter) -> Bool {
    writer.delete(id: id)
  }

  /// Expects `index` to count as `expected` does on every tab and never to return a
  /// document `expected` does not hold; where every match fits on the page, the same ones.
  static func expectSameMatches(
    _ index: DiscoverIndex, _ expected: DiscoverIndex, queries: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for query in queries {
      for tab in [SearchTab.top, .videos, .sounds] {
        let found = try index.search(query, in: tab, limit: 20)
        let wanted = try expected.search(query, in: tab, limit: 20)
        #expect(found.facets == wanted.facets, "\(query) \(tab)", sourceLocation: sourceLocation)
        #expect(
          found.totalHits == wanted.totalHits, "\(query) \(tab)", sourceLocation: sourceLocation)
        if wanted.totalHits <= 10 {
          #expect(
            Set(found.results.map(\.id)) == Set(wanted.results.map(\.id)), "\(query) \(tab)",
            sourceLocation: sourceLocation)
        }
      }
    }
  }

  /// Deletes and updates of documents in both segments keep the segments, mark the old
  /// versions deleted and add the new ones in a third: counts and matches are those of one
  /// build of what the writer holds, through every retrieval strategy (one word, several,
  /// phrases, any word).
  @Test func deletesAndUpdatesKeepTheSegments() throws {
    let (base, batches) = try SegmentWriterTests.batches(count: 2, seed: 5)
    var (index, writer) = try Self.twoSegments(base: base, batch: batches[0])
    let segments = index.segments.segments
    #expect(segments.count == 2)
    var held = base + batches[0]
    var random = SplitMix64(seed: 11)
    held.shuffle(using: &random)
    let words = Array(LiveIndexTests.queryWords(held).prefix(40))
    // Delete 40, update 30 of what is held.
    for document in held.suffix(40) {
      let deleted = writer.delete(id: document.id)
      #expect(deleted)
    }
    held.removeLast(40)
    for position in 0..<30 {
      held[position] = LiveIndexTests.retitled(held[position], with: words, random: &random)
      #expect(try writer.update(held[position]))
    }
    try writer.publish()
    let set = index.segments
    #expect(set.segments.count == 3)
    #expect(set.segments[0] === segments[0] && set.segments[1] === segments[1])
    #expect(set.deletedCount == 70)
    #expect(index.documentCount == held.filter { $0.kind != .effect }.count)
    let expected = try DiscoverIndex.build(from: held)
    let queries = words + ["music video", "\"official video\"", "love song", "the"]
    try Self.expectSameMatches(index, expected, queries: queries)
    // Many words match none together: the fallback ranks by words matched, counting any.
    try Self.expectSameMatches(index, expected, queries: ["love zzzz", "music qqqq video"])
  }

  /// A deleted document leaves hits, counts, the trending catalog and completions; an
  /// updated one is found by its new text only, and its card reads the new version.
  @Test func deletedDocumentsLeaveEverything() throws {
    let base: [Document] = [
      .user(User(id: "u1", username: "marisol", displayName: "Marisol Vega", followerCount: 900)),
      .user(User(id: "u2", username: "quentin", displayName: "Quentin", followerCount: 50)),
      .user(User(id: "u3", username: "zebedee", displayName: "Zebedee", followerCount: 5)),
      .sound(Sound(id: "s1", title: "Lantern Song", artist: "Orla", videoCount: 3)),
    ]
    let videos: [Document] = (0..<12).map { number in
      .video(
        Video(
          id: "v\(number)", title: "lantern festival night \(number)",
          creator: number % 2 == 0 ? "u1" : "u2", sound: "s1", viewCount: 100 * number))
    }
    var (index, writer) = try Self.twoSegments(base: base, batch: videos)
    #expect(try index.search("lantern", in: .videos).totalHits == 12)
    #expect(Self.delete("v3", from: &writer))
    #expect(Self.delete("u2", from: &writer))
    #expect(Self.delete("u3", from: &writer))
    try writer.update(
      .user(User(id: "u1", username: "marisol", displayName: "Marisol Cruz", followerCount: 900)))
    try writer.publish()

    let found = try index.search("lantern", in: .videos, limit: 20)
    #expect(found.totalHits == 11)
    #expect(!found.results.map(\.id).contains("v3"))
    #expect(try index.search("quentin", in: .users).totalHits == 0)
    #expect(try index.search("vega", in: .users).totalHits == 0)
    #expect(try index.search("cruz", in: .users).totalHits == 1)
    // A video's creator field holds its creator's names: the renamed user's videos were
    // added again with the new ones.
    #expect(try index.search("cruz", in: .videos).totalHits == 6)
    #expect(try index.search("vega", in: .videos).totalHits == 0)
    // Cards name the creator's new version, and no deleted one.
    for result in found.results {
      guard case .video(let metadata) = result.metadata else { continue }
      let number = Int(result.id.dropFirst())!
      if number % 2 == 0 {
        #expect(metadata.creatorID == "u1" && result.subtitle == "Marisol Cruz")
      } else {
        #expect(metadata.creatorID == "u2" && metadata.creatorUsername == nil)
      }
    }
    // The trending catalog holds no deleted video.
    let catalog = TrendingCatalog(segments: index.segments)
    #expect(catalog.position(of: ContentKey(.video, "v3"), .video) == nil)
    #expect(catalog.position(of: ContentKey(.video, "v4"), .video) != nil)
    // Completions lead to live documents only.
    #expect(try index.suggestions(forPrefix: "@zebe").map(\.text).isEmpty)
    #expect(try index.suggestions(forPrefix: "zebe").map(\.text).isEmpty)
    #expect(try index.suggestions(forPrefix: "@mari").map(\.text).contains("@marisol"))
    // Deleting again, or an id never held, changes nothing.
    #expect(!Self.delete("v3", from: &writer))
    #expect(!Self.delete("nobody", from: &writer))
  }

  /// A document deleted and added again in one publish, or added and deleted before it is
  /// published, is held once or not at all.
  @Test func deletesOfUnpublishedDocuments() throws {
    let (base, batches) = try SegmentWriterTests.batches(count: 2, seed: 6)
    var (index, writer) = try Self.twoSegments(base: base, batch: batches[0])
    let fresh = batches[1].prefix(10)
    try writer.add(contentsOf: fresh)
    #expect(Self.delete(fresh.first!.id, from: &writer))
    let again = base[0]
    #expect(Self.delete(again.id, from: &writer))
    try writer.add(again)
    try writer.update(fresh.last!)
    try writer.publish()
    let held = base + batches[0] + fresh.dropFirst()
    #expect(index.documentCount == held.filter { $0.kind != .effect }.count)
    #expect(index.segments.deletedCount == 1)
    let expected = try DiscoverIndex.build(from: held)
    try Self.expectSameMatches(
      index, expected, queries: Array(LiveIndexTests.queryWords(held).prefix(30)))
  }

  /// Merges leave deleted documents behind: once the policy merged every segment holding
  /// one, the index answers (scores included) as one build of what is held.
  @Test func mergesLeaveDeletedDocumentsBehind() throws {
    let (base, batches) = try SegmentWriterTests.batches(count: 2, seed: 7)
    var (index, writer) = try Self.twoSegments(base: base, batch: batches[0])
    var held = base + batches[0]
    for document in held.suffix(25) { writer.delete(id: document.id) }
    held.removeLast(25)
    try writer.publish()
    #expect(index.segments.deletedCount == 25)
    writer.mergePolicy = MergePolicy(
      floorDocuments: 1_000_000, segmentsPerTier: 2, mergesInBackground: true,
      deletedDocumentsAllowance: 0)
    try writer.add(contentsOf: batches[1])
    try writer.publish()
    writer.waitForMerges()
    held += batches[1]
    #expect(index.segments.deletedCount == 0)
    let queries = Array(LiveIndexTests.queryWords(held).prefix(25)) + ["music video"]
    try SegmentWriterTests.expectSameAnswers(
      index, try DiscoverIndex.build(from: held), queries: queries)
  }

  /// A merge of both segments of ``twoSegments(base:batch:)``, made as a merge job makes
  /// it: the set it started from, and its result.
  static func mergeOfTwoSegments(seed: UInt64) throws -> (
    base: [Document], batch: [Document], set: SegmentSet, merged: IndexSnapshot
  ) {
    let (base, batches) = try SegmentWriterTests.batches(count: 2, seed: seed)
    let (index, writer) = try Self.twoSegments(base: base, batch: batches[0])
    let set = index.segments
    let merged = try writer.makeSegment(
      of: writer.heldDocuments(of: set.segments, deletions: set.deletions))
    return (base, batches[0], set, merged)
  }

  /// Documents deleted while a merge ran are deleted in its result too.
  @Test func deletesDuringAMergeCarryOver() throws {
    let (base, batch, set, merged) = try Self.mergeOfTwoSegments(seed: 9)
    let inputs = set.segments
    let deletedAtStart = set.deletions
    // Two documents are deleted, one from each input, while the merge runs.
    let gone = [base[3], batch[2]].map { (id: $0.id, kind: $0.kind) }
    let later = set.deleting(gone, documents: set.documents)
    let replaced = try #require(
      later.replacing(inputs, with: merged, deletedAtStart: deletedAtStart))
    #expect(replaced.segments.count == 1)
    #expect(replaced.deletedCount == 2)
    for (id, kind) in gone {
      let found = try #require(merged.find(id, of: kind))
      #expect(replaced.deletions[0].contains(found, of: kind))
    }
  }

  /// Count changes after new segments set the counts in the segments holding the
  /// documents instead of rebuilding: the index then ranks as one build of the documents
  /// with their new counts.
  @Test func countChangesKeepTheSegments() throws {
    let (base, batches) = try SegmentWriterTests.batches(count: 2, seed: 12)
    var (index, writer) = try Self.twoSegments(base: base, batch: batches[0])
    let lineages = index.segments.segments.map(\.lineage)
    var held = base + batches[0]
    try writer.add(contentsOf: batches[1].prefix(20))
    held += batches[1].prefix(20)
    var random = SplitMix64(seed: 13)
    // Counts of documents in both segments and in the unpublished batch.
    for position in stride(from: 0, to: held.count, by: 7) {
      guard let update = LiveIndexTests.countUpdate(for: held[position], random: &random)
      else { continue }
      try writer.updateCounts(update)
      update.apply(to: &held[position])
    }
    try writer.publish()
    let set = index.segments
    #expect(set.segments.count == 3)
    #expect(Array(set.segments.map(\.lineage).prefix(2)) == lineages)
    let queries = Array(LiveIndexTests.queryWords(held).prefix(25)) + ["music video"]
    try SegmentWriterTests.expectSameAnswers(
      index, try DiscoverIndex.build(from: held), queries: queries)
  }

  /// Counts changed while a merge ran are set in its result too.
  @Test func countChangesDuringAMergeCarryOver() throws {
    let (_, _, set, merged) = try Self.mergeOfTwoSegments(seed: 14)
    let inputs = set.segments
    // A video of the first input gets new views while the merge runs.
    let video = try #require(
      (0..<inputs[0].partition(.video).documentCount).first { $0 > 0 })
    let id = inputs[0].partition(.video).ids.string(at: video)
    let later = set.patchingCounts([
      [CountPatch(column: .videoViews, document: UInt32(video), value: 123_456_789)], [],
    ])
    let replaced = try #require(
      later.replacing(inputs, with: merged, deletedAtStart: set.deletions))
    #expect(replaced.segments.count == 1)
    let found = try #require(replaced.segments[0].find(id, of: .video))
    #expect(replaced.segments[0].videos.viewCounts[Int(found)] == 123_456_789)
  }

  /// The policy merges a segment on its own once its deleted share passes the allowance,
  /// and only when no tier needs a merge.
  @Test func thePolicyMergesSegmentsPastTheDeletedAllowance() {
    let policy = MergePolicy(deletedDocumentsAllowance: 0.2)
    #expect(policy.merge(sizes: [1_000_000, 30_000], deleted: [100_000, 0]) == nil)
    #expect(policy.merge(sizes: [1_000_000, 30_000], deleted: [300_000, 20_000]) == [1])
    #expect(policy.merge(sizes: [1_000_000, 30_000], deleted: [300_000, 0]) == [0])
    #expect(policy.merge(sizes: [10, 10, 10, 10, 10], deleted: [9, 0, 0, 0, 0])?.count == 5)
    let hostile = MergePolicy(deletedDocumentsAllowance: .nan)
    #expect(hostile.merge(sizes: [1, 2], deleted: [Int.max, -5]) == nil)
  }
}
