import DiscoverSearch
import Foundation

/// A parsed `discover` command line: what to do, with every value checked.
enum DiscoverCommand: Equatable, Sendable {
  /// Print the overview (`nil`) or a command's help, on standard output.
  case help(command: String?)
  /// Print the version, on standard output.
  case version
  /// Build and save an index.
  case index(IndexOptions)
  /// Run one search.
  case search(SearchOptions)
  /// Run the searches of a query file.
  case batchSearch(BatchSearchOptions)
  /// Complete one prefix.
  case suggest(SuggestCommandOptions)
  /// Complete the prefixes of a query file.
  case batchSuggest(BatchSuggestOptions)
  /// Record an event file into an index directory's trending state.
  case events(EventsOptions)
  /// List trending videos, hashtags, sounds, effects or searches.
  case trending(TrendingOptions)
  /// Show what an index holds: documents per type, its commit, its size on disk.
  case stats(IndexInspectionOptions)
  /// Read an index with every check there is and say whether it is sound.
  case check(IndexInspectionOptions)
  /// Add, replace or delete documents of a saved index, or change their counts.
  case change(ChangeOptions)

  /// Parses the arguments after the program name.
  ///
  /// - Throws: ``CommandError`` of kind ``CommandError/Kind/usage`` saying what to fix.
  static func parse(_ arguments: [String]) throws(CommandError) -> DiscoverCommand {
    guard let name = arguments.first else {
      throw CommandError.usage(
        "no command given",
        hints: ["Commands: \(CommandSpec.all.map(\.name).joined(separator: ", ")), help."])
    }
    let rest = Array(arguments.dropFirst())
    switch name {
    case "help":
      return try parseHelp(rest)
    case "--help", "-h":
      return .help(command: nil)
    case "--version":
      guard rest.isEmpty else {
        throw CommandError.usage("--version takes no arguments")
      }
      return .version
    default:
      break
    }
    guard let spec = CommandSpec.named(name) else {
      var hints: [String] = []
      let names = CommandSpec.all.map(\.name) + ["help"]
      if let guess = closestMatch(to: name, among: names) { hints.append("Did you mean \(guess)?") }
      hints.append("Commands: \(names.joined(separator: ", ")).")
      let what =
        name.hasPrefix("-")
        ? "unknown option \(name); give a command first" : "unknown command '\(name)'"
      throw CommandError.usage(what, hints: hints)
    }
    let parsed = try ArgumentParser.parse(rest, for: spec)
    if parsed.wantsHelp { return .help(command: spec.name) }
    var reader = ArgumentReader(parsed: parsed, command: spec.name)
    switch spec.name {
    case "index": return .index(try IndexOptions(&reader))
    case "search":
      if reader.parsed.values["--queries"] != nil {
        return .batchSearch(try BatchSearchOptions(&reader))
      }
      return .search(try SearchOptions(&reader))
    case "suggest":
      if reader.parsed.values["--queries"] != nil {
        return .batchSuggest(try BatchSuggestOptions(&reader))
      }
      return .suggest(try SuggestCommandOptions(&reader))
    case "events": return .events(try EventsOptions(&reader))
    case "stats": return .stats(try IndexInspectionOptions(&reader))
    case "check": return .check(try IndexInspectionOptions(&reader))
    case "add", "delete", "counts": return .change(try ChangeOptions(&reader))
    default: return .trending(try TrendingOptions(&reader))
    }
  }

  private static func parseHelp(_ arguments: [String]) throws(CommandError) -> DiscoverCommand {
    guard let topic = arguments.first else { return .help(command: nil) }
    guard arguments.count == 1 else {
      throw CommandError.usage("discover help takes at most one command name")
    }
    guard CommandSpec.named(topic) != nil || topic == "help" else {
      throw CommandError.usage(
        "no help for unknown command '\(topic)'",
        hints: ["Commands: \(CommandSpec.all.map(\.name).joined(separator: ", ")), help."])
    }
    return .help(command: topic == "help" ? nil : topic)
  }
}

/// `discover index` settings.
struct IndexOptions: Equatable, Sendable {
  /// The corpus file to read (JSON Lines).
  var corpusPath: String
  /// The directory to save the index in.
  var outputDirectory: String
  /// Whether bad lines are skipped and counted instead of stopping the build.
  var skipsBadLines = false

