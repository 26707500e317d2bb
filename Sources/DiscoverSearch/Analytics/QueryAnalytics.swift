import Foundation
import Synchronization

/// Query analytics: what people search, what trends now, each user's recent searches, and
/// clicks on results; in memory or persisted in an SQLite file.
///
/// ```swift
/// let analytics = try QueryAnalytics(path: "analytics.sqlite")
/// try analytics.recordSearch(SearchEvent(query: "Dance challenge", userID: "u1", resultCount: 42))
/// let trending = analytics.trendingSearches(limit: 10)
/// let completions = analytics.popularQueries(withPrefix: "danc", limit: 5)
/// let recent = analytics.recentSearches(for: "u1")
/// ```
///
/// **Normalization.** A query is sanitized (``QuerySanitizer``) for display, and folded
/// token by token with ``Analyzer`` (query mode) for grouping: case, accents, width and
/// spacing do not matter, and `#`/`@` markers of hashtags and mentions stay
/// (`Café  Dance` and `cafe dance` are one query). A query with nothing left after that
/// (empty, whitespace, control characters only, punctuation only) is not an error: the event
/// is ignored, as a search bar ignores an empty submit.
///
/// **Trending.** Every query keeps two exponentially decayed counts of its searches
/// (forward decay, Cormode et al., ICDE 2009; see `DecayedCounter`): `recentCount` with
/// ``AnalyticsConfiguration/trendingHalfLife`` (1 hour) and `baselineCount` with
/// ``AnalyticsConfiguration/baselineHalfLife`` (7 days). With τ = halfLife / ln 2 each
/// window's mean lifetime, and a smoothing prior of 10 searches:
///
///     velocity = (recentCount / τ_recent) / ((baselineCount + 10) / τ_baseline)
///     score    = recentCount * log2(1 + velocity)
///
/// Velocity is the recent search rate over the usual one: about 1 for a query searched
/// steadily, so a steady query scores its recent count, while a query rising now scores
/// several times its count and outranks an always-popular one with a similar or somewhat
/// higher recent count. A query trends only if it:
/// - was searched by at least ``AnalyticsConfiguration/minimumDistinctUsers`` different users
///   (anonymous searches count as one user), so one person's searches are never shown;
/// - is not on the ``AnalyticsConfiguration/blocklist``, whole or by one of its words;
/// - had results in its latest search: a query that finds nothing is no useful suggestion;
/// - has a recent count of at least 1, about one search within the last half-life.
///
/// ``popularQueries(withPrefix:limit:)`` applies the same first three rules.
///
/// **Bounds.** At most 100,000 queries are tracked: past that, the 10% with the lowest
/// baseline counts are forgotten. Distinct users are counted up to 1,000 per query, and
/// clicks for up to 1,000 results per query. Recent searches keep at most
/// ``AnalyticsConfiguration/recentSearchLimit`` entries per user (memory grows with the
/// number of users who searched, at most that many short entries each).
///
/// **Persistence.** ``init(path:configuration:clock:)`` stores events in SQLite (write-ahead
/// log, `synchronous=FULL`: a write that returned is durable) and rebuilds the aggregates by
/// replaying them on open, after deleting events older than ten baseline half-lives (their
/// weight is below 0.1%). Each instance aggregates in memory what it recorded and what was
/// in the file when it opened: use one instance per file per process; another instance sees
/// the first one's writes when it opens.
///
/// **Concurrency.** All calls are serialized by a mutex; the class is safe to share between
/// any number of tasks and threads.
public final class QueryAnalytics: Sendable {
  /// The longest user or result id accepted, in UTF-8 bytes. Ids are opaque keys, far
  /// shorter in practice; the cap keeps a hostile id from bloating the store.
  static let maximumIdentifierLength = 1_024

  private struct State {
    var aggregates: AnalyticsAggregates
    var recent: RecentSearches
    /// `nil` for an in-memory store.
    let storage: AnalyticsStorage?
  }

  private let state: Lock<State>
  private let clock: @Sendable () -> Date

