import DiscoverCLI
import DiscoverSearch
import Foundation
import SyntheticCorpus

/// `discover-bench`: indexes a corpus, runs a query mix, checks every answer and reports
/// speed and size (README.md, "Benchmark").
func runBenchmark(_ options: BenchmarkOptions) throws -> Bool {
  let corpusName =
    options.documentCount.map { "synthetic, \($0) documents, seed \(options.seed)" }
    ?? (options.corpus ?? BenchmarkOptions.embeddedCorpus).lastPathComponent
  print("DiscoverSearch benchmark: \(corpusName)")
  // Progress on standard error when it is a terminal, updated only outside the clock.
  let progress = ProgressLine(sink: FileDescriptorSink.standardError())
  defer { progress.clear() }

  let indexing = try IndexingWorkload(options: options, progress: progress).run()
  let memoryBytes = indexing.index.memoryBytes

  // Save, reopen, and search the reopened index: what a service does at startup.
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("discover-bench-\(getpid())")
  defer { try? FileManager.default.removeItem(at: directory) }
  progress.update("Saving and reopening the index")
  try indexing.index.save(to: directory)
  let diskBytes = try DiscoverIndex.fileSize(at: directory)
  let openStart = Measurement.now()
  let index = try DiscoverIndex.open(at: directory)
  let openSeconds = Double(Measurement.now() - openStart) / 1e9
  // The completion structures an index file holds (format 9) are in memory from the open
  // on; counted apart, they join what the workloads build below.
  let loadedSuggestionBytes =
    index.memoryBreakdown.first { $0.part == "suggestion dictionaries" }?.bytes ?? 0
  let reopenedBytes = index.memoryBytes - loadedSuggestionBytes

  var queries: [QuerySpec]
  // Generated prefixes of title words must find completions; a query file says nothing of
  // where its prefixes come from.
  var prefixesOfCorpusWords = Set<Int>()
  if let url = options.queries {
    queries = try QueryFile.load(at: url)
  } else {
    let searches = indexing.queryMix.makeQueries(count: options.queryCount, seed: options.seed)
    let completions = indexing.queryMix.makeSuggestQueries(
      count: options.suggestCount, seed: options.seed)
    queries = searches + completions
    for number in indexing.queryMix.positionsOfTitleWordStarts(in: completions.map(\.text))
    where SuggestWorkload.mustFindCompletions(prefixOfTitleWord: completions[number].text) {
      prefixesOfCorpusWords.insert(number)
    }
  }
  if let url = options.writeQueries { try QueryFile.write(queries, to: url) }
  let searchQueries = queries.filter { $0.kind == .search }
  let suggestQueries = queries.filter { $0.kind == .suggest }

  // Completions run first: search builds the same suggestion structures on first use (for
  // prefix terms and typo correction), which would hide their cost from the prepare timing.
  let suggest = try SuggestWorkload(
    index: index, queries: suggestQueries, prefixesOfCorpusWords: prefixesOfCorpusWords,
    passes: options.passes, verifies: options.verifies, progress: progress
  ).run()

  // Each query runs with the default, blended ranking and, right after, ranked by text
  // alone (popularity and recency weights at zero), to show what the blend costs.
  var workload = SearchWorkload(
    index: index, queries: searchQueries, passes: options.passes, verifies: options.verifies)
  workload.comparisonRanking = .textOnly
  workload.progress = progress
  let search = try workload.run()
  let textOnlyLatency = search.comparisonLatency!
  let peakRSS = Measurement.peakResidentBytes()
  let trending = try options.eventCount.map { count in
    try TrendingWorkload(options: options, eventCount: count, progress: progress).run()
  }
  var live: LiveWorkload.Result?
  if options.measuresLive {
    progress.update("Opening the saved index afresh")
    live = try LiveWorkload(
      directory: directory, firstSearch: searchQueries.first?.text ?? "dance",
      firstPrefix: suggestQueries.first?.text ?? "da"
    ).run()
    progress.update("Tiered: streaming the documents in publishes of 1,000")
    live?.tiered = try TieredWorkload(
      options: options, single: index, queries: searchQueries, progress: progress
    ).run()
  }

  let service =
    try options.measuresService
    ? ServiceWorkload(index: index, queries: searchQueries, progress: progress).run() : nil

  let report = BenchmarkReport(
    corpus: corpusName, documents: indexing.documentCount, indexSeconds: indexing.seconds,
    commitSeconds: indexing.commitSeconds,
    memoryBytes: memoryBytes, peakRSSBytes: peakRSS, diskBytes: diskBytes,
    openSeconds: openSeconds, search: search.latency, searchTextOnly: textOnlyLatency,
    suggestPrepareSeconds: suggest.prepareSeconds,
    // The reopened index, which holds the completion structures and on which the Top
    // tab's exact name filters are built, counts fewer bytes than the index just built
    // that `memoryBytes` reports: add those structures and filters to it.
    memoryBytesWithSuggestions: memoryBytes + (index.memoryBytes - reopenedBytes),
    suggest: suggestQueries.isEmpty ? nil : suggest.latency,
    suggestNoTypos: suggestQueries.isEmpty ? nil : suggest.comparisonLatency, trending: trending,
    live: live, service: service)
  progress.clear()
  print(report.table)
  if indexing.corpusIssues > 0 { print("corpus lines skipped: \(indexing.corpusIssues)") }
  if options.verifies {
    print(
      "checked: \(search.checkedQueries) of \(searchQueries.count) queries against the reference counts, "
        + "\(search.emptyQueries) found nothing, \(search.failures.count) failures")
    print(
      "checked: \(suggestQueries.count) suggest queries (\(prefixesOfCorpusWords.count) prefixes of corpus words), "
        + "\(suggest.emptyQueries) found nothing (\(suggest.comparisonEmptyQueries) without typo tolerance), "
        + "\(suggest.failures.count) failures")
  }
  if options.showsMemory {
    print("index memory by part:")
    for (part, bytes) in index.memoryBreakdown {
      let name = part.padding(toLength: 34, withPad: " ", startingAt: 0)
      let mebibytes = String(format: "%8.1f MiB", Double(bytes) / 1_048_576)
      let perDocument = String(
        format: "%6.1f bytes/doc", Double(bytes) / Double(max(indexing.documentCount, 1)))
      print("  \(name) \(mebibytes)  \(perDocument)")
    }
  }
  if options.slowestCount > 0 {
    print("slowest search queries (median µs):")
    let order = search.medians.indices.sorted { search.medians[$0] > search.medians[$1] }
    // The slowest, then a sample around the median.
    let middle = order.count / 2
    let around = order[
      max(
        0, middle - options.slowestCount / 2)..<min(order.count, middle + options.slowestCount / 2)]
    for number in Array(order.prefix(options.slowestCount)) + Array(around) {
      let query = searchQueries[number]
      print(
        String(format: "  %9.1f  ", search.medians[number]) + "\(query.tab.rawValue)  \(query.text)"
      )
    }
    print("slowest suggest queries (median µs, typo tolerance on / off):")
    let suggestOrder = suggest.medians.indices.sorted { suggest.medians[$0] > suggest.medians[$1] }
    for number in suggestOrder.prefix(options.slowestCount) {
      print(
        String(
          format: "  %9.1f %9.1f  ", suggest.medians[number], suggest.comparisonMedians[number])
          + suggestQueries[number].text)
    }
  }
  if let url = options.json {
    do {
      try Data(report.json.utf8).write(to: url)
    } catch {
      throw SearchError(.io, "cannot write \(url.path): \(error.localizedDescription)")
    }
  }
  for failure in search.failures.prefix(20) + suggest.failures.prefix(20) {
    FileHandle.standardError.write(Data("check failed: \(failure)\n".utf8))
  }
  return search.failures.isEmpty && suggest.failures.isEmpty
}

