import Foundation
import SyntheticCorpus
import Testing

@testable import DiscoverSearch

/// The blended score: popularity and recency factors, exactness and proximity, and the
/// explanation that adds up to it.
@Suite("Ranking: popularity, recency, match quality")
struct BlendedRankingTests {
  static let origin = Date(timeIntervalSince1970: 1_750_000_000)

  static var ranking: RankingOptions {
    var ranking = RankingOptions()
    ranking.recency.origin = origin
    return ranking
  }

  static func daysAgo(_ days: Double) -> Date { origin.addingTimeInterval(-days * 86_400) }

  static func videoIDs(_ videos: [Video], _ query: String, ranking: RankingOptions = ranking)
    throws -> [String]
  {
    let index = try DiscoverIndex.build(from: videos.map(Document.video))
    return try index.search(query, in: .videos, limit: 50, ranking: ranking).results.map(\.id)
  }

  @Test func withEqualTextMoreViewsRankFirst() throws {
    let views = [10, 1_000, 100, 100_000, 1, 5_000_000]
    let videos = views.enumerated().map { number, count in
      Video(
        id: "v\(number)", title: "sunset beach walk", viewCount: count, createdAt: Self.daysAgo(3))
    }
    let expected = views.enumerated().sorted { $0.element > $1.element }.map { "v\($0.offset)" }
    #expect(try Self.videoIDs(videos, "sunset") == expected)
    // Text alone cannot tell them apart: they tie.
    var textOnly = RankingOptions.textOnly
    textOnly.recency.origin = Self.origin
    let index = try DiscoverIndex.build(from: videos.map(Document.video))
    let scores = try index.search("sunset", in: .videos, limit: 10, ranking: textOnly).results
      .map(\.score)
    #expect(Set(scores).count == 1)
  }

  @Test func withEqualTextAndViewsNewerRanksFirst() throws {
    let ages: [Double] = [30, 1, 200, 7, 0.5, 14]
    let videos = ages.enumerated().map { number, age in
      Video(id: "v\(number)", title: "city lights", viewCount: 5_000, createdAt: Self.daysAgo(age))
    }
    let expected = ages.enumerated().sorted { $0.element < $1.element }.map { "v\($0.offset)" }
    #expect(try Self.videoIDs(videos, "lights") == expected)
  }

  /// The static factor lies in [1, 1 + popularity + recency), so a text score more than that
  /// many times another's always wins; a slightly better text match can lose.
  @Test func aMuchBetterTextMatchBeatsAnyPopularityAndRecency() throws {
    let ranking = Self.ranking
    let bound = 1 + ranking.popularity.weight + ranking.recency.weight
    let videos = [
      // Strong text, no views, a year old.
      Video(id: "strong", title: "origami crane", viewCount: 0, createdAt: Self.daysAgo(365)),
      // Weak text (one word in a long description), huge and brand new.
      Video(
        id: "weak", title: "my day",
        description: "walked the dog, had lunch, folded an origami crane, watched tv, slept well",
        viewCount: 900_000_000, createdAt: Self.daysAgo(0)),
    ]
    let index = try DiscoverIndex.build(from: videos.map(Document.video))
    let response = try index.search(
      "origami crane", in: .videos, limit: 2, ranking: ranking, explain: true)
    let text = Dictionary(
      uniqueKeysWithValues: response.results.map { ($0.id, $0.explanation!.textScore) })
    #expect(try #require(text["strong"]) > Double(bound) * #require(text["weak"]))
    #expect(response.results.map(\.id) == ["strong", "weak"])

    // Slightly better text with no views loses to a popular, fresh video.
    let close = [
      Video(id: "quiet", title: "paper crane", viewCount: 0, createdAt: Self.daysAgo(300)),
      Video(
        id: "popular", title: "paper crane tutorial", viewCount: 50_000_000,
        createdAt: Self.daysAgo(1)),
    ]
    #expect(try Self.videoIDs(close, "crane") == ["popular", "quiet"])
  }