  init(corpusPath: String, outputDirectory: String, skipsBadLines: Bool = false) {
    self.corpusPath = corpusPath
    self.outputDirectory = outputDirectory
    self.skipsBadLines = skipsBadLines
  }

  init(_ reader: inout ArgumentReader) throws(CommandError) {
    corpusPath = try reader.positional(named: "CORPUS.jsonl", purpose: "the corpus file to index")
    try reader.rejectExtraPositionals()
    outputDirectory = try reader.requiredPath(
      "--out", purpose: "the directory to save the index in")
    skipsBadLines = reader.parsed.contains("--skip-bad-lines")
  }
}

/// `discover search "QUERY"` settings.
struct SearchOptions: Equatable, Sendable {
  /// The query as typed.
  var query: String
  /// The index directory.
  var indexDirectory: String
  /// The tab to search.
  var tab: SearchTab = .top
  /// Results per page.
  var limit: Int = 10
  /// The cursor of the previous page, if paging on.
  var cursor: String?
  /// Whether to write JSON.
  var writesJSON = false
  /// Whether each result carries the breakdown of its score.
  var explainsScores = false
  /// Whether the last word also matches the words it begins (search as you type).
  var matchesLastWordAsPrefix = false
  /// The user whose search is recorded in the index directory's analytics file, or `nil`
  /// to record nothing.
  var userID: String?

  /// Creates settings; every value but the query and the index directory has its default.
  init(
    query: String, indexDirectory: String, tab: SearchTab = .top, limit: Int = 10,
    cursor: String? = nil, writesJSON: Bool = false, explainsScores: Bool = false,
    matchesLastWordAsPrefix: Bool = false, userID: String? = nil
  ) {
    self.query = query
    self.indexDirectory = indexDirectory
    self.tab = tab
    self.limit = limit
    self.cursor = cursor
    self.writesJSON = writesJSON
    self.explainsScores = explainsScores
    self.matchesLastWordAsPrefix = matchesLastWordAsPrefix
    self.userID = userID
  }

  init(_ reader: inout ArgumentReader) throws(CommandError) {
    query = try reader.positional(
      named: "QUERY", purpose: "the text to search for, or --queries FILE to run a query file")
    try reader.rejectExtraPositionals(
      hint:
        "Put a query of several words in quotes: discover search \"dance challenge\" --index DIR.")
    indexDirectory = try reader.requiredPath("--index", purpose: "the index directory")
    tab = try reader.tab() ?? .top
    limit = try reader.limit() ?? 10
    if let token = reader.parsed.values["--cursor"] {
      guard !token.isEmpty else {
        throw CommandError.usage(
          "--cursor needs the token printed after a previous page", command: "search")
      }
      cursor = token
    }
    writesJSON = reader.parsed.contains("--json")
    explainsScores = reader.parsed.contains("--explain")
    matchesLastWordAsPrefix = reader.parsed.contains("--prefix")
    userID = try reader.userID()
  }
}

/// `discover search --queries FILE` settings.
struct BatchSearchOptions: Equatable, Sendable {
  /// The query file (JSON Lines).
  var queryFile: String
  /// The index directory.
  var indexDirectory: String
  /// Whether to write JSON lines.
  var writesJSON = false
  /// Whether each result carries the breakdown of its score.
  var explainsScores = false
  /// Whether every search is as typed so far (`--prefix`), as well as the lines that say
  /// `"prefix":true`.
  var matchesPrefixes = false

  init(
    queryFile: String, indexDirectory: String, writesJSON: Bool = false,
    explainsScores: Bool = false, matchesPrefixes: Bool = false
  ) {
    self.queryFile = queryFile
    self.indexDirectory = indexDirectory
    self.writesJSON = writesJSON
    self.explainsScores = explainsScores
    self.matchesPrefixes = matchesPrefixes
  }

  init(_ reader: inout ArgumentReader) throws(CommandError) {
    if let query = reader.parsed.positionals.first {
      throw CommandError.usage(
        "give either a query or --queries FILE, not both (got the query \"\(query)\")",
        command: "search")
    }
    for option in ["--tab", "--limit", "--cursor"] where reader.parsed.values[option] != nil {
      throw CommandError.usage(
        "\(option) applies to one search; with --queries each line gives its own tab and limit",
        command: "search")
    }
    if reader.parsed.values["--user"] != nil {
      throw CommandError.usage(
        "--user applies to one search; a query file's searches are not recorded",
        command: "search")
    }
    queryFile = try reader.requiredPath("--queries", purpose: "the query file")
    indexDirectory = try reader.requiredPath("--index", purpose: "the index directory")
    writesJSON = reader.parsed.contains("--json")
    explainsScores = reader.parsed.contains("--explain")
    matchesPrefixes = reader.parsed.contains("--prefix")
  }
}

