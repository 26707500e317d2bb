import Foundation
import SyntheticCorpus
import Testing

@testable import DiscoverSearch

/// Commits that keep the segments already on disk: new segments are written with their
/// documents, and beside the kept ones only their deleted documents and changed counts.
@Suite("Storage: commits of several segments")
struct SegmentCommitTests {
  /// A directory holding `base` in one commit, opened, and a writer of it that never
  /// merges and whose first commit analyzed everything (so the next ones add segments).
  static func committedWriter(base: [Document], in directory: URL) throws -> (
    DiscoverIndex, IndexWriter
  ) {
    try DiscoverIndex.build(from: base).save(to: directory)
    let index = try DiscoverIndex.open(at: directory)
    var writer = try index.makeWriter()
    writer.mergePolicy = MergePolicy(segmentsPerTier: 100, mergesInBackground: false)
    try writer.commit()
    return (index, writer)
  }

  static func newestManifest(in directory: URL) throws -> IndexManifest {
    try #require(try IndexDirectory.newestCommit(in: directory))
  }

  /// The files of the newest commit.
  static func files(in directory: URL) throws -> Set<String> {
    Set(try newestManifest(in: directory).files.map(\.name))
  }

  /// Each commit of new documents writes one segment and its documents, and names the
  /// files of the segments before it again; opened, the directory answers as the index
  /// that committed it, scores included, and as one build of everything.
  @Test func aCommitWritesOnlyTheNewSegment() throws {
    let (base, batches) = try SegmentWriterTests.batches(count: 3, seed: 21)
    try PersistenceTests.withTemporaryDirectory { directory in
      var (index, writer) = try Self.committedWriter(base: base, in: directory)
      var held = base
      let queries = Array(LiveIndexTests.queryWords(base + batches.flatMap { $0 }).prefix(30))
      let reader = try DiscoverIndex.open(at: directory)
      for (number, batch) in batches.enumerated() {
        let before = try Self.files(in: directory)
        try writer.add(contentsOf: batch)
        try writer.commit()
        held += batch
        // A reader's refresh opens the new segment alone.
        let kept = reader.segments.segments
        #expect(try reader.refreshIfChanged())
        let refreshed = reader.segments.segments
        #expect(refreshed.count == kept.count + 1)
        #expect(zip(kept, refreshed).allSatisfy { $0 === $1 }, "segments opened again")
        let manifest = try Self.newestManifest(in: directory)
        #expect(manifest.segments.count == number + 2)
        let written = Set(manifest.files.map(\.name)).subtracting(before)
        #expect(before.isSubset(of: Set(manifest.files.map(\.name))), "earlier files kept")
        #expect(written.count == 2, "one segment and its documents: \(written)")
        let reopened = try DiscoverIndex.open(at: directory)
        #expect(reopened.statistics.segments == number + 2)
        #expect(reopened.documentCount == index.documentCount)
        try SegmentWriterTests.expectSameAnswers(reopened, index, queries: queries)
        try SegmentWriterTests.expectSameAnswers(
          reopened, try DiscoverIndex.build(from: held), queries: queries)
      }
      // A writer of the reopened directory holds every document.
      _ = consume writer
      let reopened = try DiscoverIndex.open(at: directory)
      let next = try reopened.makeWriter()
      #expect(next.documentCount == held.count)
    }
  }

