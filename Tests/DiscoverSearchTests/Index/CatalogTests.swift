import Foundation
import SyntheticCorpus
import Testing

@testable import DiscoverSearch

/// What the trending lists read from an index (`IndexSnapshot+Catalog.swift`), and effects,
/// which the index stores but never searches.
@Suite("IndexSnapshot+Catalog")
struct CatalogTests {
  static let created = Date(timeIntervalSince1970: 1_790_856_000)

  /// Hand-made documents: the embedded corpus is real data and holds no effects.
  static let documents: [Document] = [
    .user(User(id: "u1", username: "dance_queen", displayName: "Dance Queen", followerCount: 9)),
    .effect(
      Effect(
        id: "e1", name: "Green Screen", thumbnailURL: "https://cdn.example.com/e/e1.png",
        useCount: 40)),
    .video(
      Video(
        id: "v1", title: "Dance challenge", description: "learn it",
        hashtags: ["DanceChallenge", "#dancechallenge", "FYP", "fyp", "", "#", "Café", "ＦＹＰ"],
        creator: "u1", sound: "s1", effect: "e1", viewCount: 500, likeCount: 7,
        createdAt: created, thumbnailURL: "https://cdn.example.com/t/v1.jpg")),
    // Named before they exist (s1, e2), or never (u404, s404, e404).
    .video(
      Video(
        id: "v2", title: "Green screen fail", hashtags: ["GreenScreen"], creator: "u404",
        sound: "s404", effect: "e2", viewCount: 900)),
    .video(Video(id: "v3", title: "No extras", effect: "e404")),
    // An id of the wrong kind is not an effect.
    .video(Video(id: "v4", title: "Wrong kind", effect: "u1", viewCount: 1)),
    .hashtag(
      Hashtag(
        id: "h1", name: "DanceChallenge", description: "Show us your moves", viewCount: 9,
        videoCount: 3)),
    .hashtag(Hashtag(id: "h2", name: "fyp", viewCount: 1)),
    .sound(Sound(id: "s1", title: "APT.", artist: "ROSÉ & Bruno Mars", videoCount: 7)),
    .sound(Sound(id: "s2", title: "original sound")),
    .effect(Effect(id: "e2", name: "Blur")),
  ]

  static func makeIndex() throws -> DiscoverIndex {
    try DiscoverIndex.build(from: documents)
  }

  /// Every catalog entry of `index`, in catalog order.
  static func catalog(of index: DiscoverIndex) -> Catalog {
    let snapshot = index.snapshot
    return Catalog(
      videos: (0..<snapshot.catalogVideoCount).map(snapshot.catalogVideo(at:)),
      hashtags: (0..<snapshot.catalogHashtagCount).map(snapshot.catalogHashtag(at:)),
      sounds: (0..<snapshot.catalogSoundCount).map(snapshot.catalogSound(at:)),
      effects: (0..<snapshot.catalogEffectCount).map(snapshot.catalogEffect(at:)))
  }

  struct Catalog: Hashable {
    var videos: [CatalogVideo]
    var hashtags: [CatalogHashtag]
    var sounds: [CatalogSound]
    var effects: [CatalogEffect]

    func video(_ id: String) throws -> CatalogVideo {
      try #require(videos.first { $0.id == id }, "no catalog video \(id)")
    }
  }

