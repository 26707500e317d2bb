import Foundation
import Testing

@testable import DiscoverCLI
@testable import DiscoverSearch

#if canImport(Glibc)
  import Glibc
#endif

/// Makes files and directories read-only for this process: by their mode bits, and when the
/// tests run as root, whom mode bits do not stop, also by the immutable attribute
/// (`chattr +i`), where the file system and the process's capabilities allow it.
enum ReadOnlyAccess {
  /// `FS_IOC_GETFLAGS` and `FS_IOC_SETFLAGS` of <linux/fs.h> (`_IOR`/`_IOW('f', 1/2, long)`).
  private static let getFlags: UInt = 0x8008_6601
  private static let setFlags: UInt = 0x4008_6602
  /// `FS_IMMUTABLE_FL`.
  private static let immutable: Int32 = 0x10

  /// Makes `url` read-only, or writable again.
  static func set(_ url: URL, readOnly: Bool) {
    var isDirectory: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
    let mode: mode_t =
      isDirectory.boolValue ? (readOnly ? 0o555 : 0o755) : (readOnly ? 0o444 : 0o644)
    chmod(url.path, mode)
    guard geteuid() == 0 else { return }
    let descriptor = open(url.path, O_RDONLY | (isDirectory.boolValue ? O_DIRECTORY : 0))
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    var flags: Int32 = 0
    guard ioctl(descriptor, getFlags, &flags) == 0 else { return }
    flags = readOnly ? flags | immutable : flags & ~immutable
    _ = ioctl(descriptor, setFlags, &flags)
  }

  /// Whether this process can be kept from writing a file and a directory here: false as
  /// root where the immutable attribute is not available.
  static let isAvailable: Bool = {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("discover-read-only-probe-\(UUID().uuidString)")
    let file = directory.appendingPathComponent("file")
    guard
      (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true))
        != nil,
      FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8))
    else { return false }
    set(file, readOnly: true)
    set(directory, readOnly: true)
    defer {
      set(directory, readOnly: false)
      set(file, readOnly: false)
      try? FileManager.default.removeItem(at: directory)
    }
    let writable = open(file.path, O_WRONLY)
    if writable >= 0 { close(writable) }
    let created = open(directory.appendingPathComponent("new").path, O_WRONLY | O_CREAT, 0o644)
    if created >= 0 { close(created) }
    return writable < 0 && created < 0
  }()
}

/// A read-only analytics file, or one in a read-only directory, still serves its reads:
/// trending searches, recent searches, popular queries and click counts. Only writes fail,
/// with a typed error that says the file is read-only.
@Suite(.enabled(if: ReadOnlyAccess.isAvailable, "this process cannot be kept from writing"))
struct ReadOnlyAnalyticsTests {
  static let now = Date(timeIntervalSince1970: 1_796_119_200)

  /// Calls `body` with a directory holding an analytics file of recorded searches, made
  /// read-only as `file` and `directory` say, and writable again afterwards.
  static func withAnalyticsFile(
    readOnlyFile: Bool, readOnlyDirectory: Bool, _ body: (String) throws -> Void
  ) throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("discover-read-only-analytics-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("analytics.sqlite")
    do {
      let analytics = try QueryAnalytics(path: file.path, clock: { now })
      for user in ["u1", "u2", "u3"] {
        try analytics.recordSearch(
          SearchEvent(query: "Dance challenge", userID: user, time: now, resultCount: 4))
      }
      try analytics.recordClick(
        ClickEvent(query: "dance challenge", userID: "u1", resultID: "v1", time: now))
    }
    if readOnlyFile { ReadOnlyAccess.set(file, readOnly: true) }
    if readOnlyDirectory { ReadOnlyAccess.set(directory, readOnly: true) }
    defer {
      ReadOnlyAccess.set(directory, readOnly: false)
      ReadOnlyAccess.set(file, readOnly: false)
      try? FileManager.default.removeItem(at: directory)
    }
    try body(file.path)
  }

