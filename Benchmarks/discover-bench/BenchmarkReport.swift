import DiscoverCLI
import DiscoverSearch
import Foundation

/// The benchmark's results, as a table for people and JSON for tools (README.md, "Benchmark").
struct BenchmarkReport {
  var corpus: String
  var documents: Int
  var indexSeconds: Double
  var commitSeconds: Double
  var memoryBytes: Int
  var peakRSSBytes: Int
  var diskBytes: Int
  var openSeconds: Double
  /// The default, blended ranking.
  var search: LatencySummary
  /// The same queries with popularity and recency weights at zero.
  var searchTextOnly: LatencySummary
  /// How long building the suggestion structures took.
  var suggestPrepareSeconds: Double
  /// ``memoryBytes`` of the index once the structures built on first use are built: the
  /// suggestion structures and the Top tab's exact name filters.
  var memoryBytesWithSuggestions: Int
  /// Completions with typo tolerance on (the default), or `nil` when none ran.
  var suggest: LatencySummary?
  /// The same completions with typo tolerance off.
  var suggestNoTypos: LatencySummary?
  /// The trending workload's results, with `--events N`.
  var trending: TrendingWorkload.Result?
  /// Opening and first answers, with `--live`.
  var live: LiveWorkload.Result?
  /// The service layer, with `--service`.
  var service: ServiceWorkload.Result? = nil

  var documentsPerSecond: Double { indexSeconds > 0 ? Double(documents) / indexSeconds : 0 }

