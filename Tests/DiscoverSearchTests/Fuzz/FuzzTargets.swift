import Foundation

@testable import DiscoverCLI
@testable import DiscoverSearch

/// The fuzz targets' entry points: each takes one input's bytes and returns what broke the
/// project's rule (see ``FuzzFindings``). The libFuzzer targets under Fuzz/ call these; the
/// regression tests feed them the inputs that once failed.
enum FuzzTargets {
  /// `query`: text typed in a search bar, and query files (contract 2).
  ///
  /// Input: [tab] [flags] [limit] then the query text, or with flag 0x20 a query file.
  /// Flags: bits 0-1 the matching (whole words, as you type, exact, or options read from the
  /// input), 0x04 explain, 0x08 the next page through the cursor, 0x10 completions, 0x40 the
  /// document analyzer too, 0x80 query analytics. Checks the sanitizer's bounds and
  /// idempotence, a page's size, highlights and scores, and that page two repeats nothing.
  static func query(_ bytes: [UInt8]) -> [String] {
    var findings = FuzzFindings()
    var input = FuzzInput(bytes)
    let tab = SearchTab.allCases[Int(input.byte()) % SearchTab.allCases.count]
    let flags = input.byte()
    let limitByte = input.byte()
    let limit = limitByte == 0xFF ? DiscoverIndex.maximumSearchLimit : Int(limitByte % 50) + 1
    if flags & 0x20 != 0 {
      runQueryFile(input.rest(), limit: limit, &findings)
      return findings.problems
    }
    let matching = matchingOptions(flags & 0x03, &input)
    let text = input.restAsText()
    let explain = flags & 0x04 != 0

    let sanitized = QuerySanitizer.sanitize(text)
    if sanitized.count > QuerySanitizer.maximumLength {
      findings.fail("a sanitized query of \(sanitized.count) characters")
    }
    if QuerySanitizer.sanitize(sanitized) != sanitized {
      findings.fail("sanitizing is not idempotent for \(Array(text.utf8))")
    }
    _ = Analyzer.tokens(of: sanitized, as: .query)
    if flags & 0x40 != 0 { _ = Analyzer.tokens(of: text, as: .document) }

    let index = FuzzSamples.index
    let first = findings.expectTypedErrors("a search") {
      try index.search(text, in: tab, limit: limit, matching: matching, explain: explain)
    }
    if case .success(let page) = first {
      check(page, limit: limit, &findings)
      if flags & 0x08 != 0, let cursor = page.nextCursor {
        let next = findings.expectTypedErrors("a search after a cursor") {
          try index.search(
            text, in: tab, limit: limit, after: SearchCursor(token: cursor.token),
            matching: matching, explain: explain)
        }
        if case .success(let second) = next {
          check(second, limit: limit, &findings)
          let firstIDs = Set(page.results.map(\.id))
          if second.results.contains(where: { firstIDs.contains($0.id) }) {
            findings.fail("page two repeats a result of page one for \(Array(text.utf8))")
          }
        }
      }
    }
    // Query analytics in memory, holding this input's searches only.
    let analytics = flags & 0x80 != 0 ? QueryAnalytics(clock: { FuzzSamples.now }) : nil
    if let analytics {
      for user in ["u1", "u2", "u3"] {
        findings.expectTypedErrors("recording a search") {
          try analytics.recordSearch(
            SearchEvent(query: text, userID: user, time: FuzzSamples.now, resultCount: limit))
        }
      }
      _ = analytics.trendingSearches(limit: 10)
      _ = analytics.popularQueries(withPrefix: Analyzer.fold(String(text.prefix(3))), limit: 5)
      _ = analytics.recentSearches(for: "u1")
    }
    if flags & 0x10 != 0 {
      findings.expectTypedErrors("completions") {
        try index.suggestions(forPrefix: text, limit: limit % 100 + 1, analytics: analytics)
      }
    }
    return findings.problems
  }