  /// Deletes, updates and count changes of documents in committed segments are written
  /// beside them (deletes and counts files), not by writing the segments again; the
  /// reopened directory and a writer of it see exactly what the committing writer held.
  @Test func deletesUpdatesAndCountsLastBesideTheSegments() throws {
    let (base, batches) = try SegmentWriterTests.batches(count: 1, seed: 23)
    try PersistenceTests.withTemporaryDirectory { directory in
      var (index, writer) = try Self.committedWriter(base: base, in: directory)
      try writer.add(contentsOf: batches[0])
      try writer.commit()
      var held = base + batches[0]
      var random = SplitMix64(seed: 29)
      held.shuffle(using: &random)
      let words = Array(LiveIndexTests.queryWords(held).prefix(40))
      let segmentFiles = try Self.newestManifest(in: directory).segments.map(\.file)
      for document in held.suffix(20) { _ = writer.delete(id: document.id) }
      held.removeLast(20)
      for position in 0..<10 {
        held[position] = LiveIndexTests.retitled(held[position], with: words, random: &random)
        #expect(try writer.update(held[position]))
      }
      var counted: [String: Int] = [:]
      for (number, document) in held[10..<60].enumerated() {
        guard case .video(var video) = document else { continue }
        video.viewCount = 1_000_000 + number
        counted[video.id] = video.viewCount
        try writer.updateCounts(CountUpdate(id: video.id, viewCount: video.viewCount))
        held[10 + number] = .video(video)
      }
      #expect(!counted.isEmpty)
      try writer.commit()
      let manifest = try Self.newestManifest(in: directory)
      #expect(Array(manifest.segments.map(\.file).prefix(2)) == segmentFiles, "kept, not rewritten")
      #expect(manifest.segments.count == 3)
      #expect(manifest.segments.prefix(2).contains { $0.deletes != nil })
      #expect(manifest.segments.prefix(2).contains { $0.counts != nil })

      let reopened = try DiscoverIndex.open(at: directory)
      #expect(reopened.statistics.deletedDocuments == index.statistics.deletedDocuments)
      #expect(reopened.statistics.deletedDocuments == 30)
      try SegmentWriterTests.expectSameAnswers(reopened, index, queries: words)
      try DeletionTests.expectSameMatches(
        reopened, try DiscoverIndex.build(from: held), queries: words)

      _ = consume writer
      var next = try reopened.makeWriter()
      #expect(next.documentCount == held.count)
      for (id, views) in counted {
        let stored = next.store.document(id: id)
        guard case .video(let video) = stored else {
          Issue.record("\(id) is not a held video")
          continue
        }
        #expect(video.viewCount == views, "\(id)")
      }
      for document in held.prefix(10) {
        let stored = next.store.document(id: document.id)
        #expect(stored == document, "the update is held")
      }
    }
  }

