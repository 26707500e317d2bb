import DiscoverSearch
import Testing

@Suite("Suggest: typo tolerance and prefixes in search")
struct TypoSearchTests {
  static func corpus() throws -> DiscoverIndex {
    try DiscoverIndex.build(from: [
      Fixtures.video("v1", "dance challenge tonight", hashtags: ["dancechallenge"]),
      Fixtures.video("v2", "the best dancing tutorial"),
      Fixtures.video("v3", "challenger arrives at the party"),
      Fixtures.video("v4", "summer trip 2024"),
      Fixtures.video("v5", "chance encounter"),
      Fixtures.video("v6", "cooking pasta at home"),
      Fixtures.video("v7", "cake decorating ideas"),
      Fixtures.user("u1", "dance_queen", displayName: "Dance Queen"),
    ])
  }

  /// One edit of every kind, anywhere in the word (the first letter too), finds the word.
  @Test(arguments: [
    ("dacne", "v1"),  // transposition
    ("dnace", "v1"),  // transposition after the first letter
    ("xhallenge dance", "v1"),  // substitution of the first letter of a long word
    ("danse challenge", "v1"),  // substitution
    ("dancce challenge", "v1"),  // insertion
    ("chalenge", "v1"),  // deletion
    ("hcallenge", "v1"),  // transposition at the start of a long word
    ("chalelnge dance", "v1"),  // transposition, second word
    ("tutorail", "v2"),  // transposition at the end
    ("decoratign", "v7"),
  ])
  func typosFindTheWord(query: String, expected: String) throws {
    let index = try Self.corpus()
    let response = try index.search(query, in: .videos, limit: 10)
    #expect(
      response.results.map(\.id).contains(expected), "\(query): \(response.results.map(\.id))")
    #expect(response.matchedAllTerms)
  }

  /// A wrong first letter counts as two typos (Meilisearch's rule): a word of 5 to 8
  /// characters must start right, unless the rule is off.
  @Test func aWrongFirstLetterCountsTwice() throws {
    let index = try Self.corpus()
    #expect(try index.search("xance", in: .videos).results.isEmpty)
    #expect(try index.search("adnce", in: .videos).results.isEmpty)
    let lenient = MatchingOptions(
      typoTolerance: TypoTolerance(countsFirstCharacterTypoTwice: false))
    #expect(try index.search("xance", in: .videos, matching: lenient).results.map(\.id) == ["v1"])
    #expect(try index.search("adnce", in: .videos, matching: lenient).results.map(\.id) == ["v1"])
    let long = try index.search("hcallenge", in: .videos, explain: true)
    #expect(long.results.first?.explanation?.terms.first?.typos == 2)
  }

  @Test func shortWordsAndNumbersGetNoTypos() throws {
    let index = try Self.corpus()
    // "cakr" is 4 characters: below the one-typo length.
    #expect(try index.search("cakr", in: .videos).results.isEmpty)
    // A number is never corrected.
    #expect(try index.search("2025", in: .videos).results.isEmpty)
    #expect(try index.search("2024", in: .videos).results.map(\.id) == ["v4"])
    // Typo tolerance off: the transposition finds nothing.
    let exact = try index.search("dacne", in: .videos, matching: .exact)
    #expect(exact.results.isEmpty)
  }

  @Test func typoMatchesRankBelowExactOnesAndCarryAPenalty() throws {
    let index = try DiscoverIndex.build(from: [
      Fixtures.video("exact", "a bread recipe"),
      Fixtures.video("typo", "a broad recipe"),
      Fixtures.video("typo2", "a braed recipe"),
    ])
    // One hit as typed is fewer than minimumResults 3: corrections join, ranked below.
    let fewResults = MatchingOptions(typoTolerance: TypoTolerance(minimumResults: 3))
    let response = try index.search("bread", in: .videos, matching: fewResults, explain: true)
    #expect(response.results.first?.id == "exact")
    #expect(Set(response.results.map(\.id)) == ["exact", "typo", "typo2"])
    let broad = try #require(response.results.first { $0.id == "typo" }?.explanation)
    #expect(broad.typoPenalty == 0.5)
    #expect(broad.terms.first?.typos == 1)
    #expect(broad.terms.first?.matchedForm == "broad")
    let exact = try #require(response.results.first?.explanation)
    #expect(exact.typoPenalty == 1)
    // By default corrections join only when nothing matches as typed.
    let strict = try index.search("bread", in: .videos)
    #expect(strict.results.map(\.id) == ["exact"])
    let typo = try index.search("braad", in: .videos, explain: true)
    #expect(typo.results.count == 3)
    #expect(typo.results.allSatisfy { $0.explanation?.typoPenalty == 0.5 })
  }

  /// When nothing has every word even with corrections, a word found only through a
  /// correction is dropped before the search falls back to any word.
  @Test func aWordFoundOnlyThroughACorrectionIsDroppedFirst() throws {
    let index = try DiscoverIndex.build(from: [
      Fixtures.video("cooking", "cooking pasta at home"),
      Fixtures.video("qazar", "qazar night"),
    ])
    let response = try index.search("qazxr cooking", in: .videos)
    #expect(response.results.map(\.id) == ["cooking"])
    #expect(!response.matchedAllTerms)
    // Frequent words are taken as meant: with a threshold of one document, "bread" is not
    // corrected even though one hit is fewer than minimumResults 3.
    let breads = try DiscoverIndex.build(from: [
      Fixtures.video("exact", "a bread recipe"), Fixtures.video("typo", "a broad recipe"),
    ])
    let meant = MatchingOptions(
      typoTolerance: TypoTolerance(minimumResults: 3, frequentWordCount: 1))
    #expect(try breads.search("bread", in: .videos, matching: meant).results.map(\.id) == ["exact"])
  }

  @Test func fewResultsGiveADidYouMean() throws {
    let index = try Self.corpus()
    let response = try index.search("dacne chalenge", in: .videos)
    #expect(response.didYouMean == "dance challenge")
    #expect(response.results.first?.id == "v1")
    #expect(try index.search("dance challenge", in: .videos).didYouMean == nil)
    // A rare word with a hit of its own keeps its results but is offered the common one.
    let rare = try DiscoverIndex.build(
      from: [Fixtures.video("rare", "danse macabre")]
        + (0..<5).map { Fixtures.video("d\($0)", "dance night \($0)") })
    let few = try rare.search("danse", in: .videos)
    #expect(few.results.map(\.id) == ["rare"])
    #expect(few.didYouMean == "dance")
    let zeroOnly = MatchingOptions(typoTolerance: TypoTolerance(didYouMeanThreshold: 1))
    #expect(try rare.search("danse", in: .videos, matching: zeroOnly).didYouMean == nil)
    // Words common on their own that rarely meet are not typos: "bread" (in 6 titles) is
    // one typo from the more frequent "broad" but is not corrected.
    let breads = try DiscoverIndex.build(
      from: (0..<5).map { Fixtures.video("b\($0)", "fresh bread \($0)") }
        + (0..<10).map { Fixtures.video("o\($0)", "broad street \($0)") }
        + [Fixtures.video("both", "bread on broad street")])
    let both = try breads.search("bread street", in: .videos)
    #expect(both.results.map(\.id) == ["both"])
    #expect(both.didYouMean == nil)
  }

  @Test func searchAsYouTypeMatchesAPartialLastWord() throws {
    let index = try Self.corpus()
    let partial = try index.search("dance cha", in: .videos, matching: .asYouType)
    #expect(partial.results.map(\.id) == ["v1"])
    #expect(partial.matchedAllTerms)
    // Whole words first by default; when they find nothing, the last word is tried as a
    // prefix before giving up. After a space it is a whole word: "cha" matches nothing.
    #expect(try index.search("dance cha", in: .videos).results.map(\.id) == ["v1"])
    #expect(try !index.search("dance cha ", in: .videos, matching: .asYouType).matchedAllTerms)
    #expect(try !index.search("dance cha ", in: .videos).matchedAllTerms)
    // The word as typed outranks its completions.
    let tutorial = try index.search("dancing", in: .videos, matching: .asYouType)
    #expect(tutorial.results.first?.id == "v2")
    // A typo in the prefix: "dnace cha".
    let typo = try index.search("chalenge dnac", in: .videos, matching: .asYouType)
    #expect(typo.results.map(\.id).contains("v1"))
    // A prefix search's cursor is not valid for the whole-word search.
    let page = try index.search("c", in: .videos, limit: 1, matching: .asYouType)
    let cursor = try #require(page.nextCursor)
    #expect(throws: SearchError.self) {
      try index.search("c", in: .videos, limit: 1, after: cursor)
    }
  }

  /// The engine's counts with typo corrections agree with the slow reference, which finds
  /// corrections by comparing the word with every term.
  @Test func typoCountsMatchTheReferenceOnTheRealCorpus() throws {
    let index = try RealCorpus.load().index
    for query in [
      "taylr swift", "offical trailer", "mrbeats", "tutorail", "chalenge", "bruno mrs",
      "#musci", "@mrbaest", "highlihgts", "recipie", "xqzzyt", "minecarft",
    ] {
      let response = try index.search(query, in: .top, limit: 10)
      let reference = try #require(index.referenceCounts(for: query))
      #expect(response.facets == reference.facets, "\(query)")
      #expect(response.matchedAllTerms == reference.matchedAllTerms, "\(query)")
    }
    let corrected = try index.search("minecarft", in: .videos)
    #expect(corrected.didYouMean == "minecraft")
    #expect(corrected.totalHits > 0)
  }
}
