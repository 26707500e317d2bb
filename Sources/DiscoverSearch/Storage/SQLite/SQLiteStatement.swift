import CSQLite

/// A value bound to a statement parameter.
enum SQLiteValue {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
}

/// A compiled SQLite statement, reused across runs: each run binds its parameters, steps,
/// then resets the statement and clears the bindings.
final class SQLiteStatement {
  private let handle: OpaquePointer
  /// Kept for error messages, and so the connection outlives its statements.
  private let database: SQLiteDatabase

  init(handle: OpaquePointer, database: SQLiteDatabase) {
    self.handle = handle
    self.database = database
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Runs the statement to completion with `values` bound to `?1`, `?2`, ….
  func run(_ values: SQLiteValue...) throws(SQLiteError) {
    try query(values) { _ in }
  }

  /// Runs the statement and calls `body` with each row.
  func query(
    _ values: SQLiteValue..., body: (SQLiteRow) throws(SQLiteError) -> Void
  ) throws(SQLiteError) {
    try query(values, body: body)
  }

  private func query(
    _ values: [SQLiteValue], body: (SQLiteRow) throws(SQLiteError) -> Void
  ) throws(SQLiteError) {
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    for (offset, value) in values.enumerated() {
      try bind(value, at: Int32(offset + 1))
    }
    while true {
      let result = sqlite3_step(handle)
      switch result {
      case SQLITE_ROW: try body(SQLiteRow(handle: handle))
      case SQLITE_DONE: return
      default: throw database.error(result)
      }
    }
  }

  private func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
    let result: Int32
    switch value {
    case .null: result = sqlite3_bind_null(handle, index)
    case .integer(let integer): result = sqlite3_bind_int64(handle, index, integer)
    case .real(let real): result = sqlite3_bind_double(handle, index, real)
    case .text(var text):
      result = text.withUTF8 { bytes in
        // SAFETY: `csqlite_bind_text` passes SQLITE_TRANSIENT, so SQLite copies the bytes
        // before returning; the buffer need not outlive the call. A nil base address (an
        // empty string) would bind NULL, so empty text binds a literal instead.
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
          return csqlite_bind_text(handle, index, "", 0)
        }
        guard bytes.count <= Int(Int32.max) else { return SQLITE_TOOBIG }
        return csqlite_bind_text(
          handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
          Int32(bytes.count))
      }
    }
    guard result == SQLITE_OK else { throw database.error(result) }
  }
}

/// The current row of a running statement; valid only inside the row callback.
struct SQLiteRow {
  fileprivate let handle: OpaquePointer

  /// Whether the column is SQL NULL.
  func isNull(at column: Int32) -> Bool {
    sqlite3_column_type(handle, column) == SQLITE_NULL
  }

  /// The column as an integer (SQLite converts other types; NULL is 0).
  func integer(at column: Int32) -> Int64 {
    sqlite3_column_int64(handle, column)
  }

  /// The column as a double (SQLite converts other types; NULL is 0).
  func real(at column: Int32) -> Double {
    sqlite3_column_double(handle, column)
  }

  /// The column as text, or `nil` for NULL. Bytes that are not valid UTF-8 (a file written
  /// by another program) become U+FFFD instead of failing.
  func text(at column: Int32) -> String? {
    // SAFETY: the pointer stays valid until the next step, reset or type conversion of
    // this column; it is copied into a String at once. `column_bytes` is read after
    // `column_text`, as SQLite's documentation requires.
    guard let bytes = sqlite3_column_text(handle, column) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }
}
