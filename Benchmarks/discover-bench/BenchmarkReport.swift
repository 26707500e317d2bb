import DiscoverSearch
import Foundation

/// The benchmark's results, as a table for people and JSON for tools (contract 3).
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

  var documentsPerSecond: Double { indexSeconds > 0 ? Double(documents) / indexSeconds : 0 }

  var table: String {
    func number(_ value: Double, _ digits: Int = 1) -> String {
      String(format: "%.\(digits)f", value)
    }
    let megabytes = { (bytes: Int) in number(Double(bytes) / 1_048_576) + " MB" }
    let percentiles = { (latency: LatencySummary) in
      "\(number(latency.p50)) / \(number(latency.p95)) / \(number(latency.p99)) µs"
    }
    var suggestRows = ""
    if let suggest, let suggestNoTypos {
      suggestRows = """

        | suggest queries        | \(suggest.queries) |
        | suggest p50 / p95 / p99 | \(percentiles(suggest)) |
        | no-typo p50 / p95 / p99 | \(percentiles(suggestNoTypos)) |
        """
    }
    return """

      | measure                | value |
      |------------------------|-------|
      | documents              | \(documents) |
      | index time             | \(number(indexSeconds, 3)) s (commit \(number(commitSeconds, 3)) s) |
      | indexing rate          | \(number(documentsPerSecond, 0)) docs/s |
      | index memory           | \(megabytes(memoryBytes)) (\(number(Double(memoryBytes) / Double(max(documents, 1)))) bytes/doc) |
      | with suggestions etc.  | \(megabytes(memoryBytesWithSuggestions)) (\(number(Double(memoryBytesWithSuggestions) / Double(max(documents, 1)))) bytes/doc) |
      | peak RSS               | \(megabytes(peakRSSBytes)) |
      | index file             | \(megabytes(diskBytes)) |
      | open time              | \(number(openSeconds, 3)) s |
      | suggest prepare time   | \(number(suggestPrepareSeconds, 3)) s |
      | search queries         | \(search.queries) |
      | search p50 / p95 / p99 | \(percentiles(search)) |
      | text-only p50 / p95 / p99 | \(percentiles(searchTextOnly)) |\(suggestRows)
      """
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
    writer.endObject()
    writer.newline()
    return writer.string
  }
}
