import Testing

@testable import DiscoverSearch

@Suite("TrendingCatalog")
struct TrendingCatalogTests {
  /// Videos with every mix of hashtags, sound and effect: each one's uses read back whole and
  /// in order, whatever its neighbours hold.
  @Test func readsBackWhatEachVideoUses() throws {
    let videos: [(id: String, hashtags: [String], sound: String?, effect: String?)] = [
      ("v1", [], nil, nil),
      ("v2", ["Dance", "#Fun"], nil, nil),
      ("v3", [], "s1", nil),
      ("v4", [], nil, "e1"),
      ("v5", ["Cooking", "Food", "Kitchen"], "s2", "e2"),
      ("v6", ["Solo"], nil, "e1"),
      ("v7", [], "s1", "e2"),
    ]
    let index = try DiscoverIndex.build(
      from: videos.map {
        .video(
          Video(
            id: $0.id, title: "video \($0.id)", hashtags: $0.hashtags, sound: $0.sound,
            effect: $0.effect))
      })
    let catalog = TrendingCatalog(snapshot: index.snapshot)
    for video in videos {
      let position = try #require(catalog.position(of: ContentKey(.video, video.id), .video))
      let expected = VideoUses(
        hashtags: video.hashtags.map { ContentKey(.hashtag, TrendingCatalog.foldHashtag($0)) },
        sound: video.sound.map { ContentKey(.sound, $0) },
        effect: video.effect.map { ContentKey(.effect, $0) })
      #expect(catalog.uses(ofVideoAt: position) == expected, "\(video.id)")
      var visited: [ContentKey] = []
      catalog.forEachUse(ofVideoAt: position) { visited.append($0) }
      let all = expected.hashtags + [expected.sound, expected.effect].compactMap { $0 }
      #expect(visited == all, "\(video.id)")
      func uses(_ type: ContentType) -> [ContentKey] {
        var keys: [ContentKey] = []
        catalog.forEachUse(ofVideoAt: position, ofType: type) { keys.append($0) }
        return keys
      }
      #expect(uses(.hashtag) == expected.hashtags, "\(video.id)")
      #expect(uses(.sound) == [expected.sound].compactMap { $0 }, "\(video.id)")
      #expect(uses(.effect) == [expected.effect].compactMap { $0 }, "\(video.id)")
      #expect(uses(.video).isEmpty, "\(video.id)")
    }
  }

  /// A key filter never turns away a key it holds, and turns away most others.
  @Test func theKeyFilterKeepsEveryKeyItHolds() {
    var filter = KeyFilter()
    let held = (0..<50).map { ContentKey(.hashtag, "tag\($0)") }
    for key in held { filter.insert(key) }
    #expect(held.allSatisfy { filter.mayContain($0) })
    let others = (0..<10_000).map { ContentKey(.hashtag, "other\($0)") }
    let passed = others.filter { filter.mayContain($0) }.count
    #expect(passed < 2_000, "\(passed) of 10,000 other keys got through")
  }
}