/// `discover suggest "PREFIX"` settings.
///
/// Named apart from the library's ``DiscoverSearch/SuggestOptions`` (ranking factors), which
/// the command passes at their defaults.
struct SuggestCommandOptions: Equatable, Sendable {
  /// The most completions one request may ask for, as
  /// ``DiscoverSearch/DiscoverIndex/suggestions(forPrefix:limit:userID:analytics:options:)``
  /// allows: a list under a search bar shows a handful.
  static let maximumLimit = 100

  /// The text typed so far.
  var prefix: String
  /// The index directory.
  var indexDirectory: String
  /// Completions to return, 1 to ``maximumLimit``.
  var limit: Int = 10
  /// The user whose recent searches come first, with the analytics file's past searches;
  /// `nil` for completions from the index alone.
  var userID: String?
  /// Whether to write JSON.
  var writesJSON = false
  /// Whether typo tolerance is on (`--no-typos` turns it off).
  var toleratesTypos = true

  /// Creates settings; the limit defaults to 10, without a user, as text, with typo
  /// tolerance.
  init(
    prefix: String, indexDirectory: String, limit: Int = 10, userID: String? = nil,
    writesJSON: Bool = false, toleratesTypos: Bool = true
  ) {
    self.prefix = prefix
    self.indexDirectory = indexDirectory
    self.limit = limit
    self.userID = userID
    self.writesJSON = writesJSON
    self.toleratesTypos = toleratesTypos
  }

  /// Reads the settings of `discover suggest "PREFIX"`.
  ///
  /// - Throws: ``CommandError`` of kind ``CommandError/Kind/usage`` saying what to fix.
  init(_ reader: inout ArgumentReader) throws(CommandError) {
    prefix = try reader.positional(
      named: "PREFIX", purpose: "the text to complete, or --queries FILE to run a query file")
    try reader.rejectExtraPositionals(
      hint: "Put a prefix of several words in quotes: discover suggest \"dance cha\" --index DIR."
    )
    indexDirectory = try reader.requiredPath("--index", purpose: "the index directory")
    limit = try reader.limit(maximum: Self.maximumLimit) ?? 10
    userID = try reader.userID()
    writesJSON = reader.parsed.contains("--json")
    toleratesTypos = !reader.parsed.contains("--no-typos")
  }
}

/// `discover suggest --queries FILE` settings.
struct BatchSuggestOptions: Equatable, Sendable {
  /// The query file (JSON Lines).
  var queryFile: String
  /// The index directory.
  var indexDirectory: String
  /// Whether to write JSON lines.
  var writesJSON = false
  /// Whether typo tolerance is on (`--no-typos` turns it off).
  var toleratesTypos = true

  /// Creates settings.
  init(
    queryFile: String, indexDirectory: String, writesJSON: Bool = false,
    toleratesTypos: Bool = true
  ) {
    self.queryFile = queryFile
    self.indexDirectory = indexDirectory
    self.writesJSON = writesJSON
    self.toleratesTypos = toleratesTypos
  }

  /// Reads the settings of `discover suggest --queries FILE`.
  ///
  /// - Throws: ``CommandError`` of kind ``CommandError/Kind/usage`` saying what to fix.
  init(_ reader: inout ArgumentReader) throws(CommandError) {
    if let prefix = reader.parsed.positionals.first {
      throw CommandError.usage(
        "give either a prefix or --queries FILE, not both (got the prefix \"\(prefix)\")",
        command: "suggest")
    }
    if reader.parsed.values["--limit"] != nil {
      throw CommandError.usage(
        "--limit applies to one prefix; with --queries each line gives its own limit",
        command: "suggest")
    }
    if reader.parsed.values["--user"] != nil {
      throw CommandError.usage(
        "--user applies to one prefix; a query file is completed from the index alone",
        command: "suggest")
    }
    queryFile = try reader.requiredPath("--queries", purpose: "the query file")
    indexDirectory = try reader.requiredPath("--index", purpose: "the index directory")
    writesJSON = reader.parsed.contains("--json")
    toleratesTypos = !reader.parsed.contains("--no-typos")
  }
}

