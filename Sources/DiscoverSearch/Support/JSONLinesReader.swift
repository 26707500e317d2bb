import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One line of a JSON Lines stream, as ``JSONLinesReader`` hands it over.
enum JSONLinesLine {
  /// A line with content, without its line feed, trailing carriage return or (on line 1)
  /// UTF-8 byte order mark. The buffer is valid only during the call that receives it.
  case text(UnsafeBufferPointer<UInt8>)
  /// A line holding nothing but spaces, tabs and carriage returns.
  case blank
  /// A line longer than the reader's limit: `byteCount` of its bytes were read, more than the
  /// limit, and the line may go on. The reader stops after it: a file whose lines are that
  /// long is not JSON Lines (a source without line feeds, such as `/dev/zero`, would
  /// otherwise be read forever), so the caller fails at once, whatever its policy.
  case tooLong(byteCount: Int)
}

/// Splits a byte stream into lines in fixed-size chunks, for JSON Lines files of any size.
///
/// Reads `chunkSize` bytes at a time into one buffer and hands over each complete line in
/// place; a line that spans two chunks is moved to the front of the buffer and completed by
/// the next read, and the buffer grows only for a line longer than a chunk. As soon as a
/// line is known to be longer than `maximumLineLength` it is reported as
/// ``JSONLinesLine/tooLong(byteCount:)`` and reading stops, so a file without line feeds
/// never makes the reader hold more than about `maximumLineLength + chunkSize` bytes, nor
/// read on without end. Accepts LF and CRLF line ends, a UTF-8 byte order mark at the start,
/// and a last line without a line feed.
///
/// - Complexity: O(*n*) in the stream's length; memory O(`chunkSize` + the longest line kept).
enum JSONLinesReader {
  /// 4 MiB: large enough that the cost of each `read` system call vanishes, small enough to
  /// keep memory flat for multi-gigabyte files.
  static let defaultChunkSize = 4 << 20
  /// 16 MiB: far beyond any real document (the embedded corpus's longest line is 9 KB), yet
  /// bounded, so that a file that is not JSON Lines cannot make the reader buffer it whole.
  static let defaultMaximumLineLength = 16 << 20

  /// Calls `body` with each line of the file at `url`, numbered from 1.
  ///
  /// - Throws: ``SearchError`` with code ``SearchError/Code/io`` when the file cannot be
  ///   opened or read (naming its path), and whatever `body` throws.
  static func forEachLine(
    inFileAt url: URL, chunkSize: Int = defaultChunkSize,
    maximumLineLength: Int = defaultMaximumLineLength,
    _ body: (_ lineNumber: Int, _ line: JSONLinesLine) throws -> Void
  ) throws {
    let path = url.path
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw SearchError(.io, "cannot open \(path): \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    try forEachLine(
      chunkSize: chunkSize, maximumLineLength: maximumLineLength,
      readingWith: { buffer in
        while true {
          let count = read(descriptor, buffer.baseAddress, buffer.count)
          if count >= 0 { return count }
          if errno == EINTR { continue }
          throw SearchError(.io, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
      }, body)
  }

  /// Calls `body` with each line of `bytes`, numbered from 1, reading them chunk by chunk
  /// exactly as a file is read.
  ///
  /// - Throws: whatever `body` throws.
  static func forEachLine(
    in bytes: [UInt8], chunkSize: Int = defaultChunkSize,
    maximumLineLength: Int = defaultMaximumLineLength,
    _ body: (_ lineNumber: Int, _ line: JSONLinesLine) throws -> Void
  ) throws {
    var offset = 0
    try bytes.withUnsafeBufferPointer { source in
      try forEachLine(
        chunkSize: chunkSize, maximumLineLength: maximumLineLength,
        readingWith: { buffer in
          let count = min(buffer.count, source.count - offset)
          if count > 0 {
            buffer.baseAddress!.initialize(from: source.baseAddress! + offset, count: count)
          }
          offset += count
          return count
        }, body)
    }
  }

  /// The line splitter over any source: `read` fills a prefix of the buffer it is given and
  /// returns the number of bytes it wrote, 0 at the end of the stream.
  static func forEachLine(
    chunkSize: Int, maximumLineLength: Int,
    readingWith read: (UnsafeMutableBufferPointer<UInt8>) throws -> Int,
    _ body: (_ lineNumber: Int, _ line: JSONLinesLine) throws -> Void
  ) throws {
    precondition(chunkSize > 0, "chunkSize must be positive, got \(chunkSize)")
    precondition(maximumLineLength > 0, "maximumLineLength must be positive")
    var buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunkSize)
    defer { buffer.deallocate() }
    // The buffer holds bytes [0, filled); the current, unfinished line starts at lineStart,
    // and bytes before scanFrom are known to hold no line feed.
    var filled = 0
    var lineStart = 0
    var scanFrom = 0
    var lineNumber = 0
    var isAtEnd = false

    /// Hands over the line in `start..<end`; `false` when it was too long and reading stops.
    func emit(_ start: Int, _ end: Int) throws -> Bool {
      lineNumber += 1
      if end - start > maximumLineLength {
        try body(lineNumber, .tooLong(byteCount: end - start))
        return false
      }
      var start = start
      var end = end
      if end > start, buffer[end - 1] == 0x0D { end -= 1 }
      if lineNumber == 1, end - start >= 3, buffer[start] == 0xEF, buffer[start + 1] == 0xBB,
        buffer[start + 2] == 0xBF
      {
        start += 3
      }
      var index = start
      while index < end, buffer[index] == 0x20 || buffer[index] == 0x09 || buffer[index] == 0x0D {
        index += 1
      }
      if index == end {
        try body(lineNumber, .blank)
      } else {
        try body(lineNumber, .text(UnsafeBufferPointer(rebasing: buffer[start..<end])))
      }
      return true
    }

    while true {
      // Hand over every complete line in the buffer.
      while scanFrom < filled,
        let found = memchr(buffer.baseAddress! + scanFrom, 0x0A, filled - scanFrom)
      {
        let newline = buffer.baseAddress!.distance(
          to: found.assumingMemoryBound(to: UInt8.self))
        guard try emit(lineStart, newline) else { return }
        lineStart = newline + 1
        scanFrom = lineStart
      }
      scanFrom = filled
      if isAtEnd {
        if lineStart < filled { _ = try emit(lineStart, filled) }
        return
      }
      // Keep the unfinished line, moved to the front; one already too long ends the reading
      // without waiting for a line feed that may never come.
      let pending = filled - lineStart
      if pending > maximumLineLength {
        _ = try emit(lineStart, filled)
        return
      }
      if lineStart > 0 {
        if pending > 0 {
          let base = buffer.baseAddress!
          base.update(from: base + lineStart, count: pending)
        }
        filled = pending
      }
      lineStart = 0
      scanFrom = filled
      // Grow when less than half a chunk is free, so that every read is large and each byte
      // is moved a bounded number of times even when lines are nearly a chunk long.
      if buffer.count - filled < (chunkSize + 1) / 2 {
        let grown = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: buffer.count * 2)
        if filled > 0 { grown.baseAddress!.initialize(from: buffer.baseAddress!, count: filled) }
        buffer.deallocate()
        buffer = grown
      }
      let count = try read(UnsafeMutableBufferPointer(rebasing: buffer[filled...]))
      if count == 0 { isAtEnd = true }
      filled += count
    }
  }
}
