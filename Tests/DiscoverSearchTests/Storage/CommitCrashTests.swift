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
        try Self.runDiscover(
          executable, ["index", corpus.path, "--out", index.path], killAfter: microseconds)
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

  /// The span kills are drawn from, kept in step with the machine's load: a run's time
  /// measured once can be far off when other tests run beside it, and then nearly every
  /// run is killed, or none. After every ten runs, the span grows when fewer than two
  /// finished and shrinks when fewer than two were killed.
  private struct KillSpan {
    var seconds: Double
    private var finished = 0
    private var runs = 0

    init(_ seconds: Double) { self.seconds = max(seconds, 0.01) }

    mutating func record(finished: Bool) {
      runs += 1
      if finished { self.finished += 1 }
      guard runs == 10 else { return }
      if self.finished < 2 { seconds *= 1.5 } else if self.finished > 8 { seconds *= 0.7 }
      runs = 0
      self.finished = 0
    }
  }

  /// Runs `discover` with `arguments`, killed with SIGKILL after `microseconds` if given.
  ///
  /// - Returns: Whether it ran to the end and succeeded.
  private static func runDiscover(
    _ executable: URL, _ arguments: [String], killAfter microseconds: UInt32?
  ) throws -> Bool {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
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

  /// What a live change leaves in the directory: the documents of the segment, those of the
  /// documents file (which must agree), and video `v1`'s views in the documents file.
  private static func liveState(of directory: URL) throws -> (documents: Int, views: Int) {
    let index = try DiscoverIndex.open(at: directory)
    var store = try DocumentStoreBuilder(try index.snapshot.documents.load())
    let segment = index.documentCount + index.snapshot.effects.count
    try #require(
      store.count == segment, "the documents file holds \(store.count), the segment \(segment)")
    guard case .video(let video)? = store.document(id: "v1") else {
      Issue.record("v1 is missing")
      return (segment, -1)
    }
    return (segment, video.viewCount)
  }

  /// `discover add`, `delete` and `counts` killed at random points, 100 times in turn: the
  /// directory opens to the state before the change or after it, its segment and documents
  /// file agree, and a change that finished is never lost.
  @Test func killedLiveChangesNeverLoseOrTearTheIndex() throws {
    let executable = try Self.discoverExecutable()
    try PersistenceTests.withTemporaryDirectory { directory in
      let corpus = directory.appendingPathComponent("corpus.jsonl")
      try Data(Self.corpus(videos: 800).utf8).write(to: corpus)
      let extra = directory.appendingPathComponent("extra.jsonl")
      let extraIDs = (0..<50).map { "x\($0)" }
      try Data(
        extraIDs.map { #"{"type":"video","id":"\#($0)","title":"Extra clip \#($0)"}"# + "\n" }
          .joined().utf8
      ).write(to: extra)
      let index = directory.appendingPathComponent("index")
      #expect(
        try Self.runDiscover(
          executable, ["index", corpus.path, "--out", index.path], killAfter: nil))
      var committed = try Self.liveState(of: index)

      /// The change of attempt `attempt`: its arguments and the state it commits.
      func change(_ attempt: Int, from state: (documents: Int, views: Int)) throws -> (
        [String], (documents: Int, views: Int)
      ) {
        switch attempt % 3 {
        case 0 where state.documents == 801:
          return (["add", extra.path, "--index", index.path], (851, state.views))
        case 0:
          return (["delete"] + extraIDs + ["--index", index.path], (801, state.views))
        case 1:
          let counts = directory.appendingPathComponent("counts-\(attempt).jsonl")
          try Data(#"{"id":"v1","viewCount":\#(attempt * 1000)}"#.utf8).write(to: counts)
          return (
            ["counts", counts.path, "--index", index.path], (state.documents, attempt * 1000)
          )
        default:
          let more = directory.appendingPathComponent("more-\(attempt).jsonl")
          try Data(
            #"{"type":"video","id":"v1","title":"Dance challenge number 1","creator":"u1","viewCount":\#(attempt * 1000 + 1)}"#
              .utf8
          ).write(to: more)
          return (["add", more.path, "--index", index.path], (state.documents, attempt * 1000 + 1))
        }
      }

      // How long a whole change takes; kills land from a third of it to a little past it.
      let start = Date()
      let (first, firstState) = try change(1, from: committed)
      #expect(try Self.runDiscover(executable, first, killAfter: nil))
      committed = firstState
      var span = KillSpan(Date().timeIntervalSince(start))
      var random = SystemRandomNumberGenerator()
      var failures: [String] = []
      var killed = 0
      var landed = 0
      for attempt in 2..<102 {
        let (arguments, target) = try change(attempt, from: committed)
        let delay = UInt32(Double.random(in: 0.3...1.2, using: &random) * span.seconds * 1e6)
        let finished = try Self.runDiscover(executable, arguments, killAfter: delay)
        span.record(finished: finished)
        if !finished { killed += 1 }
        do {
          let found = try Self.liveState(of: index)
          if found == target {
            landed += 1
            committed = target
          } else if found != committed {
            failures.append("attempt \(attempt): \(found), expected \(committed) or \(target)")
          }
          if finished && found != target {
            failures.append("attempt \(attempt) finished but the directory holds \(found)")
          }
        } catch {
          failures.append("attempt \(attempt), killed after \(delay) µs: \(error)")
        }
      }
      #expect(failures.isEmpty, "\(failures.prefix(5))")
      // Both outcomes happened: the kills are not all too early or too late to matter.
      #expect(killed >= 5, "only \(killed) of 100 changes were killed")
      #expect(landed >= 5, "only \(landed) of 100 changes landed")
      #expect(try DiscoverIndex.verify(at: index).documents[.video] == committed.documents - 1)
    }
  }
  /// The views of videos `v0` to `v99` in the newest commit of `directory`, read from the
  /// segments and checked against the documents a writer would start from: one live
  /// version of each, with the same views, and as many live documents in the documents
  /// files as in the segments.
  private static func batchedState(of directory: URL) throws -> [Int] {
    let index = try DiscoverIndex.open(at: directory)
    let set = index.segments
    var store = try set.storedDocuments()
    try #require(
      store.count == set.liveCount, "documents \(store.count), segments \(set.liveCount)")
    return try (0..<100).map { number in
      let id = "v\(number)"
      let locations = set.liveLocations(of: id, as: .video)
      try #require(locations.count == 1, "\(id) is live in \(locations.count) segments")
      let views = set.segments[locations[0].segment].videos.viewCounts[Int(locations[0].document)]
      guard case .video(let video)? = store.document(id: id) else {
        Issue.record("\(id) is not among the documents")
        return -1
      }
      #expect(video.viewCount == views, "\(id): documents \(video.viewCount), segment \(views)")
      return views
    }
  }

  /// `discover add --commit-every 20` killed at random points, 100 times: each run gives
  /// the same 100 videos new views, committed in batches of 20 as segments beside the ones
  /// on disk (deletes files mark the old versions; the small segments merge on a task of
  /// their own and the next commit writes the merge). The directory always opens to whole
  /// batches: the run's views on the first multiple of 20 videos, the views before on the
  /// rest, and segments and documents files that agree.
  @Test func killedBatchedCommitsKeepWholeBatches() throws {
    let executable = try Self.discoverExecutable()
    try PersistenceTests.withTemporaryDirectory { directory in
      let corpus = directory.appendingPathComponent("corpus.jsonl")
      try Data(Self.corpus(videos: 800).utf8).write(to: corpus)
      let index = directory.appendingPathComponent("index")
      #expect(
        try Self.runDiscover(
          executable, ["index", corpus.path, "--out", index.path], killAfter: nil))
      func arguments(_ attempt: Int) throws -> [String] {
        let file = directory.appendingPathComponent("views-\(attempt).jsonl")
        let lines = (0..<100).map { number in
          #"{"type":"video","id":"v\#(number)","title":"Dance challenge number \#(number)","creator":"u1","viewCount":\#(attempt * 1000 + number)}"#
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        return ["add", file.path, "--index", index.path, "--commit-every", "20"]
      }
      let start = Date()
      #expect(try Self.runDiscover(executable, try arguments(0), killAfter: nil))
      var span = KillSpan(Date().timeIntervalSince(start))
      var views = try Self.batchedState(of: index)
      #expect(views == (0..<100).map { $0 })
      var random = SystemRandomNumberGenerator()
      var failures: [String] = []
      var killed = 0
      var partial = 0
      for attempt in 1...100 {
        let delay = UInt32(Double.random(in: 0.3...1.2, using: &random) * span.seconds * 1e6)
        let finished = try Self.runDiscover(executable, try arguments(attempt), killAfter: delay)
        span.record(finished: finished)
        if !finished { killed += 1 }
        do {
          let found = try Self.batchedState(of: index)
          let wanted = (0..<100).map { attempt * 1000 + $0 }
          let done = zip(found, wanted).prefix { $0 == $1 }.count
          if done % 20 != 0 || found[done...] != views[done...] {
            failures.append("attempt \(attempt): \(done) videos updated, views \(found.prefix(30))")
          }
          if finished && done != 100 {
            failures.append("attempt \(attempt) finished with \(done) videos updated")
          }
          if done > 0 && done < 100 { partial += 1 }
          views = found
        } catch {
          failures.append("attempt \(attempt), killed after \(delay) µs: \(error)")
        }
      }
      #expect(failures.isEmpty, "\(failures.prefix(5))")
      #expect(killed >= 5, "only \(killed) of 100 runs were killed")
      #expect(partial >= 3, "only \(partial) of 100 runs were killed between batches")
      #expect(try DiscoverIndex.verify(at: index).documents[.video] == 800)
    }
  }
}
