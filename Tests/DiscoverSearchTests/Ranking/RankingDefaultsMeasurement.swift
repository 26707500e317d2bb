import Foundation
import Testing

@testable import DiscoverSearch

/// How the default popularity and recency weights were chosen: on the real corpus, for the
/// 150 most frequent title words, the share of text score the blended top 10 keeps, and
/// how popular and how old those videos are, per setting. Prints a table; run with
/// `DISCOVER_MEASURE_RANKING=1 swift test --filter RankingDefaultsMeasurement`.
@Suite struct RankingDefaultsMeasurement {
  @Test(.enabled(if: ProcessInfo.processInfo.environment["DISCOVER_MEASURE_RANKING"] != nil))
  func weights() throws {
    let index = try RealCorpus.load().index
    let origin = Date(timeIntervalSince1970: 1_732_678_800)
    // Queries: the 150 most frequent title words of 4+ letters.
    var counts: [String: Int] = [:]
    let url = RealCorpus.url
    _ = try CorpusLoader.forEachDocument(at: url, policy: .skip) {
      if case .video(let v) = $0 {
        for w in Set(Analyzer.tokens(of: v.title, as: .query).map(\.text))
        where w.count >= 4 && w.allSatisfy(\.isLetter) { counts[w, default: 0] += 1 }
      }
    }
    let queries = counts.sorted {
      $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key
    }.prefix(150).map(\.key)
    func stats(_ p: Float, _ r: Float, _ half: Double) throws -> (Double, Double, Double) {
      var ranking = RankingOptions()
      ranking.popularity.weight = p
      ranking.recency.weight = r
      ranking.recency.scale = half * 86400
      ranking.recency.origin = origin
      var textRatio = 0.0
      var logViews = 0.0
      var ageDays = 0.0
      var n = 0.0
      for q in queries {
        let res = try index.search(q, in: .videos, limit: 10, ranking: ranking, explain: true)
          .results
        for x in res {
          let e = x.explanation!
          textRatio += e.textScore
          if case .video(let m) = x.metadata {
            logViews += log10(Double(max(m.viewCount, 1)))
            ageDays += (e.recency.ageSeconds ?? 0) / 86400
          }
          n += 1
        }
      }
      return (textRatio / n, logViews / n, ageDays / n)
    }
    let base = try stats(0, 0, 14)
    print(String(format: "text-only: text %.3f log10views %.3f age %.1f d", base.0, base.1, base.2))
    for (p, r, h) in [
      (0.25, 0.0, 14.0), (0.5, 0.0, 14), (1.0, 0, 14), (0, 0.25, 14), (0, 0.5, 14),
      (0.25, 0.25, 14), (0.5, 0.25, 14), (0.5, 0.25, 7), (0.5, 0.25, 30), (0.5, 0.5, 14),
      (1.0, 0.5, 14),
    ] as [(Float, Float, Double)] {
      let s = try stats(p, r, h)
      print(
        String(
          format:
            "P %.2f R %.2f half-life %4.0f d: text kept %.3f, log10 views %.3f (+%.3f), age %.1f d",
          p, r, h, s.0 / base.0, s.1, s.1 - base.1, s.2))
    }
  }
}
