import Foundation
import Testing

@testable import DiscoverSearch

/// BM25F scores checked against values computed by hand.
///
/// The corpora are sounds, whose two fields (title and artist) are plain text the test
/// controls completely. For a term t and sound d, with N sounds, n(t) of them containing t:
///
/// ```
/// idf(t)  = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
/// norm_f  = 1 − b + b · len_f(d) / avglen_f        (len: words in the field; avglen over
///                                                   all N sounds, empty fields counting 0,
///                                                   rounded to 1/16 of a word)
/// x       = Σ_f w_f · tf_f(t, d) / norm_f          (w_title = 3, w_artist = 2 by default)
/// score   = Σ_t idf(t) · x · (k1 + 1) / (k1 + x)   (k1 = 1.2, b = 0.75 by default)
/// ```
@Suite("BM25F")
struct BM25Tests {
  struct ToySound {
    var id: String
    var title: String
    var artist: String?

    var document: Document { .sound(Sound(id: id, title: title, artist: artist)) }
    var titleWords: [String] { title.split(separator: " ").map(String.init) }
    var artistWords: [String] { (artist ?? "").split(separator: " ").map(String.init) }
    func contains(_ term: String) -> Bool {
      titleWords.contains(term) || artistWords.contains(term)
    }
  }

  struct Parameters {
    var k1 = 1.2
    var b = 0.75
    var titleWeight = Double(SearchField.soundTitle.defaultWeight)
    var artistWeight = Double(SearchField.soundArtist.defaultWeight)
  }

  /// Six sounds. Title lengths 2, 3, 6, 5, 2, 2 (average 20/6); artist lengths 2, 1, 1, 0,
  /// 3, 1 (average 8/6).
  static let corpus: [ToySound] = [
    ToySound(id: "s1", title: "ocean waves", artist: "calm sounds"),
    ToySound(id: "s2", title: "ocean ocean breeze", artist: "nature"),
    ToySound(id: "s3", title: "deep ocean whale songs at night", artist: "ocean"),
    ToySound(id: "s4", title: "rain on a tin roof", artist: nil),
    ToySound(id: "s5", title: "forest birds", artist: "nature sounds collective"),
    ToySound(id: "s6", title: "night train", artist: "tide"),
  ]

  /// The score of `sound` for `terms`, computed from the formula above.
  static func handScore(
    of sound: ToySound, for terms: [String], in corpus: [ToySound], _ p: Parameters = Parameters()
  ) -> Double {
    let count = Double(corpus.count)
    // Averages are rounded to sixteenths of a word (`FieldLength.average`).
    func rounded(_ average: Double) -> Double { (average * 16).rounded() / 16 }
    let averageTitle = rounded(Double(corpus.map(\.titleWords.count).reduce(0, +)) / count)
    let averageArtist = rounded(Double(corpus.map(\.artistWords.count).reduce(0, +)) / count)
    var score = 0.0
    for term in terms {
      let n = Double(corpus.filter { $0.contains(term) }.count)
      let idf = log(1 + (count - n + 0.5) / (n + 0.5))
      var x = 0.0
      let titleFrequency = sound.titleWords.filter { $0 == term }.count
      if titleFrequency > 0 {
        let norm = 1 - p.b + p.b * Double(sound.titleWords.count) / averageTitle
        x += p.titleWeight * Double(titleFrequency) / norm
      }
      // (A field empty in every sound has average 0; it holds no term, so it adds nothing.)
      let artistFrequency = sound.artistWords.filter { $0 == term }.count
      if artistFrequency > 0 {
        let norm = 1 - p.b + p.b * Double(sound.artistWords.count) / averageArtist
        x += p.artistWeight * Double(artistFrequency) / norm
      }
      score += idf * x * (p.k1 + 1) / (p.k1 + x)
    }
    return score
  }

  static func isClose(_ actual: Double, _ expected: Double) -> Bool {
    abs(actual - expected) <= 1e-4 * abs(expected)
  }

