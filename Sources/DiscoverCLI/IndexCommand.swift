import DiscoverSearch
import Foundation

/// `discover index CORPUS.jsonl --out DIR`: reads a corpus, builds the index and saves it.
struct IndexCommand {
  /// How many of the first bad lines are listed under `--skip-bad-lines`; the rest are counted.
  static let listedIssueCount = 5

  /// The command's settings.
  var options: IndexOptions
  /// Documents between two progress updates: frequent enough to show life on a large corpus
  /// (a million documents take tens of seconds), rare enough to cost nothing.
  var progressInterval = 50_000

  /// Runs the command: progress on a terminal, warnings and errors on standard error, the
  /// summary on standard output.
  ///
  /// - Throws: ``CommandError`` when the corpus is missing or has a bad line (without
  ///   `--skip-bad-lines`), or the index cannot be built or saved.
  func run(console: Console) throws(CommandError) {
    let corpusPath = options.corpusPath
    try FileChecks.requireFile(
      corpusPath, role: "corpus file",
      hints: ["Give a JSON Lines corpus file, such as corpus/youtube_trending.jsonl."])
    if FileChecks.entry(at: options.outputDirectory) == .file {
      throw CommandError.failure(
        "\(options.outputDirectory) is a file; --out takes a directory (it is created if needed)",
        code: .invalidArgument)
    }

    let clock = ContinuousClock()
    let start = clock.now
    let progress = ProgressLine(sink: console.errorOutput)
    var writer = IndexWriter()
    var rejectedDocuments: [String] = []
    let report: CorpusLoadReport
    do {
      var nextUpdate = progressInterval
      report = try CorpusLoader.forEachDocument(
        at: URL(fileURLWithPath: corpusPath), policy: options.skipsBadLines ? .skip : .stop
      ) { document in
        do {
          try writer.add(document)
        } catch let error as SearchError where options.skipsBadLines {
          // The loader checks what the writer does; should a rule exist only in the writer,
          // the document is skipped like a bad line.
          rejectedDocuments.append(error.message)
        }
        if writer.documentCount >= nextUpdate {
          progress.update(
            "Reading \(corpusPath): \(TextFormatting.grouped(writer.documentCount)) documents")
          nextUpdate += progressInterval
        }
      }
    } catch let error as SearchError where error.code == .invalidDocument {
      progress.clear()
      // The loader's advice names its API ("the skip policy"); say it in this tool's terms.
      throw CommandError.failure(
        TextFormatting.removingAdvice(
          " Fix the line, or load with the skip policy", from: error.message),
        hints: [
          CommandError.badLineHint(
            error.message,
            otherwise:
              "Fix the line, or add --skip-bad-lines to skip bad lines, count them and index the rest."
          )
        ], code: CommandError.Code(error.code))
    } catch let error as SearchError {
      progress.clear()
      throw CommandError(error, context: "cannot read the corpus")
    } catch {
      progress.clear()
      throw CommandError.failure("cannot read the corpus \(corpusPath): \(error)")
    }
    let loaded = clock.now

    progress.update(
      "Building the index of \(TextFormatting.grouped(writer.documentCount)) documents")
    let index: DiscoverIndex
    do {
      index = try writer.makeIndex()
    } catch {
      progress.clear()
      throw CommandError.failure(
        "cannot build the index: \(Self.describe(error))", code: CommandError.Code(of: error))
    }
    let built = clock.now

    progress.update("Saving the index to \(options.outputDirectory)")
    let directory = URL(fileURLWithPath: options.outputDirectory, isDirectory: true)
    let diskBytes: Int
    do {
      try index.save(to: directory)
      diskBytes = try DiscoverIndex.fileSize(at: directory)
    } catch {
      progress.clear()
      throw CommandError.failure(
        "cannot save the index to \(options.outputDirectory): \(Self.describe(error))",
        hints: ["Check that the directory is writable and the disk has room."],
        code: CommandError.Code(of: error))
    }
    let saved = clock.now
    progress.clear()

    reportSkipped(report, rejectedDocuments: rejectedDocuments, console: console)
    if index.documentCount == 0 {
      console.warn("\(corpusPath) holds no documents; the saved index is empty")
    }
    console.output.write(
      summary(
        index: index, diskBytes: diskBytes,
        timings: (
          total: start.duration(to: saved), reading: start.duration(to: loaded),
          building: loaded.duration(to: built), saving: built.duration(to: saved)
        )))
  }

  private func reportSkipped(
    _ report: CorpusLoadReport, rejectedDocuments: [String], console: Console
  ) {
    let skipped = report.issueCount + rejectedDocuments.count
    guard skipped > 0 else { return }
    var text =
      "warning: skipped \(TextFormatting.counted(skipped, "bad line")) of \(options.corpusPath):\n"
    let listed =
      report.issues.prefix(Self.listedIssueCount).map(\.description)
      + rejectedDocuments.prefix(max(0, Self.listedIssueCount - report.issues.count))
    for line in listed { text += "  \(TextFormatting.singleLine(line))\n" }
    if skipped > listed.count {
      text += "  ... and \(TextFormatting.grouped(skipped - listed.count)) more\n"
    }
    console.warnRaw(text)
  }

  private func summary(
    index: DiscoverIndex, diskBytes: Int,
    timings: (total: Duration, reading: Duration, building: Duration, saving: Duration)
  ) -> String {
    let count = index.documentCount
    var text =
      "Indexed \(TextFormatting.counted(count, "document")) from \(options.corpusPath) into \(options.outputDirectory)\n"
    let rows = [
      ("videos", SearchResultType.video), ("users", .user), ("hashtags", .hashtag),
      ("sounds", .sound),
    ].map { ($0.0, TextFormatting.grouped(index.documentCount(of: $0.1))) }
    let numberWidth = rows.map(\.1.count).max() ?? 0
    for (name, number) in rows {
      text += "  \(name.padding(to: 9)) \(number.leftPadding(to: numberWidth))\n"
    }
    let totalSeconds = TextFormatting.secondsValue(timings.total)
    let rate = totalSeconds > 0 ? Int((Double(count) / totalSeconds).rounded()) : 0
    text +=
      "Time: \(TextFormatting.seconds(timings.total)) (read and analyze \(TextFormatting.seconds(timings.reading)), "
      + "build \(TextFormatting.seconds(timings.building)), save \(TextFormatting.seconds(timings.saving))), "
      + "\(TextFormatting.grouped(rate)) documents/s\n"
    text +=
      "Size: \(TextFormatting.bytes(diskBytes)) on disk, \(TextFormatting.bytes(index.memoryBytes)) in memory\n"
    return text
  }

  private static func describe(_ error: any Error) -> String {
    (error as? SearchError)?.message ?? "\(error)"
  }
}

/// A status line on a terminal, rewritten in place with a carriage return; silent when the
/// sink is not a terminal, so logs and pipes get no progress noise.
package final class ProgressLine {
  private let sink: any TextSink
  private var isShowing = false

  package init(sink: any TextSink) {
    self.sink = sink
  }

  /// Replaces the line's text.
  package func update(_ text: String) {
    guard sink.isTerminal else { return }
    // \r returns to the line's start; ESC [ K (ANSI "erase in line") clears what a longer
    // previous text left behind.
    sink.write("\r\u{1B}[K\(text)...")
    sink.flush()
    isShowing = true
  }

  /// Erases the line, leaving the cursor where it began.
  package func clear() {
    guard isShowing else { return }
    sink.write("\r\u{1B}[K")
    sink.flush()
    isShowing = false
  }
}
