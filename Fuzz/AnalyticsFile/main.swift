// libFuzzer target `analytics-file`: see FuzzTargets.analyticsFile(_:in:).
import DiscoverSearch
import Foundation

/// The directory every input is written to.
let directory = FuzzDirectory("analytics-file")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAnalyticsFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  runFuzzTarget(data, size) { FuzzTargets.analyticsFile($0, in: directory) }
}

/// `DISCOVER_FUZZ_WRITE_SEEDS=DIR` writes a real analytics file of searches, clicks and
/// recent searches of a few users: as written, recorded into; and read-only.
@_cdecl("LLVMFuzzerInitialize")
public func initializeAnalyticsFile(
  _ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  writeSeedsIfAsked {
    let seedDirectory = FuzzSamples.makeTemporaryDirectory("analytics-seed")
    defer { try? FileManager.default.removeItem(at: seedDirectory) }
    let path = seedDirectory.appendingPathComponent("analytics.sqlite").path
    do {
      let analytics = try QueryAnalytics(path: path, clock: { FuzzSamples.now })
      let queries = ["dance challenge", "Bruno Mars", "#fyp", "東京", "café", "🔥 fire"]
      for (index, query) in queries.enumerated() {
        for user in 0..<(index + 1) * 2 {
          try analytics.recordSearch(
            SearchEvent(
              query: query, userID: "u\(user)",
              time: FuzzSamples.now.addingTimeInterval(Double(-90 * user)), resultCount: index))
        }
      }
      try analytics.recordClick(
        ClickEvent(
          query: "dance challenge", userID: "u1", resultID: "v-dance", time: FuzzSamples.now))
    } catch {
      fatalError("cannot write the analytics seed: \(error)")
    }
    let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())
    return [("analytics", [0x02] + bytes), ("analytics-read-only", [0x01] + bytes)]
  }
  return 0
}
