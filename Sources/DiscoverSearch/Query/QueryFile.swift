import Foundation

/// One query of a query file: a search or a completion request, one JSON object a line, as
/// `discover search --queries FILE` and `discover-bench --queries FILE` read them.
///
/// As a line: `{"kind":"search","q":"dance challenge","tab":"top","limit":10}` or
/// `{"kind":"suggest","q":"danc","limit":10}`. `tab` defaults to `top` and `limit` to 10;
/// `"prefix":true` marks a search as typed so far (its last word also matches the words it
/// begins, ``MatchingOptions/asYouType``). Unknown fields are ignored.
package struct QuerySpec: Sendable, Hashable {
  /// Whether a query is a search or a completion request.
  package enum Kind: String, Sendable, Hashable, CaseIterable {
    /// A full search, returning typed results for a tab.
    case search
    /// Completions for a prefix the user is typing.
    case suggest
  }

  /// The limit when a line gives none.
  package static let defaultLimit = 10
  /// The largest limit a query may ask for; larger pages are what cursors are for.
  package static let maximumLimit = DiscoverIndex.maximumSearchLimit

  /// Whether this is a search or a completion request.
  package var kind: Kind
  /// The query text (`q` in the file): search terms, or the prefix to complete.
  package var text: String
  /// The tab a search runs in.
  package var tab: SearchTab
  /// How many results or completions to return, 1 to ``maximumLimit``.
  package var limit: Int
  /// Whether a search is as-you-type input: its last word also matches the words it begins.
  package var isPrefix: Bool

  /// Creates a query.
  ///
  /// - Precondition: `limit` is between 1 and ``maximumLimit``.
  package init(
    kind: Kind, text: String, tab: SearchTab = .top, limit: Int = QuerySpec.defaultLimit,
    isPrefix: Bool = false
  ) {
    precondition(
      (1...Self.maximumLimit).contains(limit),
      "QuerySpec limit must be between 1 and \(Self.maximumLimit), got \(limit)")
    self.kind = kind
    self.text = text
    self.tab = tab
    self.limit = limit
    self.isPrefix = isPrefix
  }

  /// How a search of this line matches words: as you type when ``isPrefix``.
  package var matching: MatchingOptions {
    isPrefix ? .asYouType : MatchingOptions()
  }

  /// Decodes one query line.
  ///
  /// - Throws: ``SearchError`` with code ``SearchError/Code/invalidQuery`` whose message says
  ///   what is wrong: invalid JSON, not an object, a missing or unknown `kind`, a missing `q`,
  ///   an unknown `tab` (the message lists the valid ones), or a `limit` that is not an
  ///   integer from 1 to ``maximumLimit``.
  /// - Complexity: O(*n*) in the length of the line.
  package init(jsonLine: String) throws {
    var parser = JSONParser()
    var bytes = Array(jsonLine.utf8)
    if bytes.last == 0x0A { bytes.removeLast() }
    do {
      self = try bytes.withUnsafeBufferPointer { buffer throws(QueryLineError) in
        try QuerySpec.decode(jsonLine: buffer, parser: &parser)
      }
    } catch {
      throw SearchError(.invalidQuery, error.message)
    }
  }

  /// The query as one query-file line, without a line feed.
  ///
  /// `tab` is written for searches, and for completions only when it is not `top`, so that
  /// decoding the line gives back an equal query.
  package var jsonLine: String {
    var writer = JSONWriter(capacity: 64)
    write(to: &writer)
    return writer.string
  }

  /// Writes the query as one JSON object (a query-file line without its line feed).
  package func write(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("kind", kind.rawValue)
    writer.field("q", text)
    if kind == .search || tab != .top { writer.field("tab", tab.rawValue) }
    writer.field("limit", limit)
    if isPrefix { writer.field("prefix", true) }
    writer.endObject()
  }

  // MARK: Decoding

  static let validTabs = SearchTab.allCases.map(\.rawValue).joined(separator: ", ")
  static let validKinds = Kind.allCases.map(\.rawValue).joined(separator: " or ")

  /// Decodes one query line held in `bytes`, reusing `parser`'s buffers.
  static func decode(
    jsonLine bytes: UnsafeBufferPointer<UInt8>, parser: inout JSONParser
  ) throws(QueryLineError) -> QuerySpec {
    let value: JSONValue
    do {
      value = try parser.parse(bytes)
    } catch {
      throw QueryLineError("invalid JSON: \(error)")
    }
    guard case .object = value else {
      throw QueryLineError(
        "not a JSON object (each line must be one object, such as {\"kind\":\"search\",\"q\":\"dance\"})"
      )
    }
    let kind: Kind
    switch value["kind"] {
    case nil, .null?:
      throw QueryLineError("missing kind (expected \(validKinds))")
    case .string(let name)?:
      guard let known = Kind(rawValue: name) else {
        throw QueryLineError("unknown kind \(quotedQueryValue(name)) (expected \(validKinds))")
      }
      kind = known
    default:
      throw QueryLineError("kind must be a string: \(validKinds)")
    }
    let text: String
    switch value["q"] {
    case nil, .null?: throw QueryLineError("missing q (the query text)")
    case .string(let string)?: text = string
    default: throw QueryLineError("q must be a string")
    }
    var tab = SearchTab.top
    switch value["tab"] {
    case nil, .null?: break
    case .string(let name)?:
      guard let known = SearchTab(rawValue: name) else {
        throw QueryLineError(
          "unknown tab \(quotedQueryValue(name)) (expected one of: \(validTabs))")
      }
      tab = known
    default:
      throw QueryLineError("tab must be a string, one of: \(validTabs)")
    }
    var limit = defaultLimit
    if let limitValue = value["limit"], !limitValue.isNull {
      guard let exact = limitValue.exactInt, (1...maximumLimit).contains(exact) else {
        let shown: String
        switch limitValue {
        case .int(let number): shown = String(number)
        case .double(let number): shown = String(number)
        default: shown = limitValue.kindDescription
        }
        throw QueryLineError("limit must be an integer from 1 to \(maximumLimit), got \(shown)")
      }
      limit = exact
    }
    var isPrefix = false
    switch value["prefix"] {
    case nil, .null?: break
    case .bool(let flag)?: isPrefix = flag
    default: throw QueryLineError("prefix must be true or false")
    }
    return QuerySpec(kind: kind, text: text, tab: tab, limit: limit, isPrefix: isPrefix)
  }
}