/// The lists `discover trending` can show.
enum TrendingList: String, CaseIterable, Sendable {
  case videos
  case hashtags
  case sounds
  case effects
  case searches

  /// The content type of a content list; `nil` for searches.
  var contentType: ContentType? {
    switch self {
    case .videos: .video
    case .hashtags: .hashtag
    case .sounds: .sound
    case .effects: .effect
    case .searches: nil
    }
  }
}

/// `discover trending` settings.
struct TrendingOptions: Equatable, Sendable {
  /// The longest list one request may ask for.
  static let maximumLimit = 100

  /// Which list to show.
  var list: TrendingList
  /// The index directory.
  var indexDirectory: String
  /// Items to list, 1 to ``maximumLimit``.
  var limit: Int = 10
  /// Whether to write JSON.
  var writesJSON = false
  /// The clock's "now"; `nil` for the current time.
  var now: Date?
  /// Only events of this region.
  var region: String?
  /// The previous page's cursor token.
  var cursor: String?
  /// Whether each item explains its score.
  var explains = false

  /// Creates settings; the limit defaults to 10, as text.
  init(list: TrendingList, indexDirectory: String, limit: Int = 10, writesJSON: Bool = false) {
    self.list = list
    self.indexDirectory = indexDirectory
    self.limit = limit
    self.writesJSON = writesJSON
  }

  /// Reads the settings of `discover trending LIST`.
  ///
  /// - Throws: ``CommandError`` of kind ``CommandError/Kind/usage`` saying what to fix.
  init(_ reader: inout ArgumentReader) throws(CommandError) {
    let names = TrendingList.allCases.map(\.rawValue).joined(separator: ", ")
    let name = try reader.positional(named: "LIST", purpose: "which list to show: \(names)")
    guard let list = TrendingList(rawValue: name.lowercased()) else {
      throw CommandError.usage(
        "unknown trending list '\(name)'; choose one of: \(names)", command: "trending")
    }
    self.list = list
    try reader.rejectExtraPositionals()
    indexDirectory = try reader.requiredPath("--index", purpose: "the index directory")
    limit = try reader.limit(maximum: Self.maximumLimit) ?? 10
    writesJSON = reader.parsed.contains("--json")
    now = try reader.date("--now")
    region = reader.parsed.values["--region"]
    cursor = reader.parsed.values["--after"]
    explains = reader.parsed.contains("--explain")
    if let region, region.isEmpty || region.utf8.count > TrendingContent.maximumRegionLength {
      throw CommandError.usage(
        "--region takes a region code of 1 to \(TrendingContent.maximumRegionLength) characters, such as US",
        command: "trending")
    }
    if list == .searches, region != nil || cursor != nil || explains {
      throw CommandError.usage(
        "trending searches has no regions, pages or explanations; --region, --after and --explain apply to videos, hashtags, sounds and effects",
        command: "trending")
    }
  }
}

/// `discover events EVENTS.jsonl --index DIR` settings.
struct EventsOptions: Equatable, Sendable {
  /// The event file to read (JSON Lines).
  var eventsPath: String
  /// The index directory whose trending state records them.
  var indexDirectory: String
  /// Whether bad lines are skipped and counted instead of stopping.
  var skipsBadLines = false
  /// The clock's "now", which caps event times; `nil` for the current time.
  var now: Date?
  /// Whether to write the report as JSON.
  var writesJSON = false

  init(_ reader: inout ArgumentReader) throws(CommandError) {
    eventsPath = try reader.positional(named: "EVENTS.jsonl", purpose: "the event file to record")
    try reader.rejectExtraPositionals()
    indexDirectory = try reader.requiredPath("--index", purpose: "the index directory")
    skipsBadLines = reader.parsed.contains("--skip-bad-lines")
    now = try reader.date("--now")
    writesJSON = reader.parsed.contains("--json")
  }
}

/// `discover stats --index DIR` and `discover check --index DIR` settings: the two read the
/// same index and differ only in how much of it they check.
struct IndexInspectionOptions: Equatable, Sendable {
  /// The index directory.
  var indexDirectory: String
  /// Whether to write JSON.
  var writesJSON = false

  /// Creates settings, as text by default.
  init(indexDirectory: String, writesJSON: Bool = false) {
    self.indexDirectory = indexDirectory
    self.writesJSON = writesJSON
  }

