import DiscoverSearch
import Testing

/// Ranking on the embedded real corpus (YouTube trending videos and their channels and
/// hashtags), for queries whose right answers were checked by reading the corpus file.
@Suite("Search: ranking on the real corpus")
struct RealCorpusRankingTests {
  static func ids(_ query: String, in tab: SearchTab, limit: Int = 10) throws -> [String] {
    try RealCorpus.load().index.search(query, in: tab, limit: limit).results.map(\.id)
  }

  @Test func loadingTheCorpusReportsNoIssues() throws {
    let corpus = try RealCorpus.load()
    #expect(corpus.report.issueCount == 0, "\(corpus.report.issues.prefix(5))")
    #expect(corpus.report.documentCount == 27_744)
    #expect(corpus.index.documentCount == 27_744)
    #expect(corpus.index.documentCount(of: .video) == 3_939)
    #expect(corpus.index.documentCount(of: .user) == 3_026)
    #expect(corpus.index.documentCount(of: .hashtag) == 20_779)
    #expect(corpus.index.documentCount(of: .sound) == 0)
  }

  /// (query, tab, the id expected first).
  static let expectedFirst: [(String, SearchTab, String)] = [
    // The channel named Bruno Mars.
    ("bruno mars", .users, "UCoUM-UJ7rirJYP8CQ0EIaHA"),
    // Exact channel names, however they are typed.
    ("MrBeast", .users, "UCX6OQ3DkcsbYNE6H8uQQuVA"),
    ("mrbeast", .users, "UCX6OQ3DkcsbYNE6H8uQQuVA"),
    ("@mrbeast", .top, "UCX6OQ3DkcsbYNE6H8uQQuVA"),
    ("T-Series", .users, "UCq-Fj5jknLsUf-MWSy4_brA"),
    ("minecraft", .users, "ytxch_f1416844b9ec16af"),
    // The hashtag itself before the videos tagged with it.
    ("#minecraft", .hashtags, "minecraft"),
    ("#minecraft", .top, "minecraft"),
    ("funny", .hashtags, "funny"),
    // Accents fold: the channel ROSÉ.
    ("rose", .users, "UCBo1hnzxV9rz3WVsv__Rn1g"),
    ("ROSÉ", .users, "UCBo1hnzxV9rz3WVsv__Rn1g"),
    // Japanese: the Tokyo Disney Resort channel, video and hashtag; the comedy duo 東京03.
    ("東京ディズニーリゾート", .users, "UCTHjVEZmrrH_sb8V3DJLWbg"),
    ("東京ディズニーリゾート", .videos, "cU1OH_P-5YE"),
    ("東京ディズニーリゾート", .hashtags, "東京ディズニーリゾート"),
    ("東京03", .users, "UConIcs8o0z5vYTamGtq-Lsw"),
    // Korean: the hashtag 아파트 (APT.), and the MAMA stage whose title says 로제.
    ("아파트", .top, "아파트"),
    ("로제", .videos, "ytx_de15e58b2883ff3c"),
    // Chinese: the video whose title starts with 小蚂蚁 before the one only tagged with it.
    ("小蚂蚁", .videos, "h7GMBRVPRGk"),
    ("荧光棒", .videos, "bSShe7fDpsE"),
    // Thai.
    ("ครึ่งๆ กลางๆ", .videos, "zrHO_Eo77UU"),
    // A phrase found in one title only.
    ("\"die with a smile\"", .top, "fnPxkuFIA48"),
  ]

  @Test(arguments: expectedFirst)
  func expectedResultRanksFirst(_ query: String, _ tab: SearchTab, _ id: String) throws {
    let ids = try Self.ids(query, in: tab)
    #expect(ids.first == id, "\(query) in \(tab): \(ids.prefix(5))")
  }

  /// (query, tab, ids expected among the first `ids.count` results, in any order).
  static let expectedTop: [(String, SearchTab, Set<String>)] = [
    // Bruno Mars's own channel is among the top cards.
    ("bruno mars", .top, ["UCoUM-UJ7rirJYP8CQ0EIaHA", "brunomars"]),
    // The four APT. videos (the music video, the lyric video, a reaction and the MAMA stage).
    (
      "rose bruno mars apt", .videos,
      ["ekr2nIex040", "8Ebqe2Dbzls", "_QgjyAm5uxo", "ytx_de15e58b2883ff3c"]
    ),
    // The two videos with 아파트 in their lyrics-filled descriptions.
    ("아파트", .videos, ["ekr2nIex040", "8Ebqe2Dbzls"]),
    // The duo's own sketches, whose titles start with 東京03.
    ("東京03", .videos, ["ZWrkgzn0lvE", "E18LlhTj4fs"]),
    ("squid game", .videos, ["lQBmZBJCYcY", "ytx_3537f765590348f3"]),
  ]