  /// Creates an empty store in memory, for tests and short-lived processes.
  ///
  /// - Parameters:
  ///   - configuration: Decay windows, thresholds and limits; half-lives must be positive.
  ///   - clock: Gives "now" for reading decayed counts, and caps event times (an event
  ///     dated in the future is recorded at "now"). Inject one to test trending over time.
  public init(
    configuration: AnalyticsConfiguration = .init(),
    clock: @escaping @Sendable () -> Date = { Date() }
  ) {
    Analyzer.prepare()
    self.clock = clock
    state = Lock(
      State(
        aggregates: AnalyticsAggregates(configuration: configuration),
        recent: RecentSearches(limit: configuration.recentSearchLimit), storage: nil))
  }

  /// Opens the SQLite analytics file at `path`, creating it if missing, and reloads its
  /// events.
  ///
  /// A file this process may not write, or one in a directory it may not write (SQLite keeps
  /// its `-wal` and `-shm` files there), is opened to read only: trending searches, popular
  /// queries, recent searches and click counts are read as usual, and every write (record,
  /// delete, clear) throws ``SearchError/Code/io`` saying the file is read-only.
  ///
  /// - Parameters:
  ///   - path: The database file. Its directory must exist; SQLite adds `-wal` and `-shm`
  ///     files next to it.
  ///   - configuration: Decay windows, thresholds and limits; half-lives must be positive.
  ///   - clock: Gives "now"; see ``init(configuration:clock:)``.
  /// - Throws: ``SearchError/Code/invalidArgument`` for an empty path or one with a NUL
  ///   byte; ``SearchError/Code/corruptIndex`` for a file that is not a DiscoverSearch
  ///   analytics database, is damaged, or has a newer schema; ``SearchError/Code/io`` when
  ///   SQLite cannot open, read or write it.
  /// - Complexity: O(n) in the stored events.
  public init(
    path: String, configuration: AnalyticsConfiguration = .init(),
    clock: @escaping @Sendable () -> Date = { Date() }
  ) throws {
    guard !path.isEmpty, !path.utf8.contains(0) else {
      throw SearchError(
        .invalidArgument, "the analytics database path must be a file path without NUL bytes")
    }
    Analyzer.prepare()
    var aggregates = AnalyticsAggregates(configuration: configuration)
    var recent = RecentSearches(limit: configuration.recentSearchLimit)
    let now = clock().timeIntervalSinceReferenceDate
    let oldestKept =
      now - AnalyticsStorage.retentionHalfLives * configuration.baselineHalfLife
    let storage: AnalyticsStorage
    do {
      storage = try AnalyticsStorage(path: path, retainedSince: oldestKept)
      try storage.load(into: &aggregates, recent: &recent)
    } catch {
      throw Self.storageError(error, "cannot open the analytics database at \(path)")
    }
    self.clock = clock
    state = Lock(State(aggregates: aggregates, recent: recent, storage: storage))
  }

  /// The normalized form of a query: sanitized, then folded token by token with
  /// ``Analyzer`` in query mode, tokens joined by one space (`Café  Dance` gives
  /// `cafe dance`, `#DanceChallenge` gives `#dancechallenge`). An emoji's name words are
  /// left out (`🔥 dance` stays `🔥 dance`), the same words ``SuggestInput`` makes of typed
  /// text, so that a past query's normalized form starts with what is typed toward it.
  /// Empty when nothing searchable is left.
  ///
  /// - Complexity: O(n) in the length of `text`, which the sanitizer caps.
  static func normalize(_ text: String) -> String {
    normalize(sanitized: QuerySanitizer.sanitize(text))
  }

  /// ``normalize(_:)`` of text already sanitized.
  static func normalize(sanitized text: String) -> String {
    Analyzer.tokens(of: text, as: .query)
      .filter { $0.kind != .emojiName }.map(\.text).joined(separator: " ")
  }

  // MARK: Recording

