import DiscoverSearch

extension QueryMixGenerator {
  /// The kinds of search query in the default mix, each with its share of the mix.
  ///
  /// Shares are exact (largest-remainder apportionment of the requested count) whenever the
  /// corpus has material for the kind; a kind without material (no hashtags, users or sounds
  /// observed) falls back to title words, and with no titles at all, to nonsense.
  public enum SearchCategory: String, Sendable, Hashable, CaseIterable {
    /// One word from a real title (20%).
    case oneTitleWord
    /// Two adjacent words from a real title (15%).
    case twoTitleWords
    /// Three adjacent words from a real title (10%).
    case threeTitleWords
    /// `#` and an observed hashtag (15%).
    case hashtag
    /// `@` and an observed username (10%).
    case username
    /// One to three adjacent words of a sound title (10%).
    case soundWords
    /// A real title word together with a word that matches nothing (10%).
    case unmatchedWord
    /// One or two words that match nothing (5%).
    case nonsense
    /// A non-Latin word or emoji from a title (5%).
    case nonLatinWord

    /// This kind's share of the mix.
    public var share: Double {
      switch self {
      case .oneTitleWord: 0.20
      case .twoTitleWords: 0.15
      case .threeTitleWords: 0.10
      case .hashtag: 0.15
      case .username: 0.10
      case .soundWords: 0.10
      case .unmatchedWord: 0.10
      case .nonsense: 0.05
      case .nonLatinWord: 0.05
      }
    }
  }

  /// How search queries spread over the tabs, independently of their kind: mostly Top, as in
  /// the app, where the Top tab opens first.
  public static let tabShares: [(tab: SearchTab, share: Double)] = [
    (.top, 0.60), (.videos, 0.20), (.users, 0.08), (.hashtags, 0.07), (.sounds, 0.05),
  ]

  /// The share of search queries that ask for 20 results instead of 10 (a second page).
  public static let twentyResultShare = 0.15

  /// The share of typed words left as the title wrote them; the others are lower-cased, as
  /// most people type queries.
  static let originalCaseShare = 0.3

  /// Makes `count` search queries in the proportions of ``SearchCategory`` and ``tabShares``.
  ///
  /// Deterministic: the same observed documents and `seed` give the same queries. Every query
  /// text is non-empty.
  ///
  /// - Parameters:
  ///   - count: How many queries, at least 0.
  ///   - seed: Chooses the queries.
  /// - Returns: Search queries in random order.
  /// - Complexity: O(count + total length of the sampled titles).
  package func makeQueries(count: Int, seed: UInt64) -> [QuerySpec] {
    makeLabeledQueries(count: count, seed: seed).map(\.query)
  }

  /// ``makeQueries(count:seed:)`` with the kind each query was made as.
  func makeLabeledQueries(count: Int, seed: UInt64)
    -> [(category: SearchCategory, query: QuerySpec)]
  {
    precondition(count >= 0, "query count must not be negative, got \(count)")
    var generator = Xoshiro256StarStar(seed: seed)
    let categories = makeShuffledLabels(
      SearchCategory.allCases,
      counts: apportion(count, shares: SearchCategory.allCases.map(\.share)), using: &generator)
    let tabs = makeShuffledLabels(
      Self.tabShares.map(\.tab), counts: apportion(count, shares: Self.tabShares.map(\.share)),
      using: &generator)
    let limits = makeShuffledLabels(
      [10, 20],
      counts: apportion(count, shares: [1 - Self.twentyResultShare, Self.twentyResultShare]),
      using: &generator)
    let nonLatinWords = titles.elements.flatMap { QueryText.words(in: $0) }.filter(
      QueryText.isNonLatin)
    return (0..<count).map { index in
      var text = makeSearchText(categories[index], nonLatinWords: nonLatinWords, using: &generator)
      if text.allSatisfy(\.isWhitespace) { text = QueryText.makeNonsenseToken(using: &generator) }
      let query = QuerySpec(kind: .search, text: text, tab: tabs[index], limit: limits[index])
      return (categories[index], query)
    }
  }