  @Test(arguments: [(true, false), (false, true), (true, true)])
  func readsWorkAndWritesFailWithATypedError(_ readOnly: (file: Bool, directory: Bool)) throws {
    try Self.withAnalyticsFile(readOnlyFile: readOnly.file, readOnlyDirectory: readOnly.directory) {
      path in
      let analytics = try QueryAnalytics(path: path, clock: { Self.now })
      #expect(analytics.trendingSearches(limit: 10).map(\.query) == ["Dance challenge"])
      #expect(analytics.recentSearches(for: "u2").map(\.query) == ["Dance challenge"])
      #expect(analytics.popularQueries(withPrefix: "dan", limit: 5).count == 1)
      #expect(analytics.clickCount(query: "Dance challenge", resultID: "v1") == 1)

      let writes: [(String, () throws -> Void)] = [
        (
          "record a search",
          {
            try analytics.recordSearch(
              SearchEvent(query: "pasta", userID: "u4", time: Self.now, resultCount: 1))
          }
        ),
        (
          "record a click",
          {
            try analytics.recordClick(
              ClickEvent(query: "pasta", userID: "u4", resultID: "v2", time: Self.now))
          }
        ),
        (
          "delete a recent search",
          { try analytics.deleteRecentSearch("dance challenge", for: "u1") }
        ),
        ("clear recent searches", { try analytics.clearRecentSearches(for: "u1") }),
      ]
      for (name, write) in writes {
        let error = #expect(throws: SearchError.self, "\(name)") { try write() }
        #expect(error?.code == .io, "\(name)")
        #expect(error?.message.contains("is read-only for this process") == true, "\(name)")
        #expect(error?.message.contains(path) == true, "\(name)")
      }
      // Nothing changed in memory either.
      #expect(analytics.recentSearches(for: "u1").map(\.query) == ["Dance challenge"])
      #expect(analytics.trendingSearches(limit: 10).map(\.query) == ["Dance challenge"])
    }
  }

  @Test func aMissingFileInAReadOnlyDirectoryIsAnIOError() throws {
    try Self.withAnalyticsFile(readOnlyFile: false, readOnlyDirectory: true) { path in
      let missing = URL(fileURLWithPath: path).deletingLastPathComponent()
        .appendingPathComponent("other.sqlite").path
      let error = #expect(throws: SearchError.self) {
        try QueryAnalytics(path: missing, clock: { Self.now })
      }
      #expect(error?.code == .io)
    }
  }

  @Test func theCLIListsTrendingSearchesOfAReadOnlyIndexAndRefusesToRecord() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let index = try CLITestSupport.makeIndex(in: directory)
      for user in ["u1", "u2", "u3"] {
        let recorded = CLITestSupport.run(["search", "dance", "--index", index, "--user", user])
        try #require(recorded.status == 0, "\(recorded.errors)")
      }
      let indexURL = URL(fileURLWithPath: index)
      let file = indexURL.appendingPathComponent(AnalyticsFile.fileName)
      ReadOnlyAccess.set(file, readOnly: true)
      ReadOnlyAccess.set(indexURL, readOnly: true)
      defer {
        ReadOnlyAccess.set(indexURL, readOnly: false)
        ReadOnlyAccess.set(file, readOnly: false)
      }
      let trending = CLITestSupport.run(["trending", "searches", "--index", index, "--json"])
      #expect(trending.status == 0, "\(trending.errors)")
      #expect(trending.output.contains(#""query":"dance""#))
      let suggest = CLITestSupport.run(["suggest", "dan", "--index", index, "--user", "u1"])
      #expect(suggest.status == 0, "\(suggest.errors)")

      let record = CLITestSupport.run([
        "search", "dance", "--index", index, "--user", "u4", "--json",
      ])
      #expect(record.status == 1)
      #expect(record.errors.contains(#""code":"io""#))
      #expect(record.errors.contains("is read-only for this process"))
    }
  }
}
