import CSQLite

/// A failure reported by SQLite: its (extended) result code and message.
struct SQLiteError: Error, Sendable, CustomStringConvertible {
  var code: Int32
  var message: String

  var description: String { "SQLite error \(code): \(message)" }

  /// Whether the file is not an SQLite database, or is damaged.
  var isCorruption: Bool {
    let primary = code & 0xFF
    return primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT
  }

  /// Whether a write failed because this process may not write the file or its directory
  /// (where SQLite keeps its `-wal`, `-shm` and journal files): the database can still be
  /// read.
  var isReadOnlyFile: Bool {
    let primary = code & 0xFF
    return primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN || primary == SQLITE_PERM
  }

  /// A database that is valid SQLite but not what the caller expects (another program's
  /// file, an unknown schema): reported with `SQLITE_NOTADB`, as damage is.
  static func notAnalyticsDatabase(_ message: String) -> SQLiteError {
    SQLiteError(code: SQLITE_NOTADB, message: message)
  }

  /// A write to a database this process may only read, refused before SQLite is asked:
  /// reported with `SQLITE_READONLY`, as SQLite reports it (``isReadOnlyFile``).
  static func readOnly(_ message: String) -> SQLiteError {
    SQLiteError(code: SQLITE_READONLY, message: message)
  }
}

/// One connection to an SQLite database file: the few calls the analytics store needs.
///
/// Only this file and `SQLiteStatement.swift` touch the `CSQLite` module. The connection is
/// opened without SQLite's own mutex (`SQLITE_OPEN_NOMUTEX`) and is not `Sendable`: its
/// owner serializes every call (``QueryAnalytics`` keeps it behind a `Mutex`).
final class SQLiteDatabase {
  private let handle: OpaquePointer

  /// How a database file is opened.
  enum Access {
    /// To read and write, creating an empty file if there is none. SQLite itself falls back
    /// to reading a file it may not write (``SQLiteDatabase/isReadOnly``).
    case readWrite
    /// To read only.
    case readOnly
    /// To read only a file that nothing changes while it is open: no locks, and no `-shm`
    /// file, so that a database in write-ahead-log mode can be read in a directory this
    /// process may not write (SQLite's `immutable` URI parameter).
    case immutable
  }

  /// Opens the database at `path`.
  ///
  /// SQLite reads nothing yet, so a file that is not a database fails on the first
  /// statement, with ``SQLiteError/isCorruption``.
  init(path: String, access: Access = .readWrite) throws(SQLiteError) {
    var opened: OpaquePointer?
    var name = path
    var flags = SQLITE_OPEN_NOMUTEX
    switch access {
    case .readWrite: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    case .readOnly: flags |= SQLITE_OPEN_READONLY
    case .immutable:
      flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
      name = "file:\(Self.percentEncoded(path))?immutable=1"
    }
    let result = sqlite3_open_v2(name, &opened, flags, nil)
    guard result == SQLITE_OK, let opened else {
      let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(opened)
      throw SQLiteError(code: result, message: message)
    }
    handle = opened
    sqlite3_extended_result_codes(handle, 1)
  }

  /// Whether the connection may only read: opened so, or SQLite could not open the file
  /// for writing.
  var isReadOnly: Bool {
    sqlite3_db_readonly(handle, "main") == 1
  }

  /// `path` for a `file:` URI: every byte but unreserved ones and `/` as `%XX` (RFC 3986),
  /// so that `?`, `#` and `%` in a file name are not read as URI syntax.
  private static func percentEncoded(_ path: String) -> String {
    var encoded = ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        encoded.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        encoded += "%" + (byte < 16 ? "0" : "") + hex
      }
    }
    return encoded
  }

  deinit {
    // `close_v2` waits for statements still alive to be finalized, so the order in which
    // the owner's properties are released does not matter.
    sqlite3_close_v2(handle)
  }

  /// The error for a failed call's result code, with the connection's message.
  func error(_ code: Int32) -> SQLiteError {
    SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
  }

  /// Runs one or more statements that return no rows.
  func execute(_ sql: String) throws(SQLiteError) {
    var errorMessage: UnsafeMutablePointer<CChar>?
    let result = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
    defer { sqlite3_free(errorMessage) }
    guard result == SQLITE_OK else {
      let message = errorMessage.map { String(cString: $0) } ?? "unknown error"
      throw SQLiteError(code: result, message: message)
    }
  }

  /// Compiles one statement, to run as many times as needed.
  func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    var statement: OpaquePointer?
    let result = sqlite3_prepare_v3(
      handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    guard result == SQLITE_OK, let statement else { throw error(result) }
    return SQLiteStatement(handle: statement, database: self)
  }

  /// The integer in the first column of the first row of `sql` (a `PRAGMA` that reads a
  /// setting), or `nil` when there is no row.
  func integer(_ sql: String) throws(SQLiteError) -> Int64? {
    let statement = try prepare(sql)
    var value: Int64?
    try statement.query { row in value = row.integer(at: 0) }
    return value
  }

  /// Sets a busy timeout: a call waits up to `milliseconds` for another connection's lock.
  func setBusyTimeout(milliseconds: Int32) {
    sqlite3_busy_timeout(handle, milliseconds)
  }
}
