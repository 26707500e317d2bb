#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command writes its text: standard output, standard error, or a buffer in tests.
///
/// Sinks are reference types so that the commands can write through a shared handle; a
/// command runs on one thread, so sinks need no locking.
public protocol TextSink: AnyObject {
  /// Whether the sink is an interactive terminal; progress lines are written only there.
  var isTerminal: Bool { get }

  /// Writes `text` as UTF-8, possibly holding it in a buffer until ``flush()``.
  func write(_ text: String)

  /// Writes out whatever ``write(_:)`` is holding.
  func flush()
}

extension TextSink {
  /// Writes `text` and a line feed.
  func writeLine(_ text: String = "") {
    write(text + "\n")
  }
}

/// A sink that writes to a file descriptor, such as standard output or standard error.
///
/// With buffering on, text is collected in a 64 KiB buffer and written with few system calls,
/// which matters when a batch run prints thousands of lines into a pipe; call ``flush()``
/// before the process exits (deinitialization flushes too, but `exit` skips it). Without
/// buffering, each ``write(_:)`` reaches the descriptor at once, as standard error should.
///
/// When the reader goes away (a closed pipe), the process receives `SIGPIPE` and ends
/// quietly, as other Unix tools do; if that signal is ignored, the sink drops further text
/// instead of failing.
public final class FileDescriptorSink: TextSink {
  /// Flush once the buffer holds this many bytes: large enough to make a batch run's
  /// thousands of lines a few dozen system calls, small enough to be irrelevant in memory.
  private static let bufferCapacity = 1 << 16

  private let fileDescriptor: Int32
  private let isBuffered: Bool
  private var buffer: [UInt8] = []
  /// Set when a write failed (for example `EPIPE`): later text is dropped.
  private var hasFailed = false

  /// Whether the descriptor is a terminal (`isatty`).
  public let isTerminal: Bool

  /// Creates a sink for `fileDescriptor`.
  ///
  /// - Parameters:
  ///   - fileDescriptor: an open descriptor, such as `STDOUT_FILENO`.
  ///   - isBuffered: whether to hold text until the buffer fills or ``flush()`` is called.
  public init(fileDescriptor: Int32, isBuffered: Bool) {
    self.fileDescriptor = fileDescriptor
    self.isBuffered = isBuffered
    isTerminal = isatty(fileDescriptor) == 1
    if isBuffered { buffer.reserveCapacity(Self.bufferCapacity) }
  }

  /// A buffered sink for standard output.
  public static func standardOutput() -> FileDescriptorSink {
    FileDescriptorSink(fileDescriptor: STDOUT_FILENO, isBuffered: true)
  }

  /// An unbuffered sink for standard error.
  public static func standardError() -> FileDescriptorSink {
    FileDescriptorSink(fileDescriptor: STDERR_FILENO, isBuffered: false)
  }

  deinit {
    flush()
  }

  /// Writes `text`, at once when unbuffered or when the buffer is full.
  ///
  /// - Complexity: O(*n*) in the UTF-8 length of `text`.
  public func write(_ text: String) {
    guard !hasFailed else { return }
    buffer.append(contentsOf: text.utf8)
    if !isBuffered || buffer.count >= Self.bufferCapacity { flush() }
  }

  /// Writes out the buffer, retrying short and interrupted writes.
  public func flush() {
    defer { buffer.removeAll(keepingCapacity: true) }
    guard !hasFailed, !buffer.isEmpty else { return }
    buffer.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = systemWrite(
          fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0 && errno == EINTR {
          continue
        } else {
          hasFailed = true
          return
        }
      }
    }
  }
}

/// The C library's `write`, named apart from ``TextSink/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}

/// A sink that keeps everything written, for tests and for callers that want the text.
public final class TextBuffer: TextSink {
  /// Everything written so far.
  public private(set) var text = ""

  /// Whether to behave like a terminal, so that progress lines are written.
  public let isTerminal: Bool

  /// Creates an empty buffer.
  ///
  /// - Parameter isTerminal: whether commands should treat the buffer as a terminal.
  public init(isTerminal: Bool = false) {
    self.isTerminal = isTerminal
  }

  /// Appends `text`.
  public func write(_ text: String) {
    self.text += text
  }

  /// Does nothing: the text is already in ``text``.
  public func flush() {}
}
