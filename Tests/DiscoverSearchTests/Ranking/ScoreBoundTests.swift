import Testing

@testable import DiscoverSearch

/// Block score bounds must never cause a matching document to be skipped.
@Suite struct ScoreBoundTests {
  /// Sounds with `b = 0` (no length normalization): a title repeating a word thousands of
  /// times has a normalized frequency beyond the largest one-byte bound code, so its block
  /// bound is infinite. The block must still be searched.
  @Test func unboundedBlocksAreStillSearched() throws {
    var writer = IndexWriter(
      configuration: IndexConfiguration(lengthNormalization: [.soundTitle: 0]))
    for number in 0..<300 {
      try writer.add(Sound(id: "s\(number)", title: "drum loop \(number)"))
    }
    try writer.add(
      Sound(id: "loud", title: Array(repeating: "drum", count: 3_000).joined(separator: " ")))
    let index = try writer.makeIndex()
    let response = try index.search("drum", in: .sounds, limit: 5)
    #expect(response.totalHits == 301)
    #expect(response.results.first?.id == "loud")
    #expect(response.results.count == 5)
  }

  /// A zero field weight with an infinite bound must not turn the bound into NaN (which
  /// compares false against every threshold and would skip the block).
  @Test func zeroWeightsAndInfiniteBoundsKeepEveryHit() throws {
    var writer = IndexWriter(
      configuration: IndexConfiguration(lengthNormalization: [.soundTitle: 0]))
    for number in 0..<300 {
      try writer.add(Sound(id: "s\(number)", title: "drum loop", artist: "drum \(number)"))
    }
    try writer.add(
      Sound(id: "loud", title: Array(repeating: "drum", count: 3_000).joined(separator: " ")))
    let index = try writer.makeIndex()
    let ranking = RankingOptions(fieldWeights: [.soundTitle: 0])
    var seen = Set<String>()
    var cursor: SearchCursor?
    repeat {
      let page = try index.search("drum", in: .sounds, limit: 50, after: cursor, ranking: ranking)
      #expect(page.totalHits == 301)
      seen.formUnion(page.results.map(\.id))
      cursor = page.nextCursor
    } while cursor != nil
    #expect(seen.count == 301)
  }

  @Test(arguments: [Float.nan, Float.infinity, -5])
  func nonsenseParametersFallBackToSaneOnes(value: Float) throws {
    let index = try DiscoverIndex.build(from: [.sound(Sound(id: "s1", title: "drum loop"))])
    let response = try index.search(
      "drum", in: .sounds, ranking: RankingOptions(k1: value, fieldWeights: [.soundTitle: value]))
    #expect(response.results.map(\.id) == ["s1"])
    #expect(response.results.allSatisfy { $0.score.isFinite })
  }
}