/// Why one query line was rejected.
struct QueryLineError: Error, Hashable {
  /// What is wrong, for a person to read.
  var message: String

  init(_ message: String) { self.message = message }
}

/// Reads and writes query files: JSON Lines of ``QuerySpec``, one search or completion request a line.
///
/// Lines may end in LF or CRLF, line 1 may start with a UTF-8 byte order mark, the last line
/// needs no line feed, and blank lines are skipped. The first bad line stops the read with an
/// error naming the file and the line, since a benchmark or batch run over a partly-read query
/// file would measure the wrong work.
package enum QueryFile {
  /// Reads the query file at `url`.
  ///
  /// - Returns: the queries in file order.
  /// - Throws: ``SearchError`` with code ``SearchError/Code/io`` when the file cannot be
  ///   read, or ``SearchError/Code/invalidQuery`` naming the file, the line and the problem at
  ///   the first bad line.
  /// - Complexity: O(*n*) in the file's size.
  package static func load(at url: URL) throws -> [QuerySpec] {
    var specs: [QuerySpec] = []
    var parser = JSONParser()
    try JSONLinesReader.forEachLine(inFileAt: url) { lineNumber, line in
      try handle(line, number: lineNumber, source: url.path, parser: &parser, into: &specs)
    }
    return specs
  }

  /// Reads queries from JSON Lines held in memory.
  ///
  /// - Parameters:
  ///   - bytes: the query file's contents, UTF-8.
  ///   - sourceName: what to call the input in error messages.
  /// - Returns: the queries in order.
  /// - Throws: ``SearchError`` with code ``SearchError/Code/invalidQuery`` naming the line
  ///   and the problem at the first bad line.
  /// - Complexity: O(*n*) in `bytes.count`.
  package static func parse(_ bytes: [UInt8], sourceName: String = "query file") throws
    -> [QuerySpec]
  {
    var specs: [QuerySpec] = []
    var parser = JSONParser()
    try JSONLinesReader.forEachLine(in: bytes) { lineNumber, line in
      try handle(line, number: lineNumber, source: sourceName, parser: &parser, into: &specs)
    }
    return specs
  }

  /// Reads queries from JSON Lines text.
  ///
  /// - Throws: ``SearchError`` with code ``SearchError/Code/invalidQuery`` naming the line
  ///   and the problem at the first bad line.
  /// - Complexity: O(*n*) in the length of `text`.
  package static func parse(_ text: String, sourceName: String = "query file") throws -> [QuerySpec]
  {
    try parse(Array(text.utf8), sourceName: sourceName)
  }

  /// The queries as a query file: one line each, every line ending in a line feed.
  ///
  /// - Complexity: O(*n*) in the total size of the queries.
  package static func jsonLines(for specs: [QuerySpec]) -> String {
    String(decoding: encode(specs), as: UTF8.self)
  }

  /// Writes the queries to a query file at `url`, replacing it atomically.
  ///
  /// - Throws: ``SearchError`` with code ``SearchError/Code/io`` when the file cannot be
  ///   written.
  /// - Complexity: O(*n*) in the total size of the queries.
  package static func write(_ specs: [QuerySpec], to url: URL) throws {
    do {
      try Data(encode(specs)).write(to: url, options: .atomic)
    } catch {
      throw SearchError(
        .io, "cannot write the query file \(url.path): \(error.localizedDescription)",
        underlying: error)
    }
  }

  static func encode(_ specs: [QuerySpec]) -> [UInt8] {
    var writer = JSONWriter(capacity: specs.count * 64)
    for spec in specs {
      spec.write(to: &writer)
      writer.newline()
    }
    return writer.bytes
  }

  private static func handle(
    _ line: JSONLinesLine, number: Int, source: String, parser: inout JSONParser,
    into specs: inout [QuerySpec]
  ) throws {
    switch line {
    case .blank:
      return
    case .tooLong(let byteCount):
      throw SearchError(
        .invalidQuery,
        "\(source), line \(number): line of \(byteCount) bytes is longer than the limit of "
          + "\(JSONLinesReader.defaultMaximumLineLength >> 20) MiB")
    case .text(let bytes):
      do {
        specs.append(try QuerySpec.decode(jsonLine: bytes, parser: &parser))
      } catch {
        throw SearchError(.invalidQuery, "\(source), line \(number): \(error.message)")
      }
    }
  }
}

/// `text` in double quotes, shortened to 80 characters so that a huge bad value stays readable.
private func quotedQueryValue(_ text: String) -> String {
  let limit = 80
  if text.count <= limit { return "\"\(text)\"" }
  return "\"\(text.prefix(limit))...\""
}