  /// Reads the settings of `discover stats` or `discover check`.
  ///
  /// - Throws: ``CommandError`` of kind ``CommandError/Kind/usage`` saying what to fix.
  init(_ reader: inout ArgumentReader) throws(CommandError) {
    try reader.rejectExtraPositionals(
      hint: "Give the index directory with --index: discover \(reader.command) --index DIR.")
    indexDirectory = try reader.requiredPath("--index", purpose: "the index directory")
    writesJSON = reader.parsed.contains("--json")
  }
}

/// Reads typed values out of ``ParsedArguments``, with usage errors that name the command.
struct ArgumentReader {
  /// The split command line.
  var parsed: ParsedArguments
  /// The subcommand, for error messages.
  var command: String
  private var nextPositional = 0

  init(parsed: ParsedArguments, command: String) {
    self.parsed = parsed
    self.command = command
  }

  /// The next positional argument.
  mutating func positional(named name: String, purpose: String) throws(CommandError) -> String {
    guard nextPositional < parsed.positionals.count else {
      throw CommandError.usage("missing \(name): \(purpose)", command: command)
    }
    defer { nextPositional += 1 }
    return parsed.positionals[nextPositional]
  }

  /// Throws when positional arguments are left over.
  func rejectExtraPositionals(hint: String? = nil) throws(CommandError) {
    guard nextPositional < parsed.positionals.count else { return }
    let extras = parsed.positionals[nextPositional...]
    let extra = extras.map { "'\($0)'" }.joined(separator: " ")
    var hints = hint.map { [$0] } ?? []
    if extras.contains(where: { $0.hasPrefix("--") }) {
      hints.append("Options go before --: every word after -- is taken as an argument.")
    }
    throw CommandError.usage(
      "unexpected argument\(parsed.positionals.count - nextPositional == 1 ? "" : "s") \(extra)",
      hints: hints, command: command)
  }

  /// The non-empty value of a required option holding a path.
  func requiredPath(_ option: String, purpose: String) throws(CommandError) -> String {
    guard let value = parsed.values[option] else {
      throw CommandError.usage("missing \(option): \(purpose)", command: command)
    }
    guard !value.isEmpty else {
      throw CommandError.usage("\(option) is empty; give \(purpose)", command: command)
    }
    return value
  }

  /// The `--tab` value, if given.
  func tab() throws(CommandError) -> SearchTab? {
    guard let name = parsed.values["--tab"] else { return nil }
    guard let tab = SearchTab(rawValue: name.lowercased()) else {
      var hints: [String] = []
      if let guess = closestMatch(to: name, among: SearchTab.allCases.map(\.rawValue)) {
        hints.append("Did you mean \(guess)?")
      }
      throw CommandError.usage(
        "unknown tab '\(name)'; valid tabs: \(CommandSpec.validTabs)", hints: hints,
        command: command)
    }
    return tab
  }

  /// The `--limit` value, if given, checked to be an integer from 1 to `maximum`
  /// (by default ``DiscoverSearch/DiscoverIndex/maximumSearchLimit``, a search page's largest size).
  func limit(maximum: Int = DiscoverIndex.maximumSearchLimit) throws(CommandError) -> Int? {
    guard let text = parsed.values["--limit"] else { return nil }
    let range = 1...maximum
    guard let limit = Int(text) else {
      throw CommandError.usage(
        "--limit must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'",
        command: command)
    }
    guard range.contains(limit) else {
      throw CommandError.usage(
        "--limit must be from \(range.lowerBound) to \(range.upperBound), got \(limit)",
        hints: limit > range.upperBound && command == "search"
          ? ["To see more results, page on with the --cursor printed after each page."] : [],
        command: command)
    }
    return limit
  }

  /// The date of an ISO 8601 option, if given.
  func date(_ option: String) throws(CommandError) -> Date? {
    guard let text = parsed.values[option] else { return nil }
    guard let date = ISO8601.date(from: text) else {
      throw CommandError.usage(
        "\(option) takes an ISO 8601 time such as 2026-12-01T10:00:00Z, got '\(text)'",
        command: command)
    }
    return date
  }

  /// The `--user` value, if given, checked to be non-empty.
  func userID() throws(CommandError) -> String? {
    guard let user = parsed.values["--user"] else { return nil }
    guard !user.isEmpty else {
      throw CommandError.usage(
        "--user is empty; give the id of the user who searches", command: command)
    }
    return user
  }
}
