import Testing

@testable import DiscoverSearch

/// Other forms of query words (plural and singular, words typed together or apart), the
/// last word tried as a prefix before giving up, and the "did you mean" offered, on the
/// real corpus.
@Suite("Search: word forms and did you mean")
struct QueryFormsTests {
  static func videoIDs(_ response: SearchResponse) -> [String] {
    response.results.filter { $0.type == .video }.map(\.id)
  }

  @Test func aWordInTheOtherNumberFindsTheTitle() throws {
    let index = try RealCorpus.load().index
    // The title says "Friends"; as typed, no video has both words.
    let response = try index.search("friend karting", in: .top, limit: 10, explain: true)
    #expect(Self.videoIDs(response).first == "TETjrM_HiIQ")
    #expect(response.matchedAllTerms)
    let explanation = try #require(response.results.first?.explanation)
    let friend = try #require(explanation.terms.first { $0.term == "friend" })
    #expect(friend.origin == .inflection && friend.matchedForm == "friends")
    #expect(explanation.description.contains("as \"friends\" (plural or singular form"))
    // Whole words as typed: nothing has both.
    let exact = try index.search("friend karting", in: .videos, matching: .exact)
    #expect(!exact.matchedAllTerms || !exact.results.map(\.id).contains("TETjrM_HiIQ"))
  }

  @Test func theFormAsTypedRanksAboveTheFoldedOne() throws {
    let index = try DiscoverIndex.build(from: [
      Fixtures.video("one", "my dog at the beach"),
      Fixtures.video("many", "my dogs at the beach"),
      Fixtures.video("other", "a cat at the beach"),
    ])
    #expect(try Fixtures.ids(index, "dogs", in: .videos) == ["many", "one"])
    #expect(try Fixtures.ids(index, "dog", in: .videos) == ["one", "many"])
    // The real corpus: "dogs" also finds titles with "dog" only.
    let real = try RealCorpus.load().index
    let response = try real.search("dogs", in: .videos, limit: 50, explain: true)
    let forms = response.results.compactMap { $0.explanation?.terms.first?.matchedForm }
    #expect(forms.first == "dogs" && forms.contains("dog"))
  }

  @Test(
    arguments: [
      ("tomcruise", "ytx_bb19d53e45aec8a8", "tom cruise"),
      ("jerryjones frustrated", nil, "jerry jones frustrated"),
      ("cristianoronaldo", nil, "cristiano ronaldo"),
    ] as [(String, String?, String)])
  func wordsTypedTogetherAreSplit(_ query: String, _ first: String?, _ offered: String) throws {
    let index = try RealCorpus.load().index
    let response = try index.search(query, in: .videos, limit: 10, explain: true)
    #expect(response.matchedAllTerms && !response.results.isEmpty, "\(query)")
    if let first { #expect(response.results.first?.id == first) }
    #expect(response.didYouMean == offered)
    let terms = try #require(response.results.first?.explanation?.terms)
    #expect(terms.contains { $0.splitFrom != nil }, "\(query)")
  }

  @Test func wordsTypedApartFindTheTagTheyMake() throws {
    let index = try RealCorpus.load().index
    for (query, tag) in [("tik tok", "tiktok"), ("kapuso abroad", "kapusoabroad")] {
      let response = try index.search(query, in: .hashtags, limit: 10, explain: true)
      let result = try #require(response.results.first, "\(query)")
      #expect(result.title == tag || result.title == "#\(tag)", "\(query)")
      #expect(result.explanation?.terms.contains { $0.origin == .joined } == true)
      // Without word breaking, the tag is not found.
      let apart = try index.search(
        query, in: .hashtags, limit: 10, matching: MatchingOptions(breaksWords: false))
      #expect(!apart.results.contains { $0.id == result.id }, "\(query)")
    }
  }

  @Test func aPartialLastWordIsTriedAsAPrefixBeforeGivingUp() throws {
    let index = try RealCorpus.load().index
    let response = try index.search("tayl", in: .videos, limit: 10)
    #expect(response.matchedAllTerms)
    #expect(response.results.contains { $0.title.lowercased().contains("taylor") })
    // After a space the word is whole.
    #expect(try index.search("tayl ", in: .videos).results.isEmpty)
  }

  @Test func didYouMeanOffersTheCorrectionTheSearchUsed() throws {
    let index = try RealCorpus.load().index
    // "beest" is one typo from both "best" and "beast": the hits are MrBeast's.
    #expect(try index.search("mr beest", in: .top).didYouMean == "mr beast")
    // No video has both "taylor" and "swift": nothing is offered rather than a query that
    // finds nothing with every word ("taylor sift").
    #expect(try index.search("taylor swfit", in: .top).didYouMean == nil)
    #expect(try index.search("taylor swift", in: .top).didYouMean == nil)
    let typed = try index.search("dacne chal", in: .top, matching: .asYouType)
    #expect(typed.didYouMean == "dance chal")
    #expect(typed.matchedAllTerms)
  }

  @Test(arguments: ["東京", "서울", "москва", "@mrbeast", "#shorts", "café"])
  func otherScriptsNamesAndTagsKeepTheirResults(_ query: String) throws {
    let index = try RealCorpus.load().index
    let plain = MatchingOptions(foldsInflections: false, breaksWords: false)
    let withForms = try index.search(query, in: .top, limit: 20)
    let without = try index.search(query, in: .top, limit: 20, matching: plain)
    #expect(withForms.results.map(\.id) == without.results.map(\.id), "\(query)")
    #expect(withForms.totalHits == without.totalHits, "\(query)")
  }
}