  @Test func videosCarryTheirCardAndWhatTheyUse() throws {
    let catalog = Self.catalog(of: try Self.makeIndex())
    #expect(Set(catalog.videos.map(\.id)) == ["v1", "v2", "v3", "v4"])
    #expect(
      try catalog.video("v1")
        == CatalogVideo(
          id: "v1", title: "Dance challenge", thumbnailURL: "https://cdn.example.com/t/v1.jpg",
          createdAt: Self.created, viewCount: 500, creator: "u1",
          hashtags: ["dancechallenge", "fyp", "cafe"], sound: "s1", effect: "e1"))
  }

  @Test func referencesKeepTheIdsTheVideoNamedResolvedOrNot() throws {
    let catalog = Self.catalog(of: try Self.makeIndex())
    let v2 = try catalog.video("v2")
    #expect(v2.creator == "u404")
    #expect(v2.sound == "s404")
    #expect(v2.effect == "e2", "an effect added after its video")
    #expect(v2.hashtags == ["greenscreen"])
    #expect(v2.thumbnailURL == nil && v2.createdAt == nil)
    let v3 = try catalog.video("v3")
    #expect(v3.creator == nil && v3.sound == nil && v3.hashtags.isEmpty)
    #expect(v3.effect == "e404")
    #expect(try catalog.video("v4").effect == "u1")
  }

  @Test func hashtagsSoundsAndEffectsAreListed() throws {
    let index = try Self.makeIndex()
    let catalog = Self.catalog(of: index)
    #expect(
      Set(catalog.hashtags)
        == [
          CatalogHashtag(
            id: "h1", name: "DanceChallenge", description: "Show us your moves", viewCount: 9,
            videoCount: 3),
          CatalogHashtag(id: "h2", name: "fyp", description: nil, viewCount: 1, videoCount: 0),
        ])
    #expect(
      Set(catalog.sounds)
        == [
          CatalogSound(id: "s1", title: "APT.", artist: "ROSÉ & Bruno Mars", videoCount: 7),
          CatalogSound(id: "s2", title: "original sound", artist: nil, videoCount: 0),
        ])
    #expect(
      catalog.effects == [
        CatalogEffect(
          id: "e1", name: "Green Screen", thumbnailURL: "https://cdn.example.com/e/e1.png",
          useCount: 40),
        CatalogEffect(id: "e2", name: "Blur", thumbnailURL: nil, useCount: 0),
      ])
    #expect(index.effectCount == 2)
    #expect(index.documentCount == Self.documents.count - 2, "effects are not searchable documents")
  }

  @Test func savingAndOpeningKeepsTheCatalogExactly() throws {
    let index = try Self.makeIndex()
    let opened = try PersistenceTests.withTemporaryDirectory { directory in
      try index.save(to: directory)
      return try DiscoverIndex.open(at: directory)
    }
    #expect(Self.catalog(of: opened) == Self.catalog(of: index))
    #expect(opened.effectCount == 2)
    // The term dictionary's hash table may be sized differently when it is read back; every
    // column is the same.
    let breakdown = Dictionary(uniqueKeysWithValues: index.memoryBreakdown)
    for (part, bytes) in opened.memoryBreakdown where part != "term dictionary" {
      #expect(breakdown[part] == bytes, "\(part)")
    }
  }

  @Test func theRealCorpusCatalogSurvivesSavingAndOpening() throws {
    let real = try RealCorpus.load()
    let catalog = Self.catalog(of: real.index)
    #expect(catalog.videos.count == 3_939 && catalog.hashtags.count == 20_779)
    #expect(catalog.effects.isEmpty)
    #expect(real.index.snapshot.videos.effects.byteCount == 0, "no effect column without effects")
    let opened = try PersistenceTests.withTemporaryDirectory { directory in
      try real.index.save(to: directory)
      return try DiscoverIndex.open(at: directory)
    }
    #expect(Self.catalog(of: opened) == catalog)
    // Every video's hashtags, folded and without repeats, in the document's order.
    var expected: [String: [String]] = [:]
    var descriptions: [String: String?] = [:]
    for document in real.documents {
      switch document {
      case .video(let video):
        var folded: [String] = []
        for tag in video.hashtags {
          let tag = Analyzer.fold(String(tag.drop { $0 == "#" })).replacing("#", with: "")
          if !tag.isEmpty && !folded.contains(tag) { folded.append(tag) }
        }
        expected[video.id] = folded
      case .hashtag(let hashtag):
        let description = hashtag.description.flatMap { $0.isEmpty ? nil : $0 }
        descriptions.updateValue(description, forKey: hashtag.id)
      default: break
      }
    }
    for video in catalog.videos { #expect(video.hashtags == expected[video.id], "\(video.id)") }
    for hashtag in catalog.hashtags {
      #expect(descriptions[hashtag.id] == .some(hashtag.description), "\(hashtag.id)")
    }
  }

  @Test func effectsAreStoredButNeverSearched() throws {
    let index = try Self.makeIndex()
    for query in ["green screen", "blur", "e1"] {
      for tab in SearchTab.allCases {
        let response = try index.search(query, in: tab, limit: 10)
        #expect(!response.results.contains { $0.id.hasPrefix("e") }, "\(query) in \(tab)")
      }
    }
    let blur = try index.search("blur", in: .top, limit: 10)
    #expect(blur.results.isEmpty)
  }

  @Test func anEffectsIdIsUniqueAcrossAllTypes() throws {
    var writer = IndexWriter()
    try writer.add(Video(id: "v1", title: "t"))
    let clash = #expect(throws: SearchError.self) { try writer.add(Effect(id: "v1", name: "n")) }
    #expect(clash?.code == .invalidDocument)
    #expect(clash?.message.contains("already used by a video") == true)
    try writer.add(Document.effect(Effect(id: "e1", name: "n")))
    let reverse = #expect(throws: SearchError.self) {
      try writer.add(User(id: "e1", username: "u"))
    }
    #expect(reverse?.message.contains("already used by an effect") == true)
    let negative = #expect(throws: SearchError.self) {
      try writer.add(Effect(id: "e2", name: "n", useCount: -1))
    }
    #expect(negative?.code == .invalidDocument)
    let empty = #expect(throws: SearchError.self) { try writer.add(Effect(id: "", name: "n")) }
    #expect(empty?.message.contains("an effect has an empty id") == true)
    #expect(writer.documentCount == 2, "the writer is unchanged by what it refused")
    let index = try writer.makeIndex()
    #expect(index.effectCount == 1 && index.documentCount == 1)
  }

  @Test func addingInBatchesGivesTheSameCatalog() throws {
    var writer = IndexWriter()
    try writer.add(contentsOf: AnySequence(Self.documents))
    #expect(writer.documentCount == Self.documents.count)
    #expect(Self.catalog(of: try writer.makeIndex()) == Self.catalog(of: try Self.makeIndex()))
  }

  @Test func effectsAddTheirColumnsToMemoryBytesAndNoPostings() throws {
    // The same documents without effects: every posting, term and column but the effects'
    // is the same, apart from the two references that no longer resolve (v1's and v2's)
    // and the videos' effect column, which is left empty when no video has an effect.
    let withoutEffects = Self.documents.compactMap { document -> Document? in
      if case .effect = document { nil } else { document }
    }
    let smaller = try DiscoverIndex.build(from: withoutEffects)
    let larger = try Self.makeIndex()
    let effects = larger.snapshot.effects.byteCount
    #expect(effects > "e1e2Green ScreenBlur".utf8.count)
    #expect(larger.memoryBreakdown.contains { $0.part == "effect columns" && $0.bytes == effects })
    // An empty effects table still has its offsets. (The term dictionary's spare capacity
    // varies from one build to the next, so it is left out.)
    func bytesBesideTerms(_ index: DiscoverIndex) -> Int {
      index.memoryBytes - index.snapshot.terms.memoryBytes
    }
    let noEffects = smaller.snapshot.effects.byteCount
    #expect(smaller.snapshot.videos.effects.count == 0)
    let effectColumn = larger.snapshot.videos.effects.byteCount
    #expect(effectColumn == 4, "one byte a video")
    #expect(
      bytesBesideTerms(smaller) - noEffects - 2 * 24
        == bytesBesideTerms(larger) - effects - effectColumn,
      "unresolved references take 24 bytes each")
    let snapshot = larger.snapshot
    let tagBytes = Self.documents.reduce(0) { total, document in
      guard case .video(let video) = document else { return total }
      return total + video.hashtags.reduce(0) { $0 + $1.utf8.count + 1 }
    }
    #expect(snapshot.videos.hashtags.byteCount >= tagBytes)
    #expect(snapshot.hashtags.descriptions.byteCount >= "Show us your moves".utf8.count)
  }

  // MARK: Folding

  @Test func manyTagsAreDeduplicatedPastTheLinearSearch() throws {
    // 60 distinct tags, each written three ways, interleaved.
    let distinct = (0..<60).map { "Tag\($0)" }
    let written = distinct.flatMap { [$0, "#\($0.lowercased())", $0.uppercased()] }
    let index = try DiscoverIndex.build(from: [
      .video(Video(id: "v", title: "t", hashtags: written))
    ])
    #expect(index.snapshot.catalogVideo(at: 0).hashtags == distinct.map { $0.lowercased() })
  }

  @Test(
    arguments: [
      ("DanceChallenge", "dancechallenge"), ("#DanceChallenge", "dancechallenge"),
      ("##fyp", "fyp"), ("Café", "cafe"), ("ＦＹＰ", "fyp"), ("snake_case", "snake case"),
      ("#", nil), ("", nil), ("  ", nil), ("!!!", nil), ("🔥", "🔥 fire"),
      ("dance #fyp", "dance fyp"),
      (String(repeating: "a", count: 64), String(repeating: "a", count: 64)),
      (String(repeating: "A", count: 65), nil),
    ] as [(String, String?)])
  func foldsATagAsTheAnalyzerDoesWithoutItsHash(_ tag: String, _ expected: String?) {
    var tag = tag
    #expect(tag.withUTF8 { CatalogTagFolding.fold($0) } == expected)
  }

  @Test func theASCIIFastPathAgreesWithTheAnalyzer() {
    let seed: UInt64 = 20_261_203
    var generator = SplitMix64(seed: seed)
    let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    for _ in 0..<2_000 {
      let length = Int.random(in: 1...70, using: &generator)
      var tag = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
      let fast = tag.withUTF8 { CatalogTagFolding.fold($0) }
      let folded = Analyzer.fold(tag)
      #expect(fast == (folded.isEmpty ? nil : folded), "seed \(seed): \(tag)")
    }
  }
}
