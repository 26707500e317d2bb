import DiscoverSearch
import Foundation

/// `discover suggest "PREFIX" --index DIR`: the completions of one prefix, as text or JSON.
struct SuggestCommand {
  /// The command's settings.
  var options: SuggestCommandOptions

  /// Opens the index (and, with a user, the analytics file when it exists), completes the
  /// prefix and writes the list.
  ///
  /// The completion structures are built before the clock starts, so `micros` is the time
  /// of one completion as a running service sees it, not the one-time build.
  ///
  /// - Throws: ``CommandError`` when the index is missing or damaged, or the analytics file
  ///   is damaged.
  func run(console: Console) throws(CommandError) {
    let index = try FileChecks.openIndex(at: options.indexDirectory)
    let analytics =
      options.userID == nil
      ? nil : try AnalyticsFile.openIfPresent(indexDirectory: options.indexDirectory)
    index.prepareSuggestions()
    let clock = ContinuousClock()
    let suggestions: [Suggestion]
    let start = clock.now
    do {
      suggestions = try index.suggestions(
        forPrefix: options.prefix, limit: options.limit, userID: options.userID,
        analytics: analytics,
        options: SuggestOptions(
          typoTolerance: options.toleratesTypos ? TypoTolerance() : .disabled))
    } catch {
      throw CommandError.failure(
        "completing \"\(options.prefix)\" failed: \((error as? SearchError)?.message ?? "\(error)")",
        code: CommandError.Code(of: error))
    }
    let microseconds = TextFormatting.microseconds(start.duration(to: clock.now))
    if options.writesJSON {
      var writer = JSONWriter(capacity: 1024)
      suggestions.writeJSON(prefix: options.prefix, microseconds: microseconds, to: &writer)
      writer.newline()
      console.output.write(writer.string)
    } else {
      console.output.write(suggestions.humanText(prefix: options.prefix))
    }
  }
}

/// `discover suggest --index DIR --queries FILE`: every suggest line of a query file, as JSON
/// lines (the batch format in `discover help suggest`) or one summary line per query.
struct BatchSuggestCommand {
  /// The command's settings.
  var options: BatchSuggestOptions

  /// Reads the query file, opens the index and completes each suggest line in file order,
  /// from the index alone.
  ///
  /// Each completion is timed alone, in this process, around the library call only (not the
  /// output), on the monotonic clock, after the completion structures are built. Search
  /// lines are skipped with one note on standard error.
  ///
  /// - Throws: ``CommandError`` when the query file is missing or has a bad line (or a
  ///   suggest line asks for more than ``SuggestCommandOptions/maximumLimit``), or the index
  ///   is missing or damaged.
  func run(console: Console) throws(CommandError) {
    let queries = try FileChecks.loadQueries(
      at: options.queryFile, command: "suggest",
      example: #"{"kind":"suggest","q":"danc","limit":10}"#)
    for (position, query) in queries.enumerated()
    where query.kind == .suggest && query.limit > SuggestCommandOptions.maximumLimit {
      throw CommandError.failure(
        "query \(position + 1) of \(options.queryFile) asks for \(query.limit) suggestions; the limit is 1 to \(SuggestCommandOptions.maximumLimit)",
        code: .invalidQuery)
    }
    let index = try FileChecks.openIndex(at: options.indexDirectory)
    index.prepareSuggestions()
    let suggestOptions = SuggestOptions(
      typoTolerance: options.toleratesTypos ? TypoTolerance() : .disabled)

    var writer = JSONWriter(capacity: 4096)
    var latencies: [Int] = []
    var searchCount = 0
    for (position, query) in queries.enumerated() {
      guard query.kind == .suggest else {
        searchCount += 1
        continue
      }
      let (suggestions, microseconds) = try FileChecks.timedQuery(
        query, number: position + 1, of: options.queryFile
      ) {
        try index.suggestions(forPrefix: query.text, limit: query.limit, options: suggestOptions)
      }
      latencies.append(microseconds)
      if options.writesJSON {
        writer.removeAll()
        suggestions.writeJSON(prefix: query.text, microseconds: microseconds, to: &writer)
        writer.newline()
        console.output.write(writer.string)
      } else {
        console.output.writeLine(
          Self.summaryLine(
            number: position + 1, query: query, suggestions: suggestions,
            microseconds: microseconds))
      }
    }
    if !options.writesJSON {
      console.output.writeLine(
        TextFormatting.latencyTotals(
          latencies, singular: "suggest query", plural: "suggest queries"))
    }
    if searchCount > 0 {
      console.note(
        "skipped \(TextFormatting.grouped(searchCount)) search quer\(searchCount == 1 ? "y" : "ies") of \(options.queryFile): run them with discover search --index \(TextFormatting.shellQuoted(options.indexDirectory)) --queries \(TextFormatting.shellQuoted(options.queryFile))"
      )
    }
  }

  /// One query's summary: `  2. "danc" 10 suggestions, 42 µs; first: [query] dance`.
  static func summaryLine(
    number: Int, query: QuerySpec, suggestions: [Suggestion], microseconds: Int
  ) -> String {
    var line =
      "\(String(number).leftPadding(to: 4)). \(TextFormatting.quoted(query.text)) "
    line += "\(TextFormatting.counted(suggestions.count, "suggestion")), "
    line += "\(TextFormatting.grouped(microseconds)) µs"
    if let first = suggestions.first {
      line += "; first: [\(first.kind.rawValue)] \(TextFormatting.singleLine(first.text))"
    }
    return line
  }
}
