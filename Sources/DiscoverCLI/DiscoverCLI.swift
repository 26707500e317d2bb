/// The `discover` command-line tool: build, search and inspect DiscoverSearch indexes.
///
/// The executable only forwards its arguments and standard streams to ``run(arguments:output:errorOutput:)``,
/// so that tests can run every command in-process and read what it wrote:
///
/// ```swift
/// let output = TextBuffer(), errors = TextBuffer()
/// let status = DiscoverCLI.run(
///   arguments: ["search", "dance", "--index", "/tmp/index", "--json"],
///   output: output, errorOutput: errors)
/// ```
///
/// Results go to `output`; errors, warnings, notes and progress go to `errorOutput`. The exit
/// status is 0 on success, 1 when a command fails while running (a missing file, a damaged
/// index, bad data, a feature not in this build) and 2 when the command line is wrong.
public enum DiscoverCLI {
  /// The release of the package this tool belongs to, as `discover --version` prints it; the
  /// newest release in CHANGELOG.md.
  public static let version = "0.1.0"

  /// Runs one command line and returns the process exit status.
  ///
  /// Never traps on bad input: every problem becomes a message on `errorOutput` that says
  /// what to fix. Both sinks are flushed before returning.
  ///
  /// - Parameters:
  ///   - arguments: the words after the program name.
  ///   - output: where results are written (standard output).
  ///   - errorOutput: where errors, warnings and progress are written (standard error).
  /// - Returns: 0 on success, 1 on a failure while running, 2 on a usage error.
  public static func run(
    arguments: [String], output: any TextSink, errorOutput: any TextSink
  ) -> Int32 {
    let console = Console(output: output, errorOutput: errorOutput)
    defer {
      output.flush()
      errorOutput.flush()
    }
    if arguments.isEmpty {
      console.errorOutput.write(CommandSpec.overview)
      return ExitStatus.usage
    }
    do {
      try execute(DiscoverCommand.parse(arguments), console: console)
      return ExitStatus.success
    } catch {
      console.output.flush()
      console.errorOutput.write(
        wantsJSONErrors(arguments) ? error.jsonReport : error.report)
      return error.exitStatus
    }
  }

  /// Whether the command line asks for JSON (`--json` before any `--`), so that its errors
  /// are JSON too: a program reading the output reads the error the same way, even when the
  /// rest of the command line could not be parsed.
  static func wantsJSONErrors(_ arguments: [String]) -> Bool {
    arguments.prefix { $0 != "--" }.contains("--json")
  }

  private static func execute(_ command: DiscoverCommand, console: Console) throws(CommandError) {
    switch command {
    case .help(let name):
      console.output.write(name.flatMap(CommandSpec.named)?.helpText ?? CommandSpec.overview)
    case .version:
      console.output.writeLine("discover \(version)")
    case .index(let options):
      try IndexCommand(options: options).run(console: console)
    case .search(let options):
      try SearchCommand(options: options).run(console: console)
    case .batchSearch(let options):
      try BatchSearchCommand(options: options).run(console: console)
    case .suggest(let options):
      try SuggestCommand(options: options).run(console: console)
    case .batchSuggest(let options):
      try BatchSuggestCommand(options: options).run(console: console)
    case .events(let options):
      try EventsCommand(options: options).run(console: console)
    case .trending(let options):
      try TrendingCommand(options: options).run(console: console)
    case .stats(let options):
      try StatsCommand(options: options).run(console: console)
    case .check(let options):
      try CheckCommand(options: options).run(console: console)
    case .change(let options):
      try ChangeCommand(options: options).run(console: console)
    }
  }
}

/// The two output streams of a command.
struct Console {
  /// Results: standard output.
  let output: any TextSink
  /// Errors, warnings, notes and progress: standard error.
  let errorOutput: any TextSink

  /// Writes `warning: MESSAGE` on the error stream.
  func warn(_ message: String) {
    warnRaw("warning: \(message)\n")
  }

  /// Writes `note: MESSAGE` on the error stream.
  func note(_ message: String) {
    warnRaw("note: \(message)\n")
  }

  /// Writes `text` on the error stream after what is pending on the output stream, so that
  /// the two interleave in order on a terminal.
  func warnRaw(_ text: String) {
    output.flush()
    errorOutput.write(text)
  }
}
