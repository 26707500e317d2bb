import DiscoverSearch
import Foundation

/// Checks of the paths a command reads and writes, with messages that say what to fix.
enum FileChecks {
  /// What is at `path`.
  enum Entry {
    case missing
    case file
    case directory
  }

  /// What is at `path`, following symbolic links.
  static func entry(at path: String) -> Entry {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return .missing
    }
    return isDirectory.boolValue ? .directory : .file
  }

  /// Reads a query file (JSON Lines of searches and completions) for the batch mode of
  /// `command` ("search" or "suggest"), whose help describes the format.
  ///
  /// - Parameter example: One line of the file, shown when the file is missing.
  /// - Throws: ``CommandError`` when the file is missing, unreadable or has a bad line.
  static func loadQueries(at path: String, command: String, example: String)
    throws(CommandError) -> [QuerySpec]
  {
    try requireFile(
      path, role: "query file",
      hints: ["Give a JSON Lines file of queries, one such as \(example) a line."])
    do {
      return try QueryFile.load(at: URL(fileURLWithPath: path))
    } catch let error as SearchError {
      throw CommandError(
        error, hints: ["Fix the line: see discover help \(command) for the format."])
    } catch {
      throw CommandError.failure("cannot read the query file \(path): \(error)")
    }
  }

  /// Runs one query of a query file, timed alone on the monotonic clock around `body` only.
  ///
  /// - Returns: What `body` returned and its time in microseconds.
  /// - Throws: ``CommandError`` naming the query's line and text when `body` fails.
  static func timedQuery<Result>(
    _ query: QuerySpec, number: Int, of file: String, _ body: () throws -> Result
  ) throws(CommandError) -> (result: Result, microseconds: Int) {
    let clock = ContinuousClock()
    let start = clock.now
    do {
      let result = try body()
      return (result, TextFormatting.microseconds(start.duration(to: clock.now)))
    } catch {
      throw CommandError.failure(
        "query \(number) of \(file) (\"\(query.text)\") failed: \((error as? SearchError)?.message ?? "\(error)")",
        code: CommandError.Code(of: error))
    }
  }

  /// Throws unless `path` is an existing file; `role` names it in messages ("corpus file").
  static func requireFile(_ path: String, role: String, hints: [String] = []) throws(CommandError) {
    switch entry(at: path) {
    case .file:
      return
    case .missing:
      throw CommandError.failure("\(role) not found: \(path)", hints: hints, code: .notFound)
    case .directory:
      throw CommandError.failure(
        "\(path) is a directory; give the path of the \(role)", hints: hints,
        code: .invalidArgument)
    }
  }

  /// Throws unless `directory` is an existing directory, with the message ``openIndex(at:)``
  /// gives: for commands that read only what sits next to the index, not the index itself.
  static func requireIndexDirectory(_ directory: String) throws(CommandError) {
    let rebuild =
      "Build it with: discover index CORPUS.jsonl --out \(TextFormatting.shellQuoted(directory))"
    switch entry(at: directory) {
    case .missing:
      throw CommandError.failure(
        "no index directory at \(directory)", hints: [rebuild], code: .notFound)
    case .file:
      throw CommandError.failure(
        "\(directory) is a file; --index takes the directory that discover index wrote",
        hints: [rebuild], code: .invalidArgument)
    case .directory:
      return
    }
  }

  /// Opens the index saved in `directory`, turning the library's errors into messages that
  /// say how to get a usable index.
  ///
  /// - Throws: ``CommandError`` of kind ``CommandError/Kind/failure`` when the directory is
  ///   missing, holds no index, or holds a damaged one.
  static func openIndex(at directory: String) throws(CommandError) -> DiscoverIndex {
    try readIndex(at: directory) { try DiscoverIndex.open(at: $0) }
  }

  /// Reads the newest commit in `directory` with every check the library has
  /// (``DiscoverSearch/DiscoverIndex/verify(at:)``), with the messages of ``openIndex(at:)``.
  ///
  /// - Returns: The statistics of the commit verified.
  /// - Throws: ``CommandError`` of kind ``CommandError/Kind/failure`` when the directory is
  ///   missing, holds no index, or holds a damaged one.
  /// - Complexity: O(*n*) in the bytes of the commit.
  static func verifyIndex(at directory: String) throws(CommandError) -> IndexStatistics {
    try readIndex(at: directory, DiscoverIndex.verify(at:))
  }

  /// Calls `read` with the URL of the index directory `directory`, turning the library's
  /// errors into messages that say how to get a usable index: one place for the advice
  /// whichever way a command reads the index.
  private static func readIndex<Result>(
    at directory: String, _ read: (URL) throws -> Result
  ) throws(CommandError) -> Result {
    try requireIndexDirectory(directory)
    let rebuild =
      "Build it with: discover index CORPUS.jsonl --out \(TextFormatting.shellQuoted(directory))"
    do {
      return try read(URL(fileURLWithPath: directory, isDirectory: true))
    } catch var error as SearchError where error.code == .corruptIndex {
      // The library ends its message with the advice to rebuild; the hint gives it once,
      // with the command.
      error.message = TextFormatting.removingAdvice("; rebuild ", from: error.message)
      throw CommandError(
        error, context: "the index in \(directory) is damaged or was written by another version",
        hints: [
          "Rebuild it with: discover index CORPUS.jsonl --out \(TextFormatting.shellQuoted(directory))"
        ])
    } catch let error as SearchError {
      throw CommandError(error, context: "cannot read the index in \(directory)", hints: [rebuild])
    } catch {
      throw CommandError.failure(
        "cannot open the index in \(directory): \(error)", hints: [rebuild])
    }
  }
}

