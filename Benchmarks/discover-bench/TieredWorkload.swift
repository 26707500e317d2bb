import DiscoverCLI
import DiscoverSearch
import Foundation

/// The tiered index of DESIGN contract 3's `live` section: the benchmark's documents
/// streamed into an empty index in publishes of 1,000, merged by the default policy on its
/// own task (``MergePolicy``), then searched beside the single segment the benchmark built,
/// query by query in the same run, so the machine's drift falls on both alike.
struct TieredWorkload {
  static let batchSize = 1_000
  /// Times each query is run on each index.
  static let passes = 3

  let options: BenchmarkOptions
  /// The index of the same documents in one segment.
  let single: DiscoverIndex
  let queries: [QuerySpec]
  var progress: ProgressLine?

  struct Result {
    /// The segments the policy left.
    var segments: Int
    /// Streaming every document in publishes of 1,000, and waiting for the last merge.
    var streamSeconds: Double
    /// The tiered index's search latency over the single segment's, at the median and the
    /// 99th percentile.
    var p50Ratio: Double
    var p99Ratio: Double
    /// The tiered index with every tenth document deleted (marked in its segments) over a
    /// single segment of the documents left, at the median.
    var deletedP50Ratio: Double
  }

  /// Every how many documents streamed one is deleted for ``Result/deletedP50Ratio``.
  static let deletedEvery = 10

  func run() throws -> Result {
    let index = DiscoverIndex()
    var writer = try index.makeWriter()
    let start = Measurement.now()
    var doomed: [String] = []
    _ = try IndexingWorkload.forEachBatch(of: options, size: Self.batchSize) { batch in
      try writer.add(contentsOf: batch)
      try writer.publish()
      for (offset, document) in batch.enumerated()
      where (writer.documentCount - batch.count + offset) % Self.deletedEvery == 0 {
        doomed.append(document.id)
      }
      progress?.update(
        "Tiered: \(TextFormatting.grouped(writer.documentCount)) documents published, \(index.statistics.segments) segments"
      )
    }
    writer.waitForMerges()
    let streamSeconds = Double(Measurement.now() - start) / 1e9
    let segments = index.statistics.segments
    let (p50Ratio, p99Ratio) = try compare(index, with: single)

    // Every tenth document deleted: marked in the segments, against one segment of the rest.
    progress?.update("Tiered: deleting \(TextFormatting.grouped(doomed.count)) documents")
    for id in doomed { writer.delete(id: id) }
    try writer.publish()
    let deletedSet = Set(doomed)
    var rest = IndexWriter()
    _ = try IndexingWorkload.forEachBatch(of: options, size: 10_000) { batch in
      try rest.add(contentsOf: batch.filter { !deletedSet.contains($0.id) })
    }
    let (deletedP50Ratio, _) = try compare(index, with: try rest.makeIndex())
    return Result(
      segments: segments, streamSeconds: streamSeconds, p50Ratio: p50Ratio, p99Ratio: p99Ratio,
      deletedP50Ratio: deletedP50Ratio)
  }

  /// The search latency of `index` over `other`'s at the median and the 99th percentile,
  /// the queries run on one then the other, pass after pass.
  private func compare(_ index: DiscoverIndex, with other: DiscoverIndex) throws -> (
    p50: Double, p99: Double
  ) {
    var first: [Double] = []
    var second: [Double] = []
    for pass in 0..<(Self.passes + 1) {
      for (number, query) in queries.enumerated() {
        // The first pass warms both indexes up (their lexicons, filters and factors). The
        // index searched first alternates: the second search of a query finds what the two
        // share (the query's analysis, the workspace) in the cache.
        var firstTime = 0.0
        var secondTime = 0.0
        let searchesFirst = (pass + number) % 2 == 0
        if !searchesFirst {
          secondTime = try Self.time {
            _ = try other.search(query.text, in: query.tab, limit: query.limit)
          }
        }
        firstTime = try Self.time {
          _ = try index.search(query.text, in: query.tab, limit: query.limit)
        }
        if searchesFirst {
          secondTime = try Self.time {
            _ = try other.search(query.text, in: query.tab, limit: query.limit)
          }
        }
        if pass > 0 {
          first.append(firstTime)
          second.append(secondTime)
        }
      }
    }
    func percentile(_ values: [Double], _ fraction: Double) -> Double {
      let sorted = values.sorted()
      return sorted.isEmpty
        ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
    return (
      percentile(first, 0.5) / max(percentile(second, 0.5), 1e-9),
      percentile(first, 0.99) / max(percentile(second, 0.99), 1e-9)
    )
  }

  private static func time(_ body: () throws -> Void) rethrows -> Double {
    let start = Measurement.now()
    try body()
    return Double(Measurement.now() - start)
  }
}
