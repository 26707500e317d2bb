import DiscoverSearch
import Foundation
import Testing

/// Facet counts, tabs and pagination on a corpus where "sunset" matches a known number of
/// documents of every type.
@Suite("Search: facets, tabs and pages")
struct SearchPagingTests {
  /// "sunset" is in 38 videos (37 by text, one through its creator's username), 3 users,
  /// 3 hashtags and 2 sounds.
  static let expectedFacets = FacetCounts(videos: 38, users: 3, hashtags: 3, sounds: 2)

  static func corpus() -> [Document] {
    var documents: [Document] = [
      Fixtures.user("u1", "sunset_chaser"),
      Fixtures.user("u2", "lover42", displayName: "Sunset Lover"),
      Fixtures.user("u3", "filmmaker", bio: "I film every sunset"),
      Fixtures.user("u4", "nomatch", displayName: "Morning Person"),
      Fixtures.hashtag("h1", "sunset"),
      Fixtures.hashtag("h2", "sunset_vibes"),
      Fixtures.hashtag("h3", "beach", description: "best sunset spots"),
      Fixtures.hashtag("h4", "sunrise"),
      Fixtures.sound("s1", "Sunset Drive", artist: "Neon"),
      Fixtures.sound("s2", "Ocean", artist: "Sunset Boys"),
      Fixtures.sound("s3", "Sunrise", artist: "Dawn"),
      Fixtures.video("by-creator", "beach day", creator: "u1"),
    ]
    // Titles of different lengths and repeats give different scores; identical titles tie.
    let fillers = [
      "", "at the beach", "over the city skyline tonight", "sunset", "timelapse",
      "with friends and family",
    ]
    for number in 0..<37 {
      let title = "sunset " + fillers[number % fillers.count]
      let description = number % 4 == 0 ? "another sunset video" : nil
      documents.append(Fixtures.video("v\(number)", title, description: description))
    }
    for number in 0..<5 {
      documents.append(Fixtures.video("other\(number)", "sunrise hike \(number)", creator: "u4"))
    }
    return documents
  }

  static func index() throws -> DiscoverIndex {
    try DiscoverIndex.build(from: corpus())
  }

  @Test(arguments: SearchTab.allCases)
  func facetCountsAreExactForEveryTypeWhateverTheTab(_ tab: SearchTab) throws {
    let response = try Self.index().search("sunset", in: tab, limit: 5)
    #expect(response.facets == Self.expectedFacets)
    #expect(response.totalHits == Self.expectedFacets.total(for: tab))
    #expect(response.results.count == min(5, response.totalHits))
    #expect(response.results.allSatisfy { tab.resultTypes.contains($0.type) })
  }

  @Test func tabsReturnOnlyTheirTypes() throws {
    let index = try Self.index()
    #expect(Set(try Fixtures.ids(index, "sunset", in: .users)) == ["u1", "u2", "u3"])
    #expect(Set(try Fixtures.ids(index, "sunset", in: .hashtags)) == ["h1", "h2", "h3"])
    #expect(Set(try Fixtures.ids(index, "sunset", in: .sounds)) == ["s1", "s2"])
    let videos = try Fixtures.ids(index, "sunset", in: .videos)
    #expect(videos.count == 38)
    #expect(videos.contains("by-creator"))
    #expect(try Fixtures.ids(index, "sunset", in: .top).count == 46)
  }

  /// Every page of a search, following `nextCursor`.
  static func allPages(_ index: DiscoverIndex, _ query: String, in tab: SearchTab, limit: Int)
    throws
    -> [SearchResponse]
  {
    var pages = [try index.search(query, in: tab, limit: limit, ranking: .pinned)]
    while let cursor = pages.last?.nextCursor {
      pages.append(try index.search(query, in: tab, limit: limit, after: cursor, ranking: .pinned))
      try #require(pages.count <= 100, "pagination does not end")
    }
    return pages
  }

  static let pagings: [(SearchTab, Int)] = [
    (.top, 1), (.top, 3), (.top, 7), (.top, 10), (.top, 46), (.top, 100), (.videos, 4),
    (.videos, 9),
    (.users, 1), (.users, 2), (.hashtags, 2), (.sounds, 1),
  ]

  @Test(arguments: pagings)
  func walkingEveryPageYieldsEachHitOnceInRankOrder(_ tab: SearchTab, _ limit: Int) throws {
    let index = try Self.index()
    let pages = try Self.allPages(index, "sunset", in: tab, limit: limit)
    let results = pages.flatMap(\.results)
    let totalHits = Self.expectedFacets.total(for: tab)
    #expect(pages.allSatisfy { $0.totalHits == totalHits && $0.facets == Self.expectedFacets })
    #expect(results.count == totalHits)
    #expect(Set(results.map(\.id)).count == results.count, "a hit came twice")
    #expect(pages.dropLast().allSatisfy { $0.results.count == limit })
    #expect(pages.last?.nextCursor == nil)
    // Within a type, scores never go up (the Top tab puts cards before videos).
    for type in SearchResultType.allCases {
      let scores = results.filter { $0.type == type }.map(\.score)
      #expect(zip(scores, scores.dropFirst()).allSatisfy { $0 >= $1 }, "scores went up: \(scores)")
    }
    // The same order as one big page.
    let single = try index.search("sunset", in: tab, limit: 1000, ranking: .pinned)
    #expect(results.map(\.id) == single.results.map(\.id))
  }