  /// A commit with nothing new beside a segment names its deletes and counts files again
  /// instead of writing them.
  @Test func unchangedDeletesAndCountsAreNotWrittenAgain() throws {
    let (base, batches) = try SegmentWriterTests.batches(count: 1, seed: 31)
    try PersistenceTests.withTemporaryDirectory { directory in
      var (_, writer) = try Self.committedWriter(base: base, in: directory)
      _ = writer.delete(id: base[0].id)
      let video = try #require(
        base.lazy.compactMap { if case .video(let video) = $0 { video } else { nil } }.last)
      try writer.updateCounts(CountUpdate(id: video.id, viewCount: 77))
      try writer.commit()
      let first = try Self.newestManifest(in: directory)
      #expect(first.segments[0].deletes != nil && first.segments[0].counts != nil)
      try writer.add(contentsOf: batches[0])
      try writer.commit()
      let second = try Self.newestManifest(in: directory)
      #expect(second.segments[0] == first.segments[0])
      #expect(second.segments.count == 2)
    }
  }

  /// Deletes and counts files that do not fit their segment, with checksums that match
  /// (as a forger would make them) or not, make opening fail with `corruptIndex`, never a
  /// crash; the commit before stays readable.
  @Test func damagedDeletesAndCountsFilesAreRefused() throws {
    let base = Array(try SegmentWriterTests.batches(count: 1, seed: 37).base.prefix(300))
    let video = try #require(
      base.lazy.compactMap { if case .video(let video) = $0 { video } else { nil } }.first)
    var forgeries: [(String, @Sendable (inout [UInt8]) -> Void)] = [
      ("deletes", { $0.removeLast(8) }),
      ("deletes", { $0.replaceSubrange(8..<12, with: [0xFF, 0xFF, 0xFF, 0x7F]) }),
      ("counts", { $0[12] = 200 }),
      ("counts", { $0.replaceSubrange(13..<17, with: [0xFF, 0xFF, 0xFF, 0xFF]) }),
      ("counts", { $0.replaceSubrange(17..<25, with: [0, 0, 0, 0, 0, 0, 0, 0x80]) }),
      ("counts", { $0.append(0) }),
    ]
    forgeries.append(("counts", { $0.replaceSubrange(0..<8, with: Array("DSDELET1".utf8)) }))
    for (number, (kind, forge)) in forgeries.enumerated() {
      for recomputeChecksum in [true, false] {
        try PersistenceTests.withTemporaryDirectory { directory in
          var (_, writer) = try Self.committedWriter(base: base, in: directory)
          _ = writer.delete(id: base[1].id)
          try writer.updateCounts(CountUpdate(id: video.id, viewCount: 5))
          try writer.commit()
          var manifest = try Self.newestManifest(in: directory)
          let file = try #require(
            kind == "deletes" ? manifest.segments[0].deletes : manifest.segments[0].counts)
          let url = directory.appendingPathComponent(file.file)
          var bytes = Array(try Data(contentsOf: url))
          forge(&bytes)
          try Data(bytes).write(to: url)
          if recomputeChecksum {
            var forged = file
            forged.bytes = bytes.count
            forged.checksum = bytes.withUnsafeBytes { CRC32C.checksum($0) }
            if kind == "deletes" {
              manifest.segments[0].deletes = forged
            } else {
              manifest.segments[0].counts = forged
            }
            try Data(manifest.bytes).write(
              to: directory.appendingPathComponent(
                IndexManifest.fileName(generation: manifest.generation)))
          }
          do {
            let opened = try DiscoverIndex.open(at: directory)
            // A size that no longer matches the manifest is a torn commit: the one before
            // it opens.
            #expect(!recomputeChecksum, "forgery \(number)")
            #expect(opened.statistics.generation < manifest.generation, "forgery \(number)")
          } catch let error as SearchError {
            #expect(error.code == .corruptIndex, "forgery \(number): \(error.message)")
          }
          _ = consume writer
        }
      }
    }
  }

  /// A manifest line of a segment's file before any segment line, or a second deletes
  /// line for one segment, is a damaged manifest.
  @Test func misplacedSegmentFileLinesAreDamage() throws {
    let deletes = IndexManifest.CheckedFile(
      file: "deletes-00000000000000000002-0.del", bytes: 48, checksum: 7)
    var manifest = IndexManifest(
      generation: 2,
      segments: [
        IndexManifest.Segment(
          file: IndexManifest.segmentFileName(generation: 2), bytes: 9, deletes: deletes)
      ])
    #expect(try IndexManifest.parse(manifest.bytes).get() == manifest)
    let text = String(decoding: manifest.bytes.dropLast(16), as: UTF8.self)
    func sealed(_ text: String) -> [UInt8] {
      let crc = String(Array(text.utf8).withUnsafeBytes { CRC32C.checksum($0) }, radix: 16)
      return Array(
        (text + "crc32c " + String(repeating: "0", count: 8 - crc.count) + crc + "\n").utf8)
    }
    let lines = text.split(separator: "\n").map(String.init)
    let swapped = [lines[0], lines[1], lines[3], lines[2]].joined(separator: "\n") + "\n"
    #expect(throws: ManifestDamage.self) { try IndexManifest.parse(sealed(swapped)).get() }
    let twice = text + lines[3] + "\n"
    #expect(throws: ManifestDamage.self) { try IndexManifest.parse(sealed(twice)).get() }
    // A whole manifest of no segment would open an index of nothing.
    let empty = lines[0] + "\n" + lines[1] + "\n"
    #expect(throws: ManifestDamage.self) { try IndexManifest.parse(sealed(empty)).get() }
    manifest.segments[0].deletes?.file = "deletes-../x.del"
    #expect(throws: ManifestDamage.self) { try IndexManifest.parse(manifest.bytes).get() }
  }
}

