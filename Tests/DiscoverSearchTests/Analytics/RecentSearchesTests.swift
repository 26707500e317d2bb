import Foundation
import Testing

@testable import DiscoverSearch

extension TrendingTests {
  /// Each user's recent searches: order, de-duplication, cap, deletion and isolation.
  @Suite("Trending: recent searches")
  struct RecentSearchesTests {
    let clock = ManualClock()

    func search(_ query: String, by user: String = "alice", in analytics: QueryAnalytics) throws {
      clock.advance(by: 1)
      try analytics.recordSearch(
        SearchEvent(query: query, userID: user, time: clock.now, resultCount: 1))
    }

    @Test func mostRecentComesFirst() throws {
      let analytics = QueryAnalytics(clock: clock.function)
      for query in ["first", "second", "third"] {
        try search(query, in: analytics)
      }
      #expect(
        analytics.recentSearches(for: "alice").normalizedQueries == ["third", "second", "first"])
      #expect(
        analytics.recentSearches(for: "alice", limit: 2).normalizedQueries == ["third", "second"])
      #expect(analytics.recentSearches(for: "alice")[0].time == clock.now)
    }

    @Test func searchesWithTheSameTimeComeBackNewestFirst() throws {
      let analytics = QueryAnalytics(clock: clock.function)
      for query in ["one", "two", "three"] {
        try analytics.recordSearch(
          SearchEvent(query: query, userID: "alice", time: clock.now, resultCount: 1))
      }
      #expect(analytics.recentSearches(for: "alice").normalizedQueries == ["three", "two", "one"])
    }

    @Test func searchingAgainMovesToFrontWithNewDisplayForm() throws {
      let analytics = QueryAnalytics(clock: clock.function)
      try search("Café Dance", in: analytics)
      try search("sunset", in: analytics)
      try search("CAFE  dance", in: analytics)
      let recent = analytics.recentSearches(for: "alice")
      #expect(recent.normalizedQueries == ["cafe dance", "sunset"])
      #expect(recent.displayQueries == ["CAFE dance", "sunset"])
    }

    @Test func olderEventDoesNotReplaceNewerEntry() throws {
      let analytics = QueryAnalytics(clock: clock.function)
      try search("sunset", in: analytics)
      try search("beach", in: analytics)
      try analytics.recordSearch(
        SearchEvent(
          query: "Sunset", userID: "alice", time: clock.now.addingTimeInterval(-60), resultCount: 1)
      )
      #expect(analytics.recentSearches(for: "alice").displayQueries == ["beach", "sunset"])
    }

    @Test func onlyTheLatestTwentyAreKept() throws {
      let analytics = QueryAnalytics(clock: clock.function)
      for number in 0..<25 {
        try search("query \(number)", in: analytics)
      }
      let recent = analytics.recentSearches(for: "alice")
      #expect(recent.count == 20)
      #expect(recent.first?.normalizedQuery == "query 24")
      #expect(recent.last?.normalizedQuery == "query 5")
    }

    @Test func deleteMatchesAfterNormalization() throws {
      let analytics = QueryAnalytics(clock: clock.function)
      try search("Café", in: analytics)
      try search("beach", in: analytics)
      try analytics.deleteRecentSearch("CAFE", for: "alice")
      #expect(analytics.recentSearches(for: "alice").normalizedQueries == ["beach"])
      try analytics.deleteRecentSearch("never searched", for: "alice")
      try analytics.deleteRecentSearch("beach", for: "nobody")
      #expect(analytics.recentSearches(for: "alice").normalizedQueries == ["beach"])
    }

    @Test func clearRemovesOnlyThatUsersSearches() throws {
      let analytics = QueryAnalytics(clock: clock.function)
      try search("alice's query", by: "alice", in: analytics)
      try search("bob's query", by: "bob", in: analytics)
      try analytics.clearRecentSearches(for: "alice")
      #expect(analytics.recentSearches(for: "alice").isEmpty)
      #expect(analytics.recentSearches(for: "bob").count == 1)
    }

    @Test func usersDoNotSeeEachOthersSearches() throws {
      let analytics = QueryAnalytics(clock: clock.function)
      try search("secret", by: "alice", in: analytics)
      try search("public", by: "bob", in: analytics)
      try analytics.recordSearch(SearchEvent(query: "anonymous", time: clock.now, resultCount: 1))
      #expect(analytics.recentSearches(for: "alice").normalizedQueries == ["secret"])
      #expect(analytics.recentSearches(for: "bob").normalizedQueries == ["public"])
      #expect(analytics.recentSearches(for: "carol").isEmpty)
      #expect(analytics.recentSearches(for: "").isEmpty)
    }

    @Test func limitIsConfigurable() throws {
      let analytics = QueryAnalytics(
        configuration: AnalyticsConfiguration(recentSearchLimit: 3), clock: clock.function)
      for query in ["a1", "b2", "c3", "d4"] {
        try search(query, in: analytics)
      }
      #expect(analytics.recentSearches(for: "alice").normalizedQueries == ["d4", "c3", "b2"])
    }
  }
}