  @Test func pagesOfAMultiWordQueryAndOfPartialMatchesAlsoComeOnce() throws {
    let index = try Self.index()
    for query in ["sunset beach", "sunset zebra", "sunset sunrise"] {
      let pages = try Self.allPages(index, query, in: .top, limit: 3)
      let ids = pages.flatMap(\.results).map(\.id)
      #expect(ids.count == pages[0].totalHits, "\(query)")
      #expect(Set(ids).count == ids.count, "\(query)")
      #expect(ids == (try Fixtures.ids(index, query)), "\(query)")
    }
  }

  @Test func cursorFromAnotherQueryOrTabIsRejected() throws {
    let index = try Self.index()
    let cursor = try #require(try index.search("sunset", in: .top, limit: 2).nextCursor)
    let otherQuery = #expect(throws: SearchError.self) {
      try index.search("beach", in: .top, limit: 2, after: cursor)
    }
    #expect(otherQuery?.code == .invalidQuery)
    let otherTab = #expect(throws: SearchError.self) {
      try index.search("sunset", in: .videos, limit: 2, after: cursor)
    }
    #expect(otherTab?.code == .invalidQuery)
    // The cursor survives a round trip through its token.
    let page = try index.search(
      "sunset", in: .top, limit: 2, after: SearchCursor(token: cursor.token))
    #expect(page.results.count == 2)
  }

  @Test func cursorFromTheOtherMatchingNamesThatAsTheReason() throws {
    let index = try Self.index()
    let wholeWords = try #require(try index.search("sunset", in: .top, limit: 2).nextCursor)
    let prefix = try #require(
      try index.search("sunset", in: .top, limit: 2, matching: .asYouType).nextCursor)
    let asYouType = #expect(throws: SearchError.self) {
      try index.search("sunset", in: .top, limit: 2, after: wholeWords, matching: .asYouType)
    }
    #expect(asYouType?.code == .invalidQuery)
    #expect(asYouType?.message.contains("searched by whole words, not as you type") == true)
    let whole = #expect(throws: SearchError.self) {
      try index.search("sunset", in: .top, limit: 2, after: prefix)
    }
    #expect(whole?.message.contains("searched as you type") == true)
    // Another query still says so.
    let other = #expect(throws: SearchError.self) {
      try index.search("beach", in: .top, limit: 2, after: prefix, matching: .asYouType)
    }
    #expect(other?.message.contains("another query or tab") == true)
  }

  static let malformedTokens: [String] = [
    "", "!!!", "not a cursor", "AAAA", "A", String(repeating: "A", count: 200),
    "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "🔥", "AQ==",
  ]

  @Test(arguments: malformedTokens)
  func malformedCursorIsAnInvalidQuery(_ token: String) throws {
    let index = try Self.index()
    let error = #expect(throws: SearchError.self) {
      try index.search("sunset", limit: 2, after: SearchCursor(token: token))
    }
    #expect(error?.code == .invalidQuery)
    #expect(error?.message.isEmpty == false)
  }

  @Test func truncatedCursorIsAnInvalidQuery() throws {
    let index = try Self.index()
    let cursor = try #require(try index.search("sunset", limit: 2).nextCursor)
    for count in [1, 2, 3, 5] {
      let error = #expect(throws: SearchError.self) {
        try index.search(
          "sunset", limit: 2, after: SearchCursor(token: String(cursor.token.dropLast(count))))
      }
      #expect(error?.code == .invalidQuery)
    }
  }

  @Test(arguments: [0, -1, DiscoverIndex.maximumSearchLimit + 1, Int.max])
  func limitOutsideTheRangeIsAnInvalidArgument(limit: Int) throws {
    let index = try Self.index()
    let error = #expect(throws: SearchError.self) {
      try index.search("sunset", limit: limit)
    }
    #expect(error?.code == .invalidArgument)
    #expect(error?.message.contains("1...\(DiscoverIndex.maximumSearchLimit)") == true)
  }

  /// Page two ranks with page one's recency origin, carried in the cursor, even when the
  /// caller's clock (the default origin) has moved on.
  @Test func laterPagesKeepTheFirstPagesRecencyOrigin() throws {
    let index = try Self.index()
    var first = RankingOptions()
    first.recency.origin = Date(timeIntervalSince1970: 1_700_000_000)
    let pageOne = try index.search("sunset", in: .videos, limit: 2, ranking: first)
    let cursor = try #require(pageOne.nextCursor)
    var later = RankingOptions()
    later.recency.origin = nil
    let pageTwo = try index.search("sunset", in: .videos, limit: 2, after: cursor, ranking: later)
    let whole = try index.search("sunset", in: .videos, limit: 4, ranking: first)
    #expect((pageOne.results + pageTwo.results).map(\.id) == whole.results.map(\.id))
    #expect(pageTwo.results.map(\.score) == whole.results.dropFirst(2).map(\.score))
  }

  @Test func emptyQueryGivesAnEmptyResponseWhateverTheCursor() throws {
    let index = try Self.index()
    for query in ["", "   ", "\u{200B}"] {
      let response = try index.search(query, limit: 10)
      #expect(response.results.isEmpty && response.totalHits == 0 && response.nextCursor == nil)
    }
  }
}
