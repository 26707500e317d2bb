/// One option a command accepts: a flag (`--json`) or an option with a value (`--limit N`).
struct OptionSpec: Sendable, Hashable {
  /// The option as typed, with its dashes: `--limit`.
  var name: String
  /// The placeholder of the value in help text (`N`), or `nil` for a flag.
  var valueName: String?
  /// One line for the help text.
  var summary: String

  /// Whether the option is followed by a value.
  var takesValue: Bool { valueName != nil }

  /// A flag: an option without a value.
  static func flag(_ name: String, _ summary: String) -> OptionSpec {
    OptionSpec(name: name, valueName: nil, summary: summary)
  }

  /// An option followed by a value.
  static func value(_ name: String, _ valueName: String, _ summary: String) -> OptionSpec {
    OptionSpec(name: name, valueName: valueName, summary: summary)
  }
}

/// A subcommand's grammar and help: its options, usage lines and description.
struct CommandSpec: Sendable {
  /// The subcommand's name: `search`.
  var name: String
  /// One line for the overview.
  var summary: String
  /// The usage lines, without the leading `discover`.
  var usage: [String]
  /// Paragraphs shown after the options in the command's help.
  var discussion: String
  /// The options the command accepts, besides `--help`.
  var options: [OptionSpec]

  /// The option called `name`, if the command has one.
  func option(named name: String) -> OptionSpec? {
    options.first { $0.name == name }
  }
}

/// A command line split into positional arguments, option values and flags.
struct ParsedArguments: Equatable, Sendable {
  /// Arguments that are not options or option values, in order.
  var positionals: [String] = []
  /// The value of each option given, by name (`--limit` -> `"20"`).
  var values: [String: String] = [:]
  /// The flags given, by name (`--json`).
  var flags: Set<String> = []
  /// Whether `--help` or `-h` was given: the command prints its help and does nothing else.
  var wantsHelp = false

  /// Whether `flag` was given.
  func contains(_ flag: String) -> Bool { flags.contains(flag) }
}

/// A small command-line parser: GNU-style long options, no external packages.
///
/// Accepted forms: `--name value`, `--name=value`, flags `--name`, and `--` to end the
/// options (so a query can start with a dash: `discover search --index DIR -- -5c`). `-h` is
/// `--help`. An option may be given once; an unknown option, a missing value or a value given
/// to a flag is a usage error naming the option. A lone `-` is a positional argument.
enum ArgumentParser {
  /// Splits `arguments` (the words after the subcommand) by the grammar of `command`.
  ///
  /// When `--help` or `-h` appears as an option anywhere, the result has ``ParsedArguments/wantsHelp``
  /// set and nothing else is checked, so that a half-typed command line can still ask for help.
  ///
  /// - Throws: ``CommandError`` of kind ``CommandError/Kind/usage``.
  /// - Complexity: O(*n*) in the number of arguments.
  static func parse(_ arguments: [String], for command: CommandSpec) throws(CommandError)
    -> ParsedArguments
  {
    if asksForHelp(arguments) {
      var parsed = ParsedArguments()
      parsed.wantsHelp = true
      return parsed
    }
    var parsed = ParsedArguments()
    var index = arguments.startIndex
    var optionsEnded = false
    while index < arguments.endIndex {
      let argument = arguments[index]
      index += 1
      guard !optionsEnded, argument.hasPrefix("-"), argument != "-" else {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      let (name, attachedValue) = split(argument)
      guard let option = command.option(named: name) else {
        throw unknownOption(name, command: command)
      }
      guard parsed.values[name] == nil, !parsed.flags.contains(name) else {
        throw CommandError.usage(
          "\(name) is given more than once; give it once", command: command.name)
      }
      guard let valueName = option.valueName else {
        if attachedValue != nil {
          throw CommandError.usage(
            "\(name) is a flag and takes no value; write just \(name)", command: command.name)
        }
        parsed.flags.insert(name)
        continue
      }
      if let attachedValue {
        parsed.values[name] = attachedValue
        continue
      }
      // The next word is the value, unless it is missing or is itself one of the options
      // (`--index --json`): a value may start with a dash (a cursor token can).
      guard index < arguments.endIndex, !isOption(arguments[index], of: command) else {
        throw CommandError.usage(
          "\(name) needs a value: \(name) \(valueName)", command: command.name)
      }
      parsed.values[name] = arguments[index]
      index += 1
    }
    return parsed
  }

  /// Whether `--help` or `-h` appears before any `--`. No value of this grammar is spelled
  /// like that (cursor tokens are longer; a query that is must follow `--`), so the word
  /// always means help, even where a value was due (`--index --help`).
  private static func asksForHelp(_ arguments: [String]) -> Bool {
    for argument in arguments {
      if argument == "--" { return false }
      if argument == "--help" || argument == "-h" { return true }
    }
    return false
  }

  /// Whether `word` names an option of `command`, with or without an attached value.
  private static func isOption(_ word: String, of command: CommandSpec) -> Bool {
    guard word.hasPrefix("--") else { return false }
    return command.option(named: split(word).name) != nil
  }

  /// `--name=value` as `("--name", "value")`; `--name` as `("--name", nil)`.
  private static func split(_ argument: String) -> (name: String, value: String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else {
      return (argument, nil)
    }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  private static func unknownOption(_ name: String, command: CommandSpec) -> CommandError {
    let known = command.options.map(\.name) + ["--help"]
    var hints: [String] = []
    if let guess = closestMatch(to: name, among: known) {
      hints.append("Did you mean \(guess)?")
    }
    hints.append("Options of discover \(command.name): \(known.joined(separator: ", ")).")
    if !name.hasPrefix("--") {
      hints.append("To search for text that starts with a dash, put it after --.")
    }
    return CommandError.usage(
      "unknown option \(name) for discover \(command.name)", hints: hints, command: command.name)
  }
}

/// The candidate closest to `word` by edit distance, when it is close enough to be a typo:
/// at most 2 edits, and fewer than half the word's length.
///
/// - Complexity: O(*c* · *n* · *m*) for *c* candidates of length *m* and a word of length *n*.
func closestMatch(to word: String, among candidates: [String]) -> String? {
  let target = Array(word.lowercased().unicodeScalars)
  var best: (candidate: String, distance: Int)?
  for candidate in candidates {
    let distance = editDistance(target, Array(candidate.unicodeScalars))
    if distance <= 2, distance * 2 < max(target.count, 1),
      distance < best?.distance ?? Int.max
    {
      best = (candidate, distance)
    }
  }
  return best?.candidate
}

/// The Levenshtein distance between two scalar arrays (insertions, deletions and
/// substitutions each cost 1; Levenshtein 1966), with two rows of the Wagner-Fischer table.
///
/// - Complexity: O(*n* · *m*) time, O(*m*) memory.
private func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
  guard !a.isEmpty else { return b.count }
  guard !b.isEmpty else { return a.count }
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
      current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
    }
    swap(&previous, &current)
  }
  return previous[b.count]
}
