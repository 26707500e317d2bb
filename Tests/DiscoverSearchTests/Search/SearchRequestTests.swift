import DiscoverSearch
import Foundation
import Testing

/// Requests as values, generations, cancellation and work budgets.
@Suite("Search: requests, generations, budgets")
struct SearchRequestTests {
  @Test func aRequestAnswersAsTheLooseParameters() throws {
    let index = try RealCorpus.load().index
    for (text, tab) in [("bruno mars", SearchTab.top), ("music", .videos), ("#music", .hashtags)] {
      let loose = try index.search(text, in: tab, limit: 7, matching: .asYouType)
      let request = SearchRequest(text, in: tab, limit: 7, matching: .asYouType, userID: "u")
      let page = try index.search(request)
      #expect(page == loose, "\(text)")
      #expect(!page.isPartial)
      if let cursor = page.nextCursor {
        let next = try index.search(
          SearchRequest(text, in: tab, limit: 7, after: cursor, matching: .asYouType))
        #expect(
          next == (try index.search(text, in: tab, limit: 7, after: cursor, matching: .asYouType)))
      }
    }
  }

  @Test func aRequestOutsideTheLimitsIsATypedError() throws {
    let index = try RealCorpus.load().index
    for limit in [0, -1, DiscoverIndex.maximumSearchLimit + 1] {
      #expect(throws: SearchError.self) { try index.search(SearchRequest("music", limit: limit)) }
    }
    #expect(throws: SearchError.self) {
      try index.suggestions(SuggestRequest("mus", limit: 0))
    }
    #expect(try index.suggestions(SuggestRequest("mus", limit: 3)).count <= 3)
  }

  @Test func everyChangeSearchesSeeRaisesTheGeneration() throws {
    let index = DiscoverIndex()
    let start = index.generation
    var writer = try index.makeWriter()
    writer.mergePolicy.mergesInBackground = false
    writer.mergePolicy.floorDocuments = 1
    writer.mergePolicy.segmentsPerTier = 2
    writer.mergePolicy.maximumMergeAtOnce = 2
    var seen = [start]
    for batch in 0..<5 {
      try writer.add(Fixtures.video("v\(batch)", "dance number \(batch)"))
      try writer.publish()
      #expect(index.generation > seen.last!, "publish \(batch)")
      seen.append(index.generation)
    }
    writer.delete(id: "v0")
    try writer.publish()
    #expect(index.generation > seen.last!)
    // A search reports nothing of it, but a request on a newer generation sees the change.
    #expect(try index.search(SearchRequest("dance", in: .videos)).totalHits == 4)
  }

  @Test func aCommitAndARefreshRaiseTheGeneration() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("generation-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let index = try DiscoverIndex.build(from: [Fixtures.video("v1", "dance")])
    try index.save(to: directory)
    let reader = try DiscoverIndex.open(at: directory)
    let readerStart = reader.generation
    var writer = try index.makeWriter()
    let before = index.generation
    try writer.add(Fixtures.video("v2", "dance again"))
    try writer.commit()
    #expect(index.generation > before)
    #expect(try reader.refreshIfChanged())
    #expect(reader.generation > readerStart)
    #expect(try !reader.refreshIfChanged())
  }

  @Test func aCancelledSearchThrowsCancellation() async throws {
    let index = try RealCorpus.load().index
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try index.search(SearchRequest("music video", in: .top))
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    // Not cancelled: the same search answers.
    #expect(try index.search(SearchRequest("music video")).totalHits > 0)
  }

  // MARK: Budgets, with the worst inputs

  @Test func aPostingsBudgetStopsAfterTheFirstStepAndMarksThePagePartial() throws {
    let index = try RealCorpus.load().index
    let full = try index.search(SearchRequest("music", in: .top, limit: 20))
    #expect(!full.isPartial)
    #expect(full.facets.users + full.facets.hashtags + full.facets.sounds > 0)
    let tight = try index.search(
      SearchRequest("music", in: .top, limit: 20, budget: SearchBudget(maximumPostings: 1)))
    #expect(tight.isPartial)
    // Videos run first and always: their hits and count are whole, the rest left out.
    #expect(tight.facets.videos == full.facets.videos)
    #expect(tight.facets.users == 0 && tight.facets.hashtags == 0 && tight.facets.sounds == 0)
    // The page is videos only, in the order the full page ranks them (it had a card too).
    let fullVideos = full.results.filter { $0.type == .video }.map(\.id)
    #expect(tight.results.allSatisfy { $0.type == .video })
    #expect(Array(tight.results.map(\.id).prefix(fullVideos.count)) == fullVideos)
    // A budget the search fits in changes nothing.
    let roomy = try index.search(
      SearchRequest(
        "music", in: .top, limit: 20, budget: SearchBudget(maximumPostings: 100_000_000)))
    #expect(roomy == full)
  }

  @Test func aTimeLimitOfZeroRunsOneStep() throws {
    let index = try RealCorpus.load().index
    let page = try index.search(
      SearchRequest("love", in: .top, budget: SearchBudget(timeLimit: .zero)))
    #expect(page.isPartial)
    #expect(page.facets.videos > 0)
    #expect(page.facets.sounds == 0)
  }

  @Test func thousandsOfFrequentWordsStayWithinTheHardLimits() throws {
    let index = try RealCorpus.load().index
    let words = ["the", "a", "of", "music", "video", "official", "new", "to", "and", "in"]
    let text = (0..<5_000).map { words[$0 % words.count] + "\($0 % 97)" }.joined(separator: " ")
    for matching in [MatchingOptions(), .asYouType] {
      let page = try index.search(
        SearchRequest(
          text, matching: matching, budget: SearchBudget(maximumPostings: 2_000_000)))
      #expect(page.query.utf8.count <= QuerySanitizer.maximumLength)
      #expect(page.results.count <= 10)
    }
    let frequent = String(repeating: "the music video official ", count: 2_000)
    let page = try index.search(SearchRequest(frequent, budget: SearchBudget(maximumPostings: 1)))
    #expect(page.isPartial)
  }

  @Test func aOneLetterPrefixWithTyposStaysBounded() throws {
    let index = try RealCorpus.load().index
    var matching = MatchingOptions.asYouType
    matching.maximumPrefixExpansions = .max
    matching.maximumCorrections = .max
    for text in ["a", "x", "é", "#", "@"] {
      let page = try index.search(SearchRequest(text, matching: matching))
      #expect(page.results.count <= 10, "\(text)")
      #expect(page.totalHits == page.facets.total(for: .top), "\(text)")
    }
  }

  @Test func pagingStopsAtTheMaximumDepth() throws {
    let index = try RealCorpus.load().index
    var request = SearchRequest("the", in: .videos, limit: DiscoverIndex.maximumSearchLimit)
    var seen = 0
    var pages = 0
    while true {
      let page = try index.search(request)
      seen += page.results.count
      pages += 1
      guard let next = page.nextCursor else { break }
      request.cursor = next
      #expect(pages < 100, "paging must end")
      if pages >= 100 { break }
    }
    #expect(seen <= SearchCursor.maximumDepth)
    // A forged cursor is refused, not followed.
    request.cursor = SearchCursor(token: String(repeating: "A", count: 10_000))
    #expect(throws: SearchError.self) { try index.search(request) }
  }
}
