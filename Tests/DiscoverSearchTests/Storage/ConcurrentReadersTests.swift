import Dispatch
import Foundation
import Synchronization
import Testing

@testable import DiscoverSearch

/// Readers searching and completing on many threads while one writer adds, updates,
/// deletes, changes counts, publishes and commits, and while a reader picks up commits of
/// another: every answer is one whole published state's, never a mix, and nothing waits on
/// a publish. CI runs this suite under the thread sanitizer as well
/// (`swift test --sanitize=thread --filter ConcurrentReadersTests`).
@Suite("Concurrency: readers while a writer commits")
struct ConcurrentReadersTests {
  /// Commit `version` holds `version + 3` videos titled `alpha marker<version>`, with ids
  /// `<version>-<n>`: a search for `alpha` must find exactly those, all of one version.
  private static func documents(version: Int) -> [Document] {
    (0..<(version + 3)).map { number in
      .video(
        Video(
          id: "\(version)-\(number)", title: "alpha marker\(version) clip \(number)",
          viewCount: number * 10))
    }
  }

  /// What a reader saw, if it was not one whole commit.
  private static func inconsistency(_ response: SearchResponse) -> String? {
    let versions = Set(response.results.map { $0.id.prefix { $0 != "-" } })
    guard versions.count == 1, let version = Int(versions.first!) else {
      return "results of commits \(versions.sorted())"
    }
    guard response.totalHits == version + 3 else {
      return "commit \(version) with \(response.totalHits) hits"
    }
    return nil
  }

  /// Runs `readers` reader loops on their own threads while `write` runs on this one, and
  /// returns what the readers found wrong and how many answers they checked.
  private static func race(
    readers: Int, read: @escaping @Sendable () throws -> String?, write: () throws -> Void
  ) throws -> (problems: [String], reads: Int) {
    final class Shared: Sendable {
      let done = Atomic<Bool>(false)
      let problems = Lock<[String]>([])
      let reads = Atomic<Int>(0)
    }
    let shared = Shared()
    let group = DispatchGroup()
    for _ in 0..<readers {
      group.enter()
      Thread {
        defer { group.leave() }
        while !shared.done.load(ordering: .acquiring) {
          do {
            if let problem = try read() { shared.problems.withLock { $0.append(problem) } }
          } catch {
            shared.problems.withLock { $0.append("\(error)") }
          }
          shared.reads.add(1, ordering: .relaxed)
        }
      }.start()
    }
    func stopReaders() {
      shared.done.store(true, ordering: .releasing)
      group.wait()
    }
    do {
      try write()
    } catch {
      stopReaders()
      throw error
    }
    stopReaders()
    return (shared.problems.withLock { $0 }, shared.reads.load(ordering: .relaxed))
  }

  /// State `version` of the live test: `liveCount(version)` videos `c0`, `c1`, … titled
  /// `alpha marker<version> clip <n>` with `version * 1000 + n` views. From one state to the
  /// next the writer updates the videos that stay, deletes those past the new count, adds
  /// the new ones and sets every view count, so a reader that saw a mix of two states would
  /// find two markers, a wrong total or a count of another state.
  private static func liveCount(_ version: Int) -> Int { 3 + (version * 5) % 9 }

  private static func liveVideo(_ number: Int, version: Int) -> Video {
    Video(id: "c\(number)", title: "alpha marker\(version) clip \(number)", viewCount: 0)
  }

  /// What a reader saw, if it was not one whole published state of the live test.
  private static func liveInconsistency(_ response: SearchResponse) -> String? {
    let markers = Set(
      response.results.map { $0.title.split(separator: " ")[1].dropFirst("marker".count) })
    guard markers.count == 1, let version = Int(markers.first!) else {
      return "results of states \(markers.sorted())"
    }
    guard response.totalHits == liveCount(version) else {
      return "state \(version) with \(response.totalHits) hits"
    }
    for result in response.results {
      guard case .video(let video) = result.metadata, let number = Int(result.id.dropFirst()),
        video.viewCount == version * 1000 + number
      else { return "state \(version) with \(result.id) of another state's views" }
    }
    return nil
  }

