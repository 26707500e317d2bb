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

  /// Creates matching options; the defaults are whole words, 16 prefix expansions at 0.8,
  /// and Meilisearch's typo budgets with 4 corrections per word.
  public init(
    matchesPrefixOfLastWord: Bool = false, maximumPrefixExpansions: Int = 16,
    prefixPenalty: Float = 0.8, typoTolerance: TypoTolerance = TypoTolerance(),
    maximumCorrections: Int = 4
  ) {
    self.matchesPrefixOfLastWord = matchesPrefixOfLastWord
    self.maximumPrefixExpansions = maximumPrefixExpansions
    self.prefixPenalty = prefixPenalty
    self.typoTolerance = typoTolerance
    self.maximumCorrections = maximumCorrections
  }

  /// Search as you type: the last word is a prefix, typos are corrected.
  public static let asYouType = MatchingOptions(matchesPrefixOfLastWord: true)

  /// Whole words exactly as typed: no prefix, no typos.
  public static let exact = MatchingOptions(typoTolerance: .disabled)

  /// The prefix penalty, sane whatever was set.
  var clampedPrefixPenalty: Float {
    prefixPenalty.isFinite ? min(max(prefixPenalty, 0), 1) : 0.8
  }

  /// The expansion count, clamped to 0...256.
  var clampedPrefixExpansions: Int { min(max(maximumPrefixExpansions, 0), 256) }

  /// The correction count, clamped to 0...32.
  var clampedCorrections: Int { min(max(maximumCorrections, 0), 32) }
}
