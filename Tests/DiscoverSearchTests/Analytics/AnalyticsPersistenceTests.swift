import Foundation
import Testing

@testable import DiscoverSearch

extension TrendingTests {
  /// The SQLite store: reopening gives the same answers, other connections see writes, and
  /// files that are not analytics databases fail cleanly.
  @Suite("Trending: SQLite persistence")
  struct AnalyticsPersistenceTests {
    typealias Fixtures = AnalyticsFixtures

    /// Records a mix of searches and clicks.
    static func populate(_ analytics: QueryAnalytics, clock: ManualClock) throws {
      try Fixtures.search(
        "always popular", count: 300, over: 3 * Fixtures.day, endingAt: clock.now, users: 20,
        into: analytics)
      try Fixtures.search(
        "Breaking News", count: 40, over: Fixtures.hour, endingAt: clock.now, users: 40,
        into: analytics)
      try Fixtures.search("café dance", byUsers: 5, at: clock.now, into: analytics)
      for number in 0..<25 {
        try analytics.recordSearch(
          SearchEvent(
            query: "Query \(number)", userID: "alice", time: clock.now, resultCount: 1))
      }
      try analytics.recordSearch(
        SearchEvent(query: "Café Dance", userID: "bob", time: clock.now, resultCount: 4))
      for _ in 0..<3 {
        try analytics.recordClick(
          ClickEvent(query: "cafe dance", userID: "bob", resultID: "v1", time: clock.now))
      }
      try analytics.recordClick(ClickEvent(query: "CAFÉ DANCE", resultID: "v2", time: clock.now))
    }

    struct Answers: Equatable {
      var trending: [TrendingSearch]
      var popular: [PopularQuery]
      var alice: [RecentSearch]
      var bob: [RecentSearch]
      var clicks: [Int]

      init(_ analytics: QueryAnalytics) {
        trending = analytics.trendingSearches(limit: 50)
        popular = analytics.popularQueries(withPrefix: "", limit: 50)
        alice = analytics.recentSearches(for: "alice")
        bob = analytics.recentSearches(for: "bob")
        clicks = [
          analytics.clickCount(query: "Café Dance", resultID: "v1"),
          analytics.clickCount(query: "cafe dance", resultID: "v2"),
          analytics.clickCount(query: "cafe dance", resultID: "v3"),
        ]
      }
    }

    @Test func reopeningGivesTheSameAnswers() throws {
      try Fixtures.withTemporaryDirectory { directory in
        let path = directory.appendingPathComponent("analytics.sqlite").path
        let clock = ManualClock()
        var before: Answers?
        do {
          let analytics = try QueryAnalytics(path: path, clock: clock.function)
          try Self.populate(analytics, clock: clock)
          before = Answers(analytics)
        }
        let reopened = try QueryAnalytics(path: path, clock: clock.function)
        let after = Answers(reopened)
        #expect(after == before)
        #expect(
          after.trending.normalizedQueries == ["breaking news", "cafe dance", "always popular"])
        #expect(after.alice.count == 20)
        #expect(after.alice.first?.normalizedQuery == "query 24")
        #expect(after.bob.displayQueries == ["Café Dance"])
        #expect(after.clicks == [3, 1, 0])
      }
    }

    @Test func deletionsAndCapsArePersisted() throws {
      try Fixtures.withTemporaryDirectory { directory in
        let path = directory.appendingPathComponent("analytics.sqlite").path
        let clock = ManualClock()
        do {
          let analytics = try QueryAnalytics(path: path, clock: clock.function)
          for query in ["one", "two", "three", "four"] {
            clock.advance(by: 1)
            try analytics.recordSearch(
              SearchEvent(query: query, userID: "alice", time: clock.now, resultCount: 1))
            try analytics.recordSearch(
              SearchEvent(query: query, userID: "bob", time: clock.now, resultCount: 1))
          }
          try analytics.deleteRecentSearch("THREE", for: "alice")
          try analytics.clearRecentSearches(for: "bob")
        }
        let reopened = try QueryAnalytics(path: path, clock: clock.function)
        #expect(reopened.recentSearches(for: "alice").normalizedQueries == ["four", "two", "one"])
        #expect(reopened.recentSearches(for: "bob").isEmpty)

        let smaller = try QueryAnalytics(
          path: path, configuration: AnalyticsConfiguration(recentSearchLimit: 2),
          clock: clock.function)
        #expect(smaller.recentSearches(for: "alice").normalizedQueries == ["four", "two"])
      }
    }

