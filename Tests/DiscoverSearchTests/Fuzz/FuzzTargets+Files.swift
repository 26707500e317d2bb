import Foundation
import Synchronization

@testable import DiscoverSearch

#if canImport(Glibc)
  import Glibc
#endif

/// A directory that fuzz inputs are written into, one after the other, remembering what it
/// holds so that each input rewrites only the files that differ.
final class FuzzDirectory: Sendable {
  let url: URL
  private let written = Mutex<[String: [UInt8]]>([:])

  init(_ name: String) {
    url = FuzzSamples.makeTemporaryDirectory(name)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  /// Makes the directory hold exactly `files`: stray files (a writer's lock, files a writer
  /// removed) are dealt with as well.
  func hold(_ files: [(name: String, bytes: [UInt8])]) {
    let fileManager = FileManager.default
    let present = Set((try? fileManager.contentsOfDirectory(atPath: url.path)) ?? [])
    written.withLock { written in
      for name in present.subtracting(files.map(\.name)) {
        try? fileManager.removeItem(at: url.appendingPathComponent(name))
        written[name] = nil
      }
      for file in files where written[file.name] != file.bytes || !present.contains(file.name) {
        let path = url.appendingPathComponent(file.name).path
        unlink(path)
        guard fileManager.createFile(atPath: path, contents: Data(file.bytes)) else {
          fatalError("cannot write \(path)")
        }
        written[file.name] = file.bytes
      }
    }
  }
}

extension FuzzTargets {
  /// `index-files`: an index directory whose files come from outside.
  ///
  /// Input: [file] [options] then the new bytes of the file of ``FuzzSamples/indexFiles``
  /// that the first byte picks. Options: bit 0 opens with full verification; bit 1 fixes the
  /// checksums after the change (the manifest's sizes and CRCs, a segment's section and table
  /// CRCs, the trending file's trailer), so that the structure behind them is reached; bit 2
  /// removes the file instead; bit 3 also makes a writer, which reads the documents files;
  /// bit 4 searches as you type; bit 5 also searches users and completes; bit 6 also runs
  /// `verify(at:)`. A changed trending state is opened beside the sample index and its lists
  /// read.
  static func indexFiles(_ bytes: [UInt8], in directory: FuzzDirectory) -> [String] {
    var findings = FuzzFindings()
    var input = FuzzInput(bytes)
    var files = FuzzSamples.indexFiles
    let selected = Int(input.byte()) % files.count
    let options = input.byte()
    files[selected].bytes = input.rest()
    let isTrendingFile = files[selected].name == TrendingFile.fileName
    if options & 0x02 != 0 { fixChecksums(&files, changed: selected) }
    if options & 0x04 != 0 { files.remove(at: selected) }
    directory.hold(files)
    let url = directory.url

    if isTrendingFile {
      // Only trending content reads this file: open it beside the sample index.
      findings.expectTypedErrors("opening the trending state") {
        let trending = try TrendingContent.open(
          at: url, index: FuzzSamples.index, clock: { FuzzSamples.now })
        _ = try trending.list(.video, limit: 5)
        _ = try trending.list(.hashtag, region: "US", limit: 5)
        _ = try trending.explain(.video, id: "v-dance", region: "US")
      }
      return findings.problems
    }
    let verification: IndexVerification = options & 0x01 != 0 ? .full : .standard
    let opened = findings.expectTypedErrors("opening the index") {
      try DiscoverIndex.open(at: url, verification: verification)
    }
    guard case .success(let index) = opened else { return findings.problems }
    _ = index.statistics
    let matching: MatchingOptions = options & 0x10 != 0 ? .asYouType : MatchingOptions()
    findings.expectTypedErrors("searching the index") {
      try index.search("dance challenge fyp", in: .top, limit: 10, matching: matching)
    }
    if options & 0x20 != 0 {
      findings.expectTypedErrors("searching users") {
        try index.search("bruno", in: .users, limit: 5)
      }
      findings.expectTypedErrors("completing") { try index.suggestions(forPrefix: "da", limit: 8) }
    }
    if options & 0x40 != 0 {
      findings.expectTypedErrors("verifying the index") { try DiscoverIndex.verify(at: url) }
    }
    if options & 0x08 != 0 {
      findings.expectTypedErrors("making a writer") {
        var writer = try index.makeWriter()
        _ = writer.delete(id: "v-dance")
      }
    }
    return findings.problems
  }

  // MARK: Checksums

  /// Makes the checksums of the changed file, and the manifest's line naming it, match its
  /// new bytes, wherever its layout can still be found.
  static func fixChecksums(_ files: inout [(name: String, bytes: [UInt8])], changed: Int) {
    let name = files[changed].name
    if name.hasPrefix(IndexManifest.prefix) {
      files[changed].bytes = resealed(manifest: files[changed].bytes)
      return
    }
    if name == TrendingFile.fileName {
      fixTrendingTrailer(&files[changed].bytes)
      return
    }
    if name.hasSuffix(".dsearch") { fixSegmentChecksums(&files[changed].bytes) }
    let bytes = files[changed].bytes
    for index in files.indices where files[index].name.hasPrefix(IndexManifest.prefix) {
      files[index].bytes = renamed(
        name, size: bytes.count, checksum: crc(bytes[...]), in: files[index].bytes)
    }
  }

