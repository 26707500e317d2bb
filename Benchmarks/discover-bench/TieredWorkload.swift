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
  }

  func run() throws -> Result {
    let index = DiscoverIndex()
    var writer = try index.makeWriter()
    let start = Measurement.now()
    _ = try IndexingWorkload.forEachBatch(of: options, size: Self.batchSize) { batch in
      try writer.add(contentsOf: batch)
      try writer.publish()
      progress?.update(
        "Tiered: \(TextFormatting.grouped(writer.documentCount)) documents published, \(index.statistics.segments) segments"
      )
    }
    writer.waitForMerges()
    let streamSeconds = Double(Measurement.now() - start) / 1e9
    var tiered: [Double] = []
    var one: [Double] = []
    for pass in 0..<(Self.passes + 1) {
      for query in queries {
        // The first pass warms both indexes up (their lexicons, filters and factors).
        let tieredTime = try Self.time {
          _ = try index.search(query.text, in: query.tab, limit: query.limit)
        }
        let oneTime = try Self.time {
          _ = try single.search(query.text, in: query.tab, limit: query.limit)
        }
        if pass > 0 {
          tiered.append(tieredTime)
          one.append(oneTime)
        }
      }
    }
    func percentile(_ values: [Double], _ fraction: Double) -> Double {
      let sorted = values.sorted()
      return sorted.isEmpty
        ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
    return Result(
      segments: index.statistics.segments, streamSeconds: streamSeconds,
      p50Ratio: percentile(tiered, 0.5) / max(percentile(one, 0.5), 1e-9),
      p99Ratio: percentile(tiered, 0.99) / max(percentile(one, 0.99), 1e-9))
  }

  private static func time(_ body: () throws -> Void) rethrows -> Double {
    let start = Measurement.now()
    try body()
    return Double(Measurement.now() - start)
  }
}
