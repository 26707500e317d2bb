import Foundation
import SyntheticCorpus
import Testing

@testable import DiscoverSearch

/// A live index: writers that keep the index's documents, and add, update, delete and change
/// counts, with `publish()` for searches and `commit()` for the directory.
@Suite("Storage: a live index")
struct LiveIndexTests {
  static let documents: [Document] = [
    .user(User(id: "u1", username: "sunset_chaser", displayName: "Chaser", followerCount: 10)),
    .user(User(id: "u2", username: "wave_rider", followerCount: 5_000)),
    .hashtag(Hashtag(id: "h1", name: "sunset", viewCount: 900, videoCount: 2)),
    .sound(Sound(id: "s1", title: "Ocean Drive", artist: "Duke", videoCount: 2)),
    .video(
      Video(
        id: "v1", title: "Golden sunset over the bay", hashtags: ["sunset"], creator: "u1",
        sound: "s1", viewCount: 100)),
    .video(
      Video(
        id: "v2", title: "Sunset surfing session", hashtags: ["sunset", "surf"], creator: "u2",
        sound: "s1", viewCount: 50_000)),
    .video(Video(id: "v3", title: "Morning waves", creator: "u2", viewCount: 700)),
  ]

  static func ids(_ response: SearchResponse) -> [String] { response.results.map(\.id) }

  // MARK: Writers keep the index's documents

