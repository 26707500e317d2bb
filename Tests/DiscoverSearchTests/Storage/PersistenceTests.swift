import DiscoverSearch
import Foundation
import Testing

/// Saving and opening indexes, and opening files that are not what they should be.
@Suite("Storage: save and open")
struct PersistenceTests {
  /// A fresh, empty temporary directory, removed after `body`.
  static func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("discover-persistence-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
  }

  static func contents(of directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
  }

  /// The one segment file `save(to:)` writes (its name is the format's business, not the
  /// test's): the only `.dsearch` file in the directory.
  static func indexFile(in directory: URL) throws -> URL {
    let names = try contents(of: directory).filter { $0.hasSuffix(".dsearch") }
    try #require(names.count == 1, "expected one segment file, found \(names)")
    return directory.appendingPathComponent(names[0])
  }

  /// The one documents file `save(to:)` writes beside the segment.
  static func documentsFile(in directory: URL) throws -> URL {
    let names = try contents(of: directory).filter { $0.hasPrefix("documents-") }
    try #require(names.count == 1, "expected one documents file, found \(names)")
    return directory.appendingPathComponent(names[0])
  }

  /// What a directory holds after a save: one manifest, one segment, one documents file,
  /// the writer's lock.
  static func expectOneCommit(in directory: URL) throws {
    let names = try contents(of: directory)
    #expect(names.count == 4, "\(names)")
    #expect(names.filter { $0.hasPrefix("manifest-") }.count == 1, "\(names)")
    #expect(names.filter { $0.hasPrefix("segment-") && $0.hasSuffix(".dsearch") }.count == 1)
    #expect(names.filter { $0.hasPrefix("documents-") && $0.hasSuffix(".docs") }.count == 1)
    #expect(names.contains("write.lock"), "\(names)")
  }

