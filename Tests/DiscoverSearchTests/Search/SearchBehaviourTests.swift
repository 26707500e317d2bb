import DiscoverSearch
import Testing

/// Helpers for small hand-made corpora.
enum Fixtures {
  static func video(
    _ id: String, _ title: String, description: String? = nil, hashtags: [String] = [],
    creator: String? = nil
  ) -> Document {
    .video(
      Video(id: id, title: title, description: description, hashtags: hashtags, creator: creator))
  }

  static func user(_ id: String, _ username: String, displayName: String? = nil, bio: String? = nil)
    -> Document
  {
    .user(User(id: id, username: username, displayName: displayName, bio: bio))
  }

  static func hashtag(_ id: String, _ name: String, description: String? = nil) -> Document {
    .hashtag(Hashtag(id: id, name: name, description: description))
  }

  static func sound(_ id: String, _ title: String, artist: String? = nil) -> Document {
    .sound(Sound(id: id, title: title, artist: artist))
  }

  /// The ids of a search's first page (up to 1000 hits).
  static func ids(_ index: DiscoverIndex, _ query: String, in tab: SearchTab = .top) throws
    -> [String]
  {
    try index.search(query, in: tab, limit: 1000).results.map(\.id)
  }
}

@Suite("Search: matching")
struct SearchMatchingTests {
  static func words() throws -> DiscoverIndex {
    try DiscoverIndex.build(from: [
      Fixtures.video("v1", "dance party tonight"),
      Fixtures.video("v2", "dance lessons for beginners"),
      Fixtures.video("v3", "party games"),
      Fixtures.video("v4", "cooking lessons"),
    ])
  }

  @Test func everyWordOfAQueryIsRequired() throws {
    let response = try Self.words().search("dance party", in: .videos)
    #expect(response.results.map(\.id) == ["v1"])
    #expect(response.matchedAllTerms)
    #expect(response.totalHits == 1)
    #expect(Set(try Fixtures.ids(Self.words(), "lessons")) == ["v2", "v4"])
  }

  @Test func wordFoundNowhereIsDroppedWhenNothingMatchesAll() throws {
    let response = try Self.words().search("dance zebra", in: .videos)
    #expect(Set(response.results.map(\.id)) == ["v1", "v2"])
    #expect(!response.matchedAllTerms)
    #expect(response.totalHits == 2)
  }

  @Test func partialMatchesRankDocumentsWithMoreWordsFirst() throws {
    // No video has all three words; v1 has two of them.
    let response = try Self.words().search("dance party lessons", in: .videos)
    #expect(!response.matchedAllTerms)
    #expect(response.results.first?.id == "v1")
    #expect(Set(response.results.map(\.id)) == ["v1", "v2", "v3", "v4"])
  }

  @Test func noHitsIsAnEmptyResponseNotAnError() throws {
    for tab in SearchTab.allCases {
      let response = try Self.words().search("xylophone", in: tab)
      #expect(response.results.isEmpty)
      #expect(response.totalHits == 0)
      #expect(response.nextCursor == nil)
      #expect(response.facets == FacetCounts())
    }
  }

  @Test(arguments: ["xylophone", "xylophone zither", "xylophone zither kazoo"])
  func noHitsAtAllIsNoPartialMatch(_ query: String) throws {
    // Every fallback found nothing: no result matches only some words.
    let index = try Self.words()
    let response = try index.search(query, in: .top)
    #expect(response.totalHits == 0)
    #expect(response.matchedAllTerms, "\(query)")
    #expect(index.referenceCounts(for: query)?.matchedAllTerms == true, "\(query)")
  }

  static func tags() throws -> DiscoverIndex {
    try DiscoverIndex.build(from: [
      Fixtures.user("u1", "dance_queen", displayName: "Dance Queen"),
      Fixtures.user("u2", "queen_of_pop"),
      Fixtures.video("v1", "morning routine", hashtags: ["dance"]),
      Fixtures.video("v2", "dance all night"),
      Fixtures.video("v3", "my #dance video"),
      Fixtures.video("v4", "sunday vibes", creator: "u1"),
      Fixtures.video("v5", "queen of dance"),
      Fixtures.hashtag("h1", "dance"),
      Fixtures.hashtag("h2", "dancechallenge"),
    ])
  }