  @Test func aWriterOfAnOpenedIndexKeepsItsDocuments() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      try DiscoverIndex.build(from: Self.documents).save(to: directory)
      let index = try DiscoverIndex.open(at: directory)
      var writer = try index.makeWriter()
      #expect(writer.documentCount == Self.documents.count)
      try writer.add(Video(id: "v4", title: "Sunset timelapse", viewCount: 5))
      try writer.commit()
      #expect(index.documentCount == Self.documents.count + 1)
      #expect(Set(Self.ids(try index.search("sunset", in: .videos))) == ["v1", "v2", "v4"])
      // The directory holds the new commit, documents and all.
      let reopened = try DiscoverIndex.open(at: directory)
      #expect(reopened.documentCount == Self.documents.count + 1)
      #expect(try DiscoverIndex.verify(at: directory).generation == 2)
    }
  }

  @Test func aWriterOfAnIndexInMemoryKeepsItsDocuments() throws {
    let index = try DiscoverIndex.build(from: Self.documents)
    var writer = try index.makeWriter()
    try writer.add(Video(id: "v4", title: "Sunset timelapse", viewCount: 5))
    #expect(throws: SearchError.self) { try writer.add(Video(id: "v1", title: "Again")) }
    try writer.publish()
    #expect(index.documentCount == Self.documents.count + 1)
    // A second writer starts from what the first published.
    var second = try index.makeWriter()
    #expect(second.documentCount == Self.documents.count + 1)
    let deletedV4 = second.delete(id: "v4")
    #expect(deletedV4)
    try second.publish()
    #expect(index.documentCount == Self.documents.count)
  }

  // MARK: Deletes

  @Test func aDeletedDocumentLeavesHitsFacetsAndCompletions() throws {
    let index = try DiscoverIndex.build(from: Self.documents)
    #expect(try index.suggestions(forPrefix: "@sunset").contains { $0.text == "@sunset_chaser" })
    #expect(try !index.suggestions(forPrefix: "chaser").isEmpty)
    var writer = try index.makeWriter()
    let deletedV2 = writer.delete(id: "v2")
    #expect(deletedV2)
    let deletedU1 = writer.delete(id: "u1")
    #expect(deletedU1)
    let deletedNobody = writer.delete(id: "nobody")
    #expect(!deletedNobody)
    // Nothing changes before the publish.
    #expect(try index.search("sunset").facets.videos == 2)
    try writer.publish()
    let response = try index.search("sunset")
    #expect(!Self.ids(response).contains("v2"))
    #expect(!Self.ids(response).contains("u1"))
    #expect(response.facets.videos == 1)
    #expect(response.facets.users == 0)
    #expect(try index.search("surfing").totalHits == 0)
    #expect(try index.suggestions(forPrefix: "@sunset").allSatisfy { !$0.text.contains("chaser") })
    #expect(try index.suggestions(forPrefix: "chaser").isEmpty)
    // v1's creator is gone: it is still found, without the creator's name.
    let v1 = try #require(try index.search("golden", in: .videos).results.first)
    guard case .video(let metadata) = v1.metadata else {
      Issue.record("not a video")
      return
    }
    #expect(metadata.creatorID == "u1")
    #expect(metadata.creatorUsername == nil)
  }

  // MARK: Updates

  @Test func anUpdateReplacesTheDocumentLastWriteWins() throws {
    let index = try DiscoverIndex.build(from: Self.documents)
    var writer = try index.makeWriter()
    let replacedV3 = try writer.update(.video(Video(id: "v3", title: "Evening tide", viewCount: 9)))
    #expect(replacedV3)
    let replacedV3Again = try writer.update(
      .video(Video(id: "v3", title: "Night tide", viewCount: 9)))
    #expect(replacedV3Again)
    let replacedV9 = try writer.update(.video(Video(id: "v9", title: "Brand new tide")))
    #expect(!replacedV9)
    // An update may change the type.
    let replacedV1 = try writer.update(.sound(Sound(id: "v1", title: "Golden hour theme")))
    #expect(replacedV1)
    // An invalid document changes nothing.
    #expect(throws: SearchError.self) {
      try writer.update(.video(Video(id: "v2", title: "Broken", viewCount: -1)))
    }
    try writer.publish()
    #expect(try index.search("morning").totalHits == 0)
    #expect(try index.search("evening").totalHits == 0)
    #expect(Set(Self.ids(try index.search("tide"))) == ["v3", "v9"])
    #expect(Self.ids(try index.search("golden hour", in: .sounds)) == ["v1"])
    #expect(try index.search("golden", in: .videos).totalHits == 0)
    #expect(Self.ids(try index.search("surfing")) == ["v2"])
  }

  // MARK: Counts

  @Test func countUpdatesChangeRankingAtThePublish() throws {
    let index = try DiscoverIndex.build(from: Self.documents)
    #expect(Self.ids(try index.search("sunset", in: .videos)) == ["v2", "v1"])
    var writer = try index.makeWriter()
    try writer.updateCounts(CountUpdate(id: "v1", viewCount: 90_000_000, likeCount: 7))
    try writer.updateCounts(CountUpdate(id: "u1", followerCount: 1_000_000))
    try writer.updateCounts(CountUpdate(id: "h1", viewCount: 1, videoCount: 3))
    #expect(Self.ids(try index.search("sunset", in: .videos)) == ["v2", "v1"])
    try writer.publish()
    let videos = try index.search("sunset", in: .videos)
    #expect(Self.ids(videos) == ["v1", "v2"])
    guard case .video(let metadata) = videos.results[0].metadata else {
      Issue.record("not a video")
      return
    }
    #expect(metadata.viewCount == 90_000_000)
    #expect(metadata.likeCount == 7)
    guard case .user(let user) = try index.search("chaser", in: .users).results.first?.metadata
    else {
      Issue.record("no user")
      return
    }
    #expect(user.followerCount == 1_000_000)
  }

  @Test func countUpdatesMergeAndAReplacementDropsThem() throws {
    let index = try DiscoverIndex.build(from: Self.documents)
    var writer = try index.makeWriter()
    try writer.updateCounts(CountUpdate(id: "v1", viewCount: 5, likeCount: 6))
    try writer.updateCounts(CountUpdate(id: "v1", viewCount: 7))
    try writer.updateCounts(CountUpdate(id: "v3", viewCount: 8))
    try writer.update(.video(Video(id: "v3", title: "Morning waves", viewCount: 9)))
    try writer.updateCounts(CountUpdate(id: "v2", viewCount: 10))
    let deleted = writer.delete(id: "v2")
    #expect(deleted)
    try writer.add(Video(id: "v2", title: "Sunset surfing session", viewCount: 11))
    try writer.publish()
    func counts(_ id: String) throws -> (Int, Int)? {
      let results = try index.search(id == "v3" ? "morning" : "sunset", in: .videos).results
      guard case .video(let video)? = results.first(where: { $0.id == id })?.metadata else {
        return nil
      }
      return (video.viewCount, video.likeCount)
    }
    #expect(try counts("v1").map { [$0.0, $0.1] } == [7, 6])
    #expect(try counts("v3").map { [$0.0, $0.1] } == [9, 0])
    #expect(try counts("v2").map { [$0.0, $0.1] } == [11, 0])
    // The next writer reads the counts back from the published documents.
    var next = try index.makeWriter()
    try next.updateCounts(CountUpdate(id: "v1", likeCount: 1))
    try next.publish()
    #expect(try counts("v1").map { [$0.0, $0.1] } == [7, 1])
  }

  /// Views and likes recorded as events add to the counts; a count set replaces what was
  /// added before it, a replaced document drops what was added to the old one, and what
  /// events add is durable at the commit.
  @Test func engagementEventsFeedTheCounts() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      try DiscoverIndex.build(from: Self.documents).save(to: directory)
      let index = try DiscoverIndex.open(at: directory)
      var writer = try index.makeWriter()
      func event(_ kind: ContentEvent.Kind, _ video: String) -> ContentEvent {
        ContentEvent(kind, video: video, user: "viewer", at: Date(timeIntervalSince1970: 1e9))
      }
      let first = [
        event(.view, "v1"), event(.view, "v1"), event(.view, "v1"), event(.like, "v1"),
        event(.share, "v1"), event(.post, "v1"), event(.view, "ghost"), event(.view, "u1"),
        event(.view, "v3"), event(.view, "v2"), event(.view, "v2"),
      ]
      #expect(writer.updateCounts(from: first) == 7)
      // v2: two views, then a count set, then one more view.
      try writer.updateCounts(CountUpdate(id: "v2", viewCount: 1_000))
      #expect(writer.updateCounts(from: [event(.view, "v2"), event(.like, "v2")]) == 2)
      // v3: a view, then the document replaced.
      try writer.update(.video(Video(id: "v3", title: "Morning waves", viewCount: 7)))
      try writer.commit()
      func counts(_ id: String) throws -> [Int] {
        var store = try DiscoverIndex.open(at: directory).snapshot.storedDocuments()
        guard case .video(let video)? = store.document(id: id) else { return [] }
        return [video.viewCount, video.likeCount]
      }
      #expect(try counts("v1") == [103, 1])
      #expect(try counts("v2") == [1_001, 1])
      #expect(try counts("v3") == [7, 0])
      let results = try index.search("sunset", in: .videos).results
      guard case .video(let v1)? = results.first(where: { $0.id == "v1" })?.metadata else {
        Issue.record("v1 is not found")
        return
      }
      #expect(v1.viewCount == 103 && v1.likeCount == 1)
    }
  }

  @Test func badCountUpdatesAreRefusedAndChangeNothing() throws {
    let index = try DiscoverIndex.build(from: Self.documents)
    var writer = try index.makeWriter()
    let refused: [(CountUpdate, SearchError.Code)] = [
      (CountUpdate(id: "nobody", viewCount: 1), .documentNotFound),
      (CountUpdate(id: "u1", videoCount: 3), .invalidDocument),
      (CountUpdate(id: "u1", viewCount: 3), .invalidDocument),
      (CountUpdate(id: "s1", likeCount: 3), .invalidDocument),
      (CountUpdate(id: "v1", followerCount: 3), .invalidDocument),
      (CountUpdate(id: "v1", viewCount: -3), .invalidDocument),
    ]
    for (update, code) in refused {
      let error = #expect(throws: SearchError.self) { try writer.updateCounts(update) }
      #expect(error?.code == code, "\(update)")
    }
    try writer.publish()
    #expect(Self.ids(try index.search("sunset", in: .videos)) == ["v2", "v1"])
  }

  @Test func countLinesDecodeAndSayWhatIsWrong() throws {
    #expect(
      try CountUpdate(jsonLine: #"{"id":"v1","viewCount":10,"likeCount":2.0}"#)
        == CountUpdate(id: "v1", viewCount: 10, likeCount: 2))
    let bad = [
      (#"{"id":"v1"}"#, "no count"),
      (#"{"viewCount":1}"#, "missing \"id\""),
      (#"{"id":"v1","views":1}"#, "unknown field \"views\""),
      (#"{"id":"v1","viewCount":-1}"#, "non-negative integer"),
      (#"{"id":"v1","viewCount":1.5}"#, "non-negative integer"),
      (#"{"id":"v1","viewCount":1,"viewCount":2}"#, "given twice"),
      (#"["v1"]"#, "not a JSON object"),
      (#"{"id":"v1","#, "invalid JSON"),
    ]
    for (line, reason) in bad {
      let error = #expect(throws: SearchError.self) { try CountUpdate(jsonLine: line) }
      #expect(error?.message.contains(reason) == true, "\(line): \(error?.message ?? "")")
    }
  }

  // MARK: Publish and commit

  @Test func publishIsNotDurableAndCommitIs() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      try DiscoverIndex.build(from: Self.documents).save(to: directory)
      let index = try DiscoverIndex.open(at: directory)
      var writer = try index.makeWriter()
      let deletedV1 = writer.delete(id: "v1")
      #expect(deletedV1)
      try writer.publish()
      #expect(try index.search("golden").totalHits == 0)
      #expect(try DiscoverIndex.open(at: directory).search("golden").totalHits == 1)
      try writer.commit()
      #expect(try DiscoverIndex.open(at: directory).search("golden").totalHits == 0)
    }
  }

  @Test func oneWriterPerDirectoryUntilItIsGone() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      try DiscoverIndex.build(from: Self.documents).save(to: directory)
      let index = try DiscoverIndex.open(at: directory)
      var writer: IndexWriter? = try index.makeWriter()
      let other = try DiscoverIndex.open(at: directory)
      let error = #expect(throws: SearchError.self) { _ = try other.makeWriter() }
      #expect(error?.code == .indexLocked)
      try writer?.commit()
      writer = nil
      // The next writer starts from the newest commit, whichever object made it.
      var next = try other.makeWriter()
      #expect(next.documentCount == Self.documents.count)
      try next.add(Video(id: "v5", title: "Another sunset"))
      try next.commit()
      #expect(try index.refreshIfChanged())
      #expect(index.documentCount == Self.documents.count + 1)
    }
  }

  /// A commit of the previous version (manifest format 1, no documents file) opens and
  /// searches; it cannot be changed, and a save writes it anew in format 3, still without
  /// documents.
  @Test func aManifestOfFormatOneOpensWithoutDocuments() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      try DiscoverIndex.build(from: Self.documents).save(to: directory)
      var manifest = try #require(try IndexDirectory.newestCommit(in: directory))
      let documents = try PersistenceTests.documentsFile(in: directory)
      try FileManager.default.removeItem(at: documents)
      manifest.segments[0].documents = nil
      var text = String(decoding: manifest.bytes.dropLast(16), as: UTF8.self)
      text = text.replacingOccurrences(
        of: "discover-index-manifest 3", with: "discover-index-manifest 1")
      let crc = String(Array(text.utf8).withUnsafeBytes { CRC32C.checksum($0) }, radix: 16)
      text += "crc32c " + String(repeating: "0", count: 8 - crc.count) + crc + "\n"
      let name = IndexManifest.fileName(generation: manifest.generation)
      try Data(text.utf8).write(to: directory.appendingPathComponent(name))
      let index = try DiscoverIndex.open(at: directory)
      #expect(Set(Self.ids(try index.search("sunset", in: .videos))) == ["v1", "v2"])
      let error = #expect(throws: SearchError.self) { _ = try index.makeWriter() }
      #expect(error?.code == .invalidArgument)
      #expect(try DiscoverIndex.verify(at: directory).generation == manifest.generation)
      try index.save(to: directory)
      #expect(try IndexDirectory.newestCommit(in: directory)?.segments[0].documents == nil)
    }
  }

  /// Records longer than a chunk (4 MB) and many small ones across chunk boundaries come
  /// back whole from the writer's chunks and from the documents file.
  @Test func recordsLongerThanAChunkComeBackWhole() throws {
    let long = String(repeating: "sunset waves ", count: 500_000)  // 6.5 MB
    var documents = Self.documents
    documents.append(.video(Video(id: "long", title: "A long one", description: long)))
    for number in 0..<20_000 {
      documents.append(
        .hashtag(Hashtag(id: "tag\(number)", name: "tag\(number)", viewCount: number)))
    }
    documents.append(.video(Video(id: "long2", title: "Another long one", description: long)))
    try PersistenceTests.withTemporaryDirectory { directory in
      try DiscoverIndex.build(from: documents).save(to: directory)
      let writer = try DiscoverIndex.open(at: directory).makeWriter()
      var store = writer.store
      #expect(writer.documentCount == documents.count)
      for document in documents where document.id.hasPrefix("long") || document.id == "tag19999" {
        #expect(store.document(id: document.id) == document, "\(document.id)")
      }
    }
  }

  @Test func aNewWriterRemovesWhatKilledWritersLeft() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      try DiscoverIndex.build(from: Self.documents).save(to: directory)
      let before = try PersistenceTests.contents(of: directory).sorted()
      let left = [
        IndexManifest.segmentFileName(generation: 9),
        IndexManifest.documentsFileName(generation: 9),
        IndexManifest.documentsFileName(generation: 10) + ".tmp-2000000000-3",
      ]
      for name in left {
        try Data("partial".utf8).write(to: directory.appendingPathComponent(name))
      }
      let writer = try DiscoverIndex.open(at: directory).makeWriter()
      #expect(try PersistenceTests.contents(of: directory).sorted() == before)
      #expect(writer.documentCount == Self.documents.count)
    }
  }

  @Test func aFailedCommitKeepsTheLastCommitAndTheWritersChanges() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      try DiscoverIndex.build(from: Self.documents).save(to: directory)
      let index = try DiscoverIndex.open(at: directory)
      var writer = try index.makeWriter()
      let deletedV1 = writer.delete(id: "v1")
      #expect(deletedV1)
      let before = try PersistenceTests.contents(of: directory).sorted()
      for step in [IndexDirectory.FaultStep.segment, .documents, .manifest] {
        IndexDirectory.injectedFaults.withLock { $0[directory.path] = step }
        let error = #expect(throws: SearchError.self) { try writer.commit() }
        IndexDirectory.injectedFaults.withLock { $0[directory.path] = nil }
        #expect(error?.code == .io, "\(step)")
        #expect(try PersistenceTests.contents(of: directory).sorted() == before, "\(step)")
        #expect(try index.search("golden").totalHits == 1, "nothing published: \(step)")
      }
      try writer.commit()
      #expect(try DiscoverIndex.open(at: directory).search("golden").totalHits == 0)
    }
  }

  /// A real full disk: a 1 MB tmpfs (mounted for the test; it needs root, as CI has, and
  /// is skipped without). A commit that does not fit fails with `io`, leaves the last commit
  /// and no partial file behind, and the writer keeps its changes for a later commit.
  @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
  func aFullDiskFailsTheCommitAndKeepsTheLastOne() throws {
    try PersistenceTests.withTemporaryDirectory { mountPoint in
      func mountCommand(_ arguments: [String]) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/" + arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
      }
      try #require(
        try mountCommand(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint.path]),
        "cannot mount a tmpfs at \(mountPoint.path)")
      defer { _ = try? mountCommand(["umount", mountPoint.path]) }
      let directory = mountPoint.appendingPathComponent("index")
      try DiscoverIndex.build(from: Self.documents).save(to: directory)
      let before = try PersistenceTests.contents(of: directory).sorted()
      let index = try DiscoverIndex.open(at: directory)
      var writer = try index.makeWriter()
      // About 1.5 MB of new text: more than the disk has left.
      for number in 0..<300 {
        let words = (0..<500).map { "word\(number)x\($0)" }.joined(separator: " ")
        try writer.add(Video(id: "big\(number)", title: "big video \(number)", description: words))
      }
      let error = #expect(throws: SearchError.self) { try writer.commit() }
      #expect(error?.code == .io, "\(error?.message ?? "")")
      #expect(error?.message.contains("No space left") == true, "\(error?.message ?? "")")
      #expect(try PersistenceTests.contents(of: directory).sorted() == before)
      #expect(try DiscoverIndex.open(at: directory).documentCount == index.documentCount)
      #expect(index.documentCount == Self.documents.count, "nothing was published")
      // Room made, the same writer commits.
      for number in 0..<300 {
        let deleted = writer.delete(id: "big\(number)")
        #expect(deleted)
      }
      try writer.add(Video(id: "small", title: "A small sunset"))
      try writer.commit()
      #expect(try DiscoverIndex.open(at: directory).documentCount == Self.documents.count + 1)
    }
  }

  @Test func aDamagedDocumentsFileStopsWritersNotSearches() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      try DiscoverIndex.build(from: Self.documents).save(to: directory)
      let file = try PersistenceTests.documentsFile(in: directory)
      var bytes = try Data(contentsOf: file)
      bytes[bytes.count / 2] ^= 0x20
      try bytes.write(to: file)
      let index = try DiscoverIndex.open(at: directory)
      #expect(try index.search("sunset").totalHits > 0)
      let error = #expect(throws: SearchError.self) { _ = try index.makeWriter() }
      #expect(error?.code == .corruptIndex)
      #expect(error?.message.contains("checksum") == true)
      let verified = #expect(throws: SearchError.self) { try DiscoverIndex.verify(at: directory) }
      #expect(verified?.code == .corruptIndex)
    }
  }

  /// Documents files whose checksums were recomputed, so that only their content can tell:
  /// garbage, a record cut short, an empty record, a record that is no document. Each is
  /// refused with `corruptIndex` by a writer and by `verify`, and searches go on.
  @Test func forgedDocumentsFilesAreRefusedNotTrusted() throws {
    var valid: [UInt8] = []
    DocumentRecord.encode(Self.documents[0], into: &valid)
    let framedValid = [UInt8(valid.count)] + valid
    let forgeries: [[UInt8]] = [
      Array("not records at all".utf8),
      framedValid + [40, 1, 2],
      framedValid + [0],
      [3, 9, 9, 9],
      [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
      framedValid,
    ]
    for forgery in forgeries {
      try PersistenceTests.withTemporaryDirectory { directory in
        try DiscoverIndex.build(from: Self.documents).save(to: directory)
        let file = try PersistenceTests.documentsFile(in: directory)
        var manifest = try #require(try IndexDirectory.newestCommit(in: directory))
        try Data(forgery).write(to: file)
        manifest.segments[0].documents?.bytes = forgery.count
        manifest.segments[0].documents?.checksum = forgery.withUnsafeBytes { CRC32C.checksum($0) }
        try Data(manifest.bytes).write(
          to: directory.appendingPathComponent(
            IndexManifest.fileName(generation: manifest.generation)))
        let index = try DiscoverIndex.open(at: directory)
        #expect(try index.search("sunset").totalHits > 0)
        let error = #expect(throws: SearchError.self) { _ = try index.makeWriter() }
        #expect(error?.code == .corruptIndex, "\(forgery): \(error?.message ?? "")")
        let verified = #expect(throws: SearchError.self) { try DiscoverIndex.verify(at: directory) }
        #expect(verified?.code == .corruptIndex)
      }
    }
  }

  // MARK: A writer's index equals one built from its documents

  /// After random adds, updates, deletes and count changes, each published state answers
  /// as an index built in one pass from the same documents: the same totals, facet counts
  /// and hits. Scores are the same while one segment holds everything and the writer's
  /// analysis holds no removed document; otherwise deleted documents still count in the
  /// statistics until a merge (as in Lucene), and segments built beside others split tags
  /// by a vocabulary that counts the removed documents' words. Documents come from the
  /// real corpus.
  @Test(arguments: [UInt64(1), 2, 3])
  func publishedStatesAnswerAsFreshBuilds(seed: UInt64) throws {
    let pool = try RealCorpus.load().documents.enumerated()
      .filter { $0.offset % 53 == Int(seed) }.map(\.element)
    var random = SplitMix64(seed: seed)
    var model: [String: Document] = [:]
    let start = pool.prefix(pool.count / 2)
    for document in start { model[document.id] = document }
    let index = try DiscoverIndex.build(from: Array(start))
    var writer = try index.makeWriter()
    var next = start.count
    let queryWords = Self.queryWords(pool)
    for round in 0..<6 {
      for _ in 0..<12 {
        let held = model.keys.sorted()
        switch random.next() % 4 {
        case 0 where next < pool.count:
          try writer.add(pool[next])
          model[pool[next].id] = pool[next]
          next += 1
        case 1 where !held.isEmpty:
          let id = held[Int(random.next() % UInt64(held.count))]
          let deleted = writer.delete(id: id)
          #expect(deleted)
          model[id] = nil
        case 2 where !held.isEmpty:
          let id = held[Int(random.next() % UInt64(held.count))]
          let replacement = Self.retitled(model[id]!, with: queryWords, random: &random)
          try writer.update(replacement)
          model[id] = replacement
        default:
          guard !held.isEmpty else { continue }
          let id = held[Int(random.next() % UInt64(held.count))]
          let update = Self.countUpdate(for: model[id]!, random: &random)
          guard let update else { continue }
          try writer.updateCounts(update)
          update.apply(to: &model[id]!)
        }
      }
      try writer.publish()
      let fresh = try DiscoverIndex.build(from: model.values.sorted { $0.id < $1.id })
      #expect(index.documentCount == fresh.documentCount, "round \(round)")
      for word in queryWords.prefix(12) {
        for tab in [SearchTab.top, .videos, .users] {
          let live = try index.search(word, in: tab, limit: 50)
          let built = try fresh.search(word, in: tab, limit: 50)
          #expect(live.totalHits == built.totalHits, "\(word) \(tab) round \(round)")
          #expect(live.facets == built.facets, "\(word) \(tab) round \(round)")
          let set = index.segments
          if set.segments.count == 1 && set.deletedCount == 0 && !writer.analysisHasRemovals {
            #expect(
              Self.rankedBeyondTies(live) == Self.rankedBeyondTies(built),
              "\(word) \(tab) round \(round)")
          } else if built.totalHits <= 50 {
            #expect(
              Set(live.results.map(\.id)) == Set(built.results.map(\.id)),
              "\(word) \(tab) round \(round)")
          }
        }
      }
    }
  }

  /// Count updates alone keep the writer's analysis (no document is analyzed again), and
  /// the published state still answers as a fresh build with the new counts.
  @Test func countUpdatesKeepTheAnalysisAndAnswerAsFreshBuilds() throws {
    let pool = try RealCorpus.load().documents.enumerated()
      .filter { $0.offset % 31 == 0 }.map(\.element)
    var model = Dictionary(uniqueKeysWithValues: pool.map { ($0.id, $0) })
    let index = try DiscoverIndex.build(from: pool)
    var writer = try index.makeWriter()
    try writer.add(Video(id: "fresh", title: "a fresh video"))
    model["fresh"] = .video(Video(id: "fresh", title: "a fresh video"))
    try writer.publish()
    #expect(writer.analysisIsCurrent)
    var random = SplitMix64(seed: 9)
    let ids = model.keys.sorted()
    for round in 0..<300 {
      let id = ids[Int(random.next() % UInt64(ids.count))]
      if round % 3 == 0, case .video(var video) = model[id]! {
        // Engagement events instead: views and likes added to the counts.
        let views = Int(random.next() % 4)
        let likes = Int(random.next() % 2)
        let events =
          Array(repeating: ContentEvent(.view, video: id, user: "u", at: Date()), count: views)
          + Array(repeating: ContentEvent(.like, video: id, user: "u", at: Date()), count: likes)
        #expect(writer.updateCounts(from: events) == views + likes)
        video.viewCount += views
        video.likeCount += likes
        model[id] = .video(video)
        continue
      }
      guard let update = Self.countUpdate(for: model[id]!, random: &random) else { continue }
      try writer.updateCounts(update)
      update.apply(to: &model[id]!)
    }
    #expect(writer.analysisIsCurrent)
    try writer.publish()
    let fresh = try DiscoverIndex.build(from: model.values.sorted { $0.id < $1.id })
    for word in Self.queryWords(pool).prefix(20) {
      for tab in [SearchTab.top, .videos, .users, .hashtags] {
        let live = try index.search(word, in: tab, limit: 50)
        let built = try fresh.search(word, in: tab, limit: 50)
        #expect(live.totalHits == built.totalHits, "\(word) \(tab)")
        #expect(Self.rankedBeyondTies(live) == Self.rankedBeyondTies(built), "\(word) \(tab)")
      }
    }
    // The next writer reads the new counts from the published records.
    let next = try index.makeWriter()
    var store = next.store
    for id in ids.prefix(50) { #expect(store.document(id: id) == model[id]) }
  }

  /// A publish after count changes alone keeps the postings, text and name filters of the
  /// last one (only the count columns are new) and still answers as a fresh build: hits,
  /// totals and completions, with followers and sound video counts reweighing the phrase
  /// completions; a commit makes it durable, and an add brings back a full build.
  @Test func countOnlyPublishesShareTheIndexAndAnswerAsFreshBuilds() throws {
    let pool = try RealCorpus.load().documents.enumerated()
      .filter { $0.offset % 29 == 0 }.map(\.element)
    var model = Dictionary(uniqueKeysWithValues: pool.map { ($0.id, $0) })
    try PersistenceTests.withTemporaryDirectory { directory in
      try DiscoverIndex.build(from: pool).save(to: directory)
      let index = try DiscoverIndex.open(at: directory)
      var writer = try index.makeWriter()
      try writer.publish()
      var random = SplitMix64(seed: 17)
      let ids = model.keys.sorted()
      let words = Self.queryWords(pool).prefix(16)
      for round in 0..<4 {
        let before = index.snapshot
        for _ in 0..<200 {
          let id = ids[Int(random.next() % UInt64(ids.count))]
          guard let update = Self.countUpdate(for: model[id]!, random: &random) else { continue }
          try writer.updateCounts(update)
          update.apply(to: &model[id]!)
        }
        if round == 3 { try writer.commit() } else { try writer.publish() }
        let after = index.snapshot
        #expect(after !== before)
        #expect(
          after.partitions.map(ObjectIdentifier.init)
            == before.partitions.map(ObjectIdentifier.init))
        let fresh = try DiscoverIndex.build(from: model.values.sorted { $0.id < $1.id })
        for word in words {
          for tab in [SearchTab.top, .videos, .users, .sounds] {
            let live = try index.search(word, in: tab, limit: 30)
            let built = try fresh.search(word, in: tab, limit: 30)
            #expect(live.totalHits == built.totalHits, "\(word) \(tab) round \(round)")
            #expect(
              Self.rankedBeyondTies(live) == Self.rankedBeyondTies(built),
              "\(word) \(tab) round \(round)")
          }
        }
        for prefix in ["a", "th", "mi", "ta", "the ", "@a"] {
          let live = try index.suggestions(forPrefix: prefix, limit: 10).map(\.text)
          let built = try fresh.suggestions(forPrefix: prefix, limit: 10).map(\.text)
          #expect(live == built, "\(prefix) round \(round)")
        }
      }
      let reopened = try DiscoverIndex.open(at: directory)
      for word in words {
        #expect(
          try reopened.search(word).results.map(\.id) == index.search(word).results.map(\.id))
      }
      // A new document: the next publish adds a segment of it, and keeps the others.
      let shared = index.snapshot
      try writer.add(Video(id: "count-fresh", title: "a fresh video"))
      try writer.publish()
      #expect(index.segments.segments.count == 2)
      #expect(index.segments.segments[0] === shared)
      #expect(try index.search("fresh", in: .videos).results.map(\.id).contains("count-fresh"))
    }
  }

  /// After a publish, a search as you type builds the new snapshot's lexicon alone, and the
  /// first completion its phrase dictionary; a publish of counts alone shares what is built.
  @Test func aSearchAsYouTypeAfterAPublishBuildsTheLexiconAlone() throws {
    let index = try DiscoverIndex.build(from: Self.documents)
    var writer = try index.makeWriter()
    try writer.add(Video(id: "v9", title: "Sunrise over the hills"))
    try writer.publish()
    #expect(index.snapshot.suggestionCache.parts.lexicon == nil)
    #expect(try index.search("sunri", matching: .asYouType).results.map(\.id) == ["v9"])
    #expect(index.snapshot.suggestionCache.parts.lexicon != nil)
    #expect(index.snapshot.suggestionCache.parts.phrases == nil)
    try writer.updateCounts(CountUpdate(id: "v9", viewCount: 5))
    try writer.publish()
    #expect(index.snapshot.suggestionCache.parts.lexicon != nil, "shared by the count publish")
    #expect(try index.suggestions(forPrefix: "sunri").map(\.text).contains("sunrise"))
    #expect(index.snapshot.suggestionCache.stored != nil)
  }

  /// Words of the pool's titles, for queries and new titles.
  static func queryWords(_ pool: [Document]) -> [String] {
    var words: [String] = []
    for document in pool {
      guard case .video(let video) = document else { continue }
      for word in video.title.split(separator: " ") where word.count >= 4 {
        let lower = word.lowercased()
        if lower.allSatisfy(\.isLetter) && !words.contains(lower) { words.append(lower) }
      }
    }
    return words
  }

  static func retitled(
    _ document: Document, with words: [String], random: inout SplitMix64
  ) -> Document {
    let word = words[Int(random.next() % UInt64(words.count))]
    switch document {
    case .video(var video):
      video.title = word + " " + video.title
      return .video(video)
    case .user(var user):
      user.displayName = word
      return .user(user)
    case .hashtag(var hashtag):
      hashtag.description = word
      return .hashtag(hashtag)
    case .sound(var sound):
      sound.title = word
      return .sound(sound)
    case .effect(var effect):
      effect.name = word
      return .effect(effect)
    }
  }

  static func countUpdate(for document: Document, random: inout SplitMix64) -> CountUpdate? {
    let value = Int(random.next() % 10_000_000)
    switch document {
    case .video: return CountUpdate(id: document.id, viewCount: value, likeCount: value / 10)
    case .user: return CountUpdate(id: document.id, followerCount: value)
    case .hashtag: return CountUpdate(id: document.id, viewCount: value)
    case .sound: return CountUpdate(id: document.id, videoCount: value % 1000)
    case .effect: return nil
    }
  }

  /// The page's ids and scores in order, without the results tied with the last one (which
  /// of several tied documents make the page is not specified).
  static func rankedBeyondTies(_ response: SearchResponse) -> [String] {
    let results = response.results
    guard let last = results.last?.score else { return [] }
    let complete = response.totalHits <= results.count
    return results.filter { complete || $0.score != last }
      .sorted { ($0.score, $1.id) > ($1.score, $0.id) }
      .map { "\($0.id) \($0.score)" }
  }
}

