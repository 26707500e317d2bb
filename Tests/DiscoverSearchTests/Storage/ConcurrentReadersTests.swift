import Dispatch
import Foundation
import Synchronization
import Testing

@testable import DiscoverSearch

/// Readers searching and completing on many threads while one writer commits, saves and a
/// reader picks up commits: every answer is one whole commit's, never a mix, and nothing
/// waits on a commit. CI runs this suite under the thread sanitizer as well
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

  @Test func readersSeeWholeCommitsWhileAWriterCommits() throws {
    let index = try DiscoverIndex.build(from: Self.documents(version: 0))
    let (problems, reads) = try Self.race(
      readers: 4,
      read: {
        let response = try index.search("alpha", in: .videos, limit: 50)
        _ = try index.suggestions(forPrefix: "alp", limit: 5)
        return Self.inconsistency(response)
      },
      write: {
        for version in 1...60 {
          var writer = index.makeWriter()
          try writer.add(contentsOf: Self.documents(version: version))
          try writer.commit()
        }
      })
    #expect(problems.isEmpty, "\(problems.prefix(5))")
    #expect(reads > 0)
    #expect(try Self.inconsistency(index.search("alpha", in: .videos, limit: 50)) == nil)
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
