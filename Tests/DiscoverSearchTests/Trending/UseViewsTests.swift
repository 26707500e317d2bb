import SyntheticCorpus
import Testing

@testable import DiscoverSearch

@Suite("Trending: use views")
struct UseViewsTests {
  /// Videos whose hashtags, sounds and effects overlap, so that one item gathers the views
  /// of several videos.
  private static func makeCatalog() throws -> TrendingCatalog {
    let videos: [(String, [String], String?, String?)] = [
      ("v1", ["Dance", "Fun"], "s1", nil),
      ("v2", ["dance"], "s1", "e1"),
      ("v3", [], nil, "e1"),
      ("v4", ["Fun", "Cooking"], "s2", nil),
    ]
    let index = try DiscoverIndex.build(
      from: videos.map {
        .video(Video(id: $0.0, title: $0.0, hashtags: $0.1, sound: $0.2, effect: $0.3))
      } + [.hashtag(Hashtag(id: "h1", name: "dance")), .sound(Sound(id: "s1", title: "S"))])
    return TrendingCatalog(snapshot: index.snapshot)
  }

  /// Views added through a catalog's use numbers read, compare and fold exactly as the same
  /// views added item by item.
  @Test func viewsThroughTheCatalogEqualViewsByItem() throws {
    let catalog = try Self.makeCatalog()
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(seed: seed)
    var dense = UseViews()
    var byItem = UseViews()
    for _ in 0..<500 {
      let id = "v\(random.next() % 4 + 1)"
      let views = UInt32(random.next() % 3 + 1)
      let position = try #require(catalog.position(of: ContentKey(.video, id), .video))
      dense.add(views, toUsesOfVideoAt: position, catalog: catalog)
      catalog.forEachUse(ofVideoAt: position) { byItem.add(UInt64(views), to: $0) }
    }
    #expect(dense == byItem, "seed \(seed)")
    #expect(dense.folded == byItem.table, "seed \(seed)")
    for item in catalog.usedItems {
      #expect(dense.views(of: item) == byItem.views(of: item), "seed \(seed)")
    }
    let dance = ContentKey(.hashtag, "dance")
    let hashtag = try #require(catalog.position(of: dance, .hashtag))
    #expect(
      dense.views(of: dance, .hashtag, at: hashtag, in: catalog) == byItem.views(of: dance),
      "seed \(seed)")
    #expect(dense.table.count == 0, "views of catalog videos went to the table")
  }

  /// Views counted against one catalog stay when views come through another (a new index
  /// snapshot): the first catalog's counts are folded before the second's are used.
  @Test func aNewCatalogKeepsTheViewsOfTheOld() throws {
    let first = try Self.makeCatalog()
    let second = try Self.makeCatalog()
    var views = UseViews()
    let position = try #require(first.position(of: ContentKey(.video, "v1"), .video))
    views.add(2, toUsesOfVideoAt: position, catalog: first)
    views.add(3, toUsesOfVideoAt: position, catalog: second)
    #expect(views.views(of: ContentKey(.hashtag, "dance")) == 5)
    #expect(views.views(of: ContentKey(.sound, "s1")) == 5)
    #expect(views.views(of: ContentKey(.hashtag, "cooking")) == 0)
    views.subtract(4, from: ContentKey(.hashtag, "fun"))
    #expect(views.views(of: ContentKey(.hashtag, "fun")) == 1)
    views.removeAll { $0 == ContentKey(.sound, "s1") }
    #expect(views.views(of: ContentKey(.sound, "s1")) == 0)
    #expect(views.views(of: ContentKey(.hashtag, "dance")) == 5)
  }

  /// Every use of a video has the number of its item, and every hashtag, sound and effect
  /// document used by a video finds its number from its position.
  @Test func useNumbersNameTheItemsUsed() throws {
    let catalog = try Self.makeCatalog()
    #expect(Set(catalog.usedItems).count == catalog.usedItems.count)
    for id in ["v1", "v2", "v3", "v4"] {
      let position = try #require(catalog.position(of: ContentKey(.video, id), .video))
      var keys: [ContentKey] = []
      catalog.forEachUse(ofVideoAt: position) { keys.append($0) }
      let numbered = catalog.withUseNumbers(ofVideoAt: position) {
        $0.map { catalog.usedItems[Int($0)] }
      }
      #expect(numbered == keys, "\(id)")
    }
    let dance = try #require(catalog.position(of: ContentKey(.hashtag, "dance"), .hashtag))
    #expect(
      catalog.useNumber(of: .hashtag, at: dance).map { catalog.usedItems[$0] }
        == ContentKey(.hashtag, "dance"))
  }
}
