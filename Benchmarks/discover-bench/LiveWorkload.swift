import DiscoverSearch
import Foundation

/// The index as a service starts it (DESIGN contract 3, `--live`): opening a committed
/// directory until the first search is answered, and the first completion after an open,
/// which builds the suggestion structures. Each is the median of a few fresh opens of the
/// directory the benchmark saved.
///
/// Only these two figures of the contract's `live` section exist in this version: it has no
/// segments, publish, deletes or count updates to time, and leaves them out.
struct LiveWorkload {
  /// Fresh opens timed; the median is reported.
  static let opens = 5

  struct Result {
    /// From `DiscoverIndex.open(at:)` until the first search has returned.
    var openMillis: Double
    /// The first completion on a freshly opened index.
    var firstCompletionMillis: Double
  }

  let directory: URL
  /// The search and the prefix asked first.
  let firstSearch: String
  let firstPrefix: String

  func run() throws -> Result {
    var openMillis: [Double] = []
    var completionMillis: [Double] = []
    for _ in 0..<Self.opens {
      let start = Measurement.now()
      let index = try DiscoverIndex.open(at: directory)
      _ = try index.search(firstSearch, limit: 10)
      let searched = Measurement.now()
      openMillis.append(Double(searched - start) / 1e6)
      let reopened = try DiscoverIndex.open(at: directory)
      let completionStart = Measurement.now()
      _ = try reopened.suggestions(forPrefix: firstPrefix, limit: 10)
      completionMillis.append(Double(Measurement.now() - completionStart) / 1e6)
    }
    return Result(
      openMillis: Self.median(openMillis), firstCompletionMillis: Self.median(completionMillis))
  }

  private static func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
  }
}
