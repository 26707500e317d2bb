import Testing

@testable import DiscoverSearch

/// The benchmark checks every search's counts against ``DiscoverIndex/referenceCounts(for:)``,
/// so the reference must be right on its own: its merges of sorted document lists must give
/// what set operations give, and its counts what was put in.
struct ReferenceCountsTests {
  @Test func mergesEqualSetOperations() {
    var generator = SystemRandomNumberGenerator()
    for round in 0..<200 {
      // Lists of differing lengths and densities, some empty, some disjoint.
      let universe = UInt32(1 + round * 7)
      let lhs = Set(
        (0..<Int.random(in: 0...40, using: &generator)).map { _ in
          UInt32.random(in: 0..<universe, using: &generator)
        })
      let rhs = Set(
        (0..<Int.random(in: 0...40, using: &generator)).map { _ in
          UInt32.random(in: 0..<universe, using: &generator)
            + (round.isMultiple(of: 5) ? universe : 0)
        })
      let (left, right) = (lhs.sorted(), rhs.sorted())
      #expect(IndexSnapshot.union(left, right) == lhs.union(rhs).sorted(), "round \(round)")
      #expect(
        IndexSnapshot.intersection(left, right) == lhs.intersection(rhs).sorted(),
        "round \(round)")
    }
  }

  @Test func countsWhatWasIndexed() throws {
    let videos = [
      Video(id: "v1", title: "alpha beta"), Video(id: "v2", title: "alpha"),
      Video(id: "v3", title: "beta gamma"), Video(id: "v4", title: "alpha gamma beta"),
    ]
    let users = [User(id: "u1", username: "alpha_fan", displayName: "Alpha")]
    let index = try DiscoverIndex.build(
      from: videos.map(Document.video) + users.map(Document.user))
    let both = try #require(index.referenceCounts(for: "alpha beta"))
    #expect(both.matchedAllTerms)
    #expect(both.facets.videos == 2)
    #expect(both.facets.users == 0)
    let alpha = try #require(index.referenceCounts(for: "alpha"))
    #expect(alpha.facets.videos == 3)
    #expect(alpha.facets.users == 1)
    // No document holds all three words: the best partial matches, any of them.
    let partial = try #require(index.referenceCounts(for: "alpha beta delta"))
    #expect(!partial.matchedAllTerms)
    #expect(partial.facets.videos == 2)
  }
}
