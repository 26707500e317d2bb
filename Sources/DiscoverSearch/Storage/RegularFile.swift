#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opening files that come from outside: only regular files, never blocking.
///
/// A FIFO or a device in an index directory would make a plain `open` wait for a writer,
/// or a read never end; `O_NONBLOCK` makes the open return at once, and the file's type is
/// checked on the open descriptor (no race with a rename in between).
enum RegularFile {
  /// Opens `path` for reading.
  ///
  /// - Returns: The descriptor (the caller closes it) and the file's size in bytes.
  /// - Throws: ``SearchError/Code/io`` when it cannot be opened, ``SearchError/Code/corruptIndex``
  ///   when it is not a regular file; `advice` ends each message (what to do about it).
  static func openForReading(_ path: String, advice: String) throws(SearchError) -> (
    descriptor: Int32, size: Int
  ) {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw SearchError(.io, "cannot open \(path): \(String(cString: strerror(errno))); \(advice)")
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw SearchError(.io, "cannot read \(path): \(reason)")
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      close(descriptor)
      throw SearchError(
        .corruptIndex, "\(path) is not a regular file (a pipe, device or directory); \(advice)")
    }
    guard let size = Int(exactly: status.st_size), size >= 0 else {
      close(descriptor)
      throw SearchError(.corruptIndex, "\(path) reports a size of \(status.st_size); \(advice)")
    }
    return (descriptor, size)
  }

  /// The whole file at `path`, at most `maximumBytes` long.
  static func read(_ path: String, maximumBytes: Int, advice: String) throws(SearchError)
    -> [UInt8]
  {
    let (descriptor, size) = try openForReading(path, advice: advice)
    defer { close(descriptor) }
    guard size <= maximumBytes else {
      throw SearchError(
        .corruptIndex, "\(path) is \(size) bytes, more than the \(maximumBytes) allowed; \(advice)")
    }
    var bytes = [UInt8](repeating: 0, count: size)
    var done = 0
    while done < size {
      let result = bytes.withUnsafeMutableBytes { buffer in
        Glibc.read(descriptor, buffer.baseAddress! + done, size - done)
      }
      if result < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw SearchError(.io, "cannot read \(path): \(String(cString: strerror(errno)))")
      }
      if result == 0 { break }
      done += result
    }
    guard done == size else {
      throw SearchError(.corruptIndex, "\(path) changed while it was read; try again")
    }
    return bytes
  }
}
