import DiscoverCLI
import DiscoverSearch
import Foundation

/// Runs the search queries: one untimed warm-up pass, then timed passes, keeping each
/// query's median; then checks every answer, outside the clock.
///
/// Each query also runs with ``comparisonRanking`` right after the default ranking, in the
/// same pass, so that both see the same machine state: compared ratios do not drift with
/// what ran before (a separate second pass measured up to 2 times off).
struct SearchWorkload {
  let index: DiscoverIndex
  let queries: [QuerySpec]
  let passes: Int
  let verifies: Bool
  var ranking = RankingOptions()
  /// A second ranking timed beside the first (the text-only one).
  var comparisonRanking: RankingOptions?
  /// Where progress is shown between passes, outside the clock.
  var progress: ProgressLine?

  struct Result {
    var latency: LatencySummary
    /// The latency with ``comparisonRanking``, when there is one.
    var comparisonLatency: LatencySummary?
    /// Answers that disagree with the reference or break an invariant.
    var failures: [String]
    /// How many queries were checked against the reference counts.
    var checkedQueries: Int
    /// Queries that found nothing.
    var emptyQueries: Int
    /// Each query's median latency in microseconds, in query order.
    var medians: [Double]
  }

  func run() throws -> Result {
    let count = TextFormatting.counted(queries.count, "search", plural: "searches")
    progress?.update("Search: warming up, \(count)")
    for query in queries {
      _ = try index.search(
        query.text, in: query.tab, limit: query.limit, ranking: ranking,
        matching: query.matching)
      if let comparisonRanking {
        _ = try index.search(
          query.text, in: query.tab, limit: query.limit, ranking: comparisonRanking,
          matching: query.matching)
      }
    }
    var samples = [[Double]](repeating: [], count: queries.count)
    var comparisonSamples = [[Double]](repeating: [], count: queries.count)
    var responses: [SearchResponse] = []
    responses.reserveCapacity(queries.count)
    for pass in 0..<passes {
      progress?.update("Search: timed pass \(pass + 1) of \(passes), \(count)")
      for (number, query) in queries.enumerated() {
        // The second search of a query finds its postings in cache: alternate which
        // ranking goes first, so neither gets the warm run more often.
        let comparisonFirst = comparisonRanking != nil && (pass + number) % 2 == 1
        if comparisonFirst, let comparisonRanking {
          let start = Measurement.now()
          _ = try index.search(
            query.text, in: query.tab, limit: query.limit, ranking: comparisonRanking,
            matching: query.matching)
          comparisonSamples[number].append(Double(Measurement.now() - start) / 1_000)
        }
        let start = Measurement.now()
        let response = try index.search(
          query.text, in: query.tab, limit: query.limit, ranking: ranking,
          matching: query.matching)
        let elapsed = Measurement.now() - start
        samples[number].append(Double(elapsed) / 1_000)
        if pass == 0 { responses.append(response) }
        if !comparisonFirst, let comparisonRanking {
          let start = Measurement.now()
          _ = try index.search(
            query.text, in: query.tab, limit: query.limit, ranking: comparisonRanking,
            matching: query.matching)
          comparisonSamples[number].append(Double(Measurement.now() - start) / 1_000)
        }
      }
    }
    let medians = samples.map(Measurement.median)
    if let path = ProcessInfo.processInfo.environment["DISCOVER_BENCH_DUMP"] {
      var lines = ""
      for (number, query) in queries.enumerated() {
        lines +=
          "\(medians[number])\t\(Measurement.median(comparisonSamples[number]))\t\(query.tab.rawValue)\t\(query.text)\n"
      }
      try? lines.write(toFile: path, atomically: true, encoding: .utf8)
    }
    let latency = LatencySummary(microseconds: medians)
    let comparisonLatency =
      comparisonRanking == nil
      ? nil : LatencySummary(microseconds: comparisonSamples.map(Measurement.median))
    var failures: [String] = []
    var checked = 0
    if verifies {
      progress?.update("Search: checking \(count) against the reference")
      for (query, response) in zip(queries, responses) {
        failures += check(query, response)
        if index.referenceCounts(for: query.text) != nil { checked += 1 }
      }
    }
    return Result(
      latency: latency, comparisonLatency: comparisonLatency, failures: failures,
      checkedQueries: checked,
      emptyQueries: responses.filter { $0.totalHits == 0 }.count, medians: medians)
  }

  /// The ways a response is wrong: counts that differ from the slow reference, a page of
  /// the wrong size or order, or a next page that repeats this one.
  private func check(_ query: QuerySpec, _ response: SearchResponse) -> [String] {
    var failures: [String] = []
    let label = "query \"\(query.text)\" (\(query.tab.rawValue))"
    if let reference = index.referenceCounts(for: query.text) {
      if reference.facets != response.facets
        || reference.matchedAllTerms != response.matchedAllTerms
      {
        failures.append(
          "\(label): counts \(response.facets) (all terms: \(response.matchedAllTerms)), reference \(reference.facets) (all terms: \(reference.matchedAllTerms))"
        )
      }
    }
    if response.totalHits != response.facets.total(for: query.tab) {
      failures.append("\(label): totalHits \(response.totalHits) is not the tab's facet sum")
    }
    if response.results.count != min(query.limit, response.totalHits) {
      failures.append(
        "\(label): \(response.results.count) results for \(response.totalHits) hits and limit \(query.limit)"
      )
    }
    // The Top tab puts cards before videos, so scores fall within a type there.
    if response.matchedAllTerms {
      for (earlier, later) in zip(response.results, response.results.dropFirst())
      where later.type == earlier.type && later.score > earlier.score {
        failures.append("\(label): results out of order (\(earlier.score) before \(later.score))")
        break
      }
    }
    if let cursor = response.nextCursor,
      let next = try? index.search(
        query.text, in: query.tab, limit: query.limit, after: cursor, ranking: ranking,
        matching: query.matching)
    {
      let shown = Set(response.results.map { "\($0.type.rawValue)/\($0.id)" })
      if next.results.contains(where: { shown.contains("\($0.type.rawValue)/\($0.id)") }) {
        failures.append("\(label): page 2 repeats a result of page 1")
      }
      let expected = min(query.limit, response.totalHits - response.results.count)
      if next.results.count != expected {
        failures.append("\(label): page 2 has \(next.results.count) results, expected \(expected)")
      }
    }
    return failures
  }
}