    @Test func secondConnectionSeesWritesOfOneStillOpen() throws {
      try Fixtures.withTemporaryDirectory { directory in
        let path = directory.appendingPathComponent("analytics.sqlite").path
        let clock = ManualClock()
        let first = try QueryAnalytics(path: path, clock: clock.function)
        try Fixtures.search("crash test", byUsers: 4, at: clock.now, into: first)
        try first.recordSearch(
          SearchEvent(query: "Crash Test", userID: "alice", time: clock.now, resultCount: 1))

        // The first is never closed, as if its process had died.
        let second = try QueryAnalytics(path: path, clock: clock.function)
        #expect(second.trendingSearches().normalizedQueries == ["crash test"])
        #expect(second.recentSearches(for: "alice").displayQueries == ["Crash Test"])

        // Both can still write: neither holds a lock between calls.
        try second.recordSearch(SearchEvent(query: "from second", userID: "x", resultCount: 1))
        try first.recordSearch(SearchEvent(query: "from first", userID: "y", resultCount: 1))
        let third = try QueryAnalytics(path: path, clock: clock.function)
        #expect(third.recentSearches(for: "x").normalizedQueries == ["from second"])
        #expect(third.recentSearches(for: "y").normalizedQueries == ["from first"])
        withExtendedLifetime(first) {}
      }
    }

    @Test func fileUsesWriteAheadLogAndTheSchemaVersion() throws {
      try Fixtures.withTemporaryDirectory { directory in
        let path = directory.appendingPathComponent("analytics.sqlite").path
        _ = try QueryAnalytics(path: path)
        let database = try SQLiteDatabase(path: path)
        #expect(try database.integer("PRAGMA user_version") == AnalyticsStorage.schemaVersion)
        #expect(try database.integer("PRAGMA application_id") == AnalyticsStorage.applicationID)
        var mode: String?
        try database.prepare("PRAGMA journal_mode").query { mode = $0.text(at: 0) }
        #expect(mode == "wal")
      }
    }

    @Test func oldEventsArePrunedOnOpen() throws {
      try Fixtures.withTemporaryDirectory { directory in
        let path = directory.appendingPathComponent("analytics.sqlite").path
        let clock = ManualClock()
        do {
          let analytics = try QueryAnalytics(path: path, clock: clock.function)
          try Fixtures.search(
            "ancient", byUsers: 3, at: clock.now.addingTimeInterval(-80 * Fixtures.day),
            into: analytics)
          try Fixtures.search("fresh", byUsers: 3, at: clock.now, into: analytics)
          #expect(analytics.popularQueries(withPrefix: "", limit: 5).count == 2)
        }
        let reopened = try QueryAnalytics(path: path, clock: clock.function)
        #expect(reopened.popularQueries(withPrefix: "", limit: 5).normalizedQueries == ["fresh"])
        let database = try SQLiteDatabase(path: path)
        #expect(try database.integer("SELECT count(*) FROM search_events") == 3)
      }
    }