  @Test func hashtagQueryMatchesTheHashtagAndTaggedVideosOnly() throws {
    #expect(Set(try Fixtures.ids(Self.tags(), "#dance")) == ["h1", "v1", "v3"])
    #expect(try Fixtures.ids(Self.tags(), "#dance", in: .hashtags) == ["h1"])
    // Without `#`, the word matches everything about dancing.
    #expect(
      Set(try Fixtures.ids(Self.tags(), "dance", in: .videos)).isSuperset(of: [
        "v1", "v2", "v3", "v5",
      ]))
  }

  @Test func mentionQueryMatchesTheUserAndTheirVideos() throws {
    #expect(Set(try Fixtures.ids(Self.tags(), "@dance_queen")) == ["u1", "v4"])
    #expect(try Fixtures.ids(Self.tags(), "@dance_queen", in: .users) == ["u1"])
    let video = try #require(Self.tags().search("@dance_queen", in: .videos).results.first)
    #expect(video.id == "v4")
    guard case .video(let metadata) = video.metadata else {
      Issue.record("a video result without video metadata")
      return
    }
    #expect(metadata.creatorID == "u1")
    #expect(metadata.creatorUsername == "dance_queen")
  }

  @Test func quotedPhraseRequiresAdjacentWordsInOrder() throws {
    let index = try DiscoverIndex.build(from: [
      Fixtures.video("v1", "dance challenge accepted"),
      Fixtures.video("v2", "the challenge of dance"),
      Fixtures.video("v3", "dance, then a challenge"),
    ])
    #expect(try Fixtures.ids(index, "\"dance challenge\"") == ["v1"])
    #expect(Set(try Fixtures.ids(index, "dance challenge")) == ["v1", "v2", "v3"])
    #expect(try Fixtures.ids(index, "\u{201C}challenge of dance\u{201D}") == ["v2"])
  }

  @Test func concatenatedTagIsFoundByItsWords() throws {
    let index = try DiscoverIndex.build(from: [
      Fixtures.video("tagged", "my weekend", hashtags: ["dancechallenge"]),
      Fixtures.video("v2", "dance class for kids"),
      Fixtures.video("v3", "the hardest challenge ever"),
      Fixtures.video("v4", "dance battle", description: "a dance challenge with friends"),
      Fixtures.video("v5", "challenge accepted", description: "we dance every day"),
      Fixtures.video("v6", "salsa dance", description: "another challenge"),
    ])
    #expect(try Fixtures.ids(index, "dance challenge", in: .videos).contains("tagged"))
    #expect(try Fixtures.ids(index, "challenge", in: .videos).contains("tagged"))
    // A tag of one video may be words typed together: its words find the other videos
    // with both words too.
    let joined = try Fixtures.ids(index, "dancechallenge", in: .videos)
    #expect(Set(joined) == ["tagged", "v4", "v5", "v6"])
    #expect(
      try index.search("dancechallenge", in: .videos, matching: .exact).results.map(\.id)
        == ["tagged"])
  }

  @Test func aMentionIsSplitIntoWordsButACreatorFieldIsNot() throws {
    // The creator's terms come from the user's entries, which hold the mention whole; a
    // mention in a title is split by the vocabulary. (A commit once counted part entries
    // for the creator field too and left slots of the lists unwritten.)
    let index = try DiscoverIndex.build(from: [
      Fixtures.user("u1", "dancequeen"),
      Fixtures.video("by-creator", "sunday vlog", creator: "u1"),
      Fixtures.video("mentions", "shoutout to @dancequeen"),
      Fixtures.video("queen", "queen of the kitchen"),
      Fixtures.video("dance", "dance lessons"),
    ])
    #expect(Set(try Fixtures.ids(index, "queen", in: .videos)) == ["mentions", "queen"])
    let separate = MatchingOptions(breaksWords: false)
    #expect(
      Set(try index.search("dance queen", in: .videos, matching: separate).results.map(\.id))
        == ["mentions"])
    // By default the two words also match the username they make together.
    #expect(
      Set(try Fixtures.ids(index, "dance queen", in: .videos)) == ["by-creator", "mentions"])
    #expect(
      Set(try Fixtures.ids(index, "@dancequeen", in: .videos)) == ["by-creator", "mentions"])
  }

  @Test func camelCaseTagIsFoundByItsWordsAndAsAPhrase() throws {
    let index = try DiscoverIndex.build(from: [
      Fixtures.video("v1", "new moves #DanceChallenge"),
      Fixtures.video("v2", "cooking"),
    ])
    #expect(try Fixtures.ids(index, "dance challenge") == ["v1"])
    #expect(try Fixtures.ids(index, "\"dance challenge\"") == ["v1"])
    #expect(try Fixtures.ids(index, "#dancechallenge") == ["v1"])
  }
}