  @Test func recencyDecayHalvesAtTheHalfLife() {
    let day = 86_400.0
    let exponential = RecencyOptions(scale: 14 * day)
    #expect(abs(exponential.signal(age: 14 * day) - 0.5) < 1e-12)
    #expect(abs(exponential.signal(age: 28 * day) - 0.25) < 1e-12)
    #expect(exponential.signal(age: 0) == 1)
    #expect(exponential.signal(age: -day) == 1, "a future date counts as new")
    let withOffset = RecencyOptions(scale: 14 * day, offset: day)
    #expect(withOffset.signal(age: day) == 1)
    #expect(abs(withOffset.signal(age: 15 * day) - 0.5) < 1e-12)
    let gaussian = RecencyOptions(function: .gaussian, scale: 10 * day, decay: 0.3)
    #expect(abs(gaussian.signal(age: 10 * day) - 0.3) < 1e-12)
    // With the same scale and decay, the gaussian is flatter near the origin.
    let flat = RecencyOptions(function: .gaussian, scale: 14 * day)
    #expect(flat.signal(age: 3 * day) > exponential.signal(age: 3 * day))
    #expect(abs(flat.signal(age: 14 * day) - 0.5) < 1e-12)
    #expect(PopularityOptions.signal(count: 300, pivot: 300) == 0.5)
    #expect(PopularityOptions.signal(count: 0, pivot: 300) == 0)
  }