    @Test(arguments: [
      Data("this is not a database, just some text that is long enough\n".utf8),
      Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }),
      Data("SQLite format 3\u{0}".utf8) + Data(repeating: 0xFF, count: 4000),
    ])
    func garbageFileFailsWithAClearError(contents: Data) throws {
      try Fixtures.withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("analytics.sqlite")
        try contents.write(to: url)
        let error = try #require(throws: SearchError.self) {
          try QueryAnalytics(path: url.path)
        }
        #expect(error.code == .corruptIndex || error.code == .io)
        #expect(error.message.contains(url.path))
        #expect(try Data(contentsOf: url) == contents, "a file that is not ours stays untouched")
      }
    }

    @Test func otherProgramsDatabaseIsRejectedUntouched() throws {
      try Fixtures.withTemporaryDirectory { directory in
        let path = directory.appendingPathComponent("other.sqlite").path
        do {
          let other = try SQLiteDatabase(path: path)
          try other.execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('hi');")
        }
        let error = try #require(throws: SearchError.self) { try QueryAnalytics(path: path) }
        #expect(error.code == .corruptIndex)
        #expect(error.message.contains("another program"))
        let other = try SQLiteDatabase(path: path)
        #expect(try other.integer("SELECT count(*) FROM notes") == 1)
        #expect(try other.integer("SELECT count(*) FROM sqlite_master") == 1)
      }
    }

    @Test func newerSchemaIsRejected() throws {
      try Fixtures.withTemporaryDirectory { directory in
        let path = directory.appendingPathComponent("analytics.sqlite").path
        _ = try QueryAnalytics(path: path)
        try SQLiteDatabase(path: path).execute("PRAGMA user_version = 2")
        let error = try #require(throws: SearchError.self) { try QueryAnalytics(path: path) }
        #expect(error.code == .corruptIndex)
        #expect(error.message.contains("version 2"))
      }
    }

    @Test func missingDirectoryIsAnIOError() throws {
      let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("discover-missing-\(UUID().uuidString)/analytics.sqlite").path
      let error = try #require(throws: SearchError.self) { try QueryAnalytics(path: path) }
      #expect(error.code == .io)
      #expect(throws: SearchError.self) { try QueryAnalytics(path: "") }
      #expect(throws: SearchError.self) { try QueryAnalytics(path: "a\u{0}b") }
    }

    @Test func damagedRowsAndInvalidUTF8DoNotCrash() throws {
      try Fixtures.withTemporaryDirectory { directory in
        let path = directory.appendingPathComponent("analytics.sqlite").path
        let clock = ManualClock()
        _ = try QueryAnalytics(path: path, clock: clock.function)
        let time = clock.now.timeIntervalSinceReferenceDate
        let database = try SQLiteDatabase(path: path)
        try database.execute(
          """
          INSERT INTO search_events (normalized, display, user_id, time, result_count) VALUES
            (CAST(x'fffe61' AS TEXT), CAST(x'c3' AS TEXT), CAST(x'80' AS TEXT), \(time), 3),
            (CAST(x'fffe61' AS TEXT), 'x', 'u2', \(time), 3),
            (CAST(x'fffe61' AS TEXT), 'x', 'u3', \(time), -5),
            ('', '', NULL, \(time), 1),
            ('nan time', 'x', 'u1', 'not a number', 1),
            ('blob display', x'0041', 'u1', \(time), 1);
          INSERT INTO click_events (normalized, result_id, user_id, time) VALUES
            (CAST(x'ff' AS TEXT), CAST(x'fe' AS TEXT), NULL, \(time));
          INSERT INTO recent_searches (user_id, normalized, display, time) VALUES
            (CAST(x'ff' AS TEXT), CAST(x'fe' AS TEXT), CAST(x'fd' AS TEXT), \(time)),
            ('', 'empty user', 'x', \(time));
          """)
        let analytics = try QueryAnalytics(path: path, clock: clock.function)
        _ = analytics.trendingSearches()
        _ = analytics.popularQueries(withPrefix: "", limit: 10)
        #expect(analytics.recentSearches(for: "\u{FFFD}").count == 1)
        try analytics.recordSearch(SearchEvent(query: "still works", userID: "u1", resultCount: 1))
      }
    }

    @Test func concurrentWritersOnOneFile() async throws {
      let directory = try Fixtures.makeTemporaryDirectory()
      defer { try? FileManager.default.removeItem(at: directory) }
      do {
        let path = directory.appendingPathComponent("analytics.sqlite").path
        let analytics = try QueryAnalytics(path: path)
        try await withThrowingTaskGroup(of: Void.self) { group in
          for worker in 0..<4 {
            group.addTask {
              for number in 0..<10 {
                try analytics.recordSearch(
                  SearchEvent(query: "shared query", userID: "w\(worker)-\(number)", resultCount: 1)
                )
                _ = analytics.trendingSearches()
              }
            }
          }
          try await group.waitForAll()
        }
        let reopened = try QueryAnalytics(path: path)
        #expect(reopened.popularQueries(withPrefix: "shared", limit: 1).first?.distinctUsers == 40)
      }
    }
  }
}
