import Foundation

/// What ``CorpusLoader`` does with a bad line.
public enum CorpusErrorPolicy: Sendable, Hashable {
  /// Throw at the first bad line: a ``SearchError`` with code
  /// ``SearchError/Code/invalidDocument`` whose message names the file, the line number and
  /// the reason.
  case stop
  /// Skip each bad line, count it and keep going; the report lists what was skipped.
  case skip
}

/// Reads corpus files: JSON Lines, one document per line, in the corpus format that
/// ``Document/init(jsonLine:)`` decodes and README.md's "Corpus format" lists field by field.
///
/// The file is streamed in 4 MiB chunks, so a corpus of any size is read in constant memory
/// (apart from the set of ids seen, which detects duplicates across the whole file). Lines
/// may end in LF or CRLF; line 1 may start with a UTF-8 byte order mark; the last line needs
/// no line feed; blank lines are skipped silently. Each other line either becomes a
/// ``Document`` or is reported as a ``CorpusIssue``: invalid JSON or UTF-8, not an object, a
/// missing or unknown `type`, a missing or repeated `id` (ids are unique across all types,
/// effects included; the later line is the bad one), a missing required field, a field of the wrong
/// type, a negative count, or a bad date. Nothing is dropped silently. A line longer than
/// 16 MiB stops the load under either policy, as soon as its first 16 MiB are read: a file
/// with such lines is not JSON Lines (`/dev/zero` has no line feed at all). See
/// ``Document/init(jsonLine:)`` for the field rules.
///
/// ```swift
/// let report = try CorpusLoader.forEachDocument(at: url, policy: .skip) { document in
///   try writer.add(document)
/// }
/// print("\(report.documentCount) documents, \(report.issueCount) bad lines")
/// ```
public enum CorpusLoader {
  /// Calls `body` with each document of the corpus file at `url`, in file order.
  ///
  /// - Parameters:
  ///   - url: a JSON Lines file in the corpus format.
  ///   - policy: whether to stop at the first bad line or skip bad lines.
  ///   - body: receives each valid document; an error it throws stops the load and is
  ///     rethrown unchanged.
  /// - Returns: counts of documents and blank lines, and the issues found.
  /// - Throws: ``SearchError`` with code ``SearchError/Code/io`` when the file cannot be
  ///   opened or read, with code ``SearchError/Code/invalidDocument`` at the first bad line
  ///   under ``CorpusErrorPolicy/stop`` and at a line longer than 16 MiB under either
  ///   policy; and whatever `body` throws.
  /// - Complexity: O(*n*) in the file's size; memory O(chunk + the number of documents) for
  ///   the ids.
  public static func forEachDocument(
    at url: URL, policy: CorpusErrorPolicy = .stop, _ body: (Document) throws -> Void
  ) throws -> CorpusLoadReport {
    try forEachDocument(
      at: url, policy: policy, chunkSize: JSONLinesReader.defaultChunkSize,
      maximumLineLength: JSONLinesReader.defaultMaximumLineLength, body)
  }

  /// Reads every document of the corpus file at `url` into an array.
  ///
  /// - Parameters:
  ///   - url: a JSON Lines file in the corpus format.
  ///   - policy: whether to stop at the first bad line or skip bad lines.
  /// - Returns: the valid documents in file order, and the report.
  /// - Throws: ``SearchError`` as ``forEachDocument(at:policy:_:)`` does.
  /// - Complexity: O(*n*) in the file's size.
  public static func loadDocuments(
    at url: URL, policy: CorpusErrorPolicy = .stop
  ) throws -> (documents: [Document], report: CorpusLoadReport) {
    var documents: [Document] = []
    let report = try forEachDocument(at: url, policy: policy) { documents.append($0) }
    return (documents, report)
  }

  /// Calls `body` with each document of a corpus held in memory, in order.
  ///
  /// - Parameters:
  ///   - bytes: the corpus as UTF-8 JSON Lines.
  ///   - policy: whether to stop at the first bad line or skip bad lines.
  ///   - body: receives each valid document; an error it throws is rethrown unchanged.
  /// - Returns: counts of documents and blank lines, and the issues found.
  /// - Throws: ``SearchError`` with code ``SearchError/Code/invalidDocument`` at the first
  ///   bad line under ``CorpusErrorPolicy/stop`` and at a line longer than 16 MiB under
  ///   either policy (the message calls the source "JSON Lines input"); and whatever `body`
  ///   throws.
  /// - Complexity: O(*n*) in `bytes.count`.
  public static func forEachDocument(
    inJSONLines bytes: [UInt8], policy: CorpusErrorPolicy = .stop,
    _ body: (Document) throws -> Void
  ) throws -> CorpusLoadReport {
    try forEachDocument(
      inJSONLines: bytes, policy: policy, chunkSize: JSONLinesReader.defaultChunkSize,
      maximumLineLength: JSONLinesReader.defaultMaximumLineLength, body)
  }

