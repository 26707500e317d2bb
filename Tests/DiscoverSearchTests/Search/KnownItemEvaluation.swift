import DiscoverSearch
import Foundation

/// Runs the known-item cases through the public search API and counts, per kind, how often
/// the first page shows the video meant.
///
/// A case's query is searched as an app's search box does, on the Top tab, ten results a
/// page, as-you-type input with ``MatchingOptions/asYouType`` and the rest with the
/// defaults; the case is a hit when its target is among the page's videos (the Top tab
/// puts up to three user, hashtag or sound cards first, so seven to ten videos).
///
/// Before that, each candidate's ``KnownItemCase/exactQuery`` (its words typed correctly
/// and in full) is searched the same way, and the candidate is kept only if it finds the
/// target, or for the ``KnownItemKind/exact`` controls, ranks it first among the videos:
/// a rate counts the cases the engine can solve when the words are right. The share kept
/// of the exact controls is itself a rate to watch: as the controls' candidates do not
/// depend on the engine, a ranking that gets worse on exact input lowers it.
struct KnownItemEvaluation: Sendable {
  /// A kept case whose query missed its target.
  struct Failure: Sendable {
    let knownItem: KnownItemCase
    /// For as-you-type cases, whether the query without its typo (the last word still cut)
    /// finds the target: `false` puts the miss on the prefix rather than the typo.
    let withoutTypoFinds: Bool?
  }

  /// A candidate dropped as unsolvable, and where its exact query ranked the target among
  /// the first page's videos (`nil`: not on it).
  struct Unsolvable: Sendable {
    let knownItem: KnownItemCase
    let rank: Int?
  }

  /// One kind's figures.
  struct KindResult: Sendable {
    let kind: KnownItemKind
    /// How many candidates the generator made.
    let candidateCount: Int
    /// The candidates kept: solvable when typed correctly.
    var cases: [KnownItemCase] = []
    var failures: [Failure] = []
    var unsolvable: [Unsolvable] = []
    /// The kept cases that only handling the changed word can solve: the query without it
    /// does not find the target (``KnownItemCase/withoutChangedWord``).
    var hardCases: Set<KnownItemCase> = []

    /// The share of kept cases whose target the first page shows.
    var hitRate: Double { rate(cases.count - failures.count, of: cases.count) }

    /// The share of candidates kept.
    var solvableRate: Double { rate(cases.count, of: candidateCount) }

    /// The hits and the count of the hard cases.
    var hardHits: (hits: Int, count: Int) {
      let missed = failures.filter { hardCases.contains($0.knownItem) }.count
      return (hardCases.count - missed, hardCases.count)
    }

    /// (variant, hits, cases) in the order the variants first appear.
    var variants: [(variant: String, hits: Int, count: Int)] {
      let failed = Set(failures.map(\.knownItem))
      var order: [String] = []
      var tally: [String: (hits: Int, count: Int)] = [:]
      for knownItem in cases {
        if tally[knownItem.variant] == nil { order.append(knownItem.variant) }
        tally[knownItem.variant, default: (0, 0)].count += 1
        if !failed.contains(knownItem) { tally[knownItem.variant]!.hits += 1 }
      }
      return order.map { ($0, tally[$0]!.hits, tally[$0]!.count) }
    }
  }

  /// The first page's size.
  static let pageSize = 10

  let results: [KnownItemKind: KindResult]
  /// Each video's title, for the report.
  let titles: [String: String]

  /// Generates the cases from the corpus and evaluates them on its index.
  /// - Complexity: One to four searches a candidate (about 2,300 searches).
  static func run(on corpus: RealCorpus.Loaded) throws -> KnownItemEvaluation {
    let model = KnownItemCorpus(documents: corpus.documents)
    let candidates = KnownItemGenerator(corpus: model).candidates()
    var results: [KnownItemKind: KindResult] = [:]
    for kind in KnownItemKind.allCases {
      results[kind] = try evaluate(
        kind, candidates.filter { $0.kind == kind }, in: corpus.index)
    }
    let titles = Dictionary(model.videos.map { ($0.id, $0.title) }) { first, _ in first }
    return KnownItemEvaluation(results: results, titles: titles)
  }

  private static func evaluate(
    _ kind: KnownItemKind, _ candidates: [KnownItemCase], in index: DiscoverIndex
  ) throws -> KindResult {
    var result = KindResult(kind: kind, candidateCount: candidates.count)
    for knownItem in candidates {
      let exactIDs = try videoIDs(knownItem.exactQuery, prefix: false, in: index)
      let rank = exactIDs.firstIndex(of: knownItem.target).map { $0 + 1 }
      guard kind == .exact ? rank == 1 : rank != nil else {
        result.unsolvable.append(Unsolvable(knownItem: knownItem, rank: rank))
        continue
      }
      result.cases.append(knownItem)
      if kind != .exact, try !finds(knownItem.withoutChangedWord, knownItem, in: index) {
        result.hardCases.insert(knownItem)
      }
      if let failure = try evaluate(knownItem, exactIDs: exactIDs, in: index) {
        result.failures.append(failure)
      }
    }
    return result
  }

