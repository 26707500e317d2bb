import Foundation
import Testing

@testable import DiscoverSearch

/// `IndexWriter.add(contentsOf:)`, and the copy-on-write tables it and `add(_:)` share.
@Suite struct IndexWriterBatchTests {
  /// The saved bytes of an index: equal bytes, equal index.
  private func savedBytes(_ index: DiscoverIndex) throws -> Data {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("discover-batch-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    try index.save(to: directory)
    var bytes = Data()
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    for file in files {
      bytes.append(Data(file.utf8))
      bytes.append(try Data(contentsOf: directory.appendingPathComponent(file)))
    }
    return bytes
  }

  @Test func batchAddBuildsTheSameIndexAsAddingOneByOne() throws {
    let corpus = try RealCorpus.load()
    var single = IndexWriter()
    for document in corpus.documents { try single.add(document) }
    var batched = IndexWriter()
    // Uneven batches, one of them empty, and a lazy sequence.
    try batched.add(contentsOf: corpus.documents.prefix(1))
    try batched.add(contentsOf: [])
    try batched.add(contentsOf: corpus.documents.dropFirst().prefix(2))
    try batched.add(contentsOf: corpus.documents.dropFirst(3).lazy.map { $0 })
    #expect(batched.documentCount == corpus.documents.count)
    let expected = try savedBytes(try single.makeIndex())
    #expect(try savedBytes(try batched.makeIndex()) == expected)
    // `DiscoverIndex.build(from:)` adds in a batch too.
    #expect(try savedBytes(corpus.index) == expected)
  }

  /// A video's creator and sound are looked up as it is added; one added later is found at
  /// commit, and one that never comes, or that names a document of another type, stays an
  /// unresolved id, whatever the order documents come in.
  @Test(arguments: ["people first", "videos first", "reversed"])
  func referencesResolveWhicheverComesFirst(order: String) throws {
    let people: [Document] = [
      .user(User(id: "u1", username: "dana", displayName: "Dana K")),
      .sound(Sound(id: "s1", title: "night drive", artist: "Lumen")),
      .hashtag(Hashtag(id: "h1", name: "night")),
    ]
    let videos: [Document] = [
      .video(Video(id: "v1", title: "night city one", creator: "u1", sound: "s1", viewCount: 30)),
      .video(Video(id: "v2", title: "night city two", creator: "u9", sound: "h1", viewCount: 20)),
      .video(Video(id: "v3", title: "night city three", creator: "v1", viewCount: 10)),
    ]
    let documents =
      switch order {
      case "people first": people + videos
      case "videos first": videos + people
      default: Array((people + videos).reversed())
      }
    var writer = IndexWriter()
    try writer.add(contentsOf: documents)
    let index = try writer.makeIndex()
    let results = try index.search("night city", in: .videos).results
    let metadata: [String: VideoMetadata] = Dictionary(
      uniqueKeysWithValues: results.compactMap { result in
        guard case .video(let video) = result.metadata else { return nil }
        return (result.id, video)
      })
    #expect(metadata.count == 3)
    #expect(metadata["v1"]?.creatorUsername == "dana")
    #expect(metadata["v1"]?.soundTitle == "night drive")
    #expect(metadata["v2"]?.creatorID == "u9" && metadata["v2"]?.creatorUsername == nil)
    #expect(metadata["v2"]?.soundID == "h1" && metadata["v2"]?.soundTitle == nil)
    #expect(metadata["v3"]?.creatorID == "v1" && metadata["v3"]?.creatorUsername == nil)
    let user = try index.search("@dana", in: .users).results.first
    guard case .user(let account) = user?.metadata else {
      Issue.record("no user")
      return
    }
    #expect(account.videoCount == 1)
  }

  /// Commit prefetches the creator terms of videos ahead; a creator whose name has no
  /// terms at all (only punctuation) leaves nothing to prefetch, and must not crash it.
  @Test func creatorsWithoutTermsCommit() throws {
    var writer = IndexWriter()
    try writer.add(.user(User(id: "u1", username: "!!!", displayName: "...")))
    for number in 0..<20 {
      try writer.add(.video(Video(id: "v\(number)", title: "clip \(number)", creator: "u1")))
    }
    let index = try writer.makeIndex()
    #expect(index.documentCount == 21)
    let response = try index.search("clip", in: .videos)
    #expect(response.totalHits == 20)
  }

  @Test func aBadDocumentStopsTheBatchWhereItIs() throws {
    var writer = IndexWriter()
    let documents: [Document] = [
      .hashtag(Hashtag(id: "h1", name: "dance")),
      .hashtag(Hashtag(id: "h2", name: "music")),
      .hashtag(Hashtag(id: "h1", name: "again")),
      .hashtag(Hashtag(id: "h3", name: "cooking")),
    ]
    #expect {
      try writer.add(contentsOf: documents)
    } throws: { error in
      (error as? SearchError)?.code == .invalidDocument
        && (error as? SearchError)?.message.contains("\"h1\"") == true
    }
    #expect(writer.documentCount == 2)
    let index = try writer.makeIndex()
    #expect(try index.search("music", in: .hashtags).results.map(\.id) == ["h2"])
    #expect(try index.search("cooking", in: .hashtags).results.isEmpty)
    // The documents after the bad one can be added again.
    try writer.add(contentsOf: documents.suffix(1))
    #expect(writer.documentCount == 3)
  }