  private func makeSearchText(
    _ category: SearchCategory, nonLatinWords: [String], using generator: inout Xoshiro256StarStar
  ) -> String {
    switch category {
    case .oneTitleWord: return typedTitleWords(1, using: &generator)
    case .twoTitleWords: return typedTitleWords(2, using: &generator)
    case .threeTitleWords: return typedTitleWords(3, using: &generator)
    case .hashtag:
      guard !hashtags.isEmpty else { return typedTitleWords(1, using: &generator) }
      let tag = generator.pick(hashtags.elements)
      return "#" + (generator.chance(0.5) ? tag.lowercased() : tag)
    case .username:
      guard !usernames.isEmpty else { return typedTitleWords(1, using: &generator) }
      return Self.handle(generator.pick(usernames.elements), using: &generator)
    case .soundWords:
      guard !soundTitles.isEmpty else { return typedTitleWords(1, using: &generator) }
      var words = QueryText.words(in: generator.pick(soundTitles.elements))
      // "original sound - dance_queen": people mostly search the name, not the boilerplate.
      if words.count > 2 && words[0].lowercased() == "original" && generator.chance(0.7) {
        words.removeFirst(2)
      }
      guard !words.isEmpty else { return typedTitleWords(1, using: &generator) }
      return typed(
        adjacent(words, count: generator.nextInt(in: 1...3), using: &generator),
        using: &generator)
    case .unmatchedWord:
      let real = typedTitleWords(1, using: &generator)
      let nonsense = QueryText.makeNonsenseToken(using: &generator)
      return generator.chance(0.5) ? real + " " + nonsense : nonsense + " " + real
    case .nonsense:
      return (0..<generator.nextInt(in: 1...2)).map { _ in
        QueryText.makeNonsenseToken(using: &generator)
      }.joined(separator: " ")
    case .nonLatinWord:
      guard !nonLatinWords.isEmpty else { return typedTitleWords(1, using: &generator) }
      return QueryText.typeablePiece(of: generator.pick(nonLatinWords), using: &generator)
    }
  }

  /// `count` adjacent words of a random title as typed (see ``typed(_:using:)``); fewer if no
  /// title among a few tries has that many. Nonsense if no title was observed.
  func typedTitleWords(_ count: Int, using generator: inout Xoshiro256StarStar) -> String {
    guard !titles.isEmpty else { return QueryText.makeNonsenseToken(using: &generator) }
    var best: [String] = []
    for _ in 0..<8 {
      let words = QueryText.words(in: generator.pick(titles.elements))
      if words.count > best.count { best = words }
      if best.count >= count { break }
    }
    guard !best.isEmpty else { return QueryText.makeNonsenseToken(using: &generator) }
    return typed(adjacent(best, count: count, using: &generator), using: &generator)
  }

  /// Up to `count` adjacent elements of `words` at a random start.
  func adjacent(_ words: [String], count: Int, using generator: inout Xoshiro256StarStar)
    -> [String]
  {
    let taken = Swift.min(count, words.count)
    let start = generator.nextInt(below: words.count - taken + 1)
    return Array(words[start..<(start + taken)])
  }

  /// Words joined as a user would type them: long spaceless runs cut to a typeable piece, and
  /// lower-cased unless ``originalCaseShare`` keeps the case.
  func typed(_ words: [String], using generator: inout Xoshiro256StarStar) -> String {
    let text = words.map { QueryText.typeablePiece(of: $0, using: &generator) }
      .joined(separator: " ")
    return generator.chance(Self.originalCaseShare) ? text : text.lowercased()
  }

  /// A username as a user searches it: `@handle`, mostly lower-case; a "username" with spaces
  /// (real channel names such as `Zee Music Company`) is searched as plain words instead.
  static func handle(_ username: String, using generator: inout Xoshiro256StarStar) -> String {
    let typed = generator.chance(0.8) ? username.lowercased() : username
    return typed.contains(where: \.isWhitespace) ? typed : "@" + typed
  }
}