  /// The results as an aligned Markdown table: counts with thousands separators, sizes in
  /// MiB (2^20 bytes), latencies in microseconds.
  var table: String {
    func number(_ value: Double, _ digits: Int = 1) -> String {
      String(format: "%.\(digits)f", value)
    }
    let perDocument = { (bytes: Int) in number(Double(bytes) / Double(max(self.documents, 1))) }
    let mebibytes = { (bytes: Int) in number(Double(bytes) / 1_048_576) + " MiB" }
    // Microseconds with one decimal and the integer part grouped: `1,055.0`.
    func micros(_ value: Double) -> String {
      let tenths = Int((value * 10).rounded())
      return "\(TextFormatting.grouped(tenths / 10)).\(abs(tenths % 10))"
    }
    let percentiles = { (latency: LatencySummary) in
      "\(micros(latency.p50)) / \(micros(latency.p95)) / \(micros(latency.p99)) µs"
    }
    var rows: [(String, String)] = [
      ("documents", TextFormatting.grouped(documents)),
      ("index time", "\(number(indexSeconds, 3)) s (commit \(number(commitSeconds, 3)) s)"),
      ("indexing rate", "\(TextFormatting.grouped(Int(documentsPerSecond.rounded()))) docs/s"),
      ("index memory", "\(mebibytes(memoryBytes)) (\(perDocument(memoryBytes)) bytes/doc)"),
      (
        "with suggestions etc.",
        "\(mebibytes(memoryBytesWithSuggestions)) (\(perDocument(memoryBytesWithSuggestions)) bytes/doc)"
      ),
      ("peak RSS", mebibytes(peakRSSBytes)),
      ("index file", mebibytes(diskBytes)),
      ("open time", "\(number(openSeconds, 3)) s"),
      ("suggest prepare time", "\(number(suggestPrepareSeconds, 3)) s"),
      ("search queries", TextFormatting.grouped(search.queries)),
      ("search p50 / p95 / p99", percentiles(search)),
      ("text-only p50 / p95 / p99", percentiles(searchTextOnly)),
    ]
    if let suggest, let suggestNoTypos {
      rows += [
        ("suggest queries", TextFormatting.grouped(suggest.queries)),
        ("suggest p50 / p95 / p99", percentiles(suggest)),
        ("no-typo p50 / p95 / p99", percentiles(suggestNoTypos)),
      ]
    }
    if let trending {
      rows += [
        ("trending events", TextFormatting.grouped(trending.events)),
        ("events recorded / s", TextFormatting.grouped(Int(trending.eventsPerSecond.rounded()))),
        ("tracked items", TextFormatting.grouped(trending.usage.trackedItems)),
        ("bytes per tracked item", number(trending.usage.bytesPerTrackedItem)),
        (
          "journal",
          "\(TextFormatting.grouped(trending.usage.journalEntries)) entries, \(mebibytes(trending.usage.journalBytes))"
        ),
        ("top-50 refresh p50 / p95 / p99", percentiles(trending.listLatency)),
        ("top-50 cached p50 / p95 / p99", percentiles(trending.cachedListLatency)),
        ("risers found in 5 min", "\(trending.risersFound) of \(trending.risersPlanted)"),
        (
          "bots / steady hits rising",
          "\(trending.botsFlaggedRising) / \(trending.steadyFlaggedRising)"
        ),
      ]
    }
    if let live {
      rows += [
        (
          "open to first search",
          "\(number(live.openMillis, 2)) ms (median of \(LiveWorkload.opens))"
        ),
        ("first completion after open", "\(number(live.firstCompletionMillis, 2)) ms"),
        (
          "publish 1,000 new documents",
          "p50 \(number(live.publish1000P50Millis, 1)) ms, slowest \(number(live.publish1000P99Millis, 1)) ms (\(LiveWorkload.publishes) runs)"
        ),
        (
          "publish 1,000 updated documents",
          "p50 \(number(live.publishUpdated1000P50Millis, 1)) ms"
        ),
        ("commit 1,000 updated documents", "p50 \(number(live.commit1000P50Millis, 1)) ms"),
        (
          "publish 100,000 count updates beside segments",
          "\(number(live.countPublishSegmentedMillis, 1)) ms"
        ),
        (
          "count updates into the writer",
          "\(TextFormatting.grouped(Int(live.countUpdatesPerSecond.rounded()))) /s"
        ),
        ("publish 100,000 count updates", "\(number(live.countPublish100kMillis, 1)) ms"),
        (
          "the same, of 100,000 distinct videos",
          "\(number(live.countPublishDistinctMillis, 1)) ms"
        ),
        (
          "first search as you type after a publish",
          "\(number(live.firstPrefixSearchAfterPublishMillis, 1)) ms"
        ),
        (
          "then the first completion",
          "\(number(live.firstCompletionAfterPublishMillis, 1)) ms"
        ),
      ]
      if let tiered = live.tiered {
        rows += [
          (
            "tiered index, streamed in 1,000s",
            "\(tiered.segments) segments, \(number(tiered.streamSeconds, 1)) s to stream and merge"
          ),
          (
            "tiered / one segment, search",
            "p50 \(number(tiered.p50Ratio, 2))x, p99 \(number(tiered.p99Ratio, 2))x"
          ),
          (
            "tiered, 10% deleted / one segment of the rest",
            "p50 \(number(tiered.deletedP50Ratio, 2))x"
          ),
        ]
      }
    }
    if let service {
      rows += [
        (
          "searches / s, 1 and 2 threads",
          "\(TextFormatting.grouped(Int(service.searchQPS1.rounded()))) and "
            + "\(TextFormatting.grouped(Int(service.searchQPS2.rounded()))) "
            + "(\(number(service.searchQPS2 / max(service.searchQPS1, 1e-9), 2))x)"
        ),
        (
          "rate limiter checks / s, 1 thread",
          "\(TextFormatting.grouped(Int(service.limiterChecksPerSecond.rounded()))) "
            + "(\(TextFormatting.grouped(service.limiterKeys)) clients)"
        ),
        (
          "result cache on a Zipf stream",
          "hit p50 \(number(service.cacheHitP50Micros, 2)) µs, hit ratio "
            + "\(number(service.cacheHitRatio * 100, 1))% "
            + "(\(TextFormatting.grouped(service.cacheRequests)) requests)"
        ),
      ]
    }
    return "\n" + Self.markdownTable(header: ("measure", "value"), rows: rows)
  }

  /// `rows` under `header` as a Markdown table whose columns line up in plain text.
  static func markdownTable(header: (String, String), rows: [(String, String)]) -> String {
    let all = [header] + rows
    let widths = (all.map(\.0.count).max() ?? 0, all.map(\.1.count).max() ?? 0)
    func padded(_ text: String, to width: Int) -> String {
      text + String(repeating: " ", count: max(0, width - text.count))
    }
    func line(_ row: (String, String)) -> String {
      "| \(padded(row.0, to: widths.0)) | \(padded(row.1, to: widths.1)) |\n"
    }
    let rule =
      "|\(String(repeating: "-", count: widths.0 + 2))|\(String(repeating: "-", count: widths.1 + 2))|\n"
    return line(header) + rule + rows.map(line).joined()
  }

