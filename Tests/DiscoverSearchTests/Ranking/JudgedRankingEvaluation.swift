import DiscoverSearch
import Foundation

/// Scores rankings of the real corpus against the hand-judged first pages of
/// ``JudgedRankingTable``, by normalized discounted cumulative gain at rank 10 (nDCG@10).
///
/// nDCG is from Järvelin & Kekäläinen, "Cumulated gain-based evaluation of IR techniques",
/// ACM TOIS 20(4), 2002: a result's gain is its grade (0, 1 or 2), discounted by
/// `log2(rank + 1)` (the now usual form of their `log_b` discount, which counts every rank),
/// summed over the first 10 results, and divided by the same sum for the ideal order of all
/// judged videos of the query. The ideal comes from every judged video, not just those a
/// setting retrieved, so settings are compared against one yardstick. Unjudged results
/// count as 0.
enum JudgedRankingEvaluation {
  /// How many results a page shows, and the depth nDCG is computed at.
  static let depth = 10

  /// Discounted cumulative gain of grades in rank order, over the first ``depth``.
  static func discountedCumulativeGain(_ grades: [Int]) -> Double {
    var sum = 0.0
    for (offset, grade) in grades.prefix(depth).enumerated() {
      // Rank `offset + 1` is discounted by log2(rank + 1): 1 at rank 1, 1.58 at rank 2.
      sum += Double(grade) / log2(Double(offset + 2))
    }
    return sum
  }

  /// nDCG@10 of a page of video ids for one judged query, in 0...1 (1 when nothing of the
  /// query is judged relevant, as no order can do better).
  static func normalizedGain(of ids: [String], for query: JudgedQuery) -> Double {
    let ideal = discountedCumulativeGain(query.grades.values.sorted(by: >))
    guard ideal > 0 else { return 1 }
    return discountedCumulativeGain(ids.map { query.grades[$0] ?? 0 }) / ideal
  }

  /// The first page of `query` on `index` under `ranking`: its ids in rank order.
  static func page(
    of query: JudgedQuery, on index: DiscoverIndex, ranking: RankingOptions
  ) throws -> [String] {
    try index.search(query.text, in: query.tab, limit: depth, ranking: ranking).results.map(\.id)
  }

  /// nDCG@10 of every query of the table, in the table's order.
  static func gains(
    on index: DiscoverIndex, ranking: RankingOptions,
    queries: [JudgedQuery] = JudgedRankingTable.queries
  ) throws -> [Double] {
    try queries.map { try normalizedGain(of: page(of: $0, on: index, ranking: ranking), for: $0) }
  }

  /// The mean of `values` (0 for none).
  static func mean(_ values: [Double]) -> Double {
    values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
  }
}

/// One point of the grid of ranking settings the table was judged under: the field weights
/// of a video's title and description, the popularity weight, and the description's length
/// normalization `b` (an index-time setting; see ``IndexConfiguration``).
struct JudgedRankingSetting: Hashable, Sendable, CustomStringConvertible {
  var titleWeight: Float
  var descriptionWeight: Float
  var popularityWeight: Float
  var descriptionB: Float

  /// The library's defaults.
  static let defaults = JudgedRankingSetting(
    titleWeight: SearchField.videoTitle.defaultWeight,
    descriptionWeight: SearchField.videoDescription.defaultWeight,
    popularityWeight: RankingOptions().popularity.weight,
    descriptionB: IndexConfiguration().b(for: .videoDescription))

  /// Every combination of the values searched: title 3...8, description 0.5...1,
  /// popularity 0.25...0.5, description `b` 0.5...0.75.
  static let grid: [JudgedRankingSetting] = {
    var settings: [JudgedRankingSetting] = []
    for b: Float in [0.75, 0.5] {
      for popularity: Float in [0.5, 0.375, 0.25] {
        for description: Float in [1, 0.75, 0.5] {
          for title: Float in [3, 4, 5, 6, 8] {
            settings.append(
              JudgedRankingSetting(
                titleWeight: title, descriptionWeight: description,
                popularityWeight: popularity, descriptionB: b))
          }
        }
      }
    }
    return settings
  }()

  /// Settings just past the grid's edges (a larger title weight, a smaller popularity
  /// weight), to see whether the best of the grid is a peak or only its edge.
  static let edgeProbes: [JudgedRankingSetting] = [
    JudgedRankingSetting(
      titleWeight: 10, descriptionWeight: 0.5, popularityWeight: 0.25, descriptionB: 0.75),
    JudgedRankingSetting(
      titleWeight: 12, descriptionWeight: 0.5, popularityWeight: 0.25, descriptionB: 0.75),
    JudgedRankingSetting(
      titleWeight: 8, descriptionWeight: 0.5, popularityWeight: 0.125, descriptionB: 0.75),
    JudgedRankingSetting(
      titleWeight: 10, descriptionWeight: 0.5, popularityWeight: 0.125, descriptionB: 0.75),
  ]

  /// The query-time part: the defaults with this setting's weights.
  var ranking: RankingOptions {
    var ranking = RankingOptions()
    ranking.fieldWeights[.videoTitle] = titleWeight
    ranking.fieldWeights[.videoDescription] = descriptionWeight
    ranking.popularity.weight = popularityWeight
    return ranking
  }

  var description: String {
    "title \(titleWeight) description \(descriptionWeight) popularity \(popularityWeight)"
      + " description-b \(descriptionB)"
  }
}

/// Indexes of the real corpus by the description's `b`, built once each.
enum JudgedRankingIndexes {
  private static let halfNormalized = Result { () throws -> DiscoverIndex in
    let configuration = IndexConfiguration(lengthNormalization: [.videoDescription: 0.5])
    return try DiscoverIndex.build(
      from: RealCorpus.load().documents, configuration: configuration)
  }

  /// The real corpus indexed with the description's `b`: the shared index for the default
  /// 0.75, one built here for 0.5.
  static func index(descriptionB: Float) throws -> DiscoverIndex {
    switch descriptionB {
    case IndexConfiguration().b(for: .videoDescription): try RealCorpus.load().index
    case 0.5: try halfNormalized.get()
    default: preconditionFailure("no index with description b \(descriptionB)")
    }
  }
}
