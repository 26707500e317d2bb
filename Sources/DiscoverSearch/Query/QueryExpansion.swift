/// How an alternative of a query term came to be searched.
public enum WordOrigin: String, Sendable, Hashable, CaseIterable {
  /// The word as typed (or an emoji's name).
  case typed
  /// A completion of the partial last word.
  case completion
  /// A correction of a typo.
  case correction
  /// The word in the other grammatical number (``MatchingOptions/foldsInflections``).
  case inflection
  /// The word this term makes with its neighbour typed apart (`tik tok` as "tiktok").
  case joined
}

/// Words added to a parsed query's terms as extra alternatives: completions of a partial
/// last word, typo corrections, plural and singular forms and joined words, each with the
/// factor its score is weighed by.
struct QueryExpansion {
  /// The weight of each alternative of each term: 1 as typed.
  private(set) var weights: [[Float]]
  /// The typos of each alternative of each term: 0 as typed or completed.
  private(set) var typos: [[Int]]
  /// How each alternative of each term came to be searched.
  private(set) var origins: [[WordOrigin]]

  init(parsed: ParsedQuery) {
    weights = parsed.terms.map { [Float](repeating: 1, count: $0.alternatives.count) }
    typos = parsed.terms.map { [Int](repeating: 0, count: $0.alternatives.count) }
    origins = parsed.terms.map { [WordOrigin](repeating: .typed, count: $0.alternatives.count) }
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
  /// `count` is the most completions in all (``MatchingOptions/maximumPrefixExpansions``
  /// by default); completions already there are not added twice, so a second call with a
  /// larger count widens the first.
  mutating func expandPrefix(
    of term: Int, in parsed: inout ParsedQuery, lexicon: TermLexicon, options: MatchingOptions,
    count: Int? = nil
  ) {
    let typed = parsed.terms[term].alternatives[0]
    guard let firstByte = typed.first else { return }
    let kind = TermLexicon.kind(firstByte: firstByte)
    let positions = lexicon.completions(
      of: typed, count: count ?? options.clampedPrefixExpansions,
      accepts: { position in
        let key = lexicon.keys.key(position)
        return key.count > typed.count && TermLexicon.kind(firstByte: key[0]) == kind
      }
    ).best
    for position in positions {
      let completion = Array(lexicon.keys.key(position))
      guard !parsed.terms[term].alternatives.contains(completion) else { continue }
      append(
        completion, to: term, in: &parsed, weight: options.clampedPrefixPenalty, typos: 0,
        origin: .completion)
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
      for (position, distance) in found {
        let bytes = Array(lexicon.keys.key(position))
        let weight =
          tolerance.factor(forDistance: distance) * (isPrefix ? options.clampedPrefixPenalty : 1)
        append(bytes, to: index, in: &parsed, weight: weight, typos: distance, origin: .correction)
        added = true
      }
    }
    return added
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
    _ bytes: [UInt8], to term: Int, in parsed: inout ParsedQuery, weight: Float, typos: Int,
    origin: WordOrigin
  ) {
    parsed.terms[term].alternatives.append(bytes)
    weights[term].append(weight)
    self.typos[term].append(typos)
    origins[term].append(origin)
  }

  // MARK: Other forms

  /// Adds each word's plural or singular forms (``WordForms/otherNumberForms(of:)``) and
  /// the word each pair of adjacent words makes together, where the index holds them.
  ///
  /// The partial last word of a search as you type and words in a quoted phrase keep their
  /// form: the first is matched by its completions, the second must be found as written.
  /// With `maximumDocuments`, a form is added only where the word and the form are found in
  /// at most that many documents together (for a join, each word and the joined word): a
  /// word with alternatives is searched as a union of lists, and for a frequent word that
  /// costs more than the single list it otherwise is, for little gain, since a frequent
  /// word finds plenty as typed.
  ///
  /// - Complexity: At most three lookups per word and one per pair, each in every segment's
  ///   term table (`documentFrequency`).
  mutating func addWordForms(
    to parsed: inout ParsedQuery, options: MatchingOptions, prefixTerm: Int?,
    maximumDocuments: Int, documentFrequency: ([UInt8]) -> Int
  ) {
    let inPhrase = Set(parsed.phrases.flatMap { $0.members.map(\.term) })
    func mayChange(_ index: Int) -> Bool {
      parsed.terms[index].kind == .word && index != prefixTerm && !inPhrase.contains(index)
    }
    // The typed words' frequencies, looked up once each and only when needed.
    var typedFrequencies: [Int: Int] = [:]
    func typedFrequency(_ index: Int) -> Int {
      if let known = typedFrequencies[index] { return known }
      let frequency = documentFrequency(parsed.terms[index].alternatives[0])
      typedFrequencies[index] = frequency
      return frequency
    }
    func fits(_ formFrequency: Int, with index: Int) -> Bool {
      formFrequency > 0 && formFrequency + typedFrequency(index) <= maximumDocuments
    }
    if options.foldsInflections {
      for index in parsed.terms.indices where mayChange(index) {
        for form in WordForms.otherNumberForms(of: parsed.terms[index].alternatives[0])
        where !parsed.terms[index].alternatives.contains(form)
          && fits(documentFrequency(form), with: index)
        {
          append(
            form, to: index, in: &parsed, weight: options.clampedInflectionPenalty, typos: 0,
            origin: .inflection)
        }
      }
    }
    guard options.breaksWords, parsed.terms.count >= 2 else { return }
    for index in parsed.terms.indices.dropLast() where mayChange(index) && mayChange(index + 1) {
      // Pieces of one split word are not joined back.
      guard parsed.terms[index].splitFrom == nil || parsed.terms[index + 1].splitFrom == nil
      else { continue }
      let joined = parsed.terms[index].alternatives[0] + parsed.terms[index + 1].alternatives[0]
      let joinedFrequency = documentFrequency(joined)
      guard fits(joinedFrequency, with: index) && fits(joinedFrequency, with: index + 1) else {
        continue
      }
      // Both words match the joined word: each takes half its weighed score, so that a
      // document holding it scores it once, not twice.
      for term in [index, index + 1] where !parsed.terms[term].alternatives.contains(joined) {
        append(
          joined, to: term, in: &parsed, weight: options.clampedWordBreakPenalty / 2, typos: 0,
          origin: .joined)
      }
    }
  }

  /// Splits each word the index does not hold, or holds in at most
  /// ``WordForms/rareWordCount`` documents, into the words of the index it was typed for,
  /// as `split` cuts it: `tomcruise` becomes the required words "tom" and "cruise". A word
  /// the index holds stays an alternative of every piece, so the documents that hold it
  /// (`#bohemianrhapsody`) still match. Runs before the query is expanded, on a query
  /// without phrases; the partial last word of a search as you type is left whole, and
  /// `prefixTerm` follows it to its new place.
  ///
  /// - Returns: Whether any word was split.
  static func splitUnknownWords(
    in parsed: inout ParsedQuery, prefixTerm: inout Int?,
    documentFrequency: ([UInt8]) -> Int, split: ([UInt8]) -> [[UInt8]]?
  ) -> Bool {
    guard parsed.phrases.isEmpty else { return false }
    var terms: [ParsedQuery.Term] = []
    var newPrefixTerm: Int?
    var didSplit = false
    for (index, term) in parsed.terms.enumerated() {
      let word = term.alternatives[0]
      if index == prefixTerm { newPrefixTerm = terms.count }
      guard term.kind == .word, index != prefixTerm, term.alternatives.count == 1,
        terms.count < QueryParser.maximumTerms, word.count >= 6
      else {
        terms.append(term)
        continue
      }
      let frequency = documentFrequency(word)
      guard frequency <= WordForms.rareWordCount, let pieces = split(word) else {
        terms.append(term)
        continue
      }
      didSplit = true
      for piece in pieces where !terms.contains(where: { $0.alternatives[0] == piece }) {
        terms.append(
          ParsedQuery.Term(
            alternatives: frequency > 0 ? [piece, word] : [piece], kind: .word,
            displayText: String(decoding: piece, as: UTF8.self), splitFrom: term.displayText))
      }
    }
    guard didSplit, terms.count <= QueryParser.maximumTerms else { return false }
    parsed.terms = terms
    prefixTerm = newPrefixTerm
    return true
  }
}
