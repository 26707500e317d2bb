import Foundation
import Testing

@testable import DiscoverSearch

#if canImport(Glibc)
  import Glibc
#endif

/// An index directory of manifests and segments: commits, the writer's lock, falling back
/// from a torn commit, cleaning up after killed writers, and readers picking up commits.
@Suite("Storage: index directory")
struct IndexDirectoryTests {
  private static func manifestNames(in directory: URL) throws -> [String] {
    try PersistenceTests.contents(of: directory).filter { $0.hasPrefix("manifest-") }
  }

  private static func write(_ text: String, _ name: String, in directory: URL) throws {
    try Data(text.utf8).write(to: directory.appendingPathComponent(name))
  }

  @Test func aManifestRoundTripsAndRefusesDamage() throws {
    let manifest = IndexManifest(
      generation: 42,
      segments: [
        IndexManifest.Segment(file: IndexManifest.segmentFileName(generation: 42), bytes: 9)
      ]
    )
    let bytes = manifest.bytes
    #expect(try IndexManifest.parse(bytes).get() == manifest)
    for index in bytes.indices {
      var damaged = bytes
      damaged[index] ^= 0x20
      #expect(throws: ManifestDamage.self) { try IndexManifest.parse(damaged).get() }
    }
    #expect(throws: ManifestDamage.self) { try IndexManifest.parse(Array(bytes.dropLast(3))).get() }
    // A checksummed manifest naming a file outside the directory is refused all the same.
    var escaping = manifest
    escaping.segments[0].file = "../../etc/passwd"
    #expect(throws: ManifestDamage.self) { try IndexManifest.parse(escaping.bytes).get() }
  }

  /// One writer per directory: a held lock makes a save fail with `indexLocked` and leaves
  /// the commit there as it was; once released, the save goes through.
  @Test func aSecondWriterIsRefusedWhileTheLockIsHeld() throws {
    let first = try PersistenceTests.smallIndex("sunset")
    let second = try PersistenceTests.smallIndex("sunrise")
    try PersistenceTests.withTemporaryDirectory { directory in
      try first.save(to: directory)
      var lock: DirectoryLock? = try DirectoryLock(directory: directory)
      let error = try #require(throws: SearchError.self) { try second.save(to: directory) }
      #expect(error.code == .indexLocked)
      #expect(try DiscoverIndex.open(at: directory).search("sunset").totalHits > 0)
      withExtendedLifetime(lock) {}
      lock = nil
      try second.save(to: directory)
      #expect(try DiscoverIndex.open(at: directory).search("sunrise").totalHits > 0)
    }
  }

  /// The lock belongs to a process: another process holding it refuses our writer, and its
  /// death releases it.
  @Test func theLockOfAnotherProcessGoesWithIt() throws {
    let index = try PersistenceTests.smallIndex()
    try PersistenceTests.withTemporaryDirectory { directory in
      let holder = Process()
      holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
      // `-o`: the lock stays with `flock` itself, not with the command it runs.
      holder.arguments = [
        "-o", directory.appendingPathComponent(IndexDirectory.lockFileName).path, "sleep", "3",
      ]
      try holder.run()
      defer { if holder.isRunning { holder.terminate() } }
      // Until the child holds the lock, our save may still get it; wait for the refusal.
      var refused = false
      for _ in 0..<200 where !refused {
        do {
          _ = try DirectoryLock(directory: directory)
          usleep(10_000)
        } catch {
          refused = (error as? SearchError)?.code == .indexLocked
        }
      }
      #expect(refused)
      #expect(throws: SearchError.self) { try index.save(to: directory) }
      kill(holder.processIdentifier, SIGKILL)
      holder.waitUntilExit()
      try index.save(to: directory)
      #expect(try DiscoverIndex.open(at: directory).documentCount == index.documentCount)
    }
  }

