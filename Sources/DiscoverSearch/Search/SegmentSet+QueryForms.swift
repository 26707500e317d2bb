extension SegmentSet {
  /// The documents of every type that hold `word`, deleted ones included.
  ///
  /// - Complexity: One hash lookup per segment and a list lookup per type.
  func documentFrequency(of word: [UInt8]) -> Int {
    segments.reduce(0) { $0 + $1.documentFrequency(of: word) }
  }

  /// Splits the words of `parsed` that no segment holds (or few documents do) into words
  /// the index holds, where they were typed without a space: cut by
  /// ``WordForms/bestSplit(of:minimumPiece:maximumPieces:documentCount:frequency:)`` into
  /// pieces of three characters or more, unless the word is one typo from a word at least
  /// as frequent as the cut's rarest piece (`beest` is "beast" mistyped, not "bee st").
  ///
  /// The term frequencies come from the lexicon, which is built only if some word is
  /// rare.
  ///
  /// - Returns: Whether any word was split.
  func splitUnknownWords(
    in parsed: inout ParsedQuery, prefixTerm: inout Int?, tolerance: TypoTolerance
  ) -> Bool {
    QueryExpansion.splitUnknownWords(
      in: &parsed, prefixTerm: &prefixTerm, documentFrequency: { documentFrequency(of: $0) },
      split: Self.splitter(
        lexicon: { self.lexicon() }, documentCount: documentCount, tolerance: tolerance))
  }

  /// How an unknown word is cut (see ``splitUnknownWords(in:prefixTerm:tolerance:)``), with
  /// the lexicon fetched on first use.
  static func splitter(
    lexicon: @escaping () -> TermLexicon, documentCount: Int, tolerance: TypoTolerance
  ) -> ([UInt8]) -> [[UInt8]]? {
    var fetched: TermLexicon?
    return { word in
      let words = fetched ?? lexicon()
      fetched = words
      guard
        let pieces = WordForms.bestSplit(
          of: word, minimumPiece: 3, documentCount: documentCount,
          frequency: { words.frequency(of: $0) })
      else { return nil }
      let rarest = pieces.map { words.frequency(of: $0) }.min() ?? 0
      if let correction = words.oneTypoCorrection(of: word, tolerance: tolerance),
        words.frequencies.weights[correction.position] >= rarest
      {
        return nil
      }
      return pieces
    }
  }

  /// The query as the top hit matched it: each corrected word replaced by the correction
  /// the hit holds, split words with their spaces; `nil` when the hit lacks some word or
  /// nothing changed.
  ///
  /// This is the "did you mean" of a corrected search: it names a query that finds at least
  /// this hit with every word, and the correction that ranked it first, not merely the most
  /// frequent word within the typo budget.
  func queryAsMatched(_ hit: Hit, type: SearchResultType, context: ExplainContext) throws
    -> String?
  {
    let explanation = try explain(hit, type: type, context: context, termsOnly: true)
    var changed = false
    var words: [String] = []
    for term in context.parsed.terms {
      guard let match = explanation.terms.first(where: { $0.term == term.displayText }) else {
        return nil
      }
      if match.origin == .correction {
        words.append(match.matchedForm)
        changed = true
      } else {
        words.append(term.displayText)
        // A piece matched as the whole word typed is no change.
        changed = changed || (term.splitFrom != nil && match.matchedForm == match.term)
      }
    }
    return changed ? words.joined(separator: " ") : nil
  }

  /// Whether `text`, searched with its words exactly as typed, finds a document with every
  /// word: the check a one-typo "did you mean" passes before it is offered.
  func findsEveryWord(
    _ text: String, in tab: SearchTab, ranking: RankingOptions, budget: SearchBudget,
    workspace: SearchWorkspace
  ) throws -> Bool {
    let response = try search(
      text, in: tab, limit: 1, after: nil, ranking: ranking, matching: .exact, budget: budget,
      workspace: workspace)
    return response.totalHits > 0 && response.matchedAllTerms
  }
}

extension IndexSnapshot {
  /// The documents of every type that hold `word`, deleted ones included.
  func documentFrequency(of word: [UInt8]) -> Int {
    guard let id = word.withUnsafeBytes({ terms.find($0) }) else { return 0 }
    return partitions.reduce(0) {
      $0 + ($1.postings.list(for: TermID(id)).map { Int($0.documentFrequency) } ?? 0)
    }
  }
}