/// The query analytics file the CLI keeps next to an index: `DIR/analytics.sqlite`, written
/// by `discover search --user` and read by `discover suggest --user` and
/// `discover trending searches`.
///
/// Every command finds the file here, so the name and the error messages live in one place.
enum AnalyticsFile {
  /// The file's name inside the index directory.
  static let fileName = "analytics.sqlite"

  /// The file's path for the index in `indexDirectory`.
  static func path(inIndexDirectory indexDirectory: String) -> String {
    URL(fileURLWithPath: indexDirectory, isDirectory: true)
      .appendingPathComponent(fileName).path
  }

  /// Opens the file for the index in `indexDirectory`, creating it when missing, to record
  /// searches.
  ///
  /// - Throws: ``CommandError`` of kind ``CommandError/Kind/failure`` when the path is a
  ///   directory, or the file is damaged or cannot be read or written.
  static func openForRecording(indexDirectory: String) throws(CommandError) -> QueryAnalytics {
    try open(path(inIndexDirectory: indexDirectory))
  }

  /// Opens the file for the index in `indexDirectory` if it exists, to read what was
  /// recorded; `nil` when no search was ever recorded there.
  ///
  /// - Throws: ``CommandError`` of kind ``CommandError/Kind/failure`` when the path is a
  ///   directory, or the file is damaged or cannot be read.
  static func openIfPresent(
    indexDirectory: String, clock: @escaping @Sendable () -> Date = { Date() }
  ) throws(CommandError) -> QueryAnalytics? {
    let path = path(inIndexDirectory: indexDirectory)
    guard FileChecks.entry(at: path) != .missing else { return nil }
    return try open(path, clock: clock)
  }

  private static func open(
    _ path: String, clock: @escaping @Sendable () -> Date = { Date() }
  ) throws(CommandError) -> QueryAnalytics {
    let quoted = TextFormatting.shellQuoted(path)
    let startOver =
      "To start over, delete it (the searches recorded in it are lost): rm -f \(quoted) \(TextFormatting.shellQuoted(path + "-wal")) \(TextFormatting.shellQuoted(path + "-shm"))"
    if FileChecks.entry(at: path) == .directory {
      throw CommandError.failure(
        "\(path) is a directory; the analytics file must be a file", hints: [startOver],
        code: .invalidArgument)
    }
    do {
      return try QueryAnalytics(path: path, clock: clock)
    } catch let error as SearchError where error.code == .corruptIndex {
      throw CommandError(
        error,
        context: "the analytics file is damaged or is not a DiscoverSearch analytics database",
        hints: [startOver])
    } catch let error as SearchError {
      throw CommandError(
        error, context: "cannot use the analytics file",
        hints: ["Check that the index directory is readable and writable."])
    } catch {
      throw CommandError.failure("cannot open the analytics file \(path): \(error)")
    }
  }
}
