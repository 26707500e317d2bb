import Foundation

/// The SQLite file behind a persistent ``QueryAnalytics``: an append-only log of search and
/// click events plus every user's recent searches.
///
/// - **Durability.** The database runs in write-ahead-log mode with `synchronous=FULL`, so a
///   write that returned survives a crash or power loss; every write is one transaction.
///   Other connections (another process, or a second ``QueryAnalytics`` on the same path) see
///   committed writes, and wait up to ``busyTimeoutMilliseconds`` for a lock.
/// - **Format.** `PRAGMA application_id` marks the file as DiscoverSearch analytics and
///   `PRAGMA user_version` holds the schema version. Opening a file of another program, or of
///   a newer schema, fails without changing it.
/// - **Open.** The aggregates (decayed counts, distinct users, clicks) are not stored: opening
///   deletes events older than ``retentionHalfLives`` baseline half-lives, then replays the
///   rest into fresh aggregates, O(n) in the events kept. Normalized queries are stored with
///   each event, so replaying does not analyze text again.
/// - **Read-only files.** A file this process may not write, or one in a directory it may not
///   write, opens to read only: nothing is deleted, older events are left out of the replay
///   instead, and every write throws `SQLITE_READONLY` with a message naming the file.
final class AnalyticsStorage {
  /// Marks a DiscoverSearch analytics file: "DSAA" in ASCII, 0x44534141.
  static let applicationID: Int64 = 0x4453_4141
  /// The schema this build writes and reads.
  static let schemaVersion: Int64 = 1
  /// How long a call waits for another connection's lock before failing with "database is
  /// locked": long enough for any one transaction here, short enough to report a stuck peer.
  static let busyTimeoutMilliseconds: Int32 = 5_000
  /// Events older than this many baseline half-lives are deleted on open: they weigh less
  /// than 2⁻¹⁰ (0.1%) in any count. Click counts, which do not decay, therefore cover the
  /// same horizon (70 days with the default seven-day half-life).
  static let retentionHalfLives = 10.0

  private let database: SQLiteDatabase
  /// The file's path, for messages.
  private let path: String
  /// Events before this time (seconds since the landmark) are not replayed.
  private let oldestKept: TimeInterval
  /// Whether the file holds the schema (a read-only file may be empty).
  private let hasSchema: Bool
  /// The statements that write, or `nil` when this process may only read the file: a
  /// read-only file, or one in a directory it may not write (where SQLite keeps its `-wal`,
  /// `-shm` and journal files). Reads work as usual then; every write throws.
  private let writes: Writes?

  /// The compiled statements of the writes.
  private struct Writes {
    let begin: SQLiteStatement
    let commit: SQLiteStatement
    let rollback: SQLiteStatement
    let insertSearch: SQLiteStatement
    let insertClick: SQLiteStatement
    let deleteRecent: SQLiteStatement
    let insertRecent: SQLiteStatement
    let trimRecent: SQLiteStatement
    let clearRecent: SQLiteStatement
  }

  /// Opens or creates the file, checks its format and deletes expired events; a file this
  /// process may not write, or one in a directory it may not write, is opened to read only.
  ///
  /// - Parameters:
  ///   - path: The database file; created if missing (and its directory writable).
  ///   - retainedSince: Events before this time (seconds since the landmark) are deleted,
  ///     or in a read-only file left out when replaying.
  init(path: String, retainedSince oldestKept: TimeInterval) throws(SQLiteError) {
    self.path = path
    self.oldestKept = oldestKept
    do throws(SQLiteError) {
      (database, writes) = try Self.openForWriting(path, retainedSince: oldestKept)
      hasSchema = true
    } catch let error where error.isReadOnlyFile && FileManager.default.fileExists(atPath: path) {
      (database, hasSchema) = try Self.openForReading(path)
      writes = nil
    }
  }

