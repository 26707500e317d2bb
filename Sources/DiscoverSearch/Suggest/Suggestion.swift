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
///    `typoTolerance.penalty` per typo × ``wordCompletionFactor`` (for a last word
///    completed without knowing whether it follows the earlier words).
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
  /// The factor on a completion of the last word alone after several words: such a word
  /// is frequent but may never follow the earlier ones.
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

/// The completion structures of a snapshot, built on first use.
final class SuggestionCache: Sendable {
  private let built = Lock<(lexicon: TermLexicon, phrases: PhraseDictionary)?>(nil)

  /// The lexicon and phrase dictionary, built now if they are not yet (concurrent first
  /// callers wait for one build).
  func structures(of snapshot: IndexSnapshot) -> (lexicon: TermLexicon, phrases: PhraseDictionary) {
    built.withLock { built in
      if let built { return built }
      let made = (TermLexicon(snapshot: snapshot), PhraseDictionary(snapshot: snapshot))
      built = made
      return made
    }
  }

  /// Keeps structures read from an index file, so that no call builds them.
  func store(lexicon: TermLexicon, phrases: PhraseDictionary) {
    built.withLock { $0 = (lexicon, phrases) }
  }

  /// The structures, if built or stored.
  var stored: (lexicon: TermLexicon, phrases: PhraseDictionary)? { built.withLock { $0 } }

  /// The lexicon alone.
  func lexicon(of snapshot: IndexSnapshot) -> TermLexicon {
    structures(of: snapshot).lexicon
  }

  /// The bytes held, 0 before the first use.
  var byteCount: Int {
    built.withLock { built in
      built.map { $0.lexicon.byteCount + $0.phrases.byteCount } ?? 0
    }
  }
}
