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
/// error also points at the command's help.
struct CommandError: Error, Equatable {
  /// Whether the command line is wrong or the command failed while running.
  enum Kind: Equatable {
    /// The arguments are wrong; exit status 2.
    case usage
    /// The command failed; exit status 1.
    case failure
  }

  /// Whether the command line is wrong or the command failed while running.
  var kind: Kind
  /// What went wrong, in one sentence.
  var message: String
  /// What to do about it, one suggestion a line.
  var hints: [String]
  /// The command whose help a usage error points at (`nil` for the overview).
  var command: String?

  /// Creates an error.
  init(_ kind: Kind, _ message: String, hints: [String] = [], command: String? = nil) {
    self.kind = kind
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
  static func failure(_ message: String, hints: [String] = []) -> CommandError {
    CommandError(.failure, message, hints: hints)
  }

  /// The process exit status for this error.
  var exitStatus: Int32 {
    switch kind {
    case .usage: ExitStatus.usage
    case .failure: ExitStatus.failure
    }
  }

  /// The text written to standard error, ending in a line feed.
  var report: String {
    var text = "error: \(message)\n"
    for hint in hints { text += "  \(hint)\n" }
    if kind == .usage {
      let helpCommand = command.map { "discover help \($0)" } ?? "discover help"
      text += "Run '\(helpCommand)' for usage.\n"
    }
    return text
  }
}

extension CommandError {
  /// A library error met while running, with the library's message (which says what to fix)
  /// and the caller's hints for this situation.
  init(_ error: SearchError, context: String? = nil, hints: [String] = []) {
    let message = context.map { "\($0): \(error.message)" } ?? error.message
    self.init(.failure, message, hints: hints)
  }
}
