import Synchronization

/// One entry of the list shown under the search bar while the user types.
public struct Suggestion: Sendable, Hashable {
  /// What a suggestion leads to.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// Text to search for: a word, a phrase from titles, or a past query.
    case query
    /// A hashtag; ``Suggestion/text`` starts with `#`.
    case hashtag
    /// A user: `@username`, or a display name.
    case user
    /// A sound, by its title or artist.
    case sound
  }

  /// The text to show and to search when chosen.
  public var text: String
  public var kind: Kind
  /// The part of ``text`` that the typed text matched (UTF-8 offsets), for highlighting.
  public var matchedRange: HighlightRange?
  /// Whether this is a trending search (``QueryAnalytics/trendingSearches(limit:)``).
  public var isTrending: Bool
  /// Whether the user searched this recently (``QueryAnalytics/recentSearches(for:limit:)``).
  public var isRecent: Bool
  /// How many typos the typed text had against this suggestion.
  public var typos: Int
  /// What the list is ordered by (see ``SuggestOptions`` for the policy).
  public var score: Double

  /// Creates a suggestion.
  public init(
    text: String, kind: Kind, matchedRange: HighlightRange? = nil, isTrending: Bool = false,
    isRecent: Bool = false, typos: Int = 0, score: Double = 0
  ) {
    self.text = text
    self.kind = kind
    self.matchedRange = matchedRange
    self.isTrending = isTrending
    self.isRecent = isRecent
    self.typos = typos
    self.score = score
  }
}

/// How suggestions are found and ordered.
///
/// **The ranking policy.** Every candidate gets a popularity in 0...1: the logarithm of its
/// weight over the logarithm of the largest weight of its source, so that the most used
/// word, hashtag, user, sound, title phrase and past query each score 1 whatever their
/// units (documents, views, followers, searches). Then:
/// 1. the user's recent searches that start with the typed text come first, most recent
///    first, at most ``maximumRecent`` of them;
/// 2. a suggestion equal to what was typed comes next (the exact word is never hidden);
/// 3. the rest follow by popularity × ``trendingBoost`` (trending searches only) ×
///    `typoTolerance.penalty` per typo;
/// 4. after all of them, a last word completed alone after earlier words, which no title
///    pair, name or past search has next to them, by popularity × `typoTolerance.penalty`
///    per typo × ``wordCompletionFactor``. (After the
///    pieces of one run of Chinese or Japanese, `火影` of `火影忍`, such a completion
///    continues the run and ranks as in 3, with the factor.)
///
/// Sources: words, `#hashtags` and `@usernames` of the term dictionary (weighted by the
/// documents that use them), pairs of title words, users' display names (by followers),
/// sound titles and artists (by videos using the sound), and, when analytics are given,
/// past queries (by decayed search counts) and the user's recent searches.
public struct SuggestOptions: Sendable, Hashable {
  /// Typo correction of the typed words; the last word is matched as a prefix.
  public var typoTolerance: TypoTolerance
  /// The most recent searches shown first.
  public var maximumRecent: Int
  /// The factor on a trending search's popularity.
  public var trendingBoost: Double
  /// The factor on a completion of the last word alone after several words, which orders
  /// such completions among themselves: they rank after every phrase whatever the factor,
  /// since the word may never follow the earlier ones.
  public var wordCompletionFactor: Double
  /// Completions within the typo budget are looked up when the text as typed gives fewer
  /// than this many suggestions (Typesense's `typo_tokens_threshold` plays the same role in
  /// its searches): a prefix that already completes to a few real words was most likely
  /// typed right, and the lookup costs a walk of the dictionary.
  public var typoThreshold: Int

  /// Creates options; the defaults are 1 typo from 5 characters and 2 from 9, 3 recent
  /// searches, a trending boost of 2, a word completion factor of 0.5 and a typo threshold
  /// of 3.
  public init(
    typoTolerance: TypoTolerance = TypoTolerance(), maximumRecent: Int = 3,
    trendingBoost: Double = 2, wordCompletionFactor: Double = 0.5, typoThreshold: Int = 3
  ) {
    self.typoThreshold = typoThreshold
    self.typoTolerance = typoTolerance
    self.maximumRecent = maximumRecent
    self.trendingBoost = trendingBoost
    self.wordCompletionFactor = wordCompletionFactor
  }
}

/// The completion structures of a snapshot, each built on first use.
///
/// The lexicon and the phrase dictionary are built apart: a prefix or typo search needs the
/// lexicon only, which costs about a sixth of the two (the phrase dictionary tokenizes every
/// title again), so after a publish such a search does not wait for the phrases.
final class SuggestionCache: Sendable {
  private let builtLexicon = Lock<TermLexicon?>(nil)
  private let builtPhrases = Lock<PhraseDictionary?>(nil)

  /// The lexicon and phrase dictionary, built now where they are not yet (concurrent first
  /// callers wait for one build).
  func structures(of snapshot: IndexSnapshot) -> (lexicon: TermLexicon, phrases: PhraseDictionary) {
    // Always the phrases' lock before the lexicon's (``lexicon(of:)`` takes only the
    // lexicon's), so no two callers wait for each other.
    let phrases = builtPhrases.withLock { built in
      if let built { return built }
      let made = PhraseDictionary(snapshot: snapshot)
      built = made
      return made
    }
    return (lexicon(of: snapshot), phrases)
  }

  /// Keeps structures read from an index file or shared by a snapshot of the same text, so
  /// that no call builds them (`nil` leaves one to be built on first use).
  func store(lexicon: TermLexicon?, phrases: PhraseDictionary?) {
    builtPhrases.withLock { $0 = phrases }
    builtLexicon.withLock { $0 = lexicon }
  }

  /// Each structure, if built or stored.
  var parts: (lexicon: TermLexicon?, phrases: PhraseDictionary?) {
    (builtLexicon.withLock { $0 }, builtPhrases.withLock { $0 })
  }

  /// The structures, if both are built or stored.
  var stored: (lexicon: TermLexicon, phrases: PhraseDictionary)? {
    let (lexicon, phrases) = parts
    guard let lexicon, let phrases else { return nil }
    return (lexicon, phrases)
  }

  /// The lexicon alone, built now if it is not yet.
  func lexicon(of snapshot: IndexSnapshot) -> TermLexicon {
    builtLexicon.withLock { built in
      if let built { return built }
      let made = TermLexicon(snapshot: snapshot)
      built = made
      return made
    }
  }

  /// The bytes held, 0 before the first use.
  var byteCount: Int {
    (builtLexicon.withLock { $0?.byteCount } ?? 0) + (builtPhrases.withLock { $0?.byteCount } ?? 0)
  }
}
