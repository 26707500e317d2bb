import Foundation
import Testing

@testable import DiscoverSearch

/// The one place that chooses how a type's first phase runs: which strategy a query's shape
/// and the postings get, and that every strategy answers as the plain scan does.
@Suite("Search: retrieval planner")
struct RetrievalPlannerTests {
  /// 10,000 videos (past ``PostingsEncoder/bitmapMinimumDocuments``): `alpha` in every one
  /// and `beta` in every second (bitmaps and long impact orders), `gamma` in 300 (a short
  /// impact order, no bitmap: 300 · 32 < 10,000), `delta` in 20 (neither).
  static let index: DiscoverIndex = {
    var documents: [Document] = []
    for number in 0..<10_000 {
      var words = ["alpha"]
      if number % 2 == 0 { words.append("beta") }
      if number % 33 == 0 && number < 9_900 { words.append("gamma") }
      if number % 500 == 0 { words.append("delta") }
      words.append("w\(number)")
      documents.append(
        .video(
          Video(
            id: "v\(number)", title: words.joined(separator: " "),
            viewCount: (number * 7_919) % 100_000)))
    }
    return try! DiscoverIndex.build(from: documents)
  }()

  /// The plan for `query` in the videos, as a search under `ranking` makes it.
  static func plan(
    _ query: String, ranking: RankingOptions = RankingOptions(), matching: Matching = .all,
    limit: Int = 10
  ) throws -> [RetrievalStrategy] {
    let snapshot = index.snapshot
    let workspace = SearchWorkspace()
    let parsed = QueryParser.parse(QuerySanitizer.sanitize(query), using: workspace)
    let termIDs = QueryExpansion(parsed: parsed).termIDs(of: parsed, in: snapshot.terms)
    let partition = snapshot.partition(.video)
    var groups = try snapshot.termPlans(
      in: partition, termIDs: termIDs, selected: Array(parsed.terms.indices))
    groups.sort { $0.cost(in: partition.postings) < $1.cost(in: partition.postings) }
    let factors = snapshot.staticFactors.factors(
      snapshot: snapshot, type: .video, options: ranking, now: Date())
    let blend = ScoreBlend(
      partition: partition, factors: ranking.usesStaticSignals ? factors : nil,
      options: ranking.matchQuality, termCount: groups.count, nameLengths: SIMD4(repeating: -1))
    let planner = RetrievalPlanner(
      postings: partition.postings,
      scorer: BM25F(
        partition: partition, k1: ranking.clampedK1, weights: ranking.weights(for: .video)),
      usesImpactOrders: ranking.usesImpactOrders)
    return planner.plan(
      groups: groups, phrases: parsed.phrases, matching: matching, blend: blend, limit: limit
    ).strategies
  }

  @Test func theTermsShapeThePlan() throws {
    #expect(try Self.plan("gamma") == [.singleTermBlended])
    #expect(try Self.plan("alpha") == [.impactThreshold, .singleTerm])
    #expect(try Self.plan("delta") == [.singleTerm])
    #expect(try Self.plan("alpha beta") == [.impactThreshold, .leadSorted])
    #expect(try Self.plan("delta alpha") == [.leadSorted])
    #expect(try Self.plan("gamma delta") == [.conjunction])
    #expect(try Self.plan("\"alpha beta\"") == [.conjunction])
    #expect(try Self.plan("gamma delta", matching: .any) == [.disjunction])
    #expect(try Self.plan("alpha", limit: 0) == [.documentFrequency])
  }

  @Test func theRankingShapesThePlan() throws {
    var plain = RankingOptions()
    plain.usesImpactOrders = false
    #expect(try Self.plan("alpha beta", ranking: plain) == [.conjunction])
    #expect(try Self.plan("gamma", ranking: plain) == [.singleTerm])
    // Field weights other than the impacts' rule the impact orders out.
    var weighted = RankingOptions()
    weighted.fieldWeights[.videoTitle] = 7
    #expect(try Self.plan("alpha beta", ranking: weighted) == [.leadSorted])
    #expect(try Self.plan("gamma", ranking: weighted) == [.singleTerm])
  }

  /// A term of several alternatives, all with bitmaps, rules the lead-sorted search out:
  /// the bitmaps' intersection is walked.
  @Test func alternativesWithBitmapsWalkTheIntersection() throws {
    let snapshot = Self.index.snapshot
    let partition = snapshot.partition(.video)
    func plan(_ words: String...) throws -> AlternativePlan {
      let term = try #require(Array(words[0].utf8).withUnsafeBytes { snapshot.terms.find($0) })
      let list = try #require(partition.postings.listIndex(for: TermID(term)))
      return AlternativePlan(listIndex: list, idf: 1, weight: 1)
    }
    let groups = [
      TermPlan(alternatives: [try plan("beta")], queryTerm: 0),
      TermPlan(alternatives: [try plan("alpha"), try plan("beta")], queryTerm: 1),
    ]
    let planner = RetrievalPlanner(
      postings: partition.postings,
      scorer: BM25F(partition: partition, k1: 1.2, weights: RankingOptions().weights(for: .video)),
      usesImpactOrders: true)
    let blend = ScoreBlend(
      partition: partition, factors: nil, options: MatchQualityOptions(), termCount: 2,
      nameLengths: SIMD4(repeating: -1))
    #expect(
      planner.plan(groups: groups, phrases: [], matching: .all, blend: blend, limit: 10)
        .strategies == [.impactThreshold, .bitmapConjunction])
  }

  /// Every strategy finds the hits and counts of the plain scan (impact orders and bitmap
  /// walks off), beyond ties.
  @Test(arguments: [
    "gamma", "alpha", "delta", "alpha beta", "delta alpha", "gamma delta", "beta gamma",
  ])
  func everyStrategyAnswersAsThePlainScan(query: String) throws {
    var plain = RankingOptions()
    plain.usesImpactOrders = false
    for limit in [1, 10, 100] {
      let planned = try Self.index.search(query, in: .videos, limit: limit)
      let scanned = try Self.index.search(query, in: .videos, limit: limit, ranking: plain)
      #expect(planned.totalHits == scanned.totalHits, "\(query) \(limit)")
      #expect(
        LiveIndexTests.rankedBeyondTies(planned) == LiveIndexTests.rankedBeyondTies(scanned),
        "\(query) \(limit)")
    }
  }
}
