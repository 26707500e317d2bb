import DiscoverSearch
import Foundation

/// `discover events EVENTS.jsonl --index DIR`: records an event file into the index
/// directory's trending state.
struct EventsCommand {
  /// How many of the first bad lines are listed under `--skip-bad-lines`.
  static let listedIssueCount = 5
  /// Events recorded under one lock at a time.
  static let batchSize = 10_000

  /// The command's settings.
  var options: EventsOptions

  /// Reads the events, records them and saves the state; nothing is saved when a bad line
  /// stops the command.
  ///
  /// - Throws: ``CommandError`` for a missing file or index, a bad line (without
  ///   `--skip-bad-lines`), or a damaged trending state file.
  func run(console: Console) throws(CommandError) {
    try FileChecks.requireFile(
      options.eventsPath, role: "event file",
      hints: ["Give a JSON Lines file of events; README.md's \"Event format\" lists the fields."])
    let trending = try TrendingStateFile.open(
      indexDirectory: options.indexDirectory, now: options.now)
    var report = TrendingRecordReport()
    var batch: [ContentEvent] = []
    batch.reserveCapacity(Self.batchSize)
    let loaded: EventLoadReport
    do {
      loaded = try ContentEventLoader.forEachEvent(
        at: URL(fileURLWithPath: options.eventsPath),
        policy: options.skipsBadLines ? .skip : .stop
      ) { event in
        batch.append(event)
        if batch.count == Self.batchSize {
          report.add(try trending.record(contentsOf: batch))
          batch.removeAll(keepingCapacity: true)
        }
      }
      report.add(try trending.record(contentsOf: batch))
    } catch let error as SearchError where error.code == .invalidArgument {
      throw CommandError.failure(
        TextFormatting.removingAdvice(
          " Fix the line, or record with the skip policy", from: error.message),
        hints: [
          CommandError.badLineHint(
            error.message,
            otherwise:
              "Fix the line, or add --skip-bad-lines to skip bad lines, count them and record the rest. Nothing was recorded."
          )
        ], code: CommandError.Code(error.code))
    } catch let error as SearchError {
      throw CommandError(error, context: "cannot read the event file")
    } catch {
      throw CommandError.failure("cannot read the event file \(options.eventsPath): \(error)")
    }
    try TrendingStateFile.save(trending, indexDirectory: options.indexDirectory)
    write(report, loaded, console: console)
  }

  private func write(_ report: TrendingRecordReport, _ loaded: EventLoadReport, console: Console) {
    for issue in loaded.issues.prefix(Self.listedIssueCount) {
      console.warn("\(TextFormatting.singleLine(options.eventsPath)), \(issue)")
    }
    if loaded.issueCount > Self.listedIssueCount {
      console.warn(
        "\(TextFormatting.grouped(loaded.issueCount - Self.listedIssueCount)) more bad lines skipped"
      )
    }
    if options.writesJSON {
      var writer = JSONWriter(capacity: 256)
      writer.beginObject()
      writer.field("events", loaded.eventCount)
      writer.field("counted", report.counted)
      writer.field("duplicates", report.duplicates)
      writer.field("tooOld", report.tooOld)
      writer.field("badLines", loaded.issueCount)
      writer.endObject()
      writer.newline()
      console.output.write(writer.string)
      return
    }
    var text = "Recorded \(TextFormatting.counted(loaded.eventCount, "event")) into "
    text +=
      "\(TextFormatting.singleLine(TrendingStateFile.path(inIndexDirectory: options.indexDirectory)))\n"
    text += "  \(TextFormatting.grouped(report.counted)) counted, "
    text += "\(TextFormatting.grouped(report.duplicates)) repeats within their window, "
    text += "\(TextFormatting.grouped(report.tooOld)) too old to count"
    if loaded.issueCount > 0 {
      text += ", \(TextFormatting.counted(loaded.issueCount, "bad line")) skipped"
    }
    console.output.write(text + "\n")
  }
}

/// The trending state file the CLI keeps next to an index: `DIR/trending.dstrend`, written by
/// `discover events` and read by `discover trending`.
enum TrendingStateFile {
  /// The file's path for the index in `indexDirectory`.
  static func path(inIndexDirectory indexDirectory: String) -> String {
    URL(fileURLWithPath: indexDirectory, isDirectory: true)
      .appendingPathComponent(TrendingContent.stateFileName).path
  }

  /// Opens the index and its trending state (empty when none was recorded), with the clock
  /// at `now` (or the current time).
  ///
  /// - Throws: ``CommandError`` for a missing or damaged index or state file.
  static func open(indexDirectory: String, now: Date?) throws(CommandError) -> TrendingContent {
    let index = try FileChecks.openIndex(at: indexDirectory)
    let path = path(inIndexDirectory: indexDirectory)
    let startOver =
      "To start over, delete it (the events recorded in it are lost): rm -f \(TextFormatting.shellQuoted(path))"
    if FileChecks.entry(at: path) == .directory {
      throw CommandError.failure(
        "\(path) is a directory; the trending state must be a file", hints: [startOver],
        code: .invalidArgument)
    }
    let clock: @Sendable () -> Date
    if let now { clock = { now } } else { clock = { Date() } }
    do {
      return try TrendingContent.open(
        at: URL(fileURLWithPath: indexDirectory, isDirectory: true), index: index, clock: clock)
    } catch  where error.code == .corruptIndex {
      var error = error
      error.message = TextFormatting.removingAdvice("; delete ", from: error.message)
      throw CommandError(error, context: "the trending state is damaged", hints: [startOver])
    } catch {
      throw CommandError(error, context: "cannot read the trending state", hints: [startOver])
    }
  }

  /// Saves the state into the index directory.
  static func save(_ trending: TrendingContent, indexDirectory: String) throws(CommandError) {
    do {
      try trending.save(to: URL(fileURLWithPath: indexDirectory, isDirectory: true))
    } catch {
      throw CommandError(
        error, context: "cannot save the trending state",
        hints: ["Check that the index directory is writable."])
    }
  }
}
