/// Words added to a parsed query's terms as extra alternatives: completions of a partial
/// last word and typo corrections, each with the factor its score is weighed by.
struct QueryExpansion {
  /// The weight of each alternative of each term: 1 as typed.
  private(set) var weights: [[Float]]
  /// The typos of each alternative of each term: 0 as typed or completed.
  private(set) var typos: [[Int]]
  /// Each corrected term's best correction: the fewest typos, then the most frequent.
  private var bestCorrections: [Int: (bytes: [UInt8], frequency: UInt32)] = [:]

  init(parsed: ParsedQuery) {
    weights = parsed.terms.map { [Float](repeating: 1, count: $0.alternatives.count) }
    typos = parsed.terms.map { [Int](repeating: 0, count: $0.alternatives.count) }
  }

  /// Whether a term of this kind may be completed or corrected: words, hashtags and
  /// mentions, not emoji, URL parts or Chinese and Japanese bigrams.
  private static func isExpandable(_ kind: TokenKind) -> Bool {
    kind == .word || kind == .hashtag || kind == .mention
  }

  /// The term a search as you type completes: the last one typed, unless the text ends in
  /// a space or a quote, or the term is in a phrase.
  static func prefixTerm(of parsed: ParsedQuery, typed: String) -> Int? {
    guard let lastScalar = typed.unicodeScalars.last, !lastScalar.properties.isWhitespace,
      !["\"", "\u{201C}", "\u{201D}", "\u{201E}", "\u{FF02}"].contains(lastScalar),
      let last = parsed.terms.indices.last, isExpandable(parsed.terms[last].kind),
      !parsed.phrases.contains(where: { $0.members.contains { $0.term == last } })
    else { return nil }
    return last
  }

  /// Adds the most frequent words that `term` begins as alternatives, weighed by the
  /// prefix penalty.
  ///
  /// - Complexity: O(log t + k log k) for t terms in the lexicon and k expansions.
  mutating func expandPrefix(
    of term: Int, in parsed: inout ParsedQuery, lexicon: TermLexicon, options: MatchingOptions
  ) {
    let typed = parsed.terms[term].alternatives[0]
    guard let firstByte = typed.first else { return }
    let kind = TermLexicon.kind(firstByte: firstByte)
    let positions = lexicon.completions(
      of: typed, count: options.clampedPrefixExpansions,
      accepts: { position in
        let key = lexicon.keys.key(position)
        return key.count > typed.count && TermLexicon.kind(firstByte: key[0]) == kind
      }
    ).best
    for position in positions {
      append(
        Array(lexicon.keys.key(position)), to: term, in: &parsed,
        weight: options.clampedPrefixPenalty, typos: 0)
    }
  }

  /// Adds each term's closest words within its typo budget as alternatives.
  ///
  /// - Returns: Whether any correction was added.
  /// - Complexity: One automaton walk per word long enough for a typo
  ///   (``LevenshteinAutomaton``).
  mutating func addCorrections(
    to parsed: inout ParsedQuery, lexicon: TermLexicon, options: MatchingOptions,
    prefixTerm: Int?
  ) -> Bool {
    var added = false
    let tolerance = options.typoTolerance
    for index in parsed.terms.indices where Self.isExpandable(parsed.terms[index].kind) {
      let typed = parsed.terms[index].alternatives[0]
      guard let firstByte = typed.first else { continue }
      let budget = tolerance.budget(
        for: typed.withUnsafeBufferPointer { UTF8Scalar.scalars(of: $0) })
      guard budget > 0 else { continue }
      guard Int(lexicon.frequency(of: typed)) < tolerance.frequentWordCount else { continue }
      let kind = TermLexicon.kind(firstByte: firstByte)
      let present = Set(parsed.terms[index].alternatives)
      let isPrefix = index == prefixTerm
      let found = lexicon.corrections(
        of: typed, maximumDistance: budget, isPrefix: isPrefix,
        count: options.clampedCorrections, tolerance: tolerance,
        accepts: { position in
          let key = lexicon.keys.key(position)
          return TermLexicon.kind(firstByte: key[0]) == kind && !present.contains(Array(key))
        })
      for (rank, (position, distance)) in found.enumerated() {
        let bytes = Array(lexicon.keys.key(position))
        let weight =
          tolerance.factor(forDistance: distance) * (isPrefix ? options.clampedPrefixPenalty : 1)
        append(bytes, to: index, in: &parsed, weight: weight, typos: distance)
        if rank == 0 {
          bestCorrections[index] = (bytes, lexicon.frequencies.weights[position])
        }
        added = true
      }
    }
    return added
  }

  /// The query with each word replaced by its best correction where that correction is
  /// more frequent than the word as typed; `nil` when nothing changes.
  func didYouMean(parsed: ParsedQuery, lexicon: TermLexicon) -> String? {
    Self.rewritten(parsed) { index, term in
      guard let best = bestCorrections[index],
        best.frequency > lexicon.frequency(of: term.alternatives[0])
      else { return nil }
      return best.bytes
    }
  }

  /// The query's words joined by spaces, each replaced by `replacement` where that gives
  /// one; `nil` when no word is replaced.
  private static func rewritten(
    _ parsed: ParsedQuery, replacement: (Int, ParsedQuery.Term) -> [UInt8]?
  ) -> String? {
    var changed = false
    let words = parsed.terms.enumerated().map { index, term -> String in
      guard let bytes = replacement(index, term) else { return term.displayText }
      changed = true
      return String(decoding: bytes, as: UTF8.self)
    }
    return changed ? words.joined(separator: " ") : nil
  }

  /// The query with each word found in fewer than `rarerThan` documents replaced by its
  /// most frequent correction within one typo that is more frequent than the word as typed
  /// (``TermLexicon/oneTypoCorrection(of:isPrefix:tolerance:)``); `nil` when nothing
  /// changes.
  ///
  /// The corrected query offered beside a few hits: only a word that alone has fewer hits
  /// than the threshold can be why there are few (common words that rarely meet are not
  /// typos), and each costs one short walk instead of the full search for corrections.
  static func oneTypoDidYouMean(
    parsed: ParsedQuery, lexicon: TermLexicon, tolerance: TypoTolerance, prefixTerm: Int?,
    rarerThan threshold: Int
  ) -> String? {
    rewritten(parsed) { index, term in
      guard isExpandable(term.kind),
        let best = lexicon.oneTypoCorrection(
          of: term.alternatives[0], isPrefix: index == prefixTerm, tolerance: tolerance,
          rarerThan: threshold)
      else { return nil }
      return Array(lexicon.keys.key(best.position))
    }
  }

  /// The term id of every alternative; `nil` where the dictionary does not have it.
  func termIDs(of parsed: ParsedQuery, in terms: ByteStringTable) -> [[TermID?]] {
    parsed.terms.map { term in
      term.alternatives.map { bytes in
        bytes.withUnsafeBytes { terms.find($0) }.map(TermID.init)
      }
    }
  }

  private mutating func append(
    _ bytes: [UInt8], to term: Int, in parsed: inout ParsedQuery, weight: Float, typos: Int
  ) {
    parsed.terms[term].alternatives.append(bytes)
    weights[term].append(weight)
    self.typos[term].append(typos)
  }
}
