import Foundation
import Testing

@testable import DiscoverSearch

/// The Top tab counts a card type without ranking it when ``ExactNameFilter`` proves that no
/// name of the type matches the query exactly. The proof must never be wrong: pages are the
/// same with the shortcut on and off.
@Suite struct ExactNameFilterTests {
  static let names: DiscoverIndex = {
    let documents: [Document] = [
      .user(User(id: "u1", username: "tswift", displayName: "Taylor Swift")),
      .user(User(id: "u2", username: "dance_queen", displayName: "Queen")),
      .user(User(id: "u3", username: "nobody")),
      .hashtag(Hashtag(id: "h1", name: "DanceChallenge")),
      .sound(Sound(id: "s1", title: "Blinding Lights", artist: "The Weeknd")),
      .video(Video(id: "v1", title: "Taylor Swift dance challenge", hashtags: ["DanceChallenge"])),
      .video(Video(id: "v2", title: "Queen of blinding lights")),
      .video(Video(id: "v3", title: "Dance")),
    ]
    return try! DiscoverIndex.build(from: documents)
  }()

  /// What the filter of `type` says of `query`, analyzed as a search analyzes it.
  static func mayMatchExactly(
    _ query: String, _ type: SearchResultType, in index: DiscoverIndex = names
  ) -> Bool {
    let snapshot = index.snapshot
    let workspace = SearchWorkspace()
    let sanitized = QuerySanitizer.sanitize(query)
    let parsed = QueryParser.parse(sanitized, using: workspace)
    let termIDs = QueryExpansion(parsed: parsed).termIDs(of: parsed, in: snapshot.terms)
    let lengths = NameLengths(query: sanitized, workspace: workspace)
    // Built in memory: no list needs checking, so planning cannot throw.
    let groups = try! snapshot.termPlans(
      in: snapshot.partition(type), termIDs: termIDs, selected: Array(parsed.terms.indices))
    return snapshot.exactNames.mayMatchExactly(
      type, in: snapshot, groups: groups, termIDs: termIDs, nameLengths: lengths.lengths(of: type),
      tagKey: lengths.tagKey)
  }

  @Test(arguments: [
    // Display names: the whole name, in any order (as the exactness check takes it).
    ("taylor swift", SearchResultType.user, true), ("Swift Taylor", .user, true),
    ("queen", .user, true), ("taylor", .user, false), ("swift", .user, false),
    ("taylor swift queen", .user, false),
    // Usernames, reduced to letters and digits.
    ("@tswift", .user, true), ("t swift", .user, true), ("dance queen", .user, true),
    ("@nobody", .user, true), ("@somebody", .user, false),
    // Hashtag names have no text name, only the tag.
    ("#dancechallenge", .hashtag, true), ("dance challenge", .hashtag, true),
    ("dance", .hashtag, false), ("challenge dance", .hashtag, false),
    // Sound titles; the artist is not a name.
    ("blinding lights", .sound, true), ("LIGHTS blinding", .sound, true),
    ("lights", .sound, false), ("the weeknd", .sound, false),
    // Video titles: one title is a single word.
    ("dance", .video, true), ("DANCE", .video, true), ("queen", .video, false),
    ("dance challenge", .video, false), ("taylor swift dance challenge", .video, true),
  ])
  func theFilterRulesOutOnlyQueriesNoNameMatches(
    query: String, type: SearchResultType, expected: Bool
  ) {
    #expect(Self.mayMatchExactly(query, type) == expected, "\(query) in \(type)")
  }

  /// A type of many documents analyzes only its shortest names, whole lengths at a time;
  /// a small one analyzes them all.
  @Test func onlyTheShortestNamesOfALargeTypeAreAnalyzed() {
    var counts = [Int32](repeating: 0, count: 128)
    counts[1] = 6_700
    counts[2] = 12_000
    counts[3] = 80_000
    counts[8] = 751_300
    #expect(ExactNameFilter.indexedLength(lengthCounts: counts, documentCount: 850_000) == 2)
    // Lengths no name has cost nothing.
    #expect(ExactNameFilter.indexedLength(lengthCounts: counts, documentCount: 10_000_000) == 7)
    counts[1] = 200_000
    #expect(ExactNameFilter.indexedLength(lengthCounts: counts, documentCount: 1_000_000) == 0)
    var small = [Int32](repeating: 0, count: 128)
    small[2] = 50_000
    small[127] = 1
    #expect(ExactNameFilter.indexedLength(lengthCounts: small, documentCount: 50_001) == 127)
  }