  /// Matching options: three presets, or (3) every field read from the input, as a service
  /// might pass them through from a request.
  private static func matchingOptions(_ choice: UInt8, _ input: inout FuzzInput)
    -> MatchingOptions
  {
    switch choice {
    case 0: return MatchingOptions()
    case 1: return .asYouType
    case 2: return .exact
    default:
      let isPrefix = input.byte() & 1 != 0
      let expansions = Int(Int8(bitPattern: input.byte())) * 8
      let prefixPenalty = Float(bitPattern: input.integer(UInt32.self))
      let typos = TypoTolerance(
        isEnabled: input.byte() & 1 != 0,
        minimumLengthForOneTypo: Int(Int8(bitPattern: input.byte())),
        minimumLengthForTwoTypos: Int(Int8(bitPattern: input.byte())),
        minimumResults: Int(Int8(bitPattern: input.byte())),
        didYouMeanThreshold: Int(Int8(bitPattern: input.byte())),
        penalty: Float(bitPattern: input.integer(UInt32.self)),
        countsFirstCharacterTypoTwice: input.byte() & 1 != 0,
        frequentWordCount: Int(Int16(bitPattern: input.integer(UInt16.self))))
      return MatchingOptions(
        matchesPrefixOfLastWord: isPrefix, maximumPrefixExpansions: expansions,
        prefixPenalty: prefixPenalty, typoTolerance: typos,
        maximumCorrections: Int(Int8(bitPattern: input.byte())))
    }
  }

  /// Invariants of one page of results.
  private static func check(_ page: SearchResponse, limit: Int, _ findings: inout FuzzFindings) {
    if page.results.count > limit {
      findings.fail("\(page.results.count) results for a limit of \(limit)")
    }
    for result in page.results {
      for highlight in result.highlights {
        let offsets = highlight.utf8Offsets
        guard offsets.lowerBound >= 0, offsets.upperBound <= result.title.utf8.count else {
          findings.fail("highlight \(offsets) outside the title \(result.title)")
          continue
        }
        _ = highlight.range(in: result.title)
      }
      if !result.score.isFinite { findings.fail("score \(result.score) for \(result.id)") }
    }
  }

  /// A query file from outside: parsed, then its first lines run.
  private static func runQueryFile(_ bytes: [UInt8], limit: Int, _ findings: inout FuzzFindings) {
    guard
      case .success(let specs) = findings.expectTypedErrors(
        "parsing a query file",
        {
          try QueryFile.parse(bytes)
        })
    else { return }
    for spec in specs.prefix(4) {
      switch spec.kind {
      case .search:
        findings.expectTypedErrors("a query file's search") {
          try FuzzSamples.index.search(spec.text, in: spec.tab, limit: min(spec.limit, limit))
        }
      case .suggest:
        findings.expectTypedErrors("a query file's completion") {
          try FuzzSamples.index.suggestions(forPrefix: spec.text, limit: min(spec.limit, 100))
        }
      }
    }
  }

  // MARK: Cursors

  /// The queries whose cursors mode 1 builds.
  static let cursorQueries = [
    "dance", "bruno mars", "#fyp", "dance challenge", "🔥", "東京", "dance cha", "clip",
  ]

  /// `cursors`: page cursors from outside, of searches and of trending lists.
  ///
  /// Input: [mode] [options] then the payload. Modes: 0 a search cursor token as text; 1 a
  /// search cursor built from the payload with the right version and query hash, so that the
  /// fields behind those checks are reached (rank, score, document, offset, origin, section);
  /// 2 a trending cursor token as text; 3 a trending cursor built from the payload. Each
  /// cursor is then used: a search of the sample index, or a trending list.
  static func cursors(_ bytes: [UInt8]) -> [String] {
    var findings = FuzzFindings()
    var input = FuzzInput(bytes)
    let mode = input.byte() & 3
    let options = input.byte()
    let tab = SearchTab.allCases[Int(options & 7) % SearchTab.allCases.count]
    let query = cursorQueries[Int(options >> 3) % cursorQueries.count]
    let matching: MatchingOptions = options & 0x40 != 0 ? .asYouType : MatchingOptions()
    let limit = Int(options >> 5) + 1
    switch mode {
    case 0:
      search(query, tab, matching, limit, token: input.restAsText(), &findings)
    case 1:
      // The layout of SearchCursor.init(_:): version, query hash, then the rank key, offset,
      // origin and section, 32 bytes in all.
      let isPrefix = options & 0x80 != 0
      var payload: [UInt8] = [2]
      let hash = SearchCursor.hash(
        query: QuerySanitizer.sanitize(query), tab: tab, isPrefix: isPrefix)
      withUnsafeBytes(of: hash.littleEndian) { payload.append(contentsOf: $0) }
      payload += input.take(23)
      payload += [UInt8](repeating: 0, count: max(0, 32 - payload.count))
      let token = Base64URL.encode(payload)
      search(query, tab, isPrefix ? .asYouType : matching, limit, token: token, &findings)
    case 2:
      list(token: input.restAsText(), options: options, &findings)
    default:
      // The layout of TrendingCursor.token: version, type, score, region length, region, id.
      var payload: [UInt8] = [1, input.byte() % 5]
      payload += input.take(8)
      let regionLength = input.byte() % 4
      payload.append(regionLength)
      payload += input.take(Int(regionLength))
      payload += input.rest()
      list(token: Base64URL.encode(payload), options: options, &findings)
    }
    return findings.problems
  }

