import DiscoverSearch
import Foundation

/// `discover search "QUERY" --index DIR`: one search, as text or JSON.
struct SearchCommand {
  /// The command's settings.
  var options: SearchOptions

  /// Opens the index, searches it, records the search when a user is given, and writes the
  /// page.
  ///
  /// With ``SearchOptions/userID`` the first page's search is recorded in the index
  /// directory's ``AnalyticsFile`` (query, user, total hits, now) before anything is written;
  /// later pages (with a cursor) are the same search and are not recorded again.
  ///
  /// - Throws: ``CommandError`` when the index is missing or damaged, the cursor does not
  ///   belong to this query, tab and matching, or the analytics file is damaged or cannot be
  ///   written.
  func run(console: Console) throws(CommandError) {
    let index = try FileChecks.openIndex(at: options.indexDirectory)
    let recordsSearch = options.userID != nil && options.cursor == nil
    let analytics =
      recordsSearch
      ? try AnalyticsFile.openForRecording(indexDirectory: options.indexDirectory) : nil
    let response: SearchResponse
    do {
      response = try index.search(
        options.query, in: options.tab, limit: options.limit,
        after: options.cursor.map(SearchCursor.init(token:)),
        matching: options.matchesLastWordAsPrefix ? .asYouType : MatchingOptions(),
        explain: options.explainsScores)
    } catch let error as SearchError where error.code == .invalidQuery {
      throw CommandError(
        error,
        hints: [
          "--cursor takes the token printed after a page of the same query, tab and --prefix setting; leave it out for the first page."
        ])
    } catch {
      throw CommandError.failure(
        "the search failed: \((error as? SearchError)?.message ?? "\(error)")",
        code: CommandError.Code(of: error))
    }
    if let analytics, let userID = options.userID {
      try record(response, by: userID, in: analytics)
    }
    if options.writesJSON {
      var writer = JSONWriter(capacity: 1024)
      response.writeJSON(query: options.query, to: &writer)
      writer.newline()
      console.output.write(writer.string)
    } else {
      console.output.write(
        response.humanText(
          query: options.query, nextPageCommand: { commandLine(after: $0) },
          noResultsHints: noResultsHints(for: response, in: index)))
    }
  }

  /// What to try when a search as typed finds nothing and its last word may be unfinished:
  /// the same search as you type (`--prefix`) when that finds something, and the first
  /// completion of the text (`discover suggest`). Empty when the search found something,
  /// already matched as you type, or is a later page.
  func noResultsHints(for response: SearchResponse, in index: DiscoverIndex) -> [String] {
    guard response.totalHits == 0, !response.query.isEmpty, !options.matchesLastWordAsPrefix,
      options.cursor == nil
    else { return [] }
    var hints: [String] = []
    if let asYouType = try? index.search(
      options.query, in: options.tab, limit: 1, matching: .asYouType),
      asYouType.totalHits > 0
    {
      var prefixSearch = self
      prefixSearch.options.matchesLastWordAsPrefix = true
      hints.append(
        "  \(TextFormatting.counted(asYouType.totalHits, "result")) with the last word as the start of a word: \(prefixSearch.commandLine())"
      )
    }
    if let completion = try? index.suggestions(forPrefix: options.query, limit: 1).first {
      let suggest = TextFormatting.commandLine(
        "discover suggest", argument: options.query,
        options: ["--index", TextFormatting.shellQuoted(options.indexDirectory)])
      hints.append("  Completions, first \(TextFormatting.quoted(completion.text)): \(suggest)")
    }
    return hints
  }

  /// Records the search behind `response` as `userID`'s, now, with its total hit count.
  private func record(
    _ response: SearchResponse, by userID: String, in analytics: QueryAnalytics
  ) throws(CommandError) {
    let path = AnalyticsFile.path(inIndexDirectory: options.indexDirectory)
    do {
      try analytics.recordSearch(
        SearchEvent(query: options.query, userID: userID, resultCount: response.totalHits))
    } catch let error as SearchError where error.code == .invalidArgument {
      throw CommandError(
        error, context: "cannot record the search for --user \(userID)",
        hints: ["Give a shorter user id, such as u1."])
    } catch let error as SearchError {
      throw CommandError(
        error, context: "cannot record the search in \(path)",
        hints: ["Check that the index directory is writable, or leave out --user."])
    } catch {
      throw CommandError.failure("cannot record the search in \(path): \(error)")
    }
  }

  /// The command line that runs this search again, for the page after `cursor` when one is
  /// given.
  func commandLine(after cursor: SearchCursor? = nil) -> String {
    var words = ["--index", TextFormatting.shellQuoted(options.indexDirectory)]
    if options.tab != .top { words += ["--tab", options.tab.rawValue] }
    if options.limit != 10 { words += ["--limit", String(options.limit)] }
    if let cursor { words += ["--cursor", TextFormatting.shellQuoted(cursor.token)] }
    // The cursor belongs to the matching it was made with: prefix pages need --prefix.
    if options.matchesLastWordAsPrefix { words.append("--prefix") }
    if options.writesJSON { words.append("--json") }
    if options.explainsScores { words.append("--explain") }
    return TextFormatting.commandLine("discover search", argument: options.query, options: words)
  }
}