  /// The filters are built on first use, or ahead of it by `prepareSuggestions()`, and
  /// counted in the index's memory.
  @Test func prepareBuildsTheFiltersAndMemoryCountsThem() throws {
    let index = try DiscoverIndex.build(from: [
      .user(User(id: "u1", username: "tswift", displayName: "Taylor Swift")),
      .video(Video(id: "v1", title: "Dance")),
    ])
    func filterBytes() -> Int {
      index.memoryBreakdown.first { $0.part == "exact name filters" }?.bytes ?? -1
    }
    #expect(filterBytes() == 0)
    index.prepareSuggestions()
    #expect(filterBytes() > 0)
  }

  @Test func aRuledOutTypeIsStillCountedAndAnExactNameStillLeads() throws {
    let index = Self.names
    let partial = try index.search("taylor", in: .top, ranking: .pinned)
    #expect(partial.facets[.user] == 1)
    #expect(partial.results.first?.type == .video, "no name is exactly \"taylor\"")
    let exact = try index.search("taylor swift", in: .top, ranking: .pinned)
    #expect(exact.results.first?.id == "u1")
    let tag = try index.search("dance challenge", in: .top, ranking: .pinned)
    #expect(tag.results.first?.id == "h1")
    #expect(tag.facets[.user] == 0 && tag.facets[.hashtag] == 1)
  }

  /// Every page of many queries, with and without the shortcuts, in the Top tab and in
  /// tabs of one type (where a one-term query skips the re-ranking window when no name can
  /// match exactly): the synthetic corpus's generated queries and, on the real corpus, the
  /// first words of its titles and the full names of its users, hashtags and sounds (which
  /// do match exactly).
  @Test(arguments: [SearchTab.top, .videos, .users, .sounds])
  func pagesAreTheSameWithAndWithoutTheShortcuts(tab: SearchTab) throws {
    let real = try RealCorpus.load()
    var realQueries: [String] = []
    for document in real.documents.prefix(400) {
      switch document {
      case .video(let video):
        realQueries.append(String(video.title.split(separator: " ").first ?? ""))
        realQueries.append(video.title.split(separator: " ").prefix(2).joined(separator: " "))
      case .user(let user): realQueries += [user.username, user.displayName ?? ""]
      case .hashtag(let hashtag): realQueries.append(hashtag.name)
      case .sound(let sound): realQueries.append(sound.title)
      case .effect: break
      }
    }
    // Words of different documents together: when nothing has both, the search falls back
    // to matching any of them, and a type without one of the words ignores it.
    let words = realQueries.compactMap { $0.split(separator: " ").first.map(String.init) }
    realQueries += zip(words, words.reversed()).prefix(200).map { "\($0) \($1)" }
    let synthetic = ThresholdSearchTests.fixture
    var full = RankingOptions.pinned
    full.usesExactNameFilters = false
    var ruledOut = 0
    var cards = 0
    var oneTermWithoutExactNames = 0
    for (index, queries) in [(real.index, realQueries), (synthetic.index, synthetic.queries)] {
      for query in queries {
        if let type = tab.resultTypes.first, tab != .top, !query.contains(" "),
          !Self.mayMatchExactly(query, type, in: index)
        {
          oneTermWithoutExactNames += 1
        }
        var fast = try index.search(query, in: tab, limit: 10, ranking: .pinned, explain: true)
        var slow = try index.search(query, in: tab, limit: 10, ranking: full, explain: true)
        if fast.results.first.map({ $0.type != .video }) == true { cards += 1 }
        if fast.results.first?.type == .video { ruledOut += 1 }
        for page in 0..<3 {
          #expect(fast.facets == slow.facets, "\(query) page \(page)")
          #expect(fast.results.map(\.id) == slow.results.map(\.id), "\(query) page \(page)")
          #expect(fast.results.map(\.score) == slow.results.map(\.score), "\(query) page \(page)")
          #expect(
            fast.results.map(\.explanation) == slow.results.map(\.explanation),
            "\(query) page \(page)")
          guard let cursor = fast.nextCursor else { break }
          #expect(slow.nextCursor != nil)
          fast = try index.search(
            query, in: tab, limit: 10, after: cursor, ranking: .pinned, explain: true)
          slow = try index.search(
            query, in: tab, limit: 10, after: cursor, ranking: full, explain: true)
        }
      }
    }
    // The window is skipped for many one-word queries.
    #expect(tab == .top || oneTermWithoutExactNames > 50, "\(oneTermWithoutExactNames)")
    if tab == .top {
      // Both outcomes occur: pages led by cards, and pages whose card types were only counted.
      #expect(cards > 50 && ruledOut > 50, "cards \(cards), video-led \(ruledOut)")
    }
  }
}
