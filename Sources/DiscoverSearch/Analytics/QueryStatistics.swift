import Foundation

/// What analytics knows about one normalized query: its decayed counts, its users, its last
/// display form and result count, and clicks on its results.
struct QueryStatistics: Sendable {
  /// Distinct users are counted up to this many. Surfacing a query needs only a few (3 by
  /// default); the cap bounds memory at 8 KB of hashes per query, so 1,000 is plenty for
  /// ``TrendingSearch/distinctUsers`` while 100,000 queries stay under a gigabyte worst case.
  static let maximumCountedUsers = 1_000
  /// Clicks are counted for at most this many different results of one query; a result
  /// first clicked after that is not counted (clicks concentrate on the top few results).
  static let maximumClickedResults = 1_000

  /// The query as most recently typed (sanitized); empty until it is searched.
  var display = ""
  /// When ``display`` was typed, in seconds since the decay landmark.
  var displayTime = -Double.infinity
  /// Searches decayed with the trending half-life.
  var recent = DecayedCounter()
  /// Searches decayed with the baseline half-life.
  var baseline = DecayedCounter()
  /// Hashes of the users who searched it (`nil` for anonymous), at most
  /// ``maximumCountedUsers``. Hashes rather than ids keep memory small; they are
  /// recomputed on every open, so `Hasher`'s per-process seed does not matter.
  var userHashes: Set<Int> = []
  /// The result count of the latest search; 0 until the query is searched.
  var lastResultCount = 0
  /// Whether the query, or one of its words, is on the blocklist.
  let isBlocked: Bool
  /// Clicks per result id.
  var clicks: [String: Int] = [:]

  init(isBlocked: Bool) {
    self.isBlocked = isBlocked
  }

  /// How many distinct users searched it, up to ``maximumCountedUsers``.
  var distinctUsers: Int { userHashes.count }

  /// Records one search.
  mutating func addSearch(
    display: String, userID: String?, time: TimeInterval, resultCount: Int,
    scorer: TrendingScorer
  ) {
    recent.add(at: time, rate: scorer.recent)
    baseline.add(at: time, rate: scorer.baseline)
    if time >= displayTime {
      self.display = display
      displayTime = time
      lastResultCount = resultCount
    }
    if userHashes.count < Self.maximumCountedUsers {
      var hasher = Hasher()
      hasher.combine(userID)
      userHashes.insert(hasher.finalize())
    }
  }

  /// Records one click on `resultID`.
  mutating func addClick(on resultID: String) {
    if let count = clicks[resultID] {
      clicks[resultID] = count + 1
    } else if clicks.count < Self.maximumClickedResults {
      clicks[resultID] = 1
    }
  }

  /// Whether the query may be shown to other users: searched with results by enough users,
  /// and not blocked.
  func isSurfaceable(minimumDistinctUsers: Int) -> Bool {
    !isBlocked && lastResultCount > 0 && !baseline.isEmpty
      && userHashes.count >= minimumDistinctUsers
  }
}