  static func smallIndex(_ word: String = "sunset") throws -> DiscoverIndex {
    var documents: [Document] = [
      .user(User(id: "u1", username: "\(word)_chaser", displayName: "Chaser", followerCount: 10)),
      .hashtag(Hashtag(id: "h1", name: word, viewCount: 5, videoCount: 2)),
      .sound(Sound(id: "s1", title: "\(word) drive", artist: "Neon", videoCount: 3)),
    ]
    for number in 0..<60 {
      documents.append(
        .video(
          Video(
            id: "v\(number)", title: "\(word) number \(number) 東京タワー 🔥", description: "café #dance",
            hashtags: ["dance", "fyp"], creator: "u1", sound: "s1", viewCount: number * 10,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(number)))))
    }
    return try DiscoverIndex.build(from: documents)
  }

  static let smallQueries = [
    "sunset", "東京", "🔥", "#dance", "@sunset_chaser", "cafe number", "\"number 7\"",
  ]

  static func responses(_ index: DiscoverIndex, _ queries: [String]) throws -> [SearchResponse] {
    var responses: [SearchResponse] = []
    // A fixed recency origin: with the default (now), answers change as the clock moves.
    var ranking = RankingOptions()
    ranking.recency.origin = Date(timeIntervalSince1970: 1_700_000_000)
    for query in queries {
      for tab in SearchTab.allCases {
        let first = try index.search(query, in: tab, limit: 7, ranking: ranking)
        responses.append(first)
        if let cursor = first.nextCursor {
          responses.append(
            try index.search(query, in: tab, limit: 7, after: cursor, ranking: ranking))
        }
      }
    }
    return responses
  }

  /// Expects opening `directory` to throw a corrupt-index or I/O error.
  static func expectOpenFails(_ directory: URL, _ context: String) {
    let error = #expect(throws: SearchError.self, "\(context)") {
      _ = try DiscoverIndex.open(at: directory)
    }
    if let error {
      #expect(error.code == .corruptIndex || error.code == .io, "\(context): \(error)")
    }
  }

  static let realCorpusQueries = [
    "bruno mars", "#minecraft", "minecraft", "東京", "아파트", "@mrbeast", "rosé", "funny video",
    "\"die with a smile\"", "ครึ่งๆ กลางๆ", "小蚂蚁", "🔥", "taylor swift", "zzzzqx",
  ]

  @Test func savedAndOpenedRealIndexAnswersIdentically() throws {
    let original = try RealCorpus.load().index
    try Self.withTemporaryDirectory { directory in
      try original.save(to: directory)
      let opened = try DiscoverIndex.open(at: directory)
      #expect(opened.documentCount == original.documentCount)
      for type in SearchResultType.allCases {
        #expect(opened.documentCount(of: type) == original.documentCount(of: type))
      }
      let before = try Self.responses(original, Self.realCorpusQueries)
      let after = try Self.responses(opened, Self.realCorpusQueries)
      #expect(before.count == after.count)
      for (expected, actual) in zip(before, after) {
        #expect(
          actual.results.map(\.id) == expected.results.map(\.id),
          "\(expected.query) in \(expected.tab)")
        #expect(actual.results.map(\.score) == expected.results.map(\.score), "\(expected.query)")
        #expect(actual.facets == expected.facets, "\(expected.query)")
        #expect(actual == expected, "\(expected.query) in \(expected.tab)")
      }
    }
  }

  @Test func cursorFromTheSavedIndexWorksOnTheOpenedOne() throws {
    let original = try Self.smallIndex()
    try Self.withTemporaryDirectory { directory in
      try original.save(to: directory)
      let opened = try DiscoverIndex.open(at: directory)
      let cursor = try #require(try original.search("sunset", limit: 5).nextCursor)
      let expected = try original.search("sunset", limit: 5, after: cursor)
      #expect(try opened.search("sunset", limit: 5, after: cursor) == expected)
    }
  }

  @Test func savingCreatesMissingDirectories() throws {
    let index = try Self.smallIndex()
    try Self.withTemporaryDirectory { directory in
      let nested = directory.appendingPathComponent("a/b/c")
      try index.save(to: nested)
      #expect(try DiscoverIndex.open(at: nested).documentCount == index.documentCount)
    }
  }

  @Test func savingTwiceReplacesTheIndexAndLeavesNoTemporaryFiles() throws {
    let first = try Self.smallIndex("sunset")
    let second = try Self.smallIndex("sunrise")
    try Self.withTemporaryDirectory { directory in
      try first.save(to: directory)
      let namesAfterFirst = try Self.contents(of: directory)
      try Self.expectOneCommit(in: directory)
      try second.save(to: directory)
      try Self.expectOneCommit(in: directory)
      #expect(try Self.contents(of: directory) != namesAfterFirst, "a commit writes new files")
      let opened = try DiscoverIndex.open(at: directory)
      #expect(try opened.search("sunset").totalHits == 0)
      #expect(try Self.responses(opened, ["sunrise"]) == Self.responses(second, ["sunrise"]))
      // And back again.
      try first.save(to: directory)
      try Self.expectOneCommit(in: directory)
      #expect(
        try Self.responses(DiscoverIndex.open(at: directory), Self.smallQueries)
          == Self.responses(first, Self.smallQueries))
    }
  }

  @Test func missingDirectoryIsAnIOError() throws {
    try Self.withTemporaryDirectory { directory in
      let missing = directory.appendingPathComponent("does-not-exist")
      let error = #expect(throws: SearchError.self) { _ = try DiscoverIndex.open(at: missing) }
      #expect(error?.code == .io)
      // A directory without an index file.
      Self.expectOpenFails(directory, "empty directory")
    }
  }

  @Test func savingWhereAFileIsInTheWayIsAnIOError() throws {
    let index = try Self.smallIndex()
    try Self.withTemporaryDirectory { directory in
      let file = directory.appendingPathComponent("plain-file")
      try Data("not a directory".utf8).write(to: file)
      let error = #expect(throws: SearchError.self) { try index.save(to: file) }
      #expect(error?.code == .io)
    }
  }

  /// Writes `bytes` as the index file of a fresh directory and expects opening it to fail.
  static func expectOpenFails(withIndexFile bytes: [UInt8], named name: String, _ context: String)
    throws
  {
    try withTemporaryDirectory { directory in
      try Data(bytes).write(to: directory.appendingPathComponent(name))
      expectOpenFails(directory, context)
    }
  }

  /// The bytes of a saved small index, and the index file's name.
  static func savedBytes() throws -> (bytes: [UInt8], name: String, index: DiscoverIndex) {
    let index = try smallIndex()
    return try withTemporaryDirectory { directory in
      try index.save(to: directory)
      let file = try indexFile(in: directory)
      return ([UInt8](try Data(contentsOf: file)), file.lastPathComponent, index)
    }
  }

  @Test func emptyOrForeignFileIsRejected() throws {
    let (bytes, name, _) = try Self.savedBytes()
    let corpus = [UInt8](try Data(contentsOf: RealCorpus.url).prefix(100_000))
    let foreign: [(String, [UInt8])] = [
      ("empty file", []),
      ("text", Array("hello, this is not an index\n".utf8)),
      ("corpus lines", corpus),
      ("zeros", [UInt8](repeating: 0, count: bytes.count)),
      ("ones", [UInt8](repeating: 0xFF, count: 4096)),
      ("magic only", Array(bytes.prefix(8))),
      ("header only", Array(bytes.prefix(16))),
    ]
    for (context, contents) in foreign {
      try Self.expectOpenFails(withIndexFile: contents, named: name, context)
    }
  }

  @Test func truncatedFileIsRejected() throws {
    let (bytes, name, _) = try Self.savedBytes()
    let cuts = [
      1, 7, 8, 15, 16, 17, 64, bytes.count / 3, bytes.count / 2, bytes.count - 40, bytes.count - 32,
      bytes.count - 1,
    ]
    for count in cuts {
      try Self.expectOpenFails(
        withIndexFile: Array(bytes.prefix(count)), named: name,
        "cut to \(count) of \(bytes.count) bytes")
    }
    // Extra bytes at the end hide the footer too.
    try Self.expectOpenFails(withIndexFile: bytes + [0, 1, 2, 3], named: name, "4 bytes appended")
  }

  @Test func flippedByteInTheMiddleIsRejected() throws {
    let (bytes, name, _) = try Self.savedBytes()
    var damaged = bytes
    damaged[bytes.count / 2] ^= 0x01
    try Self.expectOpenFails(
      withIndexFile: damaged, named: name, "bit flipped at \(bytes.count / 2)")
  }

  @Test func anyFlippedByteIsRejectedOrHarmless() throws {
    let (bytes, name, index) = try Self.savedBytes()
    let expected = try Self.responses(index, Self.smallQueries)
    var undetected: [Int] = []
    // About 300 bytes spread over the file, and every byte of the header and footer.
    let spread = stride(from: 0, to: bytes.count, by: max(1, bytes.count / 300))
    let offsets = Set(Array(spread) + Array(0..<16) + Array((bytes.count - 32)..<bytes.count))
    for offset in offsets.sorted() {
      var damaged = bytes
      damaged[offset] ^= 0x5A
      try Self.withTemporaryDirectory { directory in
        try Data(damaged).write(to: directory.appendingPathComponent(name))
        do {
          let opened = try DiscoverIndex.open(at: directory)
          // Opening a damaged file may succeed only where the byte is unused (padding
          // between sections, the footer's reserved word); then every answer must be
          // unchanged.
          undetected.append(offset)
          #expect(
            try Self.responses(opened, Self.smallQueries) == expected,
            "byte \(offset) changed answers")
        } catch let error as SearchError {
          #expect(error.code == .corruptIndex || error.code == .io, "byte \(offset): \(error)")
        }
      }
    }
    // Padding is at most 15 bytes per section: nearly every flip must be caught.
    #expect(undetected.count * 10 < offsets.count, "undetected flips at \(undetected)")
  }
}
