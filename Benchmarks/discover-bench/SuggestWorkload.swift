import DiscoverCLI
import DiscoverSearch
import Foundation

/// Runs the completion requests: builds the suggestion structures (timed on their own), one
/// untimed warm-up pass, then timed passes keeping each request's median; then checks every
/// answer, outside the clock.
///
/// Each request runs twice per pass, with typo tolerance on (the default) and off, in the same
/// pass so that both see the same machine state (see ``SearchWorkload``).
struct SuggestWorkload {
  let index: DiscoverIndex
  let queries: [QuerySpec]
  /// The positions in ``queries`` of prefixes of words that occur in the corpus: these must
  /// find completions even without typo correction.
  let prefixesOfCorpusWords: Set<Int>
  let passes: Int
  let verifies: Bool
  var options = SuggestOptions()
  /// The options timed beside ``options``: no typo correction.
  var comparisonOptions = SuggestOptions(typoTolerance: .disabled)
  /// Where progress is shown between passes, outside the clock.
  var progress: ProgressLine?

  struct Result {
    /// How long `prepareSuggestions()` took: sorting the term dictionary and building the
    /// phrase dictionary.
    var prepareSeconds: Double
    var latency: LatencySummary
    /// The latency with ``comparisonOptions`` (typo tolerance off).
    var comparisonLatency: LatencySummary
    /// Answers that break an invariant.
    var failures: [String]
    /// Requests that found nothing, with ``options`` and with ``comparisonOptions``.
    var emptyQueries: Int
    var comparisonEmptyQueries: Int
    /// Each request's median latency in microseconds, in query order, with ``options`` and
    /// with ``comparisonOptions``.
    var medians: [Double]
    var comparisonMedians: [Double]
  }

  /// The most suggestions a request may ask for (``DiscoverIndex/suggestions(forPrefix:limit:userID:analytics:options:)``).
  static let maximumLimit = 100

  func run() throws -> Result {
    if let bad = queries.first(where: { $0.limit > Self.maximumLimit }) {
      throw SearchError(
        .invalidArgument,
        "suggest query \"\(bad.text)\" asks for \(bad.limit) suggestions; the most is \(Self.maximumLimit)"
      )
    }
    let count = TextFormatting.counted(queries.count, "completion")
    progress?.update("Suggest: building the completion dictionaries")
    let prepareStart = Measurement.now()
    index.prepareSuggestions()
    let prepareSeconds = Double(Measurement.now() - prepareStart) / 1e9

    progress?.update("Suggest: warming up, \(count)")
    for query in queries {
      _ = try suggestions(for: query, options: options)
      _ = try suggestions(for: query, options: comparisonOptions)
    }
    var samples = [[Double]](repeating: [], count: queries.count)
    var comparisonSamples = [[Double]](repeating: [], count: queries.count)
    var responses: [[Suggestion]] = []
    var comparisonResponses: [[Suggestion]] = []
    responses.reserveCapacity(queries.count)
    comparisonResponses.reserveCapacity(queries.count)
    for pass in 0..<passes {
      progress?.update("Suggest: timed pass \(pass + 1) of \(passes), \(count)")
      for (number, query) in queries.enumerated() {
        // The second request for a text finds its part of the dictionary in cache:
        // alternate which options go first, so neither gets the warm run more often.
        let comparisonFirst = (pass + number) % 2 == 1
        if comparisonFirst {
          let start = Measurement.now()
          let response = try suggestions(for: query, options: comparisonOptions)
          comparisonSamples[number].append(Double(Measurement.now() - start) / 1_000)
          if pass == 0 { comparisonResponses.append(response) }
        }
        let start = Measurement.now()
        let response = try suggestions(for: query, options: options)
        samples[number].append(Double(Measurement.now() - start) / 1_000)
        if pass == 0 { responses.append(response) }
        if !comparisonFirst {
          let start = Measurement.now()
          let response = try suggestions(for: query, options: comparisonOptions)
          comparisonSamples[number].append(Double(Measurement.now() - start) / 1_000)
          if pass == 0 { comparisonResponses.append(response) }
        }
      }
    }
    let medians = samples.map(Measurement.median)
    let comparisonMedians = comparisonSamples.map(Measurement.median)
    if let path = ProcessInfo.processInfo.environment["DISCOVER_BENCH_SUGGEST_DUMP"] {
      var lines = ""
      for (number, query) in queries.enumerated() {
        lines += "\(medians[number])\t\(comparisonMedians[number])\t\(query.text)\n"
      }
      try? lines.write(toFile: path, atomically: true, encoding: .utf8)
    }
    var failures: [String] = []
    if verifies {
      progress?.update("Suggest: checking \(count)")
      for (number, query) in queries.enumerated() {
        failures += check(query, responses[number], typoTolerance: "on")
        failures += check(query, comparisonResponses[number], typoTolerance: "off")
        if prefixesOfCorpusWords.contains(number) && comparisonResponses[number].isEmpty {
          failures.append(
            "suggest \"\(query.text)\" (typo tolerance off): no suggestions for the prefix of a word in the corpus"
          )
        }
      }
    }
    return Result(
      prepareSeconds: prepareSeconds,
      latency: LatencySummary(microseconds: medians),
      comparisonLatency: LatencySummary(microseconds: comparisonMedians), failures: failures,
      emptyQueries: responses.filter(\.isEmpty).count,
      comparisonEmptyQueries: comparisonResponses.filter(\.isEmpty).count, medians: medians,
      comparisonMedians: comparisonMedians)
  }

