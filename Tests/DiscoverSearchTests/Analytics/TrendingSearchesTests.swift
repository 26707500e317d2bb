import Foundation
import Testing

@testable import DiscoverSearch

extension TrendingTests {
  /// Trending order under an injected clock, and the rules that keep queries out of it.
  @Suite("Trending: trending searches")
  struct TrendingSearchesTests {
    typealias Fixtures = AnalyticsFixtures

    @Test func risingQueryBeatsQuerySearchedSteadilyForAMonth() throws {
      let clock = ManualClock()
      let analytics = QueryAnalytics(clock: clock.function)
      // A: 100 searches a day, every day for 30 days. B: nothing, then 60 in the last hour.
      try Fixtures.search(
        "always popular", count: 3000, over: 30 * Fixtures.day, endingAt: clock.now, users: 50,
        into: analytics)
      try Fixtures.search(
        "breaking news", count: 60, over: Fixtures.hour, endingAt: clock.now, users: 60,
        into: analytics)

      let trending = analytics.trendingSearches()
      #expect(trending.normalizedQueries == ["breaking news", "always popular"])
      let steady = try #require(trending.last)
      #expect(steady.velocity > 0.7 && steady.velocity < 1.3, "a steady query has velocity ≈ 1")
      #expect(trending[0].velocity > 10)
    }

    @Test func risingQueryBeatsSteadyQueryWithHigherRecentCount() throws {
      let clock = ManualClock()
      let analytics = QueryAnalytics(clock: clock.function)
      // A: 1,000 a day for 30 days, so more searches in the last hour than B's 60.
      try Fixtures.search(
        "steady", count: 30_000, over: 30 * Fixtures.day, endingAt: clock.now, users: 200,
        into: analytics)
      try Fixtures.search(
        "rising", count: 60, over: Fixtures.hour, endingAt: clock.now, users: 30,
        into: analytics)

      let trending = analytics.trendingSearches()
      #expect(trending.normalizedQueries == ["rising", "steady"])
      #expect(trending[1].recentCount > trending[0].recentCount)
    }

    @Test func burstFadesBelowSteadyQueryAfterHours() throws {
      let clock = ManualClock()
      let analytics = QueryAnalytics(clock: clock.function)
      try Fixtures.search(
        "always popular", count: 3000, over: 30 * Fixtures.day, endingAt: clock.now, users: 50,
        into: analytics)
      try Fixtures.search(
        "breaking news", count: 60, over: Fixtures.hour, endingAt: clock.now, users: 60,
        into: analytics)
      #expect(analytics.trendingSearches().first?.normalizedQuery == "breaking news")

      // Six hours pass; A keeps its 100 a day, B is searched no more.
      for _ in 0..<25 {
        clock.advance(by: 6 * Fixtures.hour / 25)
        try analytics.recordSearch(
          SearchEvent(query: "Always Popular", userID: "late", time: clock.now, resultCount: 3))
      }
      let trending = analytics.trendingSearches()
      #expect(trending.first?.normalizedQuery == "always popular")
      if let fading = trending.firstIndex(where: { $0.normalizedQuery == "breaking news" }) {
        #expect(fading > 0)
      }
      #expect(trending.first?.query == "Always Popular", "display form is the latest typed")
    }

    @Test func querySearchedManyTimesByOneUserNeverTrends() throws {
      let clock = ManualClock()
      let analytics = QueryAnalytics(clock: clock.function)
      try Fixtures.search(
        "my ex name", count: 50, over: Fixtures.hour, endingAt: clock.now, users: 1,
        into: analytics)
      for _ in 0..<50 {
        try analytics.recordSearch(SearchEvent(query: "anonymous", time: clock.now, resultCount: 1))
      }
      try Fixtures.search("shared", byUsers: 3, at: clock.now, into: analytics)

      #expect(analytics.trendingSearches().normalizedQueries == ["shared"])
      #expect(analytics.popularQueries(withPrefix: "", limit: 10).normalizedQueries == ["shared"])
      #expect(!analytics.isTrending(normalizedQuery: "my ex name"))
    }

    @Test func distinctUserMinimumIsConfigurable() throws {
      let clock = ManualClock()
      let analytics = QueryAnalytics(
        configuration: AnalyticsConfiguration(minimumDistinctUsers: 5), clock: clock.function)
      try Fixtures.search("four", byUsers: 4, at: clock.now, into: analytics)
      try Fixtures.search("five", byUsers: 5, at: clock.now, into: analytics)
      #expect(analytics.trendingSearches().normalizedQueries == ["five"])
      #expect(analytics.trendingSearches()[0].distinctUsers == 5)
    }

