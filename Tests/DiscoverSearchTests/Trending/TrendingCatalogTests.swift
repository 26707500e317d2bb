import Foundation
import SyntheticCorpus
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
        catalog.withUseNumbers(ofVideoAt: position, ofType: type) {
          $0.map { catalog.usedItems[Int($0)] }
        }
      }
      #expect(uses(.hashtag) == expected.hashtags, "\(video.id)")
      #expect(uses(.sound) == [expected.sound].compactMap { $0 }, "\(video.id)")
      #expect(uses(.effect) == [expected.effect].compactMap { $0 }, "\(video.id)")
      #expect(uses(.video).isEmpty, "\(video.id)")
    }
  }
}

@Suite("Trending: keys and weights")
struct TrendingKeyTests {
  /// A hashtag key hashed while folding ASCII letters and digits is the key of the folded
  /// name; any other name is left to the analyzer.
  @Test(arguments: [
    "DanceChallenge", "dance", "FYP", "abc123", "X", "2024", "ALLCAPS99",
  ])
  func anASCIIHashtagKeyIsTheKeyOfItsFold(_ name: String) throws {
    let key = try #require(ContentKey(asciiHashtag: name))
    #expect(key == ContentKey(.hashtag, TrendingCatalog.foldHashtag(name)))
  }

  @Test(arguments: ["", "#dance", "dance challenge", "café", "日本", "a-b", "x_y", "🔥"])
  func otherHashtagsAreNotHashedOnTheFastPath(_ name: String) {
    #expect(ContentKey(asciiHashtag: name) == nil)
  }

  /// A hashtag key from the cache of folded names is the key of the name folded by the
  /// analyzer, the first time and every time after; a name with no letters is refused.
  @Test func cachedHashtagKeysAreTheFoldedNamesKeys() throws {
    var keys = HashtagKeys()
    for name in ["Café", "日本旅行", "DanceChallenge", "Straße", "café", "Café"] {
      let expected = ContentKey(.hashtag, TrendingCatalog.foldHashtag(name))
      #expect(try keys.key(of: name) == expected, "\(name)")
      #expect(try keys.key(of: name) == expected, "\(name), again")
    }
    #expect(throws: SearchError.self) { try keys.key(of: "!!!") }
  }

  /// The tables give `2^(x / halfLife)` to a few units in the last place, exactly at whole
  /// half-lives, for half-lives of a minute to a year.
  @Test(arguments: [60, 3_600, 21_600, 86_400, 604_800, 31_536_000] as [Int64])
  func powersMatchExp2(_ halfLife: Int64) {
    let table = PowerTable(halfLife: halfLife)
    var random = SplitMix64(seed: UInt64(halfLife))
    for _ in 0..<2_000 {
      let x = Int64(bitPattern: random.next() % UInt64(40 * halfLife)) - 20 * halfLife
      let expected = exp2(Double(x) / Double(halfLife))
      let power = table.power(x)
      #expect(abs(power - expected) <= expected * 1e-14, "x \(x), half-life \(halfLife)")
    }
    for whole in -17...40 {
      #expect(table.power(Int64(whole) * halfLife) == exp2(Double(whole)))
    }
  }

  /// A contribution at the landmark weighs one unit, one half-life later two.
  @Test func aWeightDoublesEachHalfLife() {
    let clock = DecayClock(
      TrendingConfiguration().videoWindows, retentionHalfLives: 6)
    let landmark: Int64 = 1_000_000 * 3_600
    #expect(clock.weight(at: landmark, landmark: landmark, halfLife: 3_600) == 1 << 16)
    #expect(clock.weight(at: landmark + 3_600, landmark: landmark, halfLife: 3_600) == 1 << 17)
    #expect(
      clock.weight(at: landmark - 86_400, landmark: landmark, halfLife: 86_400) == 1 << 15)
  }

  /// A journal key keeps its bucket, the lifetime one too; buckets past 32 bits are refused.
  @Test func aJournalKeyKeepsItsBucket() {
    let item = ContentKey(.video, "v1")
    let user = ContentKey(user: "u1")
    for bucket in [0, 1, 12_345_678, Int64(Int32.max), -5, JournalKey.lifetime] {
      let key = JournalKey(item: item, actor: user, bucket: bucket, region: 7)
      #expect(key.bucket == bucket)
      #expect(key.isLifetime == (bucket == JournalKey.lifetime))
    }
    #expect(!JournalKey.isValidBucket(Int64(Int32.max) + 1))
    #expect(!JournalKey.isValidBucket(Int64(Int32.min)))
    #expect(
      JournalKey(item: item, actor: user, bucket: 3, region: 0)
        != JournalKey(item: item, actor: user, bucket: 4, region: 0))
  }

  /// The sketch keeps the k smallest hashes whatever the order, the shortcut for a full
  /// sketch included.
  @Test func theSketchKeepsTheSmallestHashes() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(seed: seed)
    for _ in 0..<200 {
      var sketch = DistinctSketch()
      var seen = Set<UInt16>()
      for _ in 0..<Int(random.next() % 40) {
        let hash = UInt16(random.next() % 65_535) + 1
        sketch.insert(hash: hash)
        seen.insert(hash)
      }
      var reference = DistinctSketch()
      for hash in seen.sorted().prefix(DistinctSketch.capacity) { reference.insert(hash: hash) }
      #expect(sketch == reference, "seed \(seed)")
      if seen.count < DistinctSketch.capacity { #expect(sketch.count == seen.count) }
    }
  }
}