  /// A commit torn by a crash (a damaged newest manifest, or one whose segment never made
  /// it) gives way to the commit before; the next commit takes a new generation and removes
  /// the torn one.
  @Test func aTornNewestCommitFallsBackToTheOneBefore() throws {
    let index = try PersistenceTests.smallIndex("sunset")
    try PersistenceTests.withTemporaryDirectory { directory in
      try index.save(to: directory)
      let good = try #require(try IndexDirectory.newestCommit(in: directory))
      let missing = IndexManifest(
        generation: good.generation + 1,
        segments: [
          IndexManifest.Segment(
            file: IndexManifest.segmentFileName(generation: good.generation + 1), bytes: 100)
        ])
      try Data(missing.bytes).write(
        to: directory.appendingPathComponent(IndexManifest.fileName(generation: missing.generation))
      )
      try Self.write(
        "discover-index-manifest 1\ngener", IndexManifest.fileName(generation: good.generation + 2),
        in: directory)
      #expect(try IndexDirectory.newestCommit(in: directory) == good)
      #expect(try DiscoverIndex.open(at: directory).search("sunset").totalHits > 0)

      try PersistenceTests.smallIndex("sunrise").save(to: directory)
      let next = try #require(try IndexDirectory.newestCommit(in: directory))
      #expect(next.generation == good.generation + 3)
      #expect(
        try Self.manifestNames(in: directory) == [
          IndexManifest.fileName(generation: next.generation)
        ])
    }
  }

  @Test func aDirectoryWithOnlyDamagedManifestsIsCorrupt() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      try Self.write("garbage", IndexManifest.fileName(generation: 3), in: directory)
      let error = try #require(throws: SearchError.self) {
        try DiscoverIndex.open(at: directory)
      }
      #expect(error.code == .corruptIndex)
      #expect(error.message.contains(IndexManifest.fileName(generation: 3)))
    }
  }

  /// What killed writers leave (a temporary segment of a process that is gone, a segment no
  /// manifest names) is removed by the next commit; a live process's temporary file stays.
  @Test func theNextCommitRemovesWhatKilledWritersLeft() throws {
    let index = try PersistenceTests.smallIndex()
    try PersistenceTests.withTemporaryDirectory { directory in
      try index.save(to: directory)
      let orphan = IndexManifest.segmentFileName(generation: 77)
      let abandoned = IndexManifest.segmentFileName(generation: 78) + ".tmp-2000000000-3"
      let live = IndexManifest.segmentFileName(generation: 79) + ".tmp-\(getpid())-3"
      for name in [orphan, abandoned, live] { try Self.write("partial", name, in: directory) }
      try index.save(to: directory)
      let names = try PersistenceTests.contents(of: directory)
      #expect(!names.contains(orphan))
      #expect(!names.contains(abandoned))
      #expect(names.contains(live))
      #expect(names.count == 5, "\(names)")
    }
  }

  /// A directory holding the single `index.dsearch` of earlier versions opens; the first
  /// commit into it replaces that file with a manifest and a segment.
  @Test func aSingleFileIndexOpensAndIsReplacedByTheFirstCommit() throws {
    let index = try PersistenceTests.smallIndex("sunset")
    try PersistenceTests.withTemporaryDirectory { directory in
      var writer = try IndexFileWriter(
        path: directory.appendingPathComponent(IndexFile.fileName).path)
      try index.snapshot.write(to: &writer)
      try writer.finish()
      let opened = try DiscoverIndex.open(at: directory)
      #expect(
        try PersistenceTests.responses(opened, PersistenceTests.smallQueries)
          == PersistenceTests.responses(index, PersistenceTests.smallQueries))
      try opened.save(to: directory)
      let names = try PersistenceTests.contents(of: directory)
      #expect(!names.contains(IndexFile.fileName))
      // Earlier versions kept no documents: the commit names none, and the index can be
      // searched, not changed.
      #expect(
        names.sorted()
          == [
            IndexManifest.fileName(generation: 1), IndexManifest.segmentFileName(generation: 1),
            IndexDirectory.lockFileName,
          ].sorted())
      let reopened = try DiscoverIndex.open(at: directory)
      #expect(reopened.documentCount == index.documentCount)
      #expect(throws: SearchError.self) { _ = try reopened.makeWriter() }
    }
  }

  /// A reader picks up a commit made through another index object (as another process
  /// would) with `refreshIfChanged()`, once.
  @Test func aReaderPicksUpANewerCommit() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      try PersistenceTests.smallIndex("sunset").save(to: directory)
      let reader = try DiscoverIndex.open(at: directory)
      #expect(try reader.refreshIfChanged() == false)
      try PersistenceTests.smallIndex("sunrise").save(to: directory)
      #expect(try reader.search("sunrise").totalHits == 0)
      #expect(try reader.refreshIfChanged() == true)
      #expect(try reader.search("sunrise").totalHits > 0)
      #expect(try reader.search("sunset").totalHits == 0)
      #expect(try reader.refreshIfChanged() == false)
      #expect(try DiscoverIndex().refreshIfChanged() == false)
    }
  }

  /// A commit that fails to write its segment or its manifest (a full disk, injected) throws
  /// an `io` error, leaves the last commit whole and the directory as it was, and the next
  /// commit goes through.
  @Test(arguments: [IndexDirectory.FaultStep.segment, .manifest])
  func aFailedCommitLeavesTheLastOneIntact(step: IndexDirectory.FaultStep) throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      try PersistenceTests.smallIndex("sunset").save(to: directory)
      let before = try PersistenceTests.contents(of: directory)
      IndexDirectory.injectedFaults.withLock { $0[directory.path] = step }
      let error = try #require(throws: SearchError.self) {
        try PersistenceTests.smallIndex("sunrise").save(to: directory)
      }
      IndexDirectory.injectedFaults.withLock { $0[directory.path] = nil }
      #expect(error.code == .io)
      #expect(try PersistenceTests.contents(of: directory) == before)
      let opened = try DiscoverIndex.open(at: directory)
      #expect(try opened.search("sunset").totalHits > 0)
      try PersistenceTests.smallIndex("sunrise").save(to: directory)
      #expect(try DiscoverIndex.open(at: directory).search("sunrise").totalHits > 0)
    }
  }

  /// A manifest name claiming the last generation (from outside: a commit never gets
  /// there) makes the next commit a typed error, not an overflow.
  @Test func theLastGenerationIsATypedError() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      try Self.write("garbage", IndexManifest.fileName(generation: .max), in: directory)
      let error = try #require(throws: SearchError.self) {
        try PersistenceTests.smallIndex().save(to: directory)
      }
      #expect(error.code == .corruptIndex)
    }
  }
}
