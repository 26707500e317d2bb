import DiscoverSearch

extension QueryMixGenerator {
  /// The kinds of completion request in the default mix, each with its share of the mix.
  ///
  /// Prefixes are 1 to 8 characters long (uniformly, up to the word's length), as typed one
  /// keystroke at a time. A kind without material falls back to word prefixes.
  public enum SuggestCategory: String, Sendable, Hashable, CaseIterable {
    /// The start of a title word: `danc` (45%).
    case wordPrefix
    /// `#` and the start of a hashtag: `#dancech` (15%).
    case hashtagPrefix
    /// `@` and the start of a username: `@dance_q` (10%).
    case usernamePrefix
    /// One or two whole title words and the start of the next: `dance cha` (20%).
    case multiWordPartial
    /// The start of a word (4 to 8 characters) with one typing slip: `dacne` (10%).
    case typo

    /// This kind's share of the mix.
    public var share: Double {
      switch self {
      case .wordPrefix: 0.45
      case .hashtagPrefix: 0.15
      case .usernamePrefix: 0.10
      case .multiWordPartial: 0.20
      case .typo: 0.10
      }
    }
  }

  /// The longest prefix typed, in characters.
  static let maximumPrefixLength = 8

  /// Makes `count` completion requests in the proportions of ``SuggestCategory``, on the Top
  /// tab with limit 10.
  ///
  /// Deterministic: the same observed documents and `seed` give the same requests. Every text
  /// is non-empty.
  ///
  /// - Parameters:
  ///   - count: How many requests, at least 0.
  ///   - seed: Chooses the requests.
  /// - Returns: Suggest queries in random order.
  /// - Complexity: O(count).
  package func makeSuggestQueries(count: Int, seed: UInt64) -> [QuerySpec] {
    makeLabeledSuggestQueries(count: count, seed: seed).map(\.query)
  }

  /// ``makeSuggestQueries(count:seed:)`` with the kind each request was made as.
  func makeLabeledSuggestQueries(count: Int, seed: UInt64)
    -> [(category: SuggestCategory, query: QuerySpec)]
  {
    precondition(count >= 0, "query count must not be negative, got \(count)")
    var generator = Xoshiro256StarStar(seed: seed ^ 0x5355_4747_4553_5453)  // "SUGGESTS"
    let categories = makeShuffledLabels(
      SuggestCategory.allCases,
      counts: apportion(count, shares: SuggestCategory.allCases.map(\.share)), using: &generator)
    return categories.map { category in
      var text = makeSuggestText(category, using: &generator)
      if text.allSatisfy(\.isWhitespace) { text = QueryText.makeNonsenseToken(using: &generator) }
      return (category, QuerySpec(kind: .suggest, text: text, tab: .top, limit: 10))
    }
  }

  private func makeSuggestText(
    _ category: SuggestCategory, using generator: inout Xoshiro256StarStar
  ) -> String {
    switch category {
    case .wordPrefix:
      return typedPrefix(of: randomTitleWord(using: &generator), using: &generator)
    case .hashtagPrefix:
      guard !hashtags.isEmpty else { return makeSuggestText(.wordPrefix, using: &generator) }
      return "#"
        + typedPrefix(of: generator.pick(hashtags.elements).lowercased(), using: &generator)
    case .usernamePrefix:
      guard !usernames.isEmpty else { return makeSuggestText(.wordPrefix, using: &generator) }
      let handle = Self.handle(generator.pick(usernames.elements), using: &generator)
      guard handle.hasPrefix("@") else { return typedPrefix(of: handle, using: &generator) }
      return "@" + typedPrefix(of: String(handle.dropFirst()), using: &generator)
    case .multiWordPartial:
      var words: [String] = []
      for _ in 0..<8 where !titles.isEmpty && words.count < 2 {
        words = QueryText.words(in: generator.pick(titles.elements))
      }
      guard words.count >= 2 else { return makeSuggestText(.wordPrefix, using: &generator) }
      let phrase = adjacent(words, count: generator.nextInt(in: 2...3), using: &generator)
        .map { QueryText.typeablePiece(of: $0, using: &generator).lowercased() }
      return phrase.dropLast().joined(separator: " ") + " "
        + typedPrefix(of: phrase[phrase.count - 1], using: &generator)
    case .typo:
      var word = ""
      for _ in 0..<8 where word.count < 4 {
        word = randomTitleWord(using: &generator)
      }
      guard word.count >= 4 else { return makeSuggestText(.wordPrefix, using: &generator) }
      let length = generator.nextInt(in: 4...Swift.min(Self.maximumPrefixLength, word.count))
      return QueryText.makeTypo(of: QueryText.prefix(of: word, length: length), using: &generator)
    }
  }

  /// The positions of the texts that are the start of a word of an observed title, as the
  /// word would be typed (lower-cased): a benchmark can require completions for those.
  ///
  /// Most ``SuggestCategory/wordPrefix`` requests are, but not all: a piece of a run of
  /// Japanese text may start inside a word (`rch` from `【VRChat】`). Words are compared byte
  /// by byte, so `तैयार` starts `तैयारी` though its last letter gains a vowel sign.
  ///
  /// - Parameter texts: Typed texts, such as those of ``makeSuggestQueries(count:seed:)``.
  /// - Returns: The positions in `texts` of those that start a title word of the sample.
  /// - Complexity: O(w log w) for the w words of the sampled titles, plus O(log w) per text.
  public func positionsOfTitleWordStarts(in texts: [String]) -> Set<Int> {
    var words = Set<[UInt8]>()
    for title in titles.elements {
      for word in QueryText.words(in: title) { words.insert(Array(word.lowercased().utf8)) }
    }
    let sorted = words.sorted { $0.lexicographicallyPrecedes($1) }
    var positions = Set<Int>()
    for (position, text) in texts.enumerated() where !text.isEmpty {
      let typed = Array(text.utf8)
      // The first word not before `typed`: if any word starts with `typed`, this one does.
      var low = 0
      var high = sorted.count
      while low < high {
        let middle = (low + high) / 2
        if sorted[middle].lexicographicallyPrecedes(typed) {
          low = middle + 1
        } else {
          high = middle
        }
      }
      if low < sorted.count && sorted[low].starts(with: typed) { positions.insert(position) }
    }
    return positions
  }

  /// A random word of a random title, lower-cased, cut to a typeable piece; nonsense if no
  /// title was observed.
  private func randomTitleWord(using generator: inout Xoshiro256StarStar) -> String {
    for _ in 0..<8 where !titles.isEmpty {
      let words = QueryText.words(in: generator.pick(titles.elements))
      if !words.isEmpty {
        return QueryText.typeablePiece(of: generator.pick(words), using: &generator).lowercased()
      }
    }
    return QueryText.makeNonsenseToken(using: &generator)
  }

  /// The first 1 to 8 characters of `word` (uniformly, at most its length).
  private func typedPrefix(of word: String, using generator: inout Xoshiro256StarStar) -> String {
    let longest = Swift.min(Self.maximumPrefixLength, word.count)
    guard longest > 0 else { return word }
    return QueryText.prefix(of: word, length: generator.nextInt(in: 1...longest))
  }
}