extension SegmentCommitTests {
  /// A commit of segments that fails at any step (a full disk, injected) leaves the
  /// directory as it was, publishes nothing and keeps the writer's changes: the next commit
  /// lands them.
  @Test(arguments: [IndexDirectory.FaultStep.segment, .documents, .manifest])
  func aFailedSegmentCommitLeavesTheLastOne(step: IndexDirectory.FaultStep) throws {
    let (base, batches) = try SegmentWriterTests.batches(count: 1, seed: 41)
    let small = Array(base.prefix(300))
    try PersistenceTests.withTemporaryDirectory { directory in
      var (index, writer) = try Self.committedWriter(base: small, in: directory)
      try writer.add(contentsOf: batches[0].prefix(20))
      try writer.commit()
      let before = try PersistenceTests.contents(of: directory)
      let live = index.documentCount
      let deleted = small[3].id
      let wasHeld = writer.delete(id: deleted)
      #expect(wasHeld)
      try writer.add(contentsOf: batches[0].dropFirst(20).prefix(20))
      IndexDirectory.injectedFaults.withLock { $0[directory.path] = step }
      let error = #expect(throws: SearchError.self) { try writer.commit() }
      IndexDirectory.injectedFaults.withLock { $0[directory.path] = nil }
      #expect(error?.code == .io)
      #expect(try PersistenceTests.contents(of: directory) == before)
      #expect(index.documentCount == live, "nothing published")
      #expect(try DiscoverIndex.open(at: directory).documentCount == live)
      try writer.commit()
      let reopened = try DiscoverIndex.open(at: directory)
      #expect(reopened.documentCount == live - 1 + 20)
      #expect(index.documentCount == reopened.documentCount)
    }
  }
}

extension SegmentCommitTests {
  /// A directory of 400 documents and six batches of 30 committed by a writer whose merges
  /// run on a task of their own, once they are done: the index, its writer, the documents
  /// held, and the files of the segments the merges wrote (at least one).
  static func mergedWithoutCommit(seed: UInt64, in directory: URL) throws -> (
    index: DiscoverIndex, writer: IndexWriter, held: [Document], pending: Set<String>
  ) {
    let (base, batches) = try SegmentWriterTests.batches(count: 6, seed: seed)
    var (index, writer) = try committedWriter(base: Array(base.prefix(400)), in: directory)
    writer.mergePolicy = MergePolicy(floorDocuments: 10, segmentsPerTier: 2, maximumMergeAtOnce: 3)
    var held = Array(base.prefix(400))
    for batch in batches {
      try writer.add(contentsOf: batch.prefix(30))
      held += batch.prefix(30)
      try writer.commit()
    }
    writer.waitForMerges()
    let pending = Set(index.mergedFiles.segments.values.flatMap { $0.files.map(\.name) })
    try #require(!pending.isEmpty, "a merge wrote its segment")
    return (index, writer, held, pending)
  }

  /// A merge on a task of its own writes its segment into the directory as it finishes; the
  /// next commit names those files instead of writing the segment, and the commits' cleanups
  /// keep them until then.
  @Test func aBackgroundMergeWritesItsSegmentForTheNextCommit() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      var (index, writer, held, pending) = try Self.mergedWithoutCommit(seed: 43, in: directory)
      for name in pending {
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path))
      }
      let before = try Self.files(in: directory)
      try writer.commit()
      let written = try Self.files(in: directory).subtracting(before)
      #expect(written.isSubset(of: pending), "only the merges' files are new: \(written)")
      #expect(index.mergedFiles.segments.isEmpty)
      let reopened = try DiscoverIndex.open(at: directory)
      #expect(reopened.documentCount == held.count)
      #expect(reopened.statistics.segments == index.statistics.segments)
      let words = Array(LiveIndexTests.queryWords(held).prefix(20))
      try SegmentWriterTests.expectSameAnswers(reopened, index, queries: words)
      _ = consume writer
      #expect(try reopened.makeWriter().documentCount == held.count)
    }
  }

  /// A merge's files that are gone by the next commit (removed from outside) are not named:
  /// the commit writes the merged segment itself, and the directory opens whole.
  @Test func aMergesMissingFilesAreWrittenByTheCommit() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      var (index, writer, held, pending) = try Self.mergedWithoutCommit(seed: 47, in: directory)
      for name in pending {
        try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
      }
      try writer.commit()
      let reopened = try DiscoverIndex.open(at: directory)
      #expect(reopened.statistics.generation == index.statistics.generation)
      #expect(reopened.documentCount == held.count)
    }
  }
}

