import SyntheticCorpus
import Testing

@testable import DiscoverSearch

/// The threshold algorithm over impact orders must return exactly what the block-max scan
/// returns: same hits, same scores, same order, same counts, on every page.
@Suite struct ThresholdSearchTests {
  /// A synthetic corpus large enough that frequent terms get bitmaps and impact orders
  /// (types need 4,096 documents).
  static let fixture: (index: DiscoverIndex, queries: [String]) = {
    let corpus = SyntheticCorpus(documentCount: 12_000, seed: 11)
    var mix = QueryMixGenerator(seed: 11)
    var writer = IndexWriter()
    for document in corpus {
      mix.observe(document)
      try! writer.add(document)
    }
    let generated = mix.makeQueries(count: 300, seed: 11).map(\.text)
    // Stop words and their pairs and triples: the queries the impact orders are for.
    let frequent = [
      "the", "a", "to", "the a", "a the", "to the a", "the fyp", "🔥", "🔥 the", "my the to",
    ]
    // A rarer word with stop words: the lead-sorted search (rare lead, bitmap others).
    let withStopWords = generated.prefix(40).compactMap { query in
      query.split(separator: " ").first.map { "the \($0) a" }
    }
    return (try! writer.makeIndex(), frequent + withStopWords + generated)
  }()

  /// `RankingOptions.pinned` with the impact orders turned off: every search takes the block-max scan.
  static let scanOnly: RankingOptions = {
    var ranking = RankingOptions.pinned
    ranking.usesImpactOrders = false
    return ranking
  }()

  @Test func frequentTermsGetImpactOrders() throws {
    let snapshot = Self.fixture.index.snapshot
    let videos = snapshot.partition(.video).postings
    #expect(videos.impactStarts.count > 1, "no term of the videos has an impact order")
  }

  /// When every match scores the same, the blended threshold search cannot stop (only a
  /// strict win stops it), reads its truncated impact lists to their end and gives up. The
  /// search that takes over starts from its k-th score as a floor and must keep the ties,
  /// which come first by document: the lead-sorted search for plain words, the bitmap walk
  /// when a term has alternatives (an emoji matches its name too).
  @Test(arguments: ["alpha beta", "🔥 beta"])
  func aSearchFromTheFloorOfAGivenUpSearchKeepsItsTies(query: String) throws {
    let videos = (0..<9_000).map {
      Video(id: "v\($0)", title: query, viewCount: 1_000)
    }
    let index = try DiscoverIndex.build(from: videos.map(Document.video))
    var cursor: SearchCursor?
    for page in 0..<3 {
      let fast = try index.search(query, in: .videos, limit: 10, after: cursor, ranking: .pinned)
      let slow = try index.search(
        query, in: .videos, limit: 10, after: cursor, ranking: Self.scanOnly)
      #expect(fast.totalHits == 9_000)
      #expect(fast.results.map(\.id) == slow.results.map(\.id), "\(query) page \(page)")
      #expect(fast.results.map(\.score) == slow.results.map(\.score), "\(query) page \(page)")
      #expect(fast.results.map(\.id) == (page * 10..<page * 10 + 10).map { "v\($0)" })
      cursor = fast.nextCursor
    }
  }

  /// Field weights other than the impacts' rule out the threshold and lead-sorted
  /// searches, so a conjunction whose terms all have bitmaps walks them: a term with
  /// alternatives (an emoji and its name) and a frequent word, in titles of seven lengths
  /// and with views that differ. The walk scores the matches it admits sixteen at a time,
  /// reading every list for the whole batch; its hits, scores and count must equal the
  /// scan's on every page.
  @Test func bitmapWalkScoresInBatchesAsTheScanDoes() throws {
    let videos = (0..<9_000).map { number in
      Video(
        id: "v\(number)", title: "🔥 beta" + String(repeating: " x", count: number % 7),
        description: number.isMultiple(of: 3) ? "beta fire" : nil,
        viewCount: number * 7_919 % 100_000)
    }
    let index = try DiscoverIndex.build(from: videos.map(Document.video))
    var walk = RankingOptions.pinned
    walk.fieldWeights[.videoTitle] = 2.5
    var scan = Self.scanOnly
    scan.fieldWeights[.videoTitle] = 2.5
    var cursor: SearchCursor?
    for page in 0..<4 {
      let fast = try index.search("🔥 beta", in: .videos, limit: 20, after: cursor, ranking: walk)
      let slow = try index.search("🔥 beta", in: .videos, limit: 20, after: cursor, ranking: scan)
      #expect(fast.totalHits == 9_000)
      #expect(Set(fast.results.map(\.score)).count > 1, "page \(page): the scores should differ")
      #expect(fast.results.map(\.id) == slow.results.map(\.id), "page \(page)")
      #expect(fast.results.map(\.score) == slow.results.map(\.score), "page \(page)")
      cursor = fast.nextCursor
    }
  }