  /// The stress test of a live index: readers search and complete while one writer adds,
  /// updates, deletes and changes counts, publishing and committing in turn.
  @Test func readersSeeWholeStatesWhileAWriterChangesTheIndex() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      let first = (0..<Self.liveCount(0)).map { number in
        var video = Self.liveVideo(number, version: 0)
        video.viewCount = number
        return Document.video(video)
      }
      let index = try DiscoverIndex.build(from: first)
      try index.save(to: directory)
      // Another reader of the directory, as another process would be, picks up each commit
      // (segments, deletes and counts files) as it lands.
      let reader = try DiscoverIndex.open(at: directory)
      var writer = try index.makeWriter()
      let (problems, reads) = try Self.race(
        readers: 4,
        read: {
          let response = try index.search("alpha", in: .videos, limit: 50)
          _ = try index.suggestions(forPrefix: "alp", limit: 5)
          _ = try reader.refreshIfChanged()
          return try Self.liveInconsistency(response)
            ?? Self.liveInconsistency(try reader.search("alpha", in: .videos, limit: 50))
        },
        write: {
          for version in 1...40 {
            for number in Self.liveCount(
              version)..<max(Self.liveCount(version), Self.liveCount(version - 1))
            {
              let deleted = writer.delete(id: "c\(number)")
              #expect(deleted)
            }
            for number in 0..<Self.liveCount(version) {
              try writer.update(.video(Self.liveVideo(number, version: version)))
              try writer.updateCounts(
                CountUpdate(id: "c\(number)", viewCount: version * 1000 + number))
            }
            if version % 2 == 0 { try writer.commit() } else { try writer.publish() }
          }
        })
      #expect(problems.isEmpty, "\(problems.prefix(5))")
      #expect(reads > 0)
      let last = try index.search("alpha", in: .videos, limit: 50)
      #expect(Self.liveInconsistency(last) == nil)
      #expect(last.results.first?.title.hasPrefix("alpha marker40 ") == true)
      // The last commit (state 40) is what the directory holds.
      let reopened = try DiscoverIndex.open(at: directory)
      #expect(Self.liveInconsistency(try reopened.search("alpha", in: .videos, limit: 50)) == nil)
      #expect(reopened.documentCount == Self.liveCount(40))
    }
  }

  /// Readers search and complete while a writer publishes batches of new documents as
  /// segments and merges run on a task of their own: every answer holds whole batches,
  /// however the segments are merged at the time.
  @Test func readersSeeWholeBatchesWhileSegmentsMerge() throws {
    let batchSize = 5
    let rounds = 30
    let index = try DiscoverIndex.build(from: [
      .video(Video(id: "seed", title: "seed video", viewCount: 1))
    ])
    var writer = try index.makeWriter()
    writer.mergePolicy = MergePolicy(floorDocuments: 2, segmentsPerTier: 2, maximumMergeAtOnce: 3)
    try writer.publish()
    let (problems, reads) = try Self.race(
      readers: 4,
      read: {
        let response = try index.search("beta", in: .videos, limit: 50)
        _ = try index.suggestions(forPrefix: "bet", limit: 5)
        guard response.totalHits % batchSize == 0 else {
          return "\(response.totalHits) hits: part of a batch"
        }
        let batches = Set(response.results.map { $0.title.split(separator: " ")[1] })
        guard batches.count * batchSize >= min(response.totalHits, 50) else {
          return "\(response.totalHits) hits from batches \(batches.sorted())"
        }
        return nil
      },
      write: {
        for round in 0..<rounds {
          for number in 0..<batchSize {
            try writer.add(
              Video(
                id: "b\(round)-\(number)", title: "beta batch\(round) clip \(number)",
                viewCount: round * 10 + number))
          }
          try writer.publish()
        }
        writer.waitForMerges()
      })
    #expect(problems.isEmpty, "\(problems.prefix(5))")
    #expect(reads > 0)
    #expect(try index.search("beta", in: .videos).totalHits == rounds * batchSize)
    #expect(index.segments.segments.count < rounds)
  }

  /// Readers search while a writer publishes batches as segments, deletes whole earlier
  /// batches and updates others (marked deleted in their segments), and merges run on a
  /// task of their own: every answer holds whole batches, and no id twice.
  @Test func readersSeeWholeBatchesWhileDeletesAndMergesRun() throws {
    let batchSize = 5
    let rounds = 30
    func video(_ round: Int, _ number: Int, version: Int) -> Video {
      Video(
        id: "g\(round)-\(number)", title: "gamma batch\(round) clip \(number) v\(version)",
        viewCount: round * 10 + number)
    }
    let seed = (0..<40).map { Document.video(Video(id: "s\($0)", title: "seed clip \($0)")) }
    let index = try DiscoverIndex.build(from: seed)
    var writer = try index.makeWriter()
    writer.mergePolicy = MergePolicy(
      floorDocuments: 2, segmentsPerTier: 2, maximumMergeAtOnce: 3,
      deletedDocumentsAllowance: 0.1)
    try writer.publish()
    var live = Set<Int>()
    let (problems, reads) = try Self.race(
      readers: 4,
      read: {
        let response = try index.search("gamma", in: .videos, limit: 50)
        guard response.totalHits % batchSize == 0 else {
          return "\(response.totalHits) hits: part of a batch"
        }
        let ids = response.results.map(\.id)
        guard Set(ids).count == ids.count else { return "an id twice: \(ids)" }
        return nil
      },
      write: {
        for round in 0..<rounds {
          for number in 0..<batchSize { try writer.add(video(round, number, version: 0)) }
          live.insert(round)
          if round % 3 == 2 {
            // Delete the oldest batch left, and update the next one whole.
            let sorted = live.sorted()
            for number in 0..<batchSize { writer.delete(id: "g\(sorted[0])-\(number)") }
            live.remove(sorted[0])
            for number in 0..<batchSize {
              try writer.update(.video(video(sorted[1], number, version: round)))
            }
          }
          try writer.publish()
        }
        writer.waitForMerges()
      })
    #expect(problems.isEmpty, "\(problems.prefix(5))")
    #expect(reads > 0)
    let final = try index.search("gamma", in: .videos, limit: 200)
    #expect(final.totalHits == live.count * batchSize)
    #expect(Set(final.results.map(\.id)).count == final.results.count)
  }

  /// A reader of a directory refreshes while a writer (another index object, as another
  /// process would be) saves commit after commit into it.
  @Test func readersRefreshWhileAWriterSaves() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      try DiscoverIndex.build(from: Self.documents(version: 0)).save(to: directory)
      let reader = try DiscoverIndex.open(at: directory)
      let (problems, reads) = try Self.race(
        readers: 3,
        read: {
          _ = try reader.refreshIfChanged()
          return Self.inconsistency(try reader.search("alpha", in: .videos, limit: 50))
        },
        write: {
          for version in 1...15 {
            try DiscoverIndex.build(from: Self.documents(version: version)).save(to: directory)
          }
        })
      #expect(problems.isEmpty, "\(problems.prefix(5))")
      #expect(reads > 0)
      _ = try reader.refreshIfChanged()
      let last = try reader.search("alpha", in: .videos, limit: 50)
      #expect(Self.inconsistency(last) == nil)
      #expect(last.totalHits == 15 + 3, "the reader ends on the last commit")
    }
  }
}
