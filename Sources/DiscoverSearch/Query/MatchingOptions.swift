/// How query words match the index's words: as typed, with typos, or as a prefix.
public struct MatchingOptions: Sendable, Hashable {
  /// Whether the last word also matches the words it begins, for search as you type:
  /// `dance cha` finds "dance challenge". Off by default, so a finished query matches
  /// whole words only; a query ending in a space never expands.
  public var matchesPrefixOfLastWord: Bool
  /// The most words a partial last word expands to, most frequent first.
  public var maximumPrefixExpansions: Int
  /// The factor on the score of a word matched as a completion of the typed prefix, so
  /// that the word as typed ranks above its completions.
  public var prefixPenalty: Float
  /// Typo correction: when the words as typed find fewer than
  /// ``TypoTolerance/minimumResults`` hits, each word also matches the closest words of
  /// the index within its typo budget, at a lower score.
  public var typoTolerance: TypoTolerance
  /// The most corrections tried for one word: the fewest typos first, then the most
  /// frequent.
  public var maximumCorrections: Int
  /// Whether a Latin-script word also matches its plural or singular form (`dogs` finds
  /// "dog", `friend` finds "Friends"), by the S-stemmer's rules, at
  /// ``inflectionPenalty``. Words in other scripts, hashtags and mentions never fold.
  public var foldsInflections: Bool
  /// The factor on the score of a word matched in its other number, so that the form as
  /// typed ranks above it.
  public var inflectionPenalty: Float
  /// Whether words typed together are split into the index's words (`tomcruise` finds
  /// "Tom Cruise") and adjacent words typed apart also match the word they make together
  /// (`tik tok` finds #tiktok), at ``wordBreakPenalty``.
  public var breaksWords: Bool
  /// The factor on the score of a word matched through a join of two query words, and on
  /// each piece of a split word.
  public var wordBreakPenalty: Float

  /// Creates matching options; the defaults are whole words, 16 prefix expansions at 0.8,
  /// Meilisearch's typo budgets with 4 corrections per word, plural and singular forms at
  /// 0.8 and split and joined words at 0.7.
  public init(
    matchesPrefixOfLastWord: Bool = false, maximumPrefixExpansions: Int = 16,
    prefixPenalty: Float = 0.8, typoTolerance: TypoTolerance = TypoTolerance(),
    maximumCorrections: Int = 4, foldsInflections: Bool = true, inflectionPenalty: Float = 0.5,
    breaksWords: Bool = true, wordBreakPenalty: Float = 0.7
  ) {
    self.matchesPrefixOfLastWord = matchesPrefixOfLastWord
    self.maximumPrefixExpansions = maximumPrefixExpansions
    self.prefixPenalty = prefixPenalty
    self.typoTolerance = typoTolerance
    self.maximumCorrections = maximumCorrections
    self.foldsInflections = foldsInflections
    self.inflectionPenalty = inflectionPenalty
    self.breaksWords = breaksWords
    self.wordBreakPenalty = wordBreakPenalty
  }

  /// Search as you type: the last word is a prefix, typos are corrected.
  public static let asYouType = MatchingOptions(matchesPrefixOfLastWord: true)

  /// Whole words exactly as typed: no prefix, no typos, no other forms.
  public static let exact = MatchingOptions(
    typoTolerance: .disabled, foldsInflections: false, breaksWords: false)

  /// The completions a partial last word expands to when the query finds fewer than
  /// ``TypoTolerance/minimumResults`` with ``maximumPrefixExpansions``: the hard maximum,
  /// as the other words keep the search small.
  static let maximumPrefixExpansionsWhenFew = 256

  /// The prefix penalty, sane whatever was set.
  var clampedPrefixPenalty: Float {
    prefixPenalty.isFinite ? min(max(prefixPenalty, 0), 1) : 0.8
  }

  /// The expansion count, clamped to 0...256.
  var clampedPrefixExpansions: Int { min(max(maximumPrefixExpansions, 0), 256) }

  /// The correction count, clamped to 0...32.
  var clampedCorrections: Int { min(max(maximumCorrections, 0), 32) }

  /// The inflection penalty, sane whatever was set.
  var clampedInflectionPenalty: Float {
    inflectionPenalty.isFinite ? min(max(inflectionPenalty, 0), 1) : 0.8
  }

  /// The word break penalty, sane whatever was set.
  var clampedWordBreakPenalty: Float {
    wordBreakPenalty.isFinite ? min(max(wordBreakPenalty, 0), 1) : 0.7
  }
}