  private static func openForWriting(_ path: String, retainedSince oldestKept: TimeInterval)
    throws(SQLiteError) -> (SQLiteDatabase, Writes)
  {
    let database = try SQLiteDatabase(path: path)
    // SQLite opens a file it may not write to read only, without an error.
    guard !database.isReadOnly else {
      throw SQLiteError.readOnly("the file is read-only")
    }
    database.setBusyTimeout(milliseconds: Self.busyTimeoutMilliseconds)
    // Read the header before changing anything: a file of another program stays untouched.
    // (A file that is not a database fails here, with SQLITE_NOTADB.)
    try Self.checkFormat(of: database)
    // WAL mode is stored in the file; `synchronous` is per connection. A `:memory:`
    // database answers "memory" to the first, which is fine.
    try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;")

    let begin = try database.prepare("BEGIN IMMEDIATE")
    let commit = try database.prepare("COMMIT")
    let rollback = try database.prepare("ROLLBACK")
    try Self.transaction(begin, commit, rollback) { () throws(SQLiteError) in
      // Checked again under the write lock: another connection may have created it.
      if try Self.checkFormat(of: database) {
        try database.execute(Self.schema)
      }
    }
    let writes = Writes(
      begin: begin, commit: commit, rollback: rollback,
      insertSearch: try database.prepare(
        """
        INSERT INTO search_events (normalized, display, user_id, time, result_count)
        VALUES (?1, ?2, ?3, ?4, ?5)
        """),
      insertClick: try database.prepare(
        """
        INSERT INTO click_events (normalized, result_id, user_id, time) VALUES (?1, ?2, ?3, ?4)
        """),
      deleteRecent: try database.prepare(
        "DELETE FROM recent_searches WHERE user_id = ?1 AND normalized = ?2"),
      // A new row's id is above every row's id, so (time, id) orders ties by recording.
      insertRecent: try database.prepare(
        """
        INSERT INTO recent_searches (user_id, normalized, display, time) VALUES (?1, ?2, ?3, ?4)
        """),
      trimRecent: try database.prepare(
        """
        DELETE FROM recent_searches WHERE id IN (
          SELECT id FROM recent_searches WHERE user_id = ?1
          ORDER BY time DESC, id DESC LIMIT -1 OFFSET ?2)
        """),
      clearRecent: try database.prepare("DELETE FROM recent_searches WHERE user_id = ?1"))

    try Self.transaction(begin, commit, rollback) { () throws(SQLiteError) in
      try database.prepare("DELETE FROM search_events WHERE time < ?1").run(.real(oldestKept))
      try database.prepare("DELETE FROM click_events WHERE time < ?1").run(.real(oldestKept))
    }
    return (database, writes)
  }

  /// Opens the file to read only, and whether it holds the schema. A database in
  /// write-ahead-log mode whose directory this process may not write has no `-shm` file
  /// SQLite could create, so it is read as immutable.
  private static func openForReading(_ path: String) throws(SQLiteError) -> (
    SQLiteDatabase, hasSchema: Bool
  ) {
    do throws(SQLiteError) {
      let database = try SQLiteDatabase(path: path, access: .readOnly)
      database.setBusyTimeout(milliseconds: Self.busyTimeoutMilliseconds)
      return (database, !(try Self.checkFormat(of: database)))
    } catch let error where error.isReadOnlyFile {
      let database = try SQLiteDatabase(path: path, access: .immutable)
      return (database, !(try Self.checkFormat(of: database)))
    }
  }

  /// The error of a write to a file this process may only read.
  private var readOnlyError: SQLiteError {
    SQLiteError.readOnly(
      "the analytics database \(path) is read-only for this process (the file, or its directory where SQLite keeps its -wal and -shm files, cannot be written); make both writable to record, or only read from it"
    )
  }

  /// Version 1: the event log and recent searches. Times are seconds since 2001-01-01 UTC
  /// (`Date.timeIntervalSinceReferenceDate`).
  private static let schema = """
    PRAGMA application_id = \(applicationID);
    PRAGMA user_version = \(schemaVersion);
    CREATE TABLE search_events (
      id INTEGER PRIMARY KEY,
      normalized TEXT NOT NULL,
      display TEXT NOT NULL,
      user_id TEXT,
      time REAL NOT NULL,
      result_count INTEGER NOT NULL
    );
    CREATE INDEX search_events_by_time ON search_events (time);
    CREATE TABLE click_events (
      id INTEGER PRIMARY KEY,
      normalized TEXT NOT NULL,
      result_id TEXT NOT NULL,
      user_id TEXT,
      time REAL NOT NULL
    );
    CREATE INDEX click_events_by_time ON click_events (time);
    CREATE TABLE recent_searches (
      id INTEGER PRIMARY KEY,
      user_id TEXT NOT NULL,
      normalized TEXT NOT NULL,
      display TEXT NOT NULL,
      time REAL NOT NULL,
      UNIQUE (user_id, normalized)
    );
    CREATE INDEX recent_searches_by_user ON recent_searches (user_id, time);
    """

  /// Checks the header; returns whether the file is empty and needs the schema.
  ///
  /// - Throws: ``SQLiteError/notAnalyticsDatabase(_:)`` for a database of another program or of a
  ///   newer schema (the caller reports it as a damaged or unknown file).
  @discardableResult
  private static func checkFormat(of database: SQLiteDatabase) throws(SQLiteError) -> Bool {
    let applicationID = try database.integer("PRAGMA application_id") ?? 0
    let version = try database.integer("PRAGMA user_version") ?? 0
    if applicationID == 0 && version == 0 {
      let objects = try database.integer("SELECT count(*) FROM sqlite_master") ?? 0
      guard objects == 0 else {
        throw SQLiteError.notAnalyticsDatabase(
          "the file is an SQLite database of another program, not DiscoverSearch "
            + "analytics; choose another path")
      }
      return true
    }
    guard applicationID == Self.applicationID else {
      throw SQLiteError.notAnalyticsDatabase(
        "the file is not a DiscoverSearch analytics database (application id "
          + "\(applicationID)); choose another path")
    }
    guard version == Self.schemaVersion else {
      throw SQLiteError.notAnalyticsDatabase(
        "the analytics database has schema version \(version), but this build "
          + "reads version \(Self.schemaVersion) only; upgrade DiscoverSearch")
    }
    return false
  }

