// CSQLite: a small shim over the system SQLite (libsqlite3).
//
// Swift imports <sqlite3.h> itself cleanly; what it cannot import are the destructor macros
// `SQLITE_TRANSIENT` and `SQLITE_STATIC` (function pointers cast from integers). The
// functions below bind text and blobs with `SQLITE_TRANSIENT`, so SQLite copies the bytes
// before the call returns and Swift's buffers need not outlive it.
// Only `Trending/SQLiteDatabase.swift` and `Trending/SQLiteStatement.swift` use this module;
// no SQLite type reaches the public API.
#ifndef CSQLITE_H
#define CSQLITE_H

#include <sqlite3.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Binds `length` bytes of UTF-8 text (which may contain NUL bytes) to parameter `index`,
/// copying them. Returns an SQLite result code.
int csqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length);

/// Binds `length` bytes to parameter `index` as a blob, copying them. Returns an SQLite
/// result code.
int csqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length);

#ifdef __cplusplus
}
#endif

#endif