/// `discover search --index DIR --queries FILE`: every search of a query file, as JSON lines
/// (the batch format in `discover help search`) or one summary line per query.
struct BatchSearchCommand {
  /// The command's settings.
  var options: BatchSearchOptions

  /// Reads the query file, opens the index and runs each search in file order.
  ///
  /// Each search is timed alone, in this process, around the library call only (not the
  /// output), on the monotonic clock.
  ///
  /// - Throws: ``CommandError`` when the query file is missing or has a bad line, or the
  ///   index is missing or damaged.
  func run(console: Console) throws(CommandError) {
    let queries = try FileChecks.loadQueries(
      at: options.queryFile, command: "search",
      example: #"{"kind":"search","q":"dance","tab":"top","limit":10}"#)
    let index = try FileChecks.openIndex(at: options.indexDirectory)

    var writer = JSONWriter(capacity: 4096)
    var latencies: [Int] = []
    var suggestCount = 0
    for (position, query) in queries.enumerated() {
      guard query.kind == .search else {
        suggestCount += 1
        continue
      }
      guard (1...DiscoverIndex.maximumSearchLimit).contains(query.limit) else {
        throw CommandError.failure(
          "query \(position + 1) of \(options.queryFile) asks for \(query.limit) results; the limit is 1 to \(DiscoverIndex.maximumSearchLimit)",
          code: .invalidQuery)
      }
      let (response, microseconds) = try FileChecks.timedQuery(
        query, number: position + 1, of: options.queryFile
      ) {
        try index.search(
          query.text, in: query.tab, limit: query.limit,
          matching: query.isPrefix || options.matchesPrefixes ? .asYouType : MatchingOptions(),
          explain: options.explainsScores)
      }
      latencies.append(microseconds)
      if options.writesJSON {
        writer.removeAll()
        response.writeBatchJSON(query: query.text, microseconds: microseconds, to: &writer)
        writer.newline()
        console.output.write(writer.string)
      } else {
        console.output.writeLine(
          Self.summaryLine(
            number: position + 1, query: query, response: response, microseconds: microseconds))
        if options.explainsScores {
          console.output.write(Self.explainedResults(response))
        }
      }
    }
    if !options.writesJSON {
      console.output.writeLine(Self.totalsLine(latencies))
    }
    if suggestCount > 0 {
      console.note(
        "skipped \(TextFormatting.grouped(suggestCount)) suggest quer\(suggestCount == 1 ? "y" : "ies") of \(options.queryFile): run them with discover suggest --index \(TextFormatting.shellQuoted(options.indexDirectory)) --queries \(TextFormatting.shellQuoted(options.queryFile))"
      )
    }
  }

  /// One query's summary: `  3. "dance" [videos] 1,204 hits, 10 shown, 42 µs; first: [video] Dance Tutorial`.
  static func summaryLine(
    number: Int, query: QuerySpec, response: SearchResponse, microseconds: Int
  ) -> String {
    var line =
      "\(String(number).leftPadding(to: 4)). \(TextFormatting.quoted(query.text)) [\(query.tab.rawValue)] "
    line +=
      "\(TextFormatting.counted(response.totalHits, "hit")), "
    line += "\(response.results.count) shown, \(TextFormatting.grouped(microseconds)) µs"
    if let first = response.results.first {
      line += "; first: [\(first.type.rawValue)] \(TextFormatting.singleLine(first.title))"
    }
    return line
  }

  /// Every result of a summarized query with the breakdown of its score, for `--explain`:
  /// `[video] Dance Tutorial · score 1.234 · id v3` under the summary line, the breakdown
  /// 4 spaces further in.
  static func explainedResults(_ response: SearchResponse) -> String {
    // The summary's number column ("   3. ") is 6 wide: results start under the query.
    let indent = 6
    var text = ""
    for result in response.results {
      text += String(repeating: " ", count: indent)
      text += "[\(result.type.rawValue)] \(TextFormatting.singleLine(result.title)) · "
      text +=
        "score \(TextFormatting.fixed(result.score, 3)) · id \(TextFormatting.singleLine(result.id))\n"
      if let explanation = result.explanation {
        text += TextFormatting.indented(explanation.description, by: indent + 4)
      }
    }
    return text
  }

  /// The closing line: how many searches ran and their latency percentiles.
  static func totalsLine(_ latencies: [Int]) -> String {
    TextFormatting.latencyTotals(latencies, singular: "search", plural: "searches")
  }
}
