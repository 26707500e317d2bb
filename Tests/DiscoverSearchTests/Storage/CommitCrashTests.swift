import Foundation
import Testing

@testable import DiscoverSearch

#if canImport(Glibc)
  import Glibc
#endif

/// Writers killed with SIGKILL at random points of a commit, in a child process (the
/// `discover` executable built beside the tests): the directory always opens, to the last
/// commit that finished or to the one that was killed after its manifest landed, never to
/// anything else.
@Suite("Storage: commits killed at random points")
struct CommitCrashTests {
  /// The `discover` executable SwiftPM builds beside the test runner.
  private static func discoverExecutable() throws -> URL {
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = runner.deletingLastPathComponent()
    // On Linux the runner is `.build/<configuration>/<Package>PackageTests.xctest`.
    if directory.pathExtension == "xctest" { directory = directory.deletingLastPathComponent() }
    let executable = directory.appendingPathComponent("discover")
    try #require(
      FileManager.default.isExecutableFile(atPath: executable.path),
      "no discover executable at \(executable.path); run `swift build` first")
    return executable
  }

  /// Two corpora told apart by their document counts.
  private static func corpus(videos: Int) -> String {
    var lines = [
      #"{"type":"user","id":"u1","username":"dance_queen","displayName":"Dance Queen","followerCount":1200}"#
    ]
    for number in 0..<videos {
      lines.append(
        #"{"type":"video","id":"v\#(number)","title":"Dance challenge number \#(number)","creator":"u1","viewCount":\#(number * 7)}"#
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test func killedCommitsNeverLoseOrTearTheIndex() throws {
    let executable = try Self.discoverExecutable()
    try PersistenceTests.withTemporaryDirectory { directory in
      let small = directory.appendingPathComponent("small.jsonl")
      let large = directory.appendingPathComponent("large.jsonl")
      try Data(Self.corpus(videos: 5).utf8).write(to: small)
      try Data(Self.corpus(videos: 3_000).utf8).write(to: large)
      let counts = [small: 6, large: 3_001]
      let index = directory.appendingPathComponent("index")

      func run(_ corpus: URL, killAfter microseconds: UInt32?) throws -> Bool {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["index", corpus.path, "--out", index.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let microseconds {
          usleep(microseconds)
          kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return process.terminationReason == .exit && process.terminationStatus == 0
      }

      // How long one whole run takes. Kills land in its last part, where the commit is (the
      // start is the process starting and reading the corpus), and a little past its end.
      let start = Date()
      #expect(try run(large, killAfter: nil))
      let span = max(Date().timeIntervalSince(start), 0.01)
      var committed = counts[large]!
      var seed = UInt64.random(in: 0...UInt64.max)
      var failedOpens: [String] = []
      var lostCommits = 0
      for attempt in 0..<100 {
        let corpus = attempt % 2 == 0 ? small : large
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let fraction: Double = 0.5 + Double(seed >> 11) / Double(1 << 53) * 0.6
        let delay = UInt32(fraction * span * 1e6)
        let finished = try run(corpus, killAfter: delay)
        do {
          let found = try DiscoverIndex.open(at: index).documentCount
          if found == counts[corpus]! {
            committed = found
          } else if found != committed {
            lostCommits += 1
          }
          if finished { #expect(found == counts[corpus]!, "a finished commit is not the newest") }
        } catch {
          failedOpens.append("attempt \(attempt), killed after \(delay) µs: \(error)")
        }
      }
      #expect(failedOpens.isEmpty, "\(failedOpens)")
      #expect(lostCommits == 0)
      // A run to the end removes whatever the killed ones left.
      #expect(try run(small, killAfter: nil))
      try PersistenceTests.expectOneCommit(in: index)
    }
  }
}
