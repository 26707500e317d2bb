import Foundation

/// Small measuring helpers.
enum Measurement {
  /// Nanoseconds on the monotonic clock.
  @inline(__always)
  static func now() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
  }

  /// The value at quantile `q` (0...1) of sorted values, by nearest rank.
  static func percentile(_ sorted: [Double], _ q: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
  }

  /// The median of a few values.
  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
  }

  /// The process's peak resident set size (VmHWM), in bytes, or 0 where unknown.
  static func peakResidentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return 0
    }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      let digits = line.filter(\.isNumber)
      return (Int(digits) ?? 0) * 1024
    }
    return 0
  }
}

/// Latency percentiles of one workload, in microseconds.
struct LatencySummary {
  var queries: Int
  var p50: Double
  var p95: Double
  var p99: Double

  init(microseconds: [Double]) {
    let sorted = microseconds.sorted()
    queries = sorted.count
    p50 = Measurement.percentile(sorted, 0.50)
    p95 = Measurement.percentile(sorted, 0.95)
    p99 = Measurement.percentile(sorted, 0.99)
  }
}