  /// Records a search: counts it toward trending and popular queries, and makes it the
  /// user's most recent search for that query.
  ///
  /// A query that normalizes to nothing is ignored without an error.
  ///
  /// - Throws: ``SearchError/Code/invalidArgument`` for an empty or over-long user id, a
  ///   negative result count or a time that is not finite; ``SearchError/Code/io`` when
  ///   SQLite cannot write (nothing is recorded then).
  /// - Complexity: O(log n) in the tracked queries for a known query, O(n) for a new one;
  ///   one SQLite transaction for a persistent store.
  public func recordSearch(_ event: SearchEvent) throws {
    try Self.validate(userID: event.userID)
    guard event.resultCount >= 0 else {
      throw SearchError(
        .invalidArgument,
        "a search's result count must be 0 or more, not \(event.resultCount)")
    }
    let time = try eventTime(event.time)
    let display = QuerySanitizer.sanitize(event.query)
    let normalized = Self.normalize(sanitized: display)
    guard !normalized.isEmpty else { return }
    try state.withLock { state throws(SearchError) in
      var previousRecent: [RecentSearches.Entry] = []
      var recentLimit: Int?
      if let userID = event.userID {
        previousRecent = state.recent.entries(for: userID)
        let entry = RecentSearches.Entry(normalized: normalized, display: display, time: time)
        if state.recent.record(entry, for: userID) == .stored {
          recentLimit = state.recent.limit
        }
      }
      do throws(SQLiteError) {
        try state.storage?.recordSearch(
          normalized: normalized, display: display, userID: event.userID, time: time,
          resultCount: event.resultCount, recentLimit: recentLimit)
      } catch {
        if let userID = event.userID {
          state.recent.restore(previousRecent, for: userID)
        }
        throw Self.storageError(error, "cannot record a search")
      }
      state.aggregates.recordSearch(
        normalized: normalized, display: display, userID: event.userID, time: time,
        resultCount: event.resultCount)
    }
  }

  /// Records a click on a result of a search, for ``clickCount(query:resultID:)``.
  ///
  /// A query that normalizes to nothing is ignored without an error.
  ///
  /// - Throws: ``SearchError/Code/invalidArgument`` for an empty or over-long user or result
  ///   id, or a time that is not finite; ``SearchError/Code/io`` when SQLite cannot write.
  public func recordClick(_ event: ClickEvent) throws {
    try Self.validate(userID: event.userID)
    try Self.validate(event.resultID, as: "result id")
    let time = try eventTime(event.time)
    let normalized = Self.normalize(event.query)
    guard !normalized.isEmpty else { return }
    try state.withLock { state throws(SearchError) in
      do throws(SQLiteError) {
        try state.storage?.recordClick(
          normalized: normalized, resultID: event.resultID, userID: event.userID, time: time)
      } catch {
        throw Self.storageError(error, "cannot record a click")
      }
      state.aggregates.recordClick(normalized: normalized, resultID: event.resultID)
    }
  }

  // MARK: Trending and popular queries

  /// The queries trending now, best first by score; see the type's documentation for the
  /// formula and the rules a query must pass.
  ///
  /// - Parameter limit: The most queries returned; must not be negative.
  /// - Complexity: O(n + m log m) for n tracked queries of which m trend.
  public func trendingSearches(limit: Int = 10) -> [TrendingSearch] {
    precondition(limit >= 0, "the limit of trending searches must not be negative")
    let now = clock().timeIntervalSinceReferenceDate
    return state.withLock { $0.aggregates.trendingSearches(at: now, limit: limit) }
  }

  /// Whether a normalized query is among the 50 best trending queries now.
  ///
  /// The top 50 is cached until the next search is recorded or a second passes on the
  /// clock, so asking for every suggestion of a list computes it once.
  ///
  /// - Parameter normalizedQuery: A query normalized like analytics does (folded with
  ///   ``Analyzer``, words separated by one space).
  /// - Complexity: O(1) when cached, else that of ``trendingSearches(limit:)``.
  public func isTrending(normalizedQuery: String) -> Bool {
    let now = clock().timeIntervalSinceReferenceDate
    return state.withLock { $0.aggregates.isTrending(normalized: normalizedQuery, at: now) }
  }

  /// Past queries whose normalized form starts with `normalizedPrefix`, most searched first
  /// (by the count decayed with the baseline half-life), for completions.
  ///
  /// Only queries that passed the distinct-user minimum and the blocklist and had results in
  /// their latest search are returned.
  ///
  /// - Parameters:
  ///   - normalizedPrefix: A prefix already folded by the caller with ``Analyzer``, words
  ///     separated by one space. It is compared as UTF-8 bytes, so a partial word matches;
  ///     an empty prefix matches every query.
  ///   - limit: The most queries returned; must not be negative.
  /// - Complexity: O(log n + m log m) for n tracked queries of which m match the prefix.
  public func popularQueries(withPrefix normalizedPrefix: String, limit: Int) -> [PopularQuery] {
    precondition(limit >= 0, "the limit of popular queries must not be negative")
    let now = clock().timeIntervalSinceReferenceDate
    return state.withLock {
      $0.aggregates.popularQueries(withPrefix: normalizedPrefix, at: now, limit: limit)
    }
  }