/// Writes `message` on standard error: as `discover-bench: MESSAGE`, or with `--json` on the
/// command line as one JSON line `{"error":{"code":...,"message":...}}`, as the CLI does. A
/// bad command line (`isUsage`) is followed by the usage, or in JSON a hint to `--help`.
func reportError(code: String, _ message: String, isUsage: Bool = false) {
  let text =
    CommandLine.arguments.dropFirst().contains("--json")
    ? CommandError.jsonLine(
      code: code, message: message,
      hints: isUsage ? ["Run discover-bench --help for the flags."] : [])
    : "discover-bench: \(message)\n" + (isUsage ? "\n\(BenchmarkOptions.usage)\n" : "")
  FileHandle.standardError.write(Data(text.utf8))
}

let options: BenchmarkOptions
do {
  options = try BenchmarkOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch let error as SearchError {
  reportError(code: error.code.name, error.message, isUsage: true)
  exit(2)
} catch {
  reportError(code: "failed", "\(error)", isUsage: true)
  exit(2)
}
do {
  if try !runBenchmark(options) {
    reportError(
      code: "checkFailed", "answers failed their checks; the timings above are not valid")
    exit(1)
  }
} catch let error as SearchError {
  reportError(code: error.code.name, error.message)
  exit(2)
} catch {
  reportError(code: "failed", "\(error)")
  exit(2)
}