  private static func search(
    _ query: String, _ tab: SearchTab, _ matching: MatchingOptions, _ limit: Int, token: String,
    _ findings: inout FuzzFindings
  ) {
    let cursor = SearchCursor(token: token)
    let page = findings.expectTypedErrors("a search after a cursor") {
      try FuzzSamples.index.search(query, in: tab, limit: limit, after: cursor, matching: matching)
    }
    if case .success(let page) = page, page.results.count > limit {
      findings.fail("\(page.results.count) results for a limit of \(limit)")
    }
  }

  private static func list(token: String, options: UInt8, _ findings: inout FuzzFindings) {
    guard
      case .success(let cursor) = findings.expectTypedErrors(
        "decoding a trending cursor", { try TrendingCursor(token: token) })
    else { return }
    let type = ContentType.allCases[Int(options & 3)]
    let region: String? = options & 4 != 0 ? "US" : nil
    let limit = Int(options >> 3) + 1
    let page = findings.expectTypedErrors("a trending list after a cursor") {
      try FuzzSamples.trending.list(type, region: region, limit: limit, after: cursor)
    }
    if case .success(let page) = page, page.items.count > limit {
      findings.fail("\(page.items.count) trending items for a limit of \(limit)")
    }
    // The cursor's own list, whichever it is.
    findings.expectTypedErrors("the trending list of the cursor") {
      try FuzzSamples.trending.list(cursor.type, region: cursor.region, limit: limit, after: cursor)
    }
  }

  // MARK: Command lines

  /// `arguments`: the `discover` command line, words separated by NUL bytes as the kernel
  /// hands them over. Parsed with every value checked, errors rendered as text and as JSON;
  /// no command runs. A usage error must explain itself, point at help, keep terminal control
  /// characters out of its text and be one line of JSON.
  static func arguments(_ bytes: [UInt8]) -> [String] {
    var findings = FuzzFindings()
    let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false)
      .prefix(64).map { String(decoding: $0, as: UTF8.self) }
    _ = DiscoverCLI.wantsJSONErrors(arguments)
    do {
      let command = try DiscoverCommand.parse(arguments)
      if case .help(let name) = command {
        let text = name.flatMap(CommandSpec.named)?.helpText ?? CommandSpec.overview
        if text.isEmpty { findings.fail("empty help for \(String(describing: name))") }
      }
    } catch {
      if error.message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
        findings.fail("a usage error with an empty message for \(arguments)")
      }
      if error.kind != .usage || error.exitStatus != ExitStatus.usage {
        findings.fail("parsing failed with \(error.kind), not a usage error, for \(arguments)")
      }
      let report = error.report
      if !report.hasPrefix("error: ") || !report.hasSuffix("\n")
        || !report.contains("discover help")
      {
        findings.fail("a malformed error report: \(report)")
      }
      let isControl = { (scalar: Unicode.Scalar) in
        (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
          || scalar == "\u{2028}" || scalar == "\u{2029}"
      }
      if report.unicodeScalars.contains(where: isControl) {
        findings.fail("the error report carries control characters: \(Array(report.utf8))")
      }
      let json = error.jsonReport
      if json.dropLast().contains("\n") || !json.hasSuffix("\n") {
        findings.fail("the JSON error is not one line: \(json)")
      }
    }
    return findings.problems
  }
}