  /// Deep in an impact list, entries come in long runs of one impact (titles of one
  /// length), in document order, which is popularity order. Once no document from some
  /// entry on has a static factor that lifts the run's text bound to the k-th hit, the
  /// search passes over the rest of the run. Recency makes a later, less popular document's
  /// factor larger than an earlier one's, so passing over a run too soon, or on a bound
  /// that only covers the document's own run of 64, drops hits. Hits, scores and counts
  /// must equal the scan's on every page.
  @Test func passingOverARunOfEqualImpactsKeepsEveryHit() throws {
    let origin = try #require(RankingOptions.pinned.recency.origin)
    let videos = (0..<9_000).map { number in
      Video(
        id: "v\(number)", title: "alpha beta" + String(repeating: " x", count: number % 5),
        description: number.isMultiple(of: 4) ? "alpha" : nil,
        viewCount: number * 7_919 % 100_000,
        createdAt: origin.addingTimeInterval(-Double(number * 104_729 % 365) * 86_400))
    }
    let index = try DiscoverIndex.build(from: videos.map(Document.video))
    for query in ["alpha beta", "beta alpha"] {
      var cursor: SearchCursor?
      for page in 0..<4 {
        let fast = try index.search(query, in: .videos, limit: 20, after: cursor, ranking: .pinned)
        let slow = try index.search(
          query, in: .videos, limit: 20, after: cursor, ranking: Self.scanOnly)
        #expect(fast.totalHits == 9_000)
        #expect(fast.results.map(\.id) == slow.results.map(\.id), "\(query) page \(page)")
        #expect(fast.results.map(\.score) == slow.results.map(\.score), "\(query) page \(page)")
        cursor = fast.nextCursor
      }
    }
  }

  /// A rarer word whose list spans several blocks, with a frequent word that half of its
  /// documents hold: the lead-sorted search tests each block's documents against the
  /// bitmap without a branch and keeps the matches' slots. Its count, hits and scores must
  /// equal the scan's on every page, and its count the slow reference's.
  @Test func leadSortedSearchOverSeveralBlocksEqualsTheScan() throws {
    let videos = (0..<9_000).map { number in
      var title = number.isMultiple(of: 2) ? "the alpha" : "alpha"
      // 258 documents: more than two blocks of 128, fewer than the 1/32 of the documents
      // that would give the word a bitmap of its own.
      if number.isMultiple(of: 35) { title += String(repeating: " beta", count: 1 + number % 3) }
      return Video(id: "v\(number)", title: title, viewCount: number * 7_919 % 100_000)
    }
    let index = try DiscoverIndex.build(from: videos.map(Document.video))
    let postings = index.snapshot.partition(.video).postings
    let beta = try #require(Array("beta".utf8).withUnsafeBytes { index.snapshot.terms.find($0) })
    let list = try #require(postings.listIndex(for: TermID(beta)))
    #expect(postings.lists[list].blockCount > 2)
    #expect(postings.bitmapIndex(ofList: list) == nil)
    let reference = try #require(index.referenceCounts(for: "beta the"))
    var cursor: SearchCursor?
    for page in 0..<4 {
      let fast = try index.search(
        "beta the", in: .videos, limit: 20, after: cursor, ranking: .pinned)
      let slow = try index.search(
        "beta the", in: .videos, limit: 20, after: cursor, ranking: Self.scanOnly)
      #expect(fast.totalHits == 129)
      #expect(fast.facets == reference.facets)
      #expect(fast.results.map(\.id) == slow.results.map(\.id), "page \(page)")
      #expect(fast.results.map(\.score) == slow.results.map(\.score), "page \(page)")
      cursor = fast.nextCursor
    }
    // The Users tab only counts the videos: the count-only pass of the same search.
    let counted = try index.search("beta the", in: .users, limit: 10, ranking: .pinned)
    #expect(counted.facets == reference.facets)
  }

  /// Every tab counts the types it does not show without ranking them (one term: its
  /// document frequency): the facets must equal the slow reference's, whatever the tab.
  @Test(arguments: [SearchTab.top, .videos, .users, .hashtags, .sounds])
  func countedTypesMatchTheReference(tab: SearchTab) throws {
    let index = Self.fixture.index
    for query in Self.fixture.queries.prefix(150) {
      let response = try index.search(query, in: tab, limit: 10, ranking: .pinned)
      let reference = try #require(index.referenceCounts(for: query))
      #expect(response.facets == reference.facets, "\(query)")
    }
  }

  /// On the Users tab, the videos are only counted (for the facets): the count-only paths
  /// must agree with the scan too.
  @Test(arguments: [SearchTab.top, .videos, .users])
  func thresholdSearchEqualsTheScan(tab: SearchTab) throws {
    let index = Self.fixture.index
    let (pinned, scanOnly) = (RankingOptions.pinned, Self.scanOnly)
    for query in Self.fixture.queries {
      var cursor: SearchCursor?
      var fast = try index.search(query, in: tab, limit: 10, ranking: pinned)
      var slow = try index.search(query, in: tab, limit: 10, ranking: scanOnly)
      for page in 0..<3 {
        #expect(fast.facets == slow.facets, "\(query) page \(page)")
        #expect(fast.results.map(\.id) == slow.results.map(\.id), "\(query) page \(page)")
        #expect(fast.results.map(\.score) == slow.results.map(\.score), "\(query) page \(page)")
        guard let next = fast.nextCursor else { break }
        cursor = next
        fast = try index.search(query, in: tab, limit: 10, after: cursor, ranking: pinned)
        slow = try index.search(query, in: tab, limit: 10, after: cursor, ranking: scanOnly)
      }
    }
  }
}