  @Test func explanationsAddUpToTheScore() throws {
    let index = try RealCorpus.load().index
    let queries = ["minecraft", "official trailer", "@mrbeast", "music video", "🔥", "news today"]
    for query in queries {
      for tab in SearchTab.allCases {
        let response = try index.search(
          query, in: tab, limit: 20, ranking: Self.ranking, explain: true)
        for result in response.results {
          let explanation = try #require(result.explanation)
          let termSum = explanation.terms.reduce(0) { $0 + $1.score }
          #expect(abs(termSum - explanation.textScore) <= 1e-4 * explanation.textScore)
          let product =
            explanation.textScore * explanation.staticFactor * explanation.qualityFactor
          #expect(
            abs(product - result.score) <= 1e-5 * result.score,
            "\(query) \(tab) \(result.id): \(explanation)")
          let expectedFactor =
            1 + explanation.popularity.weight * explanation.popularity.signal
            + explanation.recency.weight * explanation.recency.signal
          #expect(abs(expectedFactor - explanation.staticFactor) < 1e-5)
        }
      }
    }
  }

  @Test func anExactTitleRanksAboveAScatteredMatch() throws {
    let videos = [
      Video(
        id: "scattered", title: "party at the beach, then we dance all night",
        viewCount: 2_000_000, createdAt: Self.daysAgo(1)),
      Video(id: "exact", title: "Dance Party", viewCount: 1_000, createdAt: Self.daysAgo(20)),
    ]
    #expect(try Self.videoIDs(videos, "dance party").first == "exact")
  }

  @Test func adjacentWordsRankAboveScatteredOnes() throws {
    // Same words, same lengths, same numbers: only the order of the words differs.
    let videos = [
      Video(id: "scattered", title: "alpha gamma delta beta", createdAt: Self.daysAgo(2)),
      Video(id: "adjacent", title: "gamma alpha beta delta", createdAt: Self.daysAgo(2)),
    ]
    #expect(try Self.videoIDs(videos, "alpha beta") == ["adjacent", "scattered"])
    // In the wrong order they are not adjacent "in order".
    #expect(try Self.videoIDs(videos, "beta alpha") == ["scattered", "adjacent"])
  }

  @Test func aUsernameEqualToTheQueryLeadsUsersAndTop() throws {
    let index = try RealCorpus.load().index
    for query in ["mrbeast", "@MrBeast", "mr beast"] {
      let users = try index.search(query, in: .users, limit: 5, ranking: Self.ranking)
      #expect(users.results.first?.id == "UCX6OQ3DkcsbYNE6H8uQQuVA", "\(query)")
      let top = try index.search(query, in: .top, limit: 10, ranking: Self.ranking)
      #expect(top.results.first?.id == "UCX6OQ3DkcsbYNE6H8uQQuVA", "\(query)")
      #expect(top.results.dropFirst().contains { $0.type == .video }, "videos fill the rest")
    }
  }

  @Test func theTopTabPolicyDecidesWhichCardsLead() throws {
    let documents: [Document] = [
      .user(User(id: "u1", username: "sunset_lover", followerCount: 10)),
      .user(User(id: "u2", username: "sunset", followerCount: 5)),
      .hashtag(Hashtag(id: "h1", name: "sunset", viewCount: 100, videoCount: 3)),
      .video(Video(id: "v1", title: "sunset over the bay", viewCount: 1_000)),
      .video(Video(id: "v2", title: "a sunset", viewCount: 50)),
    ]
    let index = try DiscoverIndex.build(from: documents)
    // Default: the exact user and hashtag lead as cards, then the videos, then the rest.
    let top = try index.search("sunset", in: .top, limit: 10, ranking: Self.ranking)
    #expect(Set(top.results.prefix(2).map(\.id)) == ["u2", "h1"])
    #expect(top.results.dropFirst(2).prefix(2).allSatisfy { $0.type == .video })
    #expect(top.results.last?.id == "u1")
    #expect(top.totalHits == 5 && top.facets.users == 2 && top.facets.hashtags == 1)
    // No user slot: the exact user waits for the last section.
    var noUsers = Self.ranking
    noUsers.topTab.leadSlots[.user] = 0
    let withoutUserCard = try index.search("sunset", in: .top, limit: 10, ranking: noUsers)
    #expect(withoutUserCard.results.first?.id == "h1")
    #expect(withoutUserCard.results.dropFirst().prefix(2).allSatisfy { $0.type == .video })
    // A query matching no video still lists every hit.
    let onlyUsers = try index.search("lover", in: .top, limit: 10, ranking: Self.ranking)
    #expect(onlyUsers.results.map(\.id) == ["u1"])
  }

  /// Settings from outside (a config file, a request) never crash a search or make a score
  /// that is not a number: weights that are negative or not finite count as 0, a broken
  /// scale, offset or decay falls back to the default, and any origin is clamped.
  @Test func hostileRankingSettingsStillRank() throws {
    let videos = (0..<20).map { number in
      Video(
        id: "v\(number)", title: "night market \(number)", viewCount: number * 1_000,
        createdAt: Self.daysAgo(Double(number)))
    }
    let index = try DiscoverIndex.build(from: videos.map(Document.video))
    let origins = [
      Date(timeIntervalSince1970: 1e300), Date(timeIntervalSince1970: -1e300), .distantPast,
      .distantFuture, Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: .infinity),
    ]
    for origin in origins {
      var ranking = RankingOptions(k1: .nan, fieldWeights: [.videoTitle: -.infinity])
      ranking.popularity = PopularityOptions(weight: .infinity, pivots: [.video: -.nan])
      ranking.recency = RecencyOptions(
        weight: .nan, function: .gaussian, scale: -1, offset: .nan, decay: 7, origin: origin)
      ranking.matchQuality = MatchQualityOptions(exactness: -.infinity, proximity: .nan)
      ranking.rerankWindow = Int.max
      ranking.topTab = TopTabPolicy(leadSlots: [.user: Int.max, .hashtag: -5])
      for tab in SearchTab.allCases {
        let response = try index.search(
          "night market", in: tab, limit: 7, ranking: ranking, explain: true)
        #expect(response.results.allSatisfy { $0.score.isFinite })
        if tab == .videos || tab == .top {
          #expect(response.results.count == 7)
          let next = try index.search(
            "night market", in: tab, limit: 7, after: response.nextCursor, ranking: ranking)
          #expect(Set(next.results.map(\.id)).isDisjoint(with: response.results.map(\.id)))
        }
      }
    }
  }

  /// A cursor whose recency origin or Top tab section no search could have made is
  /// rejected, not trusted.
  @Test func forgedCursorOriginsAndSectionsAreRejected() throws {
    let videos = (0..<5).map { Video(id: "v\($0)", title: "river walk", viewCount: $0) }
    let index = try DiscoverIndex.build(from: videos.map(Document.video))
    let cursor = try #require(try index.search("river", in: .top, limit: 2).nextCursor)
    let contents = try cursor.contents(query: "river", tab: .top, isPrefix: false)
    var farOrigin = contents
    farOrigin.originSeconds = Int64.max
    var badSection = contents
    badSection.section = 7
    for forged in [farOrigin, badSection] {
      let error = #expect(throws: SearchError.self) {
        try index.search("river", in: .top, limit: 2, after: SearchCursor(forged))
      }
      #expect(error?.code == .invalidQuery)
    }
  }

  /// Pruning with the blend is exact: the best 10 are the first 10 of a search deep enough
  /// to see every match, on every search path.
  @Test func blendedTopHitsMatchAnExhaustiveSearch() throws {
    let fixture = ThresholdSearchTests.fixture
    var checked = 0
    for query in fixture.queries {
      let deep = try fixture.index.search(query, in: .videos, limit: 1000, ranking: Self.ranking)
      guard deep.totalHits <= 1000 else { continue }
      let top = try fixture.index.search(query, in: .videos, limit: 10, ranking: Self.ranking)
      #expect(top.results.map(\.id) == deep.results.prefix(10).map(\.id), "\(query)")
      #expect(top.results.map(\.score) == deep.results.prefix(10).map(\.score), "\(query)")
      checked += 1
    }
    #expect(checked > 100)
  }

  /// Queries where the blend visibly helps on the real corpus: text alone ranks 2018
  /// uploads and small channels first; the blend brings this week's widely watched videos
  /// up. Ages are measured from the corpus's newest video (2024-11-27). The pins follow the
  /// default field weights (titles 8, descriptions 0.5, chosen on ``JudgedRankingTests``).
  static let blendHelps: [(String, [String])] = [
    (
      "official trailer",
      ["ytx_ef024273801104e9", "ytx_3537f765590348f3", "ytx_51d945a8e34f266b"]
    ),
    ("trailer", ["ytx_78888916086dc948", "ytx_ef024273801104e9", "ytx_3537f765590348f3"]),
    ("football", ["ytx_66c8c0e27093eee5", "ytx_ecbd9b298fb8d46b", "ytx_81e8e4e2676a5d57"]),
    ("highlights", ["ytx_dac4c20879caf299", "ytx_a01831b66112671f", "ytx_3cd665a751f2f627"]),
    ("music video", ["ytx_47fb2ea182b8c85f", "ytx_f380e66b6373b48a", "ytx_7e6f7070c43dcd2e"]),
    ("challenge", ["ytx_d7d9222d3d8d4e2e", "ytx_fa5b6d9f7fcda565", "Gz3yak1cl-8"]),
  ]

  @Test(arguments: blendHelps)
  func theBlendKeepsItsTopThree(_ query: String, _ expected: [String]) throws {
    let index = try RealCorpus.load().index
    let blended = RankingOptions.pinned
    var textOnly = RankingOptions.textOnly
    textOnly.recency.origin = blended.recency.origin
    let top3 = try index.search(query, in: .videos, limit: 3, ranking: blended).results
    #expect(top3.map(\.id) == expected)
    let text3 = try index.search(query, in: .videos, limit: 3, ranking: textOnly).results
    #expect(text3.map(\.id) != expected, "the blend changes nothing for \(query)")
  }
}