  @Test(arguments: expectedTop)
  func expectedResultsRankAtTheTop(_ query: String, _ tab: SearchTab, _ expected: Set<String>)
    throws
  {
    let ids = try Self.ids(query, in: tab, limit: expected.count)
    #expect(Set(ids) == expected, "\(query) in \(tab): \(ids)")
  }

  @Test func brunoMarsAPTVideoIsInTheTopThreeVideos() throws {
    #expect(try Self.ids("bruno mars", in: .videos, limit: 3).contains("8Ebqe2Dbzls"))
  }

  @Test func accentedAndPlainQueriesGiveTheSameResults() throws {
    let index = try RealCorpus.load().index
    let plain = try index.search("rose", in: .top, limit: 50, ranking: .pinned)
    for variant in ["rosé", "ROSÉ", "rose\u{301}", "ＲＯＳＥ"] {
      let response = try index.search(variant, in: .top, limit: 50, ranking: .pinned)
      #expect(response.results.map(\.id) == plain.results.map(\.id), "\(variant)")
      #expect(response.facets == plain.facets, "\(variant)")
    }
  }

  @Test func hashtagQueryCountsExactlyTheTaggedVideos() throws {
    let corpus = try RealCorpus.load()
    // Videos tagged minecraft, or writing #minecraft in their title or description.
    let expected = corpus.documents.filter { document in
      guard case .video(let video) = document else { return false }
      let text = [video.title, video.description ?? ""].joined(separator: "\n")
      return video.hashtags.contains { Analyzer.fold($0) == "minecraft" }
        || Analyzer.tokens(of: text, as: .query).contains { $0.text == "#minecraft" }
    }
    let response = try corpus.index.search("#minecraft", in: .videos, limit: 1000)
    #expect(response.facets.videos == expected.count)
    #expect(Set(response.results.map(\.id)) == Set(expected.map(\.id)))
    #expect(response.facets.hashtags == 1)
    #expect(response.facets.users == 0)
  }

  @Test func mentionQueryFindsExactlyTheChannelsVideos() throws {
    let corpus = try RealCorpus.load()
    let expected = corpus.documents.compactMap { document -> String? in
      guard case .video(let video) = document, video.creator == "UCX6OQ3DkcsbYNE6H8uQQuVA" else {
        return nil
      }
      return video.id
    }
    #expect(expected.count == 5)
    let response = try corpus.index.search("@mrbeast", in: .videos, limit: 100)
    #expect(Set(response.results.map(\.id)) == Set(expected))
  }

  /// Words each checked to occur in no hashtag or username (so no tag split can produce
  /// them): every place they can match is running text the analyzer tokenizes.
  static let bruteForceWords = ["tried", "hours", "bought"]

  @Test func facetCountsEqualABruteForceCount() throws {
    let corpus = try RealCorpus.load()
    let words = Set(Self.bruteForceWords)
    var displayNames: [String: String] = [:]
    var tagLikeNames: [String] = []
    for document in corpus.documents {
      switch document {
      case .video(let video): tagLikeNames += video.hashtags
      case .user(let user):
        tagLikeNames.append(user.username)
        displayNames[user.id] = user.displayName
      case .hashtag(let hashtag): tagLikeNames.append(hashtag.name)
      case .sound, .effect: break
      }
    }
    // The premise: no word is in a tag or username, nor in a #tag or @mention in text.
    for name in tagLikeNames {
      let folded = Analyzer.fold(name).replacing(" ", with: "")
      try #require(!words.contains { folded.contains($0) }, "a word is in \(name)")
    }
    var expected = Dictionary(uniqueKeysWithValues: words.map { ($0, FacetCounts()) })
    for document in corpus.documents {
      let texts: [String?]
      switch document {
      case .video(let video):
        texts = [video.title, video.description, video.creator.flatMap { displayNames[$0] }]
      case .user(let user): texts = [user.displayName, user.bio]
      case .hashtag(let hashtag): texts = [hashtag.description]
      case .sound(let sound): texts = [sound.title, sound.artist]
      case .effect: texts = []
      }
      var found: Set<String> = []
      for text in texts.compactMap({ $0 }) {
        for token in Analyzer.tokens(of: text) {
          if words.contains(token.text) { found.insert(token.text) }
          if token.kind == .hashtag || token.kind == .mention {
            try #require(!words.contains { token.text.contains($0) }, "a word is in \(token.text)")
          }
        }
      }
      guard let type = document.type else { continue }
      for word in found { expected[word]![type] += 1 }
    }
    for word in Self.bruteForceWords {
      let counts = try #require(expected[word])
      #expect(counts.videos > 5)
      for tab in SearchTab.allCases {
        // The words as written: "hours" would also match "hour" by default.
        let response = try corpus.index.search(
          word, in: tab, limit: 10, matching: MatchingOptions(foldsInflections: false))
        #expect(response.facets == counts, "\(word) in \(tab)")
      }
    }
  }
}