  /// Whether `query` finds the target of `knownItem`, searched as its query is.
  private static func finds(
    _ query: String?, _ knownItem: KnownItemCase, in index: DiscoverIndex
  ) throws -> Bool {
    guard let query else { return false }
    return try videoIDs(query, prefix: knownItem.isPrefix, in: index).contains(knownItem.target)
  }

  /// The failure of `knownItem`, or `nil` when its query finds the target.
  private static func evaluate(
    _ knownItem: KnownItemCase, exactIDs: [String], in index: DiscoverIndex
  ) throws -> Failure? {
    let isSameSearch = knownItem.query == knownItem.exactQuery && !knownItem.isPrefix
    let isFound =
      isSameSearch
      ? exactIDs.contains(knownItem.target) : try finds(knownItem.query, knownItem, in: index)
    guard !isFound else { return nil }
    let withoutTypoFinds = try knownItem.withoutTypo.map { try finds($0, knownItem, in: index) }
    return Failure(knownItem: knownItem, withoutTypoFinds: withoutTypoFinds)
  }

  /// The ids of the videos on the first page of the Top tab for `query`.
  static func videoIDs(_ query: String, prefix: Bool, in index: DiscoverIndex) throws -> [String] {
    let matching = prefix ? MatchingOptions.asYouType : MatchingOptions()
    return try index.search(query, in: .top, limit: pageSize, matching: matching).results
      .filter { $0.type == .video }.map(\.id)
  }

  // MARK: - Reporting

  /// A kind's rates, per variant and for the hard cases, and up to `failureLimit` failing
  /// cases as `query -> target title [variant]`; for the exact controls, which cannot fail,
  /// the candidates whose target does not rank first today.
  func report(for kind: KnownItemKind, failureLimit: Int = 15) -> String {
    guard let result = results[kind] else { return "\(kind.rawValue): no cases" }
    let hits = result.cases.count - result.failures.count
    var lines = [
      "\(kind.rawValue): \(hits)/\(result.cases.count) found, \(percent(result.hitRate))"
        + " (kept \(result.cases.count) of \(result.candidateCount) candidates,"
        + " \(percent(result.solvableRate)))",
      "  by variant: "
        + result.variants.map { "\($0.variant) \($0.hits)/\($0.count)" }.joined(separator: ", "),
    ]
    if kind != .exact {
      let hard = result.hardHits
      lines.append(
        "  hard (missed without the changed word): \(hard.hits)/\(hard.count),"
          + " \(percent(rate(hard.hits, of: hard.count)))")
    }
    for failure in result.failures.prefix(failureLimit) {
      var note = failure.knownItem.variant
      if result.hardCases.contains(failure.knownItem) { note += "; hard" }
      if let found = failure.withoutTypoFinds {
        note += found ? "; found without the typo" : "; missed without the typo too"
      }
      lines.append(line(failure.knownItem, note))
    }
    if kind == .exact {
      lines.append("  not first today:")
      for dropped in result.unsolvable.prefix(failureLimit) {
        let rank = dropped.rank.map { "video \($0)" } ?? "not on the page"
        lines.append(line(dropped.knownItem, "\(dropped.knownItem.variant); \(rank)"))
      }
    }
    return lines.joined(separator: "\n")
  }

  private func line(_ knownItem: KnownItemCase, _ note: String) -> String {
    let title = titles[knownItem.target] ?? knownItem.target
    return "  \(knownItem.query)\(knownItem.isPrefix ? "…" : "") -> \(title) [\(note)]"
  }

  /// A contract-2 query line (the project's DESIGN.md) with the target's id.
  private struct QueryLine: Encodable {
    var kind = "search"
    let q: String
    var tab = "top"
    var limit = KnownItemEvaluation.pageSize
    let prefix: Bool
    let target: String
    /// The known-item kind, as the `class` `anchors.py` groups its figures by.
    let `class`: String
  }

  /// Writes every kept case to `url` as a contract-2 query line with an extra `target`
  /// field, for running the same cases with other engines (`tools/anchors`).
  func dump(to url: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var text = ""
    for kind in KnownItemKind.allCases {
      for knownItem in results[kind]?.cases ?? [] {
        let line = QueryLine(
          q: knownItem.query, prefix: knownItem.isPrefix, target: knownItem.target,
          class: kind.rawValue)
        text += String(decoding: try encoder.encode(line), as: UTF8.self) + "\n"
      }
    }
    try text.write(to: url, atomically: true, encoding: .utf8)
  }
}

/// `count` of `total` as a fraction, 0 when `total` is 0.
private func rate(_ count: Int, of total: Int) -> Double {
  total == 0 ? 0 : Double(count) / Double(total)
}

private func percent(_ rate: Double) -> String {
  String(format: "%.1f%%", rate * 100)
}
