import Foundation
import Synchronization
import Testing

@testable import DiscoverSearch

/// The suites of `Sources/DiscoverSearch/Trending`, under one name so that
/// `swift test --filter Trending` runs them all.
enum TrendingTests {}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
  private let current: Mutex<Date>

  init(_ start: Date = AnalyticsFixtures.start) {
    current = Mutex(start)
  }

  var now: Date { current.withLock { $0 } }

  func advance(by interval: TimeInterval) {
    current.withLock { $0 += interval }
  }

  /// The closure `QueryAnalytics` takes.
  var function: @Sendable () -> Date { { self.now } }
}

enum AnalyticsFixtures {
  /// A fixed "now": 2025-06-15 16:53:20 UTC.
  static let start = Date(timeIntervalSince1970: 1_750_006_400)
  static let hour: TimeInterval = 3600
  static let day: TimeInterval = 86400

  /// Records `count` searches of `query` evenly spread over `interval` seconds ending at
  /// `end` (the last one at `end`), by users cycling through `users` distinct ids.
  static func search(
    _ query: String, count: Int, over interval: TimeInterval, endingAt end: Date,
    users: Int, userPrefix: String? = nil, resultCount: Int = 10,
    into analytics: QueryAnalytics
  ) throws {
    let prefix = userPrefix ?? "\(query)-user"
    let step = count > 1 ? interval / Double(count - 1) : 0
    for number in 0..<count {
      let time = end.addingTimeInterval(-interval + step * Double(number))
      try analytics.recordSearch(
        SearchEvent(
          query: query, userID: "\(prefix)\(number % users)", time: time,
          resultCount: resultCount))
    }
  }

  /// Records one search of `query` by each of `users` users at `time`.
  static func search(
    _ query: String, byUsers users: Int, at time: Date, resultCount: Int = 10,
    into analytics: QueryAnalytics
  ) throws {
    for user in 0..<users {
      try analytics.recordSearch(
        SearchEvent(query: query, userID: "user\(user)", time: time, resultCount: resultCount))
    }
  }

  /// A fresh, empty temporary directory with a unique name; the caller removes it.
  static func makeTemporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("discover-analytics-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  /// A fresh, empty temporary directory, removed after `body`.
  static func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
  }
}

extension Array where Element == TrendingSearch {
  var normalizedQueries: [String] { map(\.normalizedQuery) }
}

extension Array where Element == PopularQuery {
  var normalizedQueries: [String] { map(\.normalizedQuery) }
}

extension Array where Element == RecentSearch {
  var normalizedQueries: [String] { map(\.normalizedQuery) }
  var displayQueries: [String] { map(\.query) }
}
