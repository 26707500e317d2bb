import DiscoverSearch

/// The process exit statuses of `discover`.
enum ExitStatus {
  /// The command did what was asked.
  static let success: Int32 = 0
  /// The command was well formed but failed: a missing file, a damaged index, bad data, or
  /// a feature this build does not have.
  static let failure: Int32 = 1
  /// The command line itself is wrong: an unknown command or flag, a missing or bad value.
  static let usage: Int32 = 2
}

/// Why a command stopped, with what to do about it.
///
/// Printed on standard error as `error: MESSAGE`, then each hint on its own line; a usage
/// error also points at the command's help. With `--json` on the command line the same error
/// is one JSON line instead: `{"error":{"code":"notFound","message":"...","hints":[...]}}`.
package struct CommandError: Error, Equatable {
  /// Whether the command line is wrong or the command failed while running.
  enum Kind: Equatable {
    /// The arguments are wrong; exit status 2.
    case usage
    /// The command failed; exit status 1.
    case failure
  }

  /// A stable, machine-readable name for what went wrong: the `code` of a JSON error.
  ///
  /// A library failure carries the name of its ``DiscoverSearch/SearchError/Code``
  /// (`invalidQuery`, `corruptIndex`, `io`, ...); the tool's own failures have the codes
  /// below.
  struct Code: RawRepresentable, Hashable, Sendable {
    var rawValue: String
    init(rawValue: String) { self.rawValue = rawValue }

    /// The command line is wrong (exit status 2).
    static let usage = Code(rawValue: "usage")
    /// A file or directory the command reads does not exist.
    static let notFound = Code(rawValue: "notFound")
    /// A path or value from outside is not usable (a directory where a file belongs).
    static let invalidArgument = Code(rawValue: "invalidArgument")
    /// A query file's line asks for something the command cannot do.
    static let invalidQuery = Code(rawValue: "invalidQuery")
    /// What was asked for is not in this build.
    static let unsupported = Code(rawValue: "unsupported")
    /// Any other failure.
    static let failed = Code(rawValue: "failed")

    /// The code of a library error: its ``DiscoverSearch/SearchError/Code/name``.
    init(_ code: SearchError.Code) { rawValue = code.name }

    /// The code of any error: a library error's own, ``failed`` for the rest.
    init(of error: any Error) {
      self = (error as? SearchError).map { Code($0.code) } ?? .failed
    }
  }

  /// Whether the command line is wrong or the command failed while running.
  var kind: Kind
  /// What went wrong, for programs: the `code` of a JSON error.
  var code: Code
  /// What went wrong, in one sentence.
  var message: String
  /// What to do about it, one suggestion a line.
  var hints: [String]
  /// The command whose help a usage error points at (`nil` for the overview).
  var command: String?

  /// Creates an error.
  init(
    _ kind: Kind, _ message: String, hints: [String] = [], code: Code? = nil,
    command: String? = nil
  ) {
    self.kind = kind
    self.code = code ?? (kind == .usage ? .usage : .failed)
    self.message = message
    self.hints = hints
    self.command = command
  }

  /// A mistake on the command line of `command`.
  static func usage(_ message: String, hints: [String] = [], command: String? = nil)
    -> CommandError
  {
    CommandError(.usage, message, hints: hints, command: command)
  }

  /// A failure while running.
  static func failure(_ message: String, hints: [String] = [], code: Code = .failed)
    -> CommandError
  {
    CommandError(.failure, message, hints: hints, code: code)
  }

  /// The process exit status for this error.
  var exitStatus: Int32 {
    switch kind {
    case .usage: ExitStatus.usage
    case .failure: ExitStatus.failure
    }
  }

  /// Where a usage error points for help: `Run 'discover help search' for usage.`
  private var helpPointer: String? {
    guard kind == .usage else { return nil }
    return "Run '\(command.map { "discover help \($0)" } ?? "discover help")' for usage."
  }

  /// The text written to standard error, ending in a line feed, with terminal control
  /// characters of echoed input removed (``TextFormatting/singleLine(_:)``).
  var report: String {
    var text = "error: \(TextFormatting.singleLine(message))\n"
    for hint in hints { text += "  \(TextFormatting.singleLine(hint))\n" }
    if let helpPointer { text += "\(helpPointer)\n" }
    return text
  }

  /// The error as one JSON line for `--json` (``jsonLine(code:message:hints:)``), with the
  /// pointer to the help after a usage error's own hints.
  var jsonReport: String {
    Self.jsonLine(
      code: code.rawValue, message: message, hints: hints + [helpPointer].compactMap { $0 })
  }

  /// An error as one JSON line, ending in a line feed:
  /// `{"error":{"code":...,"message":...,"hints":[...]}}`, `hints` left out when empty. The
  /// benchmark writes its errors the same way.
  package static func jsonLine(code: String, message: String, hints: [String] = []) -> String {
    var writer = JSONWriter(capacity: 256)
    writer.beginObject()
    writer.key("error")
    writer.beginObject()
    writer.field("code", code)
    writer.field("message", message)
    if !hints.isEmpty { writer.field("hints", hints) }
    writer.endObject()
    writer.endObject()
    writer.newline()
    return writer.string
  }
}

extension CommandError {
  /// The hint after a bad line of a JSON Lines file: `otherwise`, unless the library says
  /// the line stops a load under either policy (a line longer than the limit), which
  /// `--skip-bad-lines` cannot skip.
  static func badLineHint(_ message: String, otherwise: String) -> String {
    guard message.hasSuffix("under either policy.") else { return otherwise }
    return "Check that the file is JSON Lines, one object per line of at most 16 MiB: "
      + "--skip-bad-lines does not skip a line this long."
  }

  /// A library error met while running, with the library's message (which says what to fix)
  /// and the caller's hints for this situation; the error's code is the library's.
  init(_ error: SearchError, context: String? = nil, hints: [String] = []) {
    let message = context.map { "\($0): \(error.message)" } ?? error.message
    self.init(.failure, message, hints: hints, code: Code(error.code))
  }
}