  /// Reads every document of a corpus held in memory into an array.
  ///
  /// - Parameters:
  ///   - text: the corpus as JSON Lines.
  ///   - policy: whether to stop at the first bad line or skip bad lines.
  /// - Returns: the valid documents in order, and the report.
  /// - Throws: ``SearchError`` as ``forEachDocument(inJSONLines:policy:_:)`` does.
  /// - Complexity: O(*n*) in the length of `text`.
  public static func loadDocuments(
    fromJSONLines text: String, policy: CorpusErrorPolicy = .stop
  ) throws -> (documents: [Document], report: CorpusLoadReport) {
    var documents: [Document] = []
    let report = try forEachDocument(inJSONLines: Array(text.utf8), policy: policy) {
      documents.append($0)
    }
    return (documents, report)
  }

  // MARK: Internal, with the reader's sizes exposed for tests

  static func forEachDocument(
    at url: URL, policy: CorpusErrorPolicy, chunkSize: Int, maximumLineLength: Int,
    _ body: (Document) throws -> Void
  ) throws -> CorpusLoadReport {
    var state = CorpusLoadState(policy: policy, sourceName: url.path)
    let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
    state.expectedByteCount = (attributes?[.size] as? NSNumber)?.intValue
    try JSONLinesReader.forEachLine(
      inFileAt: url, chunkSize: chunkSize, maximumLineLength: maximumLineLength
    ) { lineNumber, line in
      try state.handle(line, number: lineNumber, body)
    }
    return state.report
  }

  static func forEachDocument(
    inJSONLines bytes: [UInt8], policy: CorpusErrorPolicy, chunkSize: Int,
    maximumLineLength: Int, _ body: (Document) throws -> Void
  ) throws -> CorpusLoadReport {
    var state = CorpusLoadState(policy: policy, sourceName: "JSON Lines input")
    state.expectedByteCount = bytes.count
    try JSONLinesReader.forEachLine(
      in: bytes, chunkSize: chunkSize, maximumLineLength: maximumLineLength
    ) { lineNumber, line in
      try state.handle(line, number: lineNumber, body)
    }
    return state.report
  }
}

/// The loader's state across the lines of one corpus.
private struct CorpusLoadState {
  let policy: CorpusErrorPolicy
  /// The file's path (or a name for in-memory input), for error messages.
  let sourceName: String
  var report = CorpusLoadReport()
  var decoder = DocumentDecoder()
  /// The line where each id was first used.
  var firstLineByID: [String: Int] = [:]
  /// The size of the whole input when known, to size `firstLineByID` once instead of
  /// regrowing it (and rehashing every id) twenty times on the way to a million documents.
  var expectedByteCount: Int?
  /// Bytes of the lines read so far, for that estimate.
  var bytesRead = 0

  init(policy: CorpusErrorPolicy, sourceName: String) {
    self.policy = policy
    self.sourceName = sourceName
  }

  mutating func handle(
    _ line: JSONLinesLine, number: Int, _ body: (Document) throws -> Void
  ) throws {
    report.lineCount += 1
    let document: Document
    switch line {
    case .blank:
      report.blankLineCount += 1
      return
    case .tooLong(let byteCount):
      // Under either policy: the reader stopped, and what follows is not JSON Lines.
      throw SearchError(
        .invalidDocument,
        "\(sourceName), line \(number): \(CorpusIssue.Reason.lineTooLong(bytes: byteCount)). "
          + "A line this long stops the load under either policy.")
    case .text(let bytes):
      bytesRead += bytes.count + 1
      if number == Self.linesBeforeEstimate { reserveIDCapacity() }
      do {
        document = try decoder.decode(jsonLine: bytes)
      } catch {
        try reject(CorpusIssue(line: number, reason: error.reason))
        return
      }
    }
    let id = document.id
    if let firstLine = firstLineByID.updateValue(number, forKey: id) {
      // Keep the first line's number for later duplicates too.
      firstLineByID[id] = firstLine
      try reject(CorpusIssue(line: number, reason: .duplicateID(id, firstLine: firstLine)))
      return
    }
    report.recordDocument(of: document.kind)
    try body(document)
  }

  /// After this many lines, the average line length predicts the number of documents.
  static let linesBeforeEstimate = 1_000

  mutating func reserveIDCapacity() {
    guard let expectedByteCount, bytesRead > 0 else { return }
    // 10% headroom for lines shorter than the first thousand; capped so that a misleading
    // start cannot reserve gigabytes (1 << 26 ids is about 64 million documents).
    let estimate =
      Double(expectedByteCount) / Double(bytesRead) * Double(Self.linesBeforeEstimate) * 1.1
    let capacity = Int(min(estimate, Double(1 << 26)))
    if capacity > firstLineByID.count * 2 { firstLineByID.reserveCapacity(capacity) }
  }

  mutating func reject(_ issue: CorpusIssue) throws {
    switch policy {
    case .stop:
      throw SearchError(
        .invalidDocument,
        "\(sourceName), line \(issue.line): \(issue.reason). Fix the line, or load with the "
          + "skip policy to skip bad lines and count them.")
    case .skip:
      report.record(issue)
    }
  }
}