extension SegmentCommitTests {
  /// Random rounds of adds, updates, deletes and count changes, each committed (merges on
  /// a task of their own) or only published: after every commit the reopened directory
  /// counts and matches as the writer's index, and a writer of it holds the same documents.
  @Test(arguments: [51, 52] as [UInt64])
  func randomChangesReopenAsCommitted(seed: UInt64) throws {
    let (base, batches) = try SegmentWriterTests.batches(count: 8, seed: seed)
    var random = SplitMix64(seed: seed)
    try PersistenceTests.withTemporaryDirectory { directory in
      var (index, writer) = try Self.committedWriter(base: Array(base.prefix(300)), in: directory)
      writer.mergePolicy = MergePolicy(floorDocuments: 20, segmentsPerTier: 2)
      var held = Array(base.prefix(300))
      let words = Array(LiveIndexTests.queryWords(base + batches.flatMap { $0 }).prefix(12))
      for (round, batch) in batches.enumerated() {
        let added = Array(batch.prefix(25))
        try writer.add(contentsOf: added)
        held += added
        for _ in 0..<5 {
          let position = Int(random.next() % UInt64(held.count))
          _ = writer.delete(id: held[position].id)
          held.remove(at: position)
        }
        for _ in 0..<5 {
          let position = Int(random.next() % UInt64(held.count))
          held[position] = LiveIndexTests.retitled(held[position], with: words, random: &random)
          _ = try writer.update(held[position])
        }
        for _ in 0..<10 {
          let position = Int(random.next() % UInt64(held.count))
          guard case .video(var video) = held[position] else { continue }
          video.viewCount = Int(random.next() % 1_000_000)
          held[position] = .video(video)
          try writer.updateCounts(CountUpdate(id: video.id, viewCount: video.viewCount))
        }
        if round % 3 == 2 {
          try writer.publish()
          continue
        }
        try writer.commit()
        let reopened = try DiscoverIndex.open(at: directory)
        #expect(reopened.documentCount == index.documentCount, "round \(round)")
        #expect(reopened.documentCount == held.filter { $0.kind != .effect }.count)
        try DeletionTests.expectSameMatches(reopened, index, queries: words)
      }
      writer.waitForMerges()
      try writer.commit()
      _ = consume writer
      let reopened = try DiscoverIndex.open(at: directory)
      var next = try reopened.makeWriter()
      #expect(next.documentCount == held.count)
      for document in held {
        let stored = next.store.document(id: document.id)
        #expect(stored == document, "\(document.id)")
      }
      try DeletionTests.expectSameMatches(
        reopened, try DiscoverIndex.build(from: held), queries: words)
    }
  }
}

extension SegmentCommitTests {
  /// A deletes or counts file far larger than its segment can need (a 64 GiB sparse file,
  /// its size in a re-checksummed manifest) is refused before anything is allocated for it.
  @Test(arguments: ["deletes", "counts"])
  func aHugeSideFileIsRefusedUnread(kind: String) throws {
    let base = Array(try SegmentWriterTests.batches(count: 1, seed: 53).base.prefix(200))
    let video = try #require(
      base.lazy.compactMap { if case .video(let video) = $0 { video } else { nil } }.first)
    try PersistenceTests.withTemporaryDirectory { directory in
      var (_, writer) = try Self.committedWriter(base: base, in: directory)
      _ = writer.delete(id: base[1].id)
      try writer.updateCounts(CountUpdate(id: video.id, viewCount: 5))
      try writer.commit()
      var manifest = try Self.newestManifest(in: directory)
      var file = try #require(
        kind == "deletes" ? manifest.segments[0].deletes : manifest.segments[0].counts)
      let handle = try FileHandle(forWritingTo: directory.appendingPathComponent(file.file))
      try handle.truncate(atOffset: 64 << 30)
      try handle.close()
      file.bytes = 64 << 30
      if kind == "deletes" {
        manifest.segments[0].deletes = file
      } else {
        manifest.segments[0].counts = file
      }
      try Data(manifest.bytes).write(
        to: directory.appendingPathComponent(
          IndexManifest.fileName(generation: manifest.generation)))
      let error = #expect(throws: SearchError.self) { _ = try DiscoverIndex.open(at: directory) }
      #expect(error?.code == .corruptIndex, "\(error?.message ?? "")")
      _ = consume writer
    }
  }
}
