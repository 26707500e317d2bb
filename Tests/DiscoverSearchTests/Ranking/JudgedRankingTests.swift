import DiscoverSearch
import Foundation
import Testing

/// The ranking defaults against the hand-judged first pages of ``JudgedRankingTable``, by
/// mean nDCG@10 (``JudgedRankingEvaluation``).
///
/// The grid of settings the table was judged under is printed with
/// `DISCOVER_MEASURE_JUDGED=1 swift test --filter JudgedRanking`; the pool of first pages to
/// judge is written with `DISCOVER_JUDGED_POOL=/path/pool.jsonl`.
@Suite struct JudgedRankingTests {
  /// The least mean nDCG@10 the defaults may score: their mean with titles at 8 and
  /// descriptions at 0.5 (0.8652; 0.7938 at the earlier 3 and 1), less 0.01 for rounding
  /// and small changes elsewhere. Raise it with the defaults.
  static let defaultsFloor = 0.8552

  static var measures: Bool {
    ProcessInfo.processInfo.environment["DISCOVER_MEASURE_JUDGED"] != nil
  }

  @Test func theDefaultsRankJudgedVideosAtLeastAsWellAsWhenJudged() throws {
    let index = try RealCorpus.load().index
    let gains = try JudgedRankingEvaluation.gains(on: index, ranking: RankingOptions())
    let mean = JudgedRankingEvaluation.mean(gains)
    let perQuery = zip(JudgedRankingTable.queries, gains).map {
      "\($0.text) \(String(format: "%.3f", $1))"
    }
    #expect(
      mean >= Self.defaultsFloor,
      "mean nDCG@10 \(mean): \(perQuery.joined(separator: ", "))")
  }

  @Test func theTableHasJudgedRelevantVideosForEveryQuery() {
    #expect(JudgedRankingTable.queries.count >= 25)
    #expect(Set(JudgedRankingTable.queries.map(\.text)).count == JudgedRankingTable.queries.count)
    for query in JudgedRankingTable.queries {
      #expect(query.grades.values.contains(2), "\(query.text)")
      #expect(query.grades.values.allSatisfy { (0...2).contains($0) }, "\(query.text)")
    }
  }

  /// nDCG is 1 for the ideal order, lower for a worse one, and counts unjudged videos as 0.
  @Test func normalizedGainRewardsTheIdealOrder() {
    let query = JudgedQuery(text: "q", tab: .videos, grades: ["a": 2, "b": 1, "c": 0])
    #expect(JudgedRankingEvaluation.normalizedGain(of: ["a", "b", "c"], for: query) == 1)
    let swapped = JudgedRankingEvaluation.normalizedGain(of: ["b", "a"], for: query)
    // (1 + 2 / log2 3) / (2 + 1 / log2 3)
    #expect(abs(swapped - (1 + 2 / log2(3)) / (2 + 1 / log2(3))) < 1e-12)
    #expect(JudgedRankingEvaluation.normalizedGain(of: ["x", "y"], for: query) == 0)
  }

  /// Prints the mean nDCG@10 of the defaults, the best settings of the grid and the edge
  /// probes, and the per-query change from the defaults to the grid's best.
  @Test(.enabled(if: measures)) func printTheGrid() throws {
    let defaults = try Self.gains(of: .defaults)
    func ranked(_ settings: [JudgedRankingSetting]) throws -> [(JudgedRankingSetting, [Double])] {
      try settings.map { ($0, try Self.gains(of: $0)) }.sorted {
        JudgedRankingEvaluation.mean($0.1) > JudgedRankingEvaluation.mean($1.1)
      }
    }
    func line(_ setting: JudgedRankingSetting, _ gains: [Double]) -> String {
      let better = zip(gains, defaults).filter { $0 > $1 + 1e-9 }.count
      let worse = zip(gains, defaults).filter { $0 < $1 - 1e-9 }.count
      return String(format: "%.4f", JudgedRankingEvaluation.mean(gains))
        + " \(setting): \(better) queries better, \(worse) worse"
    }
    let grid = try ranked(JudgedRankingSetting.grid)
    print(String(format: "defaults: mean nDCG@10 %.4f", JudgedRankingEvaluation.mean(defaults)))
    print("best of the grid:")
    for (setting, gains) in grid.prefix(8) { print("  " + line(setting, gains)) }
    print("edge probes:")
    for (setting, gains) in try ranked(JudgedRankingSetting.edgeProbes) {
      print("  " + line(setting, gains))
    }
    let (best, gains) = grid[0]
    print("per query, defaults → \(best):")
    for (query, (old, new)) in zip(JudgedRankingTable.queries, zip(defaults, gains)) {
      print("  \(query.text) " + String(format: "%.3f → %.3f (%+.3f)", old, new, new - old))
    }
  }

  /// Writes every grid setting's first pages, and the defaults' first 20 results, as JSON
  /// lines to the file named by `DISCOVER_JUDGED_POOL`, for judging.
  @Test(.enabled(if: ProcessInfo.processInfo.environment["DISCOVER_JUDGED_POOL"] != nil))
  func writeThePool() throws {
    let path = try #require(ProcessInfo.processInfo.environment["DISCOVER_JUDGED_POOL"])
    var lines: [String] = []
    func append(_ query: JudgedQuery, _ setting: String, _ ids: [String]) throws {
      let object: [String: Any] = ["q": query.text, "setting": setting, "ids": ids]
      let data = try JSONSerialization.data(withJSONObject: object)
      lines.append(String(decoding: data, as: UTF8.self))
    }
    for setting in JudgedRankingSetting.grid + JudgedRankingSetting.edgeProbes {
      let index = try JudgedRankingIndexes.index(descriptionB: setting.descriptionB)
      for query in JudgedRankingTable.queries {
        let ids = try JudgedRankingEvaluation.page(of: query, on: index, ranking: setting.ranking)
        try append(query, setting.description, ids)
      }
    }
    for query in JudgedRankingTable.queries {
      let response = try RealCorpus.load().index.search(query.text, in: query.tab, limit: 20)
      try append(query, "defaults@20", response.results.map(\.id))
    }
    try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
  }

  /// nDCG@10 of every query under `setting`, on the index with its description `b`.
  static func gains(of setting: JudgedRankingSetting) throws -> [Double] {
    let index = try JudgedRankingIndexes.index(descriptionB: setting.descriptionB)
    return try JudgedRankingEvaluation.gains(on: index, ranking: setting.ranking)
  }
}
