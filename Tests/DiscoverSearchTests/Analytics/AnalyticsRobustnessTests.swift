import Foundation
import SyntheticCorpus
import Testing

@testable import DiscoverSearch

extension TrendingTests {
  /// Hostile and invalid input: rejected with an error or ignored, never a crash.
  @Suite("Trending: hostile input")
  struct AnalyticsRobustnessTests {
    let clock = ManualClock()

    @Test func hugeQueryIsCutNotRejected() throws {
      let analytics = QueryAnalytics(clock: clock.function)
      let huge = String(repeating: "dance ", count: 1_700)  // about 10 KB
      try analytics.recordSearch(SearchEvent(query: huge, userID: "u", resultCount: 1))
      let recent = try #require(analytics.recentSearches(for: "u").first)
      #expect(recent.query.count <= QuerySanitizer.maximumLength)
      #expect(recent.normalizedQuery.hasPrefix("dance dance"))
    }

    @Test func controlCharactersAndNULBytesAreCleaned() throws {
      let analytics = QueryAnalytics(clock: clock.function)
      try analytics.recordSearch(
        SearchEvent(query: "\u{0}\u{1}Dance\u{7}\u{0}party\u{1B}[31m", userID: "u", resultCount: 1))
      let recent = analytics.recentSearches(for: "u")
      #expect(recent.count == 1)
      #expect(!recent[0].query.unicodeScalars.contains { $0.value < 0x20 })
      #expect(recent[0].normalizedQuery.hasPrefix("dance party"))
    }

    @Test(arguments: ["", "   ", "\u{0}\u{0}", "\u{200B}\u{FEFF}", "\n\t\r", "!!!"])
    func queryWithNothingSearchableIsIgnored(query: String) throws {
      let analytics = QueryAnalytics(clock: clock.function)
      try analytics.recordSearch(SearchEvent(query: query, userID: "u", resultCount: 1))
      try analytics.recordClick(ClickEvent(query: query, userID: "u", resultID: "v1"))
      try analytics.deleteRecentSearch(query, for: "u")
      #expect(analytics.recentSearches(for: "u").isEmpty)
      #expect(analytics.popularQueries(withPrefix: "", limit: 10).isEmpty)
    }

    @Test func invalidArgumentsThrowInvalidArgument() throws {
      let analytics = QueryAnalytics(clock: clock.function)
      let longID = String(repeating: "x", count: QueryAnalytics.maximumIdentifierLength + 1)
      let invalid: [() throws -> Void] = [
        { try analytics.recordSearch(SearchEvent(query: "q", userID: "", resultCount: 1)) },
        { try analytics.recordSearch(SearchEvent(query: "q", userID: longID, resultCount: 1)) },
        { try analytics.recordSearch(SearchEvent(query: "q", userID: "u", resultCount: -1)) },
        {
          try analytics.recordSearch(
            SearchEvent(
              query: "q", userID: "u", time: Date(timeIntervalSinceReferenceDate: .nan),
              resultCount: 1))
        },
        {
          try analytics.recordSearch(
            SearchEvent(
              query: "q", time: Date(timeIntervalSinceReferenceDate: .infinity), resultCount: 1))
        },
        { try analytics.recordClick(ClickEvent(query: "q", resultID: "")) },
        { try analytics.recordClick(ClickEvent(query: "q", userID: "", resultID: "v")) },
        { try analytics.deleteRecentSearch("q", for: "") },
        { try analytics.clearRecentSearches(for: "") },
      ]
      for call in invalid {
        let error = try #require(throws: SearchError.self) { try call() }
        #expect(error.code == .invalidArgument)
      }
      #expect(analytics.popularQueries(withPrefix: "", limit: 10).isEmpty)
      #expect(analytics.clickCount(query: "q", resultID: "") == 0)
    }

    @Test func oddButValidIdentifiersRoundTripThroughSQLite() throws {
      try AnalyticsFixtures.withTemporaryDirectory { directory in
        let path = directory.appendingPathComponent("analytics.sqlite").path
        let user = "a\u{0}b 👩🏽‍💻 'quoted'; DROP TABLE search_events; --"
        do {
          let analytics = try QueryAnalytics(path: path, clock: clock.function)
          try analytics.recordSearch(
            SearchEvent(query: "Ünïcödé 東京タワー 🔥", userID: user, resultCount: 1))
          try analytics.recordClick(ClickEvent(query: "unicode", userID: user, resultID: "\u{0}id"))
        }
        let reopened = try QueryAnalytics(path: path, clock: clock.function)
        #expect(reopened.recentSearches(for: user).displayQueries == ["Ünïcödé 東京タワー 🔥"])
        #expect(reopened.recentSearches(for: "a").isEmpty, "a NUL byte must not cut the id")
        #expect(reopened.clickCount(query: "Unicode", resultID: "\u{0}id") == 1)
      }
    }

    @Test func randomTextNeverCrashes() throws {
      let seed = UInt64.random(in: 0...UInt64.max)
      var generator = SplitMix64(seed: seed)
      let analytics = QueryAnalytics(clock: clock.function)
      let scalars: [ClosedRange<UInt32>] = [
        0x00...0x7F, 0x80...0x2FF, 0x300...0x36F, 0x200B...0x206F, 0x3040...0x30FF,
        0x1F300...0x1F9FF,
      ]
      for _ in 0..<300 {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...40, using: &generator) {
          let range = scalars[Int.random(in: 0..<scalars.count, using: &generator)]
          if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)) {
            text.append(scalar)
          }
        }
        let query = String(text)
        let user = "u\(Int.random(in: 0..<5, using: &generator))"
        try analytics.recordSearch(SearchEvent(query: query, userID: user, resultCount: 1))
        let normalized = QueryAnalytics.normalize(query)
        _ = analytics.popularQueries(withPrefix: String(normalized.prefix(2)), limit: 5)
        _ = analytics.isTrending(normalizedQuery: normalized)
        try analytics.deleteRecentSearch(query, for: user)
        #expect(
          !analytics.recentSearches(for: user).normalizedQueries.contains(normalized)
            || normalized.isEmpty, "seed \(seed)")
      }
    }

    @Test func manyThreadsShareOneStore() async throws {
      let analytics = QueryAnalytics(clock: clock.function)
      await withTaskGroup(of: Void.self) { group in
        for worker in 0..<8 {
          group.addTask {
            for number in 0..<200 {
              try? analytics.recordSearch(
                SearchEvent(query: "query \(number % 10)", userID: "w\(worker)", resultCount: 1))
              _ = analytics.trendingSearches()
              _ = analytics.recentSearches(for: "w\(worker)")
            }
          }
        }
      }
      let popular = analytics.popularQueries(withPrefix: "query", limit: 20)
      #expect(popular.count == 10)
      #expect(popular.allSatisfy { $0.distinctUsers == 8 && abs($0.count - 160) < 0.01 })
    }
  }
}
