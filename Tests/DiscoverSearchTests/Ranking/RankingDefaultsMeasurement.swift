import Foundation
import Testing

@testable import DiscoverSearch

/// How the default popularity and recency weights were chosen: on the real corpus, for the
/// 150 most frequent title words, the share of text score the blended top 10 keeps, and
/// how popular and how old those videos are, per setting.
///
/// The defaults' figures are checked on every run; the whole table of settings is printed
/// with `DISCOVER_MEASURE_RANKING=1 swift test --filter RankingDefaultsMeasurement`.
@Suite struct RankingDefaultsMeasurement {
  /// What a setting's top 10s look like, averaged over the queries.
  struct Figures {
    /// Mean text score (BM25F) of a hit.
    var textScore: Double
    var log10Views: Double
    var ageDays: Double
  }

  /// Ages are measured from the corpus's newest video (2024-11-27).
  static let origin = Date(timeIntervalSince1970: 1_732_678_800)

  /// The 150 most frequent title words of 4 letters or more.
  static let queries: [String] = {
    var counts: [String: Int] = [:]
    _ = try? CorpusLoader.forEachDocument(at: RealCorpus.url, policy: .skip) { document in
      guard case .video(let video) = document else { return }
      for word in Set(Analyzer.tokens(of: video.title, as: .query).map(\.text))
      where word.count >= 4 && word.allSatisfy(\.isLetter) {
        counts[word, default: 0] += 1
      }
    }
    return counts.sorted {
      $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key
    }.prefix(150).map(\.key)
  }()

  static func figures(popularity: Float, recency: Float, halfLifeDays: Double) throws -> Figures {
    let index = try RealCorpus.load().index
    var ranking = RankingOptions()
    ranking.popularity.weight = popularity
    ranking.recency.weight = recency
    ranking.recency.scale = halfLifeDays * 86_400
    ranking.recency.origin = origin
    var text = 0.0
    var views = 0.0
    var age = 0.0
    var count = 0.0
    for query in queries {
      let results = try index.search(
        query, in: .videos, limit: 10, ranking: ranking, explain: true
      ).results
      for result in results {
        let explanation = try #require(result.explanation)
        text += explanation.textScore
        if case .video(let video) = result.metadata {
          views += log10(Double(max(video.viewCount, 1)))
          age += (explanation.recency.ageSeconds ?? 0) / 86_400
        }
        count += 1
      }
    }
    return Figures(textScore: text / count, log10Views: views / count, ageDays: age / count)
  }

  /// The defaults keep nearly all the text relevance while bringing up more watched and
  /// newer videos (the bold row of the Ranking article's table).
  @Test func theDefaultsKeepRelevanceAndFavourPopularNewVideos() throws {
    #expect(Self.queries.count == 150)
    let defaults = RankingOptions()
    let textOnly = try Self.figures(popularity: 0, recency: 0, halfLifeDays: 14)
    let blended = try Self.figures(
      popularity: defaults.popularity.weight, recency: defaults.recency.weight,
      halfLifeDays: defaults.recency.scale / 86_400)
    #expect(blended.textScore / textOnly.textScore > 0.97)
    #expect(blended.log10Views - textOnly.log10Views > 0.3, "at least twice the views")
    #expect(textOnly.ageDays - blended.ageDays > 200, "at least 200 days younger")
  }

  @Test(.enabled(if: ProcessInfo.processInfo.environment["DISCOVER_MEASURE_RANKING"] != nil))
  func printTheTable() throws {
    let base = try Self.figures(popularity: 0, recency: 0, halfLifeDays: 14)
    print(
      String(
        format: "text-only: text %.3f log10views %.3f age %.1f d", base.textScore,
        base.log10Views, base.ageDays))
    for (popularity, recency, halfLife) in [
      (0.25, 0.0, 14.0), (0.5, 0.0, 14), (1.0, 0, 14), (0, 0.25, 14), (0, 0.5, 14),
      (0.25, 0.25, 14), (0.5, 0.25, 14), (0.5, 0.25, 7), (0.5, 0.25, 30), (0.5, 0.5, 14),
      (1.0, 0.5, 14),
    ] as [(Float, Float, Double)] {
      let figures = try Self.figures(
        popularity: popularity, recency: recency, halfLifeDays: halfLife)
      #expect(figures.textScore <= base.textScore * 1.000_001)
      print(
        String(
          format:
            "P %.2f R %.2f half-life %4.0f d: text kept %.3f, log10 views %.3f (+%.3f), age %.1f d",
          popularity, recency, halfLife, figures.textScore / base.textScore, figures.log10Views,
          figures.log10Views - base.log10Views, figures.ageDays))
    }
  }
}
