import Foundation
import Testing

@testable import DiscoverSearch

/// The static factors are recomputed whenever the recency origin moves (each minute by
/// default); the popularity pivot, which does not depend on it, is computed once per type.
/// Each recomputation must still give every document `1 + popularity · S / (S + pivot) +
/// recency · decay(age)`, with each type's own pivot.
struct StaticFactorsTests {
  @Test func factorsRecomputedForANewOriginKeepEachTypesPivot() throws {
    let start = Date(timeIntervalSince1970: 1_750_000_000)
    let videoViews = [0, 10, 1_000, 250_000, 7]
    let videos = videoViews.enumerated().map { number, views in
      Video(
        id: "v\(number)", title: "clip", viewCount: views,
        createdAt: start.addingTimeInterval(-Double(number) * 3 * 86_400))
    }
    let followers = [5, 50_000, 123]
    let users = followers.enumerated().map { number, count in
      User(id: "u\(number)", username: "user\(number)", followerCount: count)
    }
    let index = try DiscoverIndex.build(
      from: videos.map(Document.video) + users.map(Document.user))
    let snapshot = index.snapshot
    func geometricMean(_ counts: [Int]) -> Double {
      max(exp(counts.map { log1p(Double($0)) }.reduce(0, +) / Double(counts.count)), 1)
    }
    let options = RankingOptions()
    for minutes in [0, 1, 61] {
      let now = start.addingTimeInterval(Double(minutes) * 60)
      let originSeconds = Int64(options.recency.originSeconds(now: now))
      for (type, counts) in [(SearchResultType.video, videoViews), (.user, followers)] {
        let factors = snapshot.staticFactors.factors(
          snapshot: snapshot, type: type, options: options, now: now)
        let pivot = geometricMean(counts)
        #expect(abs(factors.pivot - pivot) <= 1e-9 * pivot, "\(type) at +\(minutes) min")
        let column = StaticFactors.popularityCounts(of: type, in: snapshot)
        for document in 0..<counts.count {
          var expected =
            1 + Double(options.popularity.weight)
            * PopularityOptions.signal(count: column[document], pivot: factors.pivot)
          if type == .video, let created = snapshot.videos.createdAt[document] {
            expected +=
              Double(options.recency.weight)
              * options.recency.signal(age: TimeInterval(originSeconds - created))
          }
          #expect(factors.factors[document] == Float(expected), "\(type) \(document)")
        }
      }
    }
  }

  /// Elasticsearch's decay functions: 1 up to the offset, and exactly the decay at the
  /// offset plus the scale, whichever the function.
  @Test(arguments: [RecencyOptions.Function.exponential, .gaussian])
  func theCurveDecaysAsElasticsearchDefinesIt(function: RecencyOptions.Function) {
    let options = RecencyOptions(
      function: function, scale: 5 * 86_400, offset: 3_600, decay: 0.3)
    let curve = options.curve
    #expect(curve.signal(age: -86_400) == 1)
    #expect(curve.signal(age: 3_600) == 1)
    #expect(abs(curve.signal(age: 3_600 + 5 * 86_400) - 0.3) < 1e-12)
    var previous = 1.0
    for age in stride(from: 3_600.0, through: 90 * 86_400, by: 12_345) {
      let signal = curve.signal(age: age)
      #expect(signal <= previous && signal == options.signal(age: age))
      previous = signal
    }
  }
}
