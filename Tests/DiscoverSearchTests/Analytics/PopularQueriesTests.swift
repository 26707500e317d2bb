import Foundation
import Testing

@testable import DiscoverSearch

extension TrendingTests {
  /// Past queries for completions: prefix filter, order and normalization.
  @Suite("Trending: popular queries")
  struct PopularQueriesTests {
    typealias Fixtures = AnalyticsFixtures

    @Test func normalizationFoldsCaseAccentsSpacingAndKeepsTagMarkers() {
      #expect(QueryAnalytics.normalize("Café  Dance") == QueryAnalytics.normalize("cafe dance"))
      #expect(QueryAnalytics.normalize("Café  Dance") == "cafe dance")
      #expect(QueryAnalytics.normalize("  CAFÉ\tDANCE\n") == "cafe dance")
      #expect(QueryAnalytics.normalize("#DanceChallenge") == "#dancechallenge")
      #expect(QueryAnalytics.normalize("@SomeUser hi") == "@someuser hi")
      #expect(QueryAnalytics.normalize(" \u{0}\u{7} ").isEmpty)
    }

    @Test func prefixSelectsQueriesAndCountOrdersThem() throws {
      let clock = ManualClock()
      let analytics = QueryAnalytics(clock: clock.function)
      try Fixtures.search("dance", byUsers: 8, at: clock.now, into: analytics)
      try Fixtures.search("Dance Challenge", byUsers: 12, at: clock.now, into: analytics)
      try Fixtures.search("dancing queen", byUsers: 4, at: clock.now, into: analytics)
      try Fixtures.search("drake", byUsers: 30, at: clock.now, into: analytics)

      let danc = analytics.popularQueries(withPrefix: "danc", limit: 10)
      #expect(danc.normalizedQueries == ["dance challenge", "dance", "dancing queen"])
      #expect(danc.map(\.query) == ["Dance Challenge", "dance", "dancing queen"])
      #expect(danc[0].distinctUsers == 12)
      #expect(abs(danc[0].count - 12) < 0.001)

      #expect(
        analytics.popularQueries(withPrefix: "dance ", limit: 10).normalizedQueries == [
          "dance challenge"
        ])
      #expect(
        analytics.popularQueries(withPrefix: "danc", limit: 2).normalizedQueries == [
          "dance challenge", "dance",
        ])
      #expect(analytics.popularQueries(withPrefix: "", limit: 1).normalizedQueries == ["drake"])
      #expect(analytics.popularQueries(withPrefix: "x", limit: 10).isEmpty)
      #expect(analytics.popularQueries(withPrefix: "danc", limit: 0).isEmpty)
    }

    @Test func differentlyTypedFormsCountAsOneQuery() throws {
      let clock = ManualClock()
      let analytics = QueryAnalytics(clock: clock.function)
      for (user, typed) in ["Café Dance", "cafe dance", "CAFE  DANCE", "café dance"].enumerated() {
        try analytics.recordSearch(
          SearchEvent(query: typed, userID: "u\(user)", time: clock.now, resultCount: 3))
      }
      let popular = analytics.popularQueries(withPrefix: "cafe", limit: 10)
      #expect(popular.count == 1)
      #expect(popular.first?.distinctUsers == 4)
      #expect(popular.first?.query == "café dance", "display form is the latest typed")
    }

    @Test func olderSearchesCountLess() throws {
      let clock = ManualClock()
      let analytics = QueryAnalytics(clock: clock.function)
      // 10 searches four weeks ago weigh 10 / 2⁴ = 0.625 now; 6 searches today weigh 6.
      try Fixtures.search(
        "summer hits", byUsers: 10, at: clock.now.addingTimeInterval(-28 * Fixtures.day),
        into: analytics)
      try Fixtures.search("summer vibes", byUsers: 6, at: clock.now, into: analytics)
      let popular = analytics.popularQueries(withPrefix: "summer", limit: 10)
      #expect(popular.normalizedQueries == ["summer vibes", "summer hits"])
      #expect(abs(popular[1].count - 0.625) < 0.001)
    }

    @Test func eventsDatedInTheFutureAreRecordedAtNow() throws {
      let clock = ManualClock()
      let analytics = QueryAnalytics(clock: clock.function)
      try Fixtures.search(
        "tomorrow", byUsers: 3, at: clock.now.addingTimeInterval(Fixtures.day), into: analytics)
      let popular = try #require(analytics.popularQueries(withPrefix: "tom", limit: 1).first)
      #expect(abs(popular.count - 3) < 0.001, "a future event must not weigh more than one")
    }
  }
}