  /// A writer is a value: a copy shares its term and id tables until one of them adds, and
  /// then neither sees what the other added.
  @Test func copiesOfAWriterAreIndependent() throws {
    var original = IndexWriter()
    try original.add(contentsOf: [
      .video(Video(id: "shared", title: "sunset beach")),
      .hashtag(Hashtag(id: "tag", name: "sunset")),
    ])
    var copy = original
    try original.add(Video(id: "only-original", title: "sunset mountains"))
    try copy.add(contentsOf: [.video(Video(id: "only-copy", title: "sunset volcano"))])
    // The same new id in both copies is no duplicate.
    try original.add(Hashtag(id: "both", name: "first"))
    try copy.add(Hashtag(id: "both", name: "second"))

    let first = try original.makeIndex()
    let second = try copy.makeIndex()
    #expect(
      try first.search("sunset", in: .videos).results.map(\.id).sorted() == [
        "only-original", "shared",
      ])
    #expect(
      try second.search("sunset", in: .videos).results.map(\.id).sorted() == [
        "only-copy", "shared",
      ])
    #expect(try first.search("volcano", in: .videos).results.isEmpty)
    #expect(try second.search("mountains", in: .videos).results.isEmpty)
    #expect(try first.search("first", in: .hashtags).results.map(\.id) == ["both"])
    #expect(try second.search("second", in: .hashtags).results.map(\.id) == ["both"])
    // The stored titles are copied on write too: shared, each would read the other's bytes.
    #expect(try first.search("mountains", in: .videos).results.map(\.title) == ["sunset mountains"])
    #expect(try second.search("volcano", in: .videos).results.map(\.title) == ["sunset volcano"])
    #expect(try first.search("first", in: .hashtags).results.map(\.title) == ["first"])
    #expect(try second.search("second", in: .hashtags).results.map(\.title) == ["second"])
  }

  /// A batch reserves room in the per-document arrays and the id table before it adds;
  /// batches of every size, one after another, must index what adding one by one does.
  @Test func reservingBeforeEachBatchKeepsEveryDocument() throws {
    var documents: [Document] = []
    for number in 0..<3000 {
      switch number % 4 {
      case 0:
        documents.append(
          .video(Video(id: "v\(number)", title: "clip \(number)", creator: "u\(number - 1)")))
      case 1: documents.append(.user(User(id: "u\(number)", username: "maker\(number)")))
      case 2: documents.append(.hashtag(Hashtag(id: "h\(number)", name: "tag\(number)")))
      default:
        documents.append(.sound(Sound(id: "s\(number)", title: "tune \(number)", artist: "band")))
      }
    }
    var single = IndexWriter()
    for document in documents { try single.add(document) }
    var batched = IndexWriter()
    var start = 0
    for size in [1, 2, 700, 3, 1500, 1, 793] {
      try batched.add(contentsOf: documents[start..<(start + size)])
      start += size
    }
    #expect(start == documents.count)
    #expect(try savedBytes(try batched.makeIndex()) == savedBytes(try single.makeIndex()))
  }
}