  /// Whether the start of a title word must find a completion: it analyzes to exactly one
  /// plain word (`danc`), and the word it was cut from starts with that, so that word's term
  /// is in the dictionary.
  ///
  /// Left out: emoji (completions skip emoji names), text that analyzes to several tokens
  /// (`rock&r`), and scripts written without spaces, which a dictionary splits into words
  /// that need not start where the title's word does, and whose query form is bigrams.
  static func mustFindCompletions(prefixOfTitleWord text: String) -> Bool {
    let tokens = Analyzer.tokens(of: text, as: .query)
    guard tokens.count == 1, tokens[0].kind == .word else { return false }
    return !text.unicodeScalars.contains { scalar in
      switch scalar.value {
      // Thai, Lao, Myanmar, Khmer, kana, CJK ideographs.
      case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x3040...0x30FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xF900...0xFAFF:
        true
      default: false
      }
    }
  }

  @inline(__always)
  private func suggestions(for query: QuerySpec, options: SuggestOptions) throws -> [Suggestion] {
    try index.suggestions(forPrefix: query.text, limit: query.limit, options: options)
  }

  /// The ways a list of suggestions is wrong: an empty text or a score that is not a number,
  /// more than `limit` entries, entries out of order, or an exact completion (no typos) from
  /// the term dictionary that does not start with what was typed.
  private func check(_ query: QuerySpec, _ suggestions: [Suggestion], typoTolerance: String)
    -> [String]
  {
    var failures: [String] = []
    let label = "suggest \"\(query.text)\" (typo tolerance \(typoTolerance))"
    if suggestions.count > query.limit {
      failures.append("\(label): \(suggestions.count) suggestions for limit \(query.limit)")
    }
    for suggestion in suggestions where suggestion.text.isEmpty || !suggestion.score.isFinite {
      failures.append(
        "\(label): suggestion \"\(suggestion.text)\" has an empty text or a score of \(suggestion.score)"
      )
    }
    for (earlier, later) in zip(suggestions, suggestions.dropFirst())
    where later.score > earlier.score {
      failures.append(
        "\(label): out of order (\"\(earlier.text)\" \(earlier.score) before \"\(later.text)\" \(later.score))"
      )
      break
    }
    let typed = Analyzer.fold(query.text)
    guard !typed.isEmpty else { return failures }
    for suggestion in suggestions where suggestion.typos == 0 && isFromTermDictionary(suggestion) {
      var folded = Analyzer.fold(suggestion.text)
      // A word typed without `#` or `@` also completes to hashtags and usernames.
      if let marker = folded.first, marker == "#" || marker == "@", typed.first != marker {
        folded.removeFirst()
      }
      // By bytes, not characters: `तैयार` starts `तैयारी`, whose last letter gains a vowel sign.
      if !folded.utf8.starts(with: typed.utf8) {
        failures.append(
          "\(label): \(suggestion.kind.rawValue) \"\(suggestion.text)\" (folded \"\(folded)\") has no typos but does not start with \"\(typed)\""
        )
      }
    }
    return failures
  }

  /// Whether a suggestion completes the typed text word by word: words, hashtags and title
  /// phrases, and users by `@username` (a user's display name may match any of its words).
  private func isFromTermDictionary(_ suggestion: Suggestion) -> Bool {
    switch suggestion.kind {
    case .query, .hashtag: true
    case .user: suggestion.text.hasPrefix("@")
    case .sound: false
    }
  }
}