  // MARK: Replay

  /// Replays every stored event into `aggregates` and every recent search into `recent`.
  ///
  /// Rows that another program damaged (an empty query, a time that is not a number) are
  /// skipped; text that is not UTF-8 is repaired with U+FFFD.
  ///
  /// - Complexity: O(n) in the rows.
  func load(into aggregates: inout AnalyticsAggregates, recent: inout RecentSearches)
    throws(SQLiteError)
  {
    guard hasSchema else { return }
    // Opening deleted older events from a file it may write; from one it may only read,
    // they are left out here.
    try database.prepare(
      """
      SELECT normalized, display, user_id, time, result_count FROM search_events
      WHERE time >= ?1 ORDER BY id
      """
    ).query(.real(oldestKept)) { row in
      let time = row.real(at: 3)
      guard let normalized = row.text(at: 0), !normalized.isEmpty, time.isFinite else { return }
      aggregates.recordSearch(
        normalized: normalized, display: row.text(at: 1) ?? normalized,
        userID: row.text(at: 2), time: time,
        resultCount: Int(clamping: max(0, row.integer(at: 4))))
    }
    try database.prepare(
      "SELECT normalized, result_id FROM click_events WHERE time >= ?1 ORDER BY id"
    ).query(.real(oldestKept)) { row in
      guard let normalized = row.text(at: 0), !normalized.isEmpty,
        let resultID = row.text(at: 1)
      else { return }
      aggregates.recordClick(normalized: normalized, resultID: resultID)
    }
    try database.prepare(
      "SELECT user_id, normalized, display, time FROM recent_searches ORDER BY time, id"
    ).query { row in
      let time = row.real(at: 3)
      guard let userID = row.text(at: 0), !userID.isEmpty,
        let normalized = row.text(at: 1), !normalized.isEmpty, time.isFinite
      else { return }
      let entry = RecentSearches.Entry(
        normalized: normalized, display: row.text(at: 2) ?? normalized, time: time)
      _ = recent.record(entry, for: userID)
    }
  }

  // MARK: Writes

  /// Appends a search event and, when `recentLimit` is given, makes it the user's recent
  /// search for its query and drops the user's searches past the limit; one transaction.
  func recordSearch(
    normalized: String, display: String, userID: String?, time: TimeInterval,
    resultCount: Int, recentLimit: Int?
  ) throws(SQLiteError) {
    try transaction { (writes) throws(SQLiteError) in
      try writes.insertSearch.run(
        .text(normalized), .text(display), userID.map { .text($0) } ?? .null, .real(time),
        .integer(Int64(resultCount)))
      if let userID, let recentLimit {
        try writes.deleteRecent.run(.text(userID), .text(normalized))
        try writes.insertRecent.run(
          .text(userID), .text(normalized), .text(display), .real(time))
        try writes.trimRecent.run(.text(userID), .integer(Int64(recentLimit)))
      }
    }
  }

  /// Appends a click event.
  func recordClick(normalized: String, resultID: String, userID: String?, time: TimeInterval)
    throws(SQLiteError)
  {
    try transaction { (writes) throws(SQLiteError) in
      try writes.insertClick.run(
        .text(normalized), .text(resultID), userID.map { .text($0) } ?? .null, .real(time))
    }
  }

  /// Deletes one of a user's recent searches.
  func deleteRecentSearch(normalized: String, userID: String) throws(SQLiteError) {
    try transaction { (writes) throws(SQLiteError) in
      try writes.deleteRecent.run(.text(userID), .text(normalized))
    }
  }

  /// Deletes all of a user's recent searches.
  func clearRecentSearches(userID: String) throws(SQLiteError) {
    try transaction { (writes) throws(SQLiteError) in try writes.clearRecent.run(.text(userID)) }
  }

  // MARK: Transactions

  /// Runs `body` with the write statements in one transaction.
  ///
  /// - Throws: ``readOnlyError`` for a file this process may only read.
  private func transaction(_ body: (Writes) throws(SQLiteError) -> Void) throws(SQLiteError) {
    guard let writes else { throw readOnlyError }
    try Self.transaction(writes.begin, writes.commit, writes.rollback) {
      () throws(SQLiteError) in try body(writes)
    }
  }

  /// Runs `body` between `BEGIN IMMEDIATE` (taking the write lock at once, so the busy
  /// timeout applies up front instead of failing at the first write) and `COMMIT`; rolls
  /// back if it throws.
  private static func transaction(
    _ begin: SQLiteStatement, _ commit: SQLiteStatement, _ rollback: SQLiteStatement,
    _ body: () throws(SQLiteError) -> Void
  ) throws(SQLiteError) {
    try begin.run()
    do {
      try body()
      try commit.run()
    } catch {
      try? rollback.run()
      throw error
    }
  }
}