  /// Searches the sounds of `corpus` and checks every hit's score against the hand
  /// computation, and that exactly the sounds holding every term are hit.
  /// - Returns: the engine's scores by id.
  @discardableResult
  static func checkScores(
    _ query: String, in corpus: [ToySound], ranking: RankingOptions = RankingOptions(),
    _ parameters: Parameters = Parameters(),
    configuration: IndexConfiguration = IndexConfiguration()
  ) throws -> [String: Double] {
    let index = try DiscoverIndex.build(from: corpus.map(\.document), configuration: configuration)
    // Plain BM25F: no popularity, recency, exactness or proximity factors.
    var ranking = ranking
    ranking.popularity.weight = 0
    ranking.recency.weight = 0
    ranking.matchQuality = MatchQualityOptions(exactness: 0, proximity: 0)
    let response = try index.search(query, in: .sounds, limit: 100, ranking: ranking)
    let terms = query.split(separator: " ").map(String.init)
    let expectedIDs = Set(corpus.filter { sound in terms.allSatisfy(sound.contains) }.map(\.id))
    #expect(Set(response.results.map(\.id)) == expectedIDs, "hits of \(query)")
    var scores: [String: Double] = [:]
    for result in response.results {
      let sound = try #require(corpus.first { $0.id == result.id })
      let expected = handScore(of: sound, for: terms, in: corpus, parameters)
      #expect(
        isClose(result.score, expected),
        "\(query) in \(result.id): \(result.score), by hand \(expected)")
      scores[result.id] = result.score
    }
    return scores
  }

  static let idfCases: [(documentFrequency: Int, documentCount: Int)] = [
    (1, 1), (1, 2), (1, 6), (3, 6), (6, 6), (1, 1_000_000), (999_999, 1_000_000), (500, 1_000),
  ]

  @Test(arguments: idfCases)
  func idfIsTheNonNegativeRobertsonSparckJonesWeight(documentFrequency: Int, documentCount: Int) {
    let n = Double(documentFrequency)
    let total = Double(documentCount)
    let expected = log(1 + (total - n + 0.5) / (n + 0.5))
    let actual = Double(
      BM25F.idf(documentFrequency: documentFrequency, documentCount: documentCount))
    #expect(abs(actual - expected) <= 1e-6 * expected)
    #expect(actual > 0)
  }

  @Test func idfFallsAsTermsGetCommoner() {
    let idfs = (1...10).map { BM25F.idf(documentFrequency: $0, documentCount: 10) }
    #expect(zip(idfs, idfs.dropFirst()).allSatisfy { $0 > $1 })
  }

  @Test func workedExampleMatchesTheFormulaToFourPlaces() throws {
    // "ocean" is in 3 of 6 sounds: idf = ln(1 + 3.5 / 3.5) = ln 2. In s1 it is once in a
    // title of 2 words (average 20/6, rounded to 53/16): norm = 0.25 + 0.75 · 2 / (53/16)
    // = 0.702830, x = 3 / 0.702830, score = ln 2 · x · 2.2 / (1.2 + x) = 1.190294.
    let scores = try Self.checkScores("ocean", in: Self.corpus)
    let x = 3 / (0.25 + 0.75 * 2 / (53.0 / 16))
    let expected = log(2.0) * x * 2.2 / (1.2 + x)
    #expect(Self.isClose(try #require(scores["s1"]), expected))
    #expect(abs(expected - 1.190294) < 1e-6)
  }

  @Test(arguments: [
    "ocean", "nature", "sounds", "night", "tide", "ocean waves", "nature sounds", "rain roof",
  ])
  func everyScoreMatchesTheHandComputation(_ query: String) throws {
    try Self.checkScores(query, in: Self.corpus)
  }

  @Test func twoOccurrencesScoreHigherThanOne() throws {
    // Same title length, so only the term frequency differs.
    let corpus = [
      ToySound(id: "twice", title: "ocean ocean", artist: "a"),
      ToySound(id: "once", title: "ocean waves", artist: "a"),
      ToySound(id: "other", title: "city lights", artist: "b"),
    ]
    let scores = try Self.checkScores("ocean", in: corpus)
    #expect(try #require(scores["twice"]) > #require(scores["once"]))
    // Saturation: the second occurrence adds less than the first.
    let once = Self.handScore(of: corpus[1], for: ["ocean"], in: corpus)
    #expect(try #require(scores["twice"]) < 2 * once)
  }

  @Test func shortFieldScoresHigherThanLongField() throws {
    let corpus = [
      ToySound(id: "short", title: "ocean waves"),
      ToySound(id: "long", title: "ocean waves crashing on the rocks at dawn"),
      ToySound(id: "other", title: "city lights"),
    ]
    let scores = try Self.checkScores("ocean", in: corpus)
    #expect(try #require(scores["short"]) > #require(scores["long"]))
  }

  @Test func withoutLengthNormalizationFieldLengthDoesNotMatter() throws {
    let corpus = [
      ToySound(id: "short", title: "ocean waves"),
      ToySound(id: "long", title: "ocean waves crashing on the rocks at dawn"),
      ToySound(id: "other", title: "city lights"),
    ]
    var parameters = Parameters()
    parameters.b = 0
    let scores = try Self.checkScores(
      "ocean", in: corpus, parameters,
      configuration: IndexConfiguration(lengthNormalization: [.soundTitle: 0]))
    #expect(Self.isClose(try #require(scores["short"]), try #require(scores["long"])))
  }

  @Test func termInBothFieldsIsWeightedAndSummedBeforeSaturation() throws {
    let corpus = [
      ToySound(id: "both", title: "ocean", artist: "ocean"),
      ToySound(id: "title", title: "ocean", artist: "river"),
      ToySound(id: "artist", title: "river", artist: "ocean"),
      ToySound(id: "other", title: "city", artist: "lights"),
    ]
    let scores = try Self.checkScores("ocean", in: corpus)
    let both = try #require(scores["both"])
    let title = try #require(scores["title"])
    let artist = try #require(scores["artist"])
    #expect(both > title && title > artist)
    // Saturating each field on its own would count the word twice.
    #expect(both < title + artist)
  }

  @Test func rarerTermScoresHigherInTheSamePlace() throws {
    let corpus = [
      ToySound(id: "d1", title: "ocean tide"),
      ToySound(id: "d2", title: "ocean blue"),
      ToySound(id: "d3", title: "ocean deep"),
      ToySound(id: "d4", title: "ocean calm"),
      ToySound(id: "d5", title: "city lights"),
    ]
    let ocean = try #require(Self.checkScores("ocean", in: corpus)["d1"])
    let tide = try #require(Self.checkScores("tide", in: corpus)["d1"])
    #expect(tide > ocean)
    // Two terms add up.
    let both = try #require(Self.checkScores("ocean tide", in: corpus)["d1"])
    #expect(Self.isClose(both, ocean + tide))
  }

  @Test func customK1AndFieldWeightsAreUsed() throws {
    let ranking = RankingOptions(k1: 2.0, fieldWeights: [.soundTitle: 1, .soundArtist: 6])
    let parameters = Parameters(k1: 2.0, titleWeight: 1, artistWeight: 6)
    for query in ["ocean", "nature", "nature sounds", "night"] {
      try Self.checkScores(query, in: Self.corpus, ranking: ranking, parameters)
    }
    // The default weights favour the title; weighting the artist six times the title
    // turns the order around.
    let corpus = [
      ToySound(id: "in-title", title: "ocean", artist: "band"),
      ToySound(id: "in-artist", title: "waves", artist: "ocean"),
      ToySound(id: "other", title: "city", artist: "lights"),
    ]
    let byDefault = try Self.checkScores("ocean", in: corpus)
    #expect(try #require(byDefault["in-title"]) > #require(byDefault["in-artist"]))
    let custom = try Self.checkScores("ocean", in: corpus, ranking: ranking, parameters)
    #expect(try #require(custom["in-artist"]) > #require(custom["in-title"]))
  }

  @Test func higherK1LetsRepeatsCountForLonger() throws {
    let corpus = [
      ToySound(id: "twice", title: "ocean ocean"),
      ToySound(id: "once", title: "ocean waves"),
      ToySound(id: "other", title: "city lights"),
    ]
    func ratio(_ k1: Float) throws -> Double {
      let scores = try Self.checkScores(
        "ocean", in: corpus, ranking: RankingOptions(k1: k1), Parameters(k1: Double(k1)))
      return try #require(scores["twice"]) / #require(scores["once"])
    }
    #expect(try ratio(3) > ratio(1.2))
    #expect(try ratio(1.2) > ratio(0.3))
  }
}