  private static func crc(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.withUnsafeBytes { CRC32C.checksum($0) }
  }

  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }

  /// The manifest with its last line, the checksum, made to match its body.
  private static func resealed(manifest bytes: [UInt8]) -> [UInt8] {
    var body = bytes
    if body.count >= 16, body[(body.count - 16)...].starts(with: "crc32c ".utf8) {
      body.removeLast(16)
    }
    return body + Array("crc32c \(hex(crc(body[...])))\n".utf8)
  }

  /// The manifest with the line naming `name` given a new size and checksum.
  private static func renamed(_ name: String, size: Int, checksum: UInt32, in manifest: [UInt8])
    -> [UInt8]
  {
    var lines = String(decoding: manifest, as: UTF8.self)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for index in lines.indices {
      var parts = lines[index].split(separator: " ").map(String.init)
      guard parts.count >= 3, parts[1] == name else { continue }
      parts[2] = String(size)
      if parts.count == 4 { parts[3] = hex(checksum) }
      lines[index] = parts.joined(separator: " ")
    }
    return resealed(manifest: Array(lines.joined(separator: "\n").utf8))
  }

  /// Recomputes each section's CRC-32C in the segment's table, then the table's in the
  /// footer (the layout of ``IndexFile``).
  private static func fixSegmentChecksums(_ bytes: inout [UInt8]) {
    let footerSize = IndexFile.footerSize
    guard bytes.count >= IndexFile.headerSize + footerSize else { return }
    func load(_ offset: Int) -> UInt64 {
      (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }
    func store(_ value: UInt32, at offset: Int) {
      for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }
    let footer = bytes.count - footerSize
    let tableOffset = load(footer)
    let count = load(footer + 8)
    guard tableOffset <= UInt64(footer), count < 1 << 20,
      UInt64(footer) - tableOffset >= count * UInt64(IndexFile.tableEntrySize)
    else { return }
    for section in 0..<Int(count) {
      let entry = Int(tableOffset) + section * IndexFile.tableEntrySize
      let offset = load(entry)
      let length = load(entry + 8)
      guard offset <= UInt64(footer), length <= UInt64(footer) - offset else { continue }
      store(crc(bytes[Int(offset)..<Int(offset + length)]), at: entry + 20)
    }
    let tableEnd = Int(tableOffset) + Int(count) * IndexFile.tableEntrySize
    store(crc(bytes[Int(tableOffset)..<tableEnd]), at: footer + 16)
  }

  /// Recomputes the trending file's payload length and CRC-32C (``TrendingFile``).
  private static func fixTrendingTrailer(_ bytes: inout [UInt8]) {
    let trailer = 20
    guard bytes.count >= 16 + trailer else { return }
    let payload = bytes[16..<(bytes.count - trailer)]
    var fixed: [UInt8] = []
    withUnsafeBytes(of: UInt64(payload.count).littleEndian) { fixed += $0 }
    withUnsafeBytes(of: crc(payload).littleEndian) { fixed += $0 }
    bytes.replaceSubrange((bytes.count - trailer)..<(bytes.count - 8), with: fixed)
  }

  // MARK: Analytics file

  /// `analytics-file`: the SQLite file of query analytics, from outside.
  ///
  /// Input: [options] then the file's bytes. Options: bit 0 makes the file read-only (mode
  /// bits), bit 1 also records a search and a click and deletes a recent search. The file is
  /// opened as ``QueryAnalytics``; trending searches, popular queries, recent searches and
  /// click counts are read.
  static func analyticsFile(_ bytes: [UInt8], in directory: FuzzDirectory) -> [String] {
    var findings = FuzzFindings()
    var input = FuzzInput(bytes)
    let options = input.byte()
    let path = directory.url.appendingPathComponent("analytics.sqlite").path
    // Written anew every time: SQLite changes the file it opens.
    for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    guard FileManager.default.createFile(atPath: path, contents: Data(input.rest())) else {
      fatalError("cannot write \(path)")
    }
    chmod(path, options & 1 != 0 ? 0o444 : 0o644)
    let opened = findings.expectTypedErrors("opening the analytics file") {
      try QueryAnalytics(path: path, clock: { FuzzSamples.now })
    }
    guard case .success(let analytics) = opened else { return findings.problems }
    _ = analytics.trendingSearches(limit: 10)
    _ = analytics.popularQueries(withPrefix: "d", limit: 10)
    _ = analytics.recentSearches(for: "u1")
    _ = analytics.clickCount(query: "dance", resultID: "v1")
    if options & 2 != 0 {
      findings.expectTypedErrors("recording a search") {
        try analytics.recordSearch(
          SearchEvent(
            query: "dance challenge", userID: "u1", time: FuzzSamples.now, resultCount: 3))
      }
      findings.expectTypedErrors("recording a click") {
        try analytics.recordClick(
          ClickEvent(
            query: "dance challenge", userID: "u1", resultID: "v-dance", time: FuzzSamples.now))
      }
      findings.expectTypedErrors("deleting a recent search") {
        try analytics.deleteRecentSearch("dance challenge", for: "u1")
      }
    }
    return findings.problems
  }
}