@Suite("Search: languages, emoji and highlights")
struct SearchTextTests {
  static func index() throws -> DiscoverIndex {
    try DiscoverIndex.build(from: [
      Fixtures.video("fire-pit", "fire pit"),
      Fixtures.video("fire-emoji", "🔥🔥"),
      Fixtures.video("cafe", "Café tour in Paris"),
      Fixtures.video("latte", "cafe latte art"),
      Fixtures.video("dancer", "💃🏽 salsa night"),
      Fixtures.video("cook", "👩\u{200D}🍳 quick dinner"),
      Fixtures.video("istanbul", "İstanbul by night"),
      Fixtures.video("thai", "สวัสดีครับ ทุกคน"),
      Fixtures.video("korean", "안녕하세요 여러분"),
    ])
  }

  @Test func emojiQueryFindsTheWordAndWordQueryFindsTheEmoji() throws {
    #expect(Set(try Fixtures.ids(Self.index(), "🔥")) == ["fire-pit", "fire-emoji"])
    #expect(Set(try Fixtures.ids(Self.index(), "fire")) == ["fire-pit", "fire-emoji"])
  }

  @Test func emojiWithAnotherSkinToneFindsTheVideo() throws {
    #expect(try Fixtures.ids(Self.index(), "💃🏿") == ["dancer"])
    #expect(try Fixtures.ids(Self.index(), "💃") == ["dancer"])
    #expect(try Fixtures.ids(Self.index(), "👩\u{200D}🍳") == ["cook"])
  }

  static let accentQueries: [(String, Set<String>)] = [
    ("cafe", ["cafe", "latte"]), ("café", ["cafe", "latte"]), ("CAFÉ", ["cafe", "latte"]),
    ("cafe\u{301}", ["cafe", "latte"]), ("ＣＡＦＥ ＬＡＴＴＥ", ["latte"]), ("istanbul", ["istanbul"]),
    ("ISTANBUL", ["istanbul"]), ("ıstanbul", ["istanbul"]), ("ครับ", ["thai"]), ("여러분", ["korean"]),
  ]

  @Test(arguments: accentQueries)
  func foldedQueryFindsTheTitle(_ query: String, _ expected: Set<String>) throws {
    #expect(Set(try Fixtures.ids(Self.index(), query)) == expected)
  }

  static let cjTitles: [(id: String, title: String)] = [
    ("tokyo", "東京タワーに行きました"),
    ("beijing", "我爱北京天安门"),
    ("shibuya", "渋谷でダンスチャレンジ"),
    ("weather", "今日は晴れです"),
    ("duck", "北京烤鸭真好吃"),
    ("skytree", "東京スカイツリーの夜景"),
  ]

  @Test func anyTwoToFourCharacterRunOfAChineseOrJapaneseTitleFindsIt() throws {
    let index = try DiscoverIndex.build(from: Self.cjTitles.map { Fixtures.video($0.id, $0.title) })
    var checked = 0
    for (id, title) in Self.cjTitles {
      let characters = Array(title)
      for length in 2...4 {
        for start in 0...(characters.count - length) {
          let run = String(characters[start..<(start + length)])
          let response = try index.search(run, in: .videos, limit: 100)
          #expect(response.results.map(\.id).contains(id), "\(run) did not find \(title)")
          #expect(response.matchedAllTerms, "\(run)")
          checked += 1
        }
      }
    }
    #expect(checked > 100)
  }

  @Test func highlightsMarkTheMatchedWordsInTheTitle() throws {
    let index = try DiscoverIndex.build(from: [
      Fixtures.video("v1", "Best Café in Paris — a CAFÉ tour"),
      Fixtures.video("v2", "東京タワーに行きました"),
      Fixtures.video("v3", "Dance Challenge 🔥 with friends"),
    ])
    func highlighted(_ query: String) throws -> [String] {
      let result = try #require(try index.search(query, limit: 1).results.first)
      return try result.highlights.map { try #require($0.range(in: result.title)) }.map {
        String(result.title[$0])
      }
    }
    #expect(try highlighted("cafe") == ["Café", "CAFÉ"])
    #expect(try highlighted("paris tour") == ["Paris", "tour"])
    #expect(try highlighted("タワー") == ["タワー"])
    #expect(try highlighted("dance") == ["Dance"])
    #expect(try highlighted("fire") == ["🔥"])
  }
}
