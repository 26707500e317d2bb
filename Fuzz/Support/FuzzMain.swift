// What every libFuzzer target shares: running an entry point of FuzzTargets (in
// Tests/DiscoverSearchTests/Fuzz, compiled into each target by Scripts/fuzz.sh) on libFuzzer's
// bytes, and writing seed inputs. Never built by SwiftPM.
import Foundation

/// Runs `target` on one input and stops the process on any broken rule, as a crash would:
/// libFuzzer then saves the input.
func runFuzzTarget(
  _ data: UnsafePointer<UInt8>?, _ size: Int, _ target: ([UInt8]) -> [String]
) -> Int32 {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let problems = target(bytes)
  if !problems.isEmpty {
    fatalError("fuzz rule broken:\n" + problems.joined(separator: "\n"))
  }
  return 0
}

/// When `DISCOVER_FUZZ_WRITE_SEEDS` names a directory, writes `seeds` there as files and exits:
/// how the seed corpora under Fuzz/Corpus that need the library to make were made.
func writeSeedsIfAsked(_ seeds: () -> [(name: String, bytes: [UInt8])]) {
  guard let directory = ProcessInfo.processInfo.environment["DISCOVER_FUZZ_WRITE_SEEDS"] else {
    return
  }
  let url = URL(fileURLWithPath: directory)
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  for seed in seeds() {
    let path = url.appendingPathComponent(seed.name).path
    guard FileManager.default.createFile(atPath: path, contents: Data(seed.bytes)) else {
      fatalError("cannot write \(path)")
    }
  }
  exit(0)
}