    @Test func blocklistHidesWholeQueriesAndQueriesWithBlockedWords() throws {
      let clock = ManualClock()
      let configuration = AnalyticsConfiguration(blocklist: ["Spoiler", "bad words"])
      let analytics = QueryAnalytics(configuration: configuration, clock: clock.function)
      for query in [
        "spoiler", "SPOILER", "movie spoiler ending", "#Spoiler", "bad words", "bad",
        "movie ending",
      ] {
        try Fixtures.search(query, byUsers: 3, at: clock.now, into: analytics)
      }
      let expected = ["bad", "movie ending"]
      #expect(analytics.trendingSearches().normalizedQueries.sorted() == expected)
      #expect(
        analytics.popularQueries(withPrefix: "", limit: 10).normalizedQueries.sorted() == expected)
      #expect(
        analytics.popularQueries(withPrefix: "movie", limit: 10).normalizedQueries == [
          "movie ending"
        ])
    }

    @Test func queryWhoseLatestSearchFoundNothingDoesNotTrend() throws {
      let clock = ManualClock()
      let analytics = QueryAnalytics(clock: clock.function)
      try Fixtures.search(
        "nothing here", byUsers: 5, at: clock.now, resultCount: 0, into: analytics)
      #expect(analytics.trendingSearches().isEmpty)
      #expect(analytics.popularQueries(withPrefix: "noth", limit: 5).isEmpty)

      try analytics.recordSearch(
        SearchEvent(query: "Nothing here", userID: "user9", time: clock.now, resultCount: 2))
      #expect(analytics.trendingSearches().normalizedQueries == ["nothing here"])
    }

    @Test func oldQueriesStopTrending() throws {
      let clock = ManualClock()
      let analytics = QueryAnalytics(clock: clock.function)
      try Fixtures.search("last week", byUsers: 10, at: clock.now, into: analytics)
      #expect(analytics.isTrending(normalizedQuery: "last week"))
      clock.advance(by: 7 * Fixtures.day)
      #expect(analytics.trendingSearches().isEmpty)
      #expect(!analytics.isTrending(normalizedQuery: "last week"))
      // Still a past query for completions, with its count halved by the 7-day half-life.
      let popular = try #require(analytics.popularQueries(withPrefix: "last", limit: 1).first)
      #expect(abs(popular.count - 5) < 0.01)
    }

    @Test func isTrendingSeesSearchesRecordedSinceTheLastCheck() throws {
      let clock = ManualClock()
      let analytics = QueryAnalytics(clock: clock.function)
      try AnalyticsFixtures.search("new song", byUsers: 2, at: clock.now, into: analytics)
      #expect(!analytics.isTrending(normalizedQuery: "new song"))
      try analytics.recordSearch(
        SearchEvent(query: "New Song", userID: "third", time: clock.now, resultCount: 1))
      #expect(analytics.isTrending(normalizedQuery: "new song"))
    }

    @Test func isTrendingCoversTheTopFiftyOnly() throws {
      let clock = ManualClock()
      let analytics = QueryAnalytics(clock: clock.function)
      for number in 0..<60 {
        // Query n is searched by 3 + n users: a strict order, "query 59" first.
        try Fixtures.search("query \(number)", byUsers: 3 + number, at: clock.now, into: analytics)
      }
      #expect(
        analytics.trendingSearches(limit: 3).normalizedQueries == [
          "query 59", "query 58", "query 57",
        ])
      #expect(analytics.isTrending(normalizedQuery: "query 10"))
      #expect(!analytics.isTrending(normalizedQuery: "query 9"))
      #expect(!analytics.isTrending(normalizedQuery: "Query 59"), "expects a normalized query")
      #expect(analytics.trendingSearches(limit: 0).isEmpty)
    }

    @Test func trackedQueriesAreCappedKeepingTheMostSearched() throws {
      let clock = ManualClock()
      var configuration = AnalyticsConfiguration()
      configuration.maximumTrackedQueries = 10
      let analytics = QueryAnalytics(configuration: configuration, clock: clock.function)
      try Fixtures.search("favourite", byUsers: 20, at: clock.now, into: analytics)
      for number in 0..<30 {
        try Fixtures.search("rare \(number)", byUsers: 3, at: clock.now, into: analytics)
      }
      let kept = analytics.popularQueries(withPrefix: "", limit: 100)
      #expect(kept.count <= 10)
      #expect(kept.first?.normalizedQuery == "favourite")
    }
  }
}