  /// How many clicks a result received from searches for a query.
  ///
  /// - Parameters:
  ///   - query: The query as typed; it is normalized first.
  ///   - resultID: The clicked result's id.
  public func clickCount(query: String, resultID: String) -> Int {
    let normalized = Self.normalize(query)
    return state.withLock {
      $0.aggregates.clickCount(normalized: normalized, resultID: resultID)
    }
  }

  // MARK: Recent searches

  /// The user's recent searches, most recent first, one per normalized query, at most
  /// ``AnalyticsConfiguration/recentSearchLimit``.
  ///
  /// Searches recorded with the same time come back in reverse recording order.
  ///
  /// - Parameters:
  ///   - userID: The user; an unknown or empty id has no recent searches.
  ///   - limit: The most searches returned, or `nil` for all that are kept; must not be
  ///     negative.
  public func recentSearches(for userID: String, limit: Int? = nil) -> [RecentSearch] {
    precondition((limit ?? 0) >= 0, "the limit of recent searches must not be negative")
    let entries = state.withLock { $0.recent.entries(for: userID) }
    return entries.prefix(limit ?? entries.count).map {
      RecentSearch(
        query: $0.display, normalizedQuery: $0.normalized,
        time: Date(timeIntervalSinceReferenceDate: $0.time))
    }
  }

  /// Deletes one of the user's recent searches: the one whose normalized form equals that of
  /// `query` (so `Café` deletes `cafe`). Deleting a search the user does not have does
  /// nothing.
  ///
  /// - Throws: ``SearchError/Code/invalidArgument`` for an empty or over-long user id;
  ///   ``SearchError/Code/io`` when SQLite cannot write (nothing is deleted then).
  public func deleteRecentSearch(_ query: String, for userID: String) throws {
    try Self.validate(userID: userID)
    let normalized = Self.normalize(query)
    guard !normalized.isEmpty else { return }
    try state.withLock { state throws(SearchError) in
      do throws(SQLiteError) {
        try state.storage?.deleteRecentSearch(normalized: normalized, userID: userID)
      } catch {
        throw Self.storageError(error, "cannot delete a recent search")
      }
      state.recent.remove(normalized, for: userID)
    }
  }

  /// Deletes all of the user's recent searches.
  ///
  /// - Throws: ``SearchError/Code/invalidArgument`` for an empty or over-long user id;
  ///   ``SearchError/Code/io`` when SQLite cannot write (nothing is deleted then).
  public func clearRecentSearches(for userID: String) throws {
    try Self.validate(userID: userID)
    try state.withLock { state throws(SearchError) in
      do throws(SQLiteError) {
        try state.storage?.clearRecentSearches(userID: userID)
      } catch {
        throw Self.storageError(error, "cannot clear recent searches")
      }
      state.recent.removeAll(for: userID)
    }
  }

  // MARK: Validation

  private static func validate(userID: String?) throws(SearchError) {
    if let userID {
      try validate(userID, as: "user id")
    }
  }

  private static func validate(_ identifier: String, as name: String) throws(SearchError) {
    guard !identifier.isEmpty else {
      throw SearchError(.invalidArgument, "a \(name) must not be empty; pass nil for none")
    }
    guard identifier.utf8.count <= maximumIdentifierLength else {
      throw SearchError(
        .invalidArgument,
        "a \(name) must be at most \(maximumIdentifierLength) bytes of UTF-8, not "
          + "\(identifier.utf8.count)")
    }
  }

  /// An event's time in seconds since the landmark, capped at the clock's "now".
  private func eventTime(_ date: Date) throws(SearchError) -> TimeInterval {
    let time = date.timeIntervalSinceReferenceDate
    guard time.isFinite else {
      throw SearchError(.invalidArgument, "an event's time must be a finite date")
    }
    let now = clock().timeIntervalSinceReferenceDate
    return now.isFinite ? min(time, now) : time
  }

  private static func storageError(_ error: SQLiteError, _ action: String) -> SearchError {
    SearchError(
      error.isCorruption ? .corruptIndex : .io, "\(action): \(error.message)",
      underlying: error)
  }
}
