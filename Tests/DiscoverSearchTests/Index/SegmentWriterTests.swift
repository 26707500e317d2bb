import Foundation
import SyntheticCorpus
import Testing

@testable import DiscoverSearch

/// A writer publishing new documents as segments of their own, and merging them.
@Suite("Index: segments a writer publishes and merges")
struct SegmentWriterTests {
  static let origin = Date(timeIntervalSince1970: 1_760_000_000)

  /// The split-independent real documents (``SegmentSetTests/splitIndependentDocuments()``),
  /// in a fixed random order, cut into a base and batches.
  static func batches(count: Int, seed: UInt64) throws -> (base: [Document], batches: [[Document]])
  {
    var documents = try SegmentSetTests.splitIndependentDocuments()
    var random = SplitMix64(seed: seed)
    documents.shuffle(using: &random)
    let baseCount = documents.count / 2
    let size = (documents.count - baseCount + count - 1) / count
    let rest = documents[baseCount...]
    return (
      Array(documents[..<baseCount]),
      stride(from: rest.startIndex, to: rest.endIndex, by: size).map {
        Array(rest[$0..<min($0 + size, rest.endIndex)])
      }
    )
  }

  /// Expects `index` to answer as `expected` on every tab.
  static func expectSameAnswers(
    _ index: DiscoverIndex, _ expected: DiscoverIndex, queries: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    var ranking = RankingOptions()
    ranking.recency.origin = origin
    for query in queries {
      for tab in [SearchTab.top, .videos, .sounds] {
        let found = try index.search(query, in: tab, limit: 20, ranking: ranking)
        let wanted = try expected.search(query, in: tab, limit: 20, ranking: ranking)
        #expect(found.facets == wanted.facets, "\(query) \(tab)", sourceLocation: sourceLocation)
        #expect(
          SegmentSetTests.scored(found) == SegmentSetTests.scored(wanted), "\(query) \(tab)",
          sourceLocation: sourceLocation)
      }
    }
  }

  /// Each publish of new documents alone adds one segment and keeps the others as they
  /// are; the index answers as one build of everything.
  @Test func publishesOfNewDocumentsAddSegments() throws {
    let (base, batches) = try Self.batches(count: 4, seed: 3)
    let index = try DiscoverIndex.build(from: base)
    var writer = try index.makeWriter()
    writer.mergePolicy = MergePolicy(segmentsPerTier: 100)
    try writer.publish()
    let first = index.segments.segments[0]
    var held = base
    for (number, batch) in batches.enumerated() {
      try writer.add(contentsOf: batch)
      try writer.publish()
      held += batch
      #expect(index.segments.segments.count == number + 2)
      #expect(index.segments.segments[0] === first)
      #expect(index.documentCount == held.count)
    }
    let queries = Array(LiveIndexTests.queryWords(held).prefix(30)) + ["music video", "love"]
    try Self.expectSameAnswers(index, try DiscoverIndex.build(from: held), queries: queries)
    // A delete marks the document deleted in its segment.
    let gone = held.removeLast()
    let deleted = writer.delete(id: gone.id)
    #expect(deleted)
    try writer.publish()
    #expect(index.segments.segments.count == batches.count + 1)
    #expect(index.segments.deletedCount == 1)
    try DeletionTests.expectSameMatches(
      index, try DiscoverIndex.build(from: held), queries: queries)
  }

  /// Merges on a task of their own bring many small segments down to the tiers' budget;
  /// searches during and after them answer as one build of everything.
  @Test(arguments: [true, false])
  func mergesKeepTheSegmentsWithinTheirBudget(inBackground: Bool) throws {
    let (base, batches) = try Self.batches(count: 12, seed: 9)
    let index = try DiscoverIndex.build(from: base)
    var writer = try index.makeWriter()
    writer.mergePolicy = MergePolicy(
      floorDocuments: 10, segmentsPerTier: 2, maximumMergeAtOnce: 3,
      mergesInBackground: inBackground)
    try writer.publish()
    var held = base
    let queries = ["music", "official video", "love", "live"]
    for batch in batches {
      try writer.add(contentsOf: batch)
      try writer.publish()
      held += batch
      #expect(index.documentCount == held.count)
    }
    writer.waitForMerges()
    // Merges ran: twelve publishes left fewer than twelve new segments.
    #expect(index.segments.segments.count < batches.count)
    #expect(index.documentCount == held.count)
    try Self.expectSameAnswers(index, try DiscoverIndex.build(from: held), queries: queries)
  }

  /// The policy's choices on sizes alone.
  @Test func thePolicyMergesSimilarSmallSegments() {
    let policy = MergePolicy(
      floorDocuments: 100, segmentsPerTier: 4, maximumMergeAtOnce: 4,
      maximumMergedDocuments: 1_000_000)
    // Within budget: one large segment and a few small ones.
    #expect(policy.merge(sizes: [100_000, 50, 50, 50]) == nil)
    #expect(policy.merge(sizes: [100_000] + Array(repeating: 50, count: 15)) == nil)
    // More small segments than the tiers allow (about 19 here: four of each tier from
    // 100 documents up, growing four times a tier): the small ones merge, not the large one.
    let merge = policy.merge(sizes: [100_000] + (0..<30).map { 20 + $0 })
    #expect(merge != nil)
    #expect(merge?.contains(0) == false)
    #expect((merge?.count ?? 0) >= 2 && (merge?.count ?? 0) <= 4)
    // A segment at the largest merged size never merges.
    #expect(
      MergePolicy(segmentsPerTier: 2, maximumMergedDocuments: 1_000)
        .merge(sizes: [600, 600, 600]) == nil)
    // Fewer than two segments: nothing to merge.
    #expect(policy.merge(sizes: [5]) == nil)
    // Hostile sizes and settings answer without trapping.
    let extreme = MergePolicy(
      floorDocuments: Int.min, segmentsPerTier: Int.min, maximumMergeAtOnce: Int.max,
      maximumMergedDocuments: Int.max, maximumSegments: Int.min)
    let hostile = [Int.max, Int.max, Int.min, -1, 0] + Array(repeating: Int.max / 3, count: 40)
    if let picked = extreme.merge(sizes: hostile) {
      #expect(picked.allSatisfy { hostile.indices.contains($0) })
    }
    #expect(policy.merge(sizes: []) == nil)
  }
}