  var json: String {
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("engine", "DiscoverSearch")
    writer.field("corpus", corpus)
    writer.field("docs", documents)
    writer.key("index")
    writer.beginObject()
    writer.field("seconds", indexSeconds)
    writer.field("commitSeconds", commitSeconds)
    writer.field("docsPerSecond", documentsPerSecond)
    writer.field("memoryBytes", memoryBytes)
    writer.field("memoryBytesWithSuggestions", memoryBytesWithSuggestions)
    writer.field("peakRSSBytes", peakRSSBytes)
    writer.field("diskBytes", diskBytes)
    writer.field("openSeconds", openSeconds)
    writer.endObject()
    let latencies: [(String, LatencySummary?)] = [
      ("search", search), ("searchTextOnly", searchTextOnly), ("suggest", suggest),
      ("suggestNoTypos", suggestNoTypos),
    ]
    for case (let key, let latency?) in latencies {
      writer.key(key)
      writer.beginObject()
      writer.field("queries", latency.queries)
      writer.field("p50Micros", latency.p50)
      writer.field("p95Micros", latency.p95)
      writer.field("p99Micros", latency.p99)
      writer.endObject()
    }
    writer.field("suggestPrepareSeconds", suggestPrepareSeconds)
    if let trending {
      writer.key("trending")
      writer.beginObject()
      writer.field("events", trending.events)
      writer.field("eventsPerSecond", trending.eventsPerSecond)
      writer.field("trackedItems", trending.usage.trackedItems)
      writer.field("bytesPerItem", trending.usage.bytesPerTrackedItem)
      writer.field("journalEntries", trending.usage.journalEntries)
      writer.field("journalBytes", trending.usage.journalBytes)
      writer.field("totalBytes", trending.usage.totalBytes)
      writer.field("listP50Micros", trending.listLatency.p50)
      writer.field("listP95Micros", trending.listLatency.p95)
      writer.field("listP99Micros", trending.listLatency.p99)
      writer.field("lists", trending.listLatency.queries)
      writer.field("cachedListP50Micros", trending.cachedListLatency.p50)
      writer.field("cachedListP99Micros", trending.cachedListLatency.p99)
      writer.field("risersPlanted", trending.risersPlanted)
      writer.field("risersFound", trending.risersFound)
      writer.field("botsFlaggedRising", trending.botsFlaggedRising)
      writer.field("steadyFlaggedRising", trending.steadyFlaggedRising)
      writer.field("duplicates", trending.report.duplicates)
      writer.field("tooOld", trending.report.tooOld)
      writer.endObject()
    }
    if let live {
      writer.key("live")
      writer.beginObject()
      writer.field("openMillis", live.openMillis)
      writer.field("firstCompletionMillis", live.firstCompletionMillis)
      writer.field("publish1000P50Millis", live.publish1000P50Millis)
      writer.field("publish1000P99Millis", live.publish1000P99Millis)
      writer.field("commit1000P50Millis", live.commit1000P50Millis)
      writer.field("countUpdatesPerSecond", live.countUpdatesPerSecond)
      writer.field("countPublish100kMillis", live.countPublish100kMillis)
      if let tiered = live.tiered {
        writer.field("tieredSegments", tiered.segments)
        writer.field("tieredP50Ratio", tiered.p50Ratio)
        writer.field("tieredP99Ratio", tiered.p99Ratio)
        writer.field("deletedP50Ratio", tiered.deletedP50Ratio)
      }
      writer.endObject()
    }
    if let service {
      writer.key("service")
      writer.beginObject()
      writer.field("searchQPS1", service.searchQPS1)
      writer.field("searchQPS2", service.searchQPS2)
      writer.field("limiterChecksPerSecond", service.limiterChecksPerSecond)
      writer.field("cacheHitP50Micros", service.cacheHitP50Micros)
      writer.field("cacheHitRatio", service.cacheHitRatio)
      writer.endObject()
    }
    writer.endObject()
    writer.newline()
    return writer.string
  }
}
