import Foundation
import Testing

@testable import DiscoverSearch

#if canImport(Glibc)
  import Glibc
#endif

/// Files in an index directory damaged or replaced from outside: each gets a typed error at
/// open, never a trap, a hang or an allocation of the file's claimed size.
@Suite("Storage: damaged files")
struct DamagedFileTests {
  typealias Image = CatalogSectionsTests.IndexFileImage

  // Sections counted from the end of the file, as `IndexSnapshot+Storage.swift` writes them.
  static let videoViewCountWidth = 52
  static let videoCreatedAtBase = 48

  static func savedImage() throws -> Image {
    let image = try CatalogSectionsTests.savedImage()
    try #require(
      [1, 2, 4, 8].contains(image.value(UInt64.self, fromEnd: videoViewCountWidth, element: 0)),
      "the view counts' width is not where this suite expects it")
    try #require(image.section(fromEnd: videoCreatedAtBase).count == 8)
    return image
  }

  /// Opening `directory` throws a corrupt-index or I/O error.
  static func expectTypedError(_ directory: URL, _ context: String) {
    PersistenceTests.expectOpenFails(directory, context)
  }

  /// Makes `name` in `directory` a sparse file of `size` bytes (nothing written, nothing on
  /// disk), then calls `body` with a descriptor open for writing on it.
  static func withSparseFile(
    _ name: String, in directory: URL, size: off_t, _ body: (Int32) throws -> Void = { _ in }
  ) throws {
    let path = directory.appendingPathComponent(name).path
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    try #require(ftruncate(descriptor, size) == 0)
    try body(descriptor)
  }

  @Test func aFlippedTopBitInTheFooterIsATypedError() throws {
    let image = try Self.savedImage()
    for offset in (image.bytes.count - IndexFile.footerSize)..<image.bytes.count {
      var bytes = image.bytes
      bytes[offset] ^= 0x80
      try PersistenceTests.withTemporaryDirectory { directory in
        try Data(bytes).write(to: directory.appendingPathComponent(IndexFile.fileName))
        Self.expectTypedError(directory, "byte \(offset) of \(bytes.count)")
      }
    }
  }

  @Test func anIntegerColumnWidthOfTwoToTheSixtyThirdIsCorrupt() throws {
    for width in [UInt64(1) << 63, UInt64.max, 16] {
      var image = try Self.savedImage()
      image.set(width, fromEnd: Self.videoViewCountWidth, element: 0)
      try CatalogSectionsTests.expectCorrupt(image, "an integer column is damaged")
    }
  }

  @Test func anEarliestDateOutOfRangeIsCorrupt() throws {
    for base in [Int64.max, Int64.min, Int64(1) << 41] {
      var image = try Self.savedImage()
      image.set(base, fromEnd: Self.videoCreatedAtBase, element: 0)
      try CatalogSectionsTests.expectCorrupt(image, "the video dates are out of range")
    }
  }

  /// A 64 GiB sparse file costs nothing on disk; opening it must not allocate or read it.
  @Test func aHugeSparseFileIsCorruptAtOnce() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      try Self.withSparseFile(IndexFile.fileName, in: directory, size: 64 << 30)
      let start = Date()
      Self.expectTypedError(directory, "64 GiB sparse file")
      #expect(Date().timeIntervalSince(start) < 10, "the open read the whole file")
    }
  }

  /// A real header and footer at the two ends of a 64 GiB sparse file: the footer's table
  /// does not end where the footer starts, which is found before the file's size is
  /// allocated or read.
  @Test func aHugeSparseFileWithARealHeaderAndFooterIsCorruptAtOnce() throws {
    let image = try Self.savedImage()
    try PersistenceTests.withTemporaryDirectory { directory in
      let size: off_t = 64 << 30
      try Self.withSparseFile(IndexFile.fileName, in: directory, size: size) { descriptor in
        let header = Array(image.bytes.prefix(IndexFile.headerSize))
        let footer = Array(image.bytes.suffix(IndexFile.footerSize))
        try #require(pwrite(descriptor, header, header.count, 0) == header.count)
        try #require(
          pwrite(descriptor, footer, footer.count, size - off_t(footer.count)) == footer.count)
      }
      let start = Date()
      Self.expectTypedError(directory, "64 GiB sparse file with real ends")
      #expect(Date().timeIntervalSince(start) < 10, "the open read the whole file")
    }
  }

  @Test func aPipeOrADirectoryInPlaceOfTheIndexIsCorrupt() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent(IndexFile.fileName).path
      try #require(mkfifo(path, 0o644) == 0)
      let error = #expect(throws: SearchError.self) { _ = try DiscoverIndex.open(at: directory) }
      #expect(error?.code == .corruptIndex)
      #expect(error?.message.contains("not a regular file") == true, "\(String(describing: error))")
    }
    try PersistenceTests.withTemporaryDirectory { directory in
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent(IndexFile.fileName), withIntermediateDirectories: false
      )
      Self.expectTypedError(directory, "a directory")
    }
  }

  @Test func aPipeInPlaceOfTheTrendingStateIsCorrupt() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent(TrendingFile.fileName).path
      try #require(mkfifo(path, 0o644) == 0)
      let error = #expect(throws: SearchError.self) {
        _ = try TrendingContent.open(at: directory, index: nil)
      }
      #expect(error?.code == .corruptIndex, "\(String(describing: error))")
    }
  }

  @Test func aHugeSparseTrendingStateIsRefused() throws {
    try PersistenceTests.withTemporaryDirectory { directory in
      let size = off_t(clamping: ProcessInfo.processInfo.physicalMemory) + (1 << 30)
      try Self.withSparseFile(TrendingFile.fileName, in: directory, size: size)
      let error = #expect(throws: SearchError.self) {
        _ = try TrendingContent.open(at: directory, index: nil)
      }
      #expect(error?.code == .corruptIndex, "\(String(describing: error))")
    }
  }

  /// A save removes the temporary files a killed save left (its process is gone), and
  /// keeps those of a live process, which may still be writing them.
  @Test func aSaveRemovesWhatAKilledSaveLeft() throws {
    let index = try PersistenceTests.smallIndex()
    try PersistenceTests.withTemporaryDirectory { directory in
      // No process has an id this large (Linux's pid_max is at most 2^22).
      let abandoned = [
        "\(IndexFile.fileName).tmp-2000000000-17", "\(TrendingFile.fileName).tmp-2000000001-5",
      ]
      let live = "\(IndexFile.fileName).tmp-\(getpid())-99"
      for name in abandoned + [live, "notes.txt"] {
        try Data("partial".utf8).write(to: directory.appendingPathComponent(name))
      }
      try index.save(to: directory)
      try TrendingContent(index: index).save(to: directory)
      let names = try PersistenceTests.contents(of: directory)
      #expect(
        names.filter {
          !$0.hasPrefix("manifest-") && !$0.hasPrefix("segment-") && !$0.hasPrefix("documents-")
        }.sorted()
          == [IndexDirectory.lockFileName, live, "notes.txt", TrendingFile.fileName].sorted())
      #expect(names.count == 7, "one manifest, segment and documents file besides: \(names)")
    }
  }

}