/// What each verification mode checks on open.
@Suite("Storage: verification modes")
struct VerificationModeTests {
  /// A letter flipped inside the titles (a section far larger than 64 KB, whose structure
  /// the flip leaves valid): the standard open serves the damaged title, the full open and
  /// `verify` refuse the file by its checksum.
  @Test func aFlipInALargeSectionIsCaughtByTheFullChecksOnly() throws {
    let index = try RealCorpus.load().index
    try PersistenceTests.withTemporaryDirectory { directory in
      try index.save(to: directory)
      let file = try PersistenceTests.indexFile(in: directory)
      var bytes = [UInt8](try Data(contentsOf: file))
      let title = Array("Die With A Smile".utf8)
      let start = try #require(
        bytes.indices.first { bytes[$0...].starts(with: title) }, "the title is in the file")
      bytes[start] = UInt8(ascii: "P")
      try Data(bytes).write(to: file)

      let opened = try DiscoverIndex.open(at: directory)
      let titles = try opened.search("smile", in: .videos, limit: 50).results.map(\.title)
      #expect(titles.contains { $0.contains("Pie With A Smile") })
      for open in [
        { _ = try DiscoverIndex.open(at: directory, verification: .full) },
        { _ = try DiscoverIndex.verify(at: directory) },
      ] {
        let error = #expect(throws: SearchError.self) { try open() }
        #expect(error?.code == .corruptIndex)
        #expect(error?.message.contains("checksum") == true, "\(error?.message ?? "")")
      }
    }
  }

  /// A flip in a small section is refused in either mode.
  @Test func aFlipInASmallSectionIsCaughtInEitherMode() throws {
    let index = try PersistenceTests.smallIndex()
    try PersistenceTests.withTemporaryDirectory { directory in
      try index.save(to: directory)
      let file = try PersistenceTests.indexFile(in: directory)
      var bytes = [UInt8](try Data(contentsOf: file))
      let title = Array("sunset".utf8)
      let start = try #require(bytes.indices.first { bytes[$0...].starts(with: title) })
      bytes[start] ^= 0x20
      try Data(bytes).write(to: file)
      for verification in [IndexVerification.standard, .full] {
        let error = #expect(throws: SearchError.self) {
          _ = try DiscoverIndex.open(at: directory, verification: verification)
        }
        #expect(error?.code == .corruptIndex, "\(verification)")
      }
    }
  }
}
