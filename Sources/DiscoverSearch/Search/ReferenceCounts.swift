extension DiscoverIndex {
  /// Match counts per type computed the slow, obvious way, for checking the fast paths.
  ///
  /// Every posting list of the query's terms is decoded whole, without skip tables,
  /// bitmaps or score bounds, and intersected as sorted sets (two-pointer merges), with the
  /// same fallback rules as
  /// ``search(_:in:limit:after:ranking:matching:explain:)`` under default matching. Typo
  /// corrections are found by computing the edit distance to every term of the dictionary,
  /// not by the automaton. The benchmark compares these counts with the search's facets so
  /// a broken engine cannot look fast.
  ///
  /// - Returns: The counts and whether every term matched, or `nil` for queries with
  ///   phrases (whose positions this check does not read) and where a list is damaged.
  /// - Complexity: O(p) in the postings of the query's terms.
  package func referenceCounts(for query: String) -> (facets: FacetCounts, matchedAllTerms: Bool)? {
    snapshot.referenceCounts(for: query)
  }
}

extension IndexSnapshot {
  func referenceCounts(for query: String) -> (facets: FacetCounts, matchedAllTerms: Bool)? {
    var parsed = QueryParser.parse(QuerySanitizer.sanitize(query))
    guard parsed.phrases.isEmpty else { return nil }
    if parsed.isEmpty { return (FacetCounts(), true) }
    // The words' other forms, by the search's own rules: this reference checks what is
    // retrieved and counted for them, not how they are chosen.
    let options = MatchingOptions()
    let lastWord = QueryExpansion.prefixTerm(of: parsed, typed: query)
    var noPrefix: Int?
    _ = QueryExpansion.splitUnknownWords(
      in: &parsed, prefixTerm: &noPrefix, documentFrequency: { documentFrequency(of: $0) },
      split: SegmentSet.splitter(
        lexicon: { self.suggestionCache.lexicon(of: self) },
        documentCount: partitions.reduce(0) { $0 + $1.documentCount },
        tolerance: options.typoTolerance))
    var forms = QueryExpansion(parsed: parsed)
    forms.addWordForms(
      to: &parsed, options: options, prefixTerm: nil,
      maximumDocuments: WordForms.maximumDocumentsAsTyped,
      documentFrequency: { documentFrequency(of: $0) })
    // Per term and type, the matching documents, sorted and without repeats.
    var sets: [[[UInt32]]] = []
    var known: [Bool] = []
    func collect() throws {
      sets = []
      known = []
      for term in parsed.terms {
        var perType: [[UInt32]] = []
        var isKnown = false
        for partition in partitions {
          var documents: [UInt32] = []
          for alternative in term.alternatives {
            guard let id = alternative.withUnsafeBytes({ terms.find($0) }),
              let list = try partition.postings.checkedListIndex(for: TermID(id))
            else { continue }
            isKnown = true
            documents = Self.union(documents, Self.decodeWhole(partition.postings, list: list))
          }
          perType.append(documents)
        }
        sets.append(perType)
        known.append(isKnown)
      }
    }
    // A damaged list cannot be counted.
    guard (try? collect()) != nil else { return nil }
    func intersect(_ selected: [Int]) -> FacetCounts {
      var facets = FacetCounts()
      for type in SearchResultType.allCases {
        var result = sets[selected[0]][type.index]
        for term in selected.dropFirst() {
          result = Self.intersection(result, sets[term][type.index])
        }
        facets[type] = result.count
      }
      return facets
    }
    func unite(_ selected: [Int]) -> FacetCounts {
      var facets = FacetCounts()
      for type in SearchResultType.allCases {
        var result: [UInt32] = []
        for term in selected { result = Self.union(result, sets[term][type.index]) }
        facets[type] = result.count
      }
      return facets
    }
    func total(_ facets: FacetCounts) -> Int {
      facets.videos + facets.users + facets.hashtags + facets.sounds
    }
    let all = Array(parsed.terms.indices)
    var facets = intersect(all)
    // Whether each word is found as typed, before corrections.
    let isKnown = known
    let tolerance = TypoTolerance()
    if total(facets) < tolerance.minimumResults && addReferenceCorrections(to: &parsed) {
      let exact = facets
      guard (try? collect()) != nil else { return nil }
      facets = intersect(all)
      if total(facets) <= total(exact) { facets = exact }
    }
    if total(facets) == 0 && lastWord != nil, let last = parsed.terms.indices.last,
      [.word, .hashtag, .mention].contains(parsed.terms[last].kind)
    {
      // The last word as a prefix, as the search tries it before giving up on some words.
      var widened = parsed
      forms.expandPrefix(
        of: last, in: &widened, lexicon: suggestionCache.lexicon(of: self), options: options)
      let narrow = (parsed, sets, known)
      parsed = widened
      guard (try? collect()) != nil else { return nil }
      facets = intersect(all)
      if total(facets) == 0 { (parsed, sets, known) = narrow }
    }
    if total(facets) > 0 || all.count < 2 { return (facets, true) }
    let present = all.filter { known[$0] }
    if present.isEmpty { return (facets, true) }
    if present.count < all.count {
      facets = intersect(present)
      if total(facets) > 0 { return (facets, false) }
    }
    let asTyped = present.filter { isKnown[$0] }
    if !asTyped.isEmpty && asTyped.count < present.count {
      facets = intersect(asTyped)
      if total(facets) > 0 { return (facets, false) }
    }
    if present.count >= 2 { facets = unite(present) }
    // Without any hit, no result matches only some words.
    return (facets, total(facets) == 0)
  }

  /// Adds to each term the closest terms of the dictionary within its typo budget, found
  /// by comparing it with every term: the fewest edits, then the most documents, then byte
  /// order, at most ``MatchingOptions/maximumCorrections`` of them (as
  /// ``QueryExpansion/addCorrections(to:lexicon:options:prefixTerm:)`` under the defaults).
  ///
  /// - Returns: Whether any was added.
  private func addReferenceCorrections(to parsed: inout ParsedQuery) -> Bool {
    let options = MatchingOptions()
    func frequency(_ id: Int) -> Int {
      partitions.reduce(0) { sum, partition in
        sum
          + (partition.postings.list(for: TermID(UInt32(id))).map { Int($0.documentFrequency) }
            ?? 0)
      }
    }
    var added = false
    for index in parsed.terms.indices {
      let term = parsed.terms[index]
      guard term.kind == .word || term.kind == .hashtag || term.kind == .mention,
        let typed = term.alternatives.first, let marker = typed.first
      else { continue }
      let typedScalars = typed.withUnsafeBufferPointer { UTF8Scalar.scalars(of: $0) }
      let budget = options.typoTolerance.budget(for: typedScalars)
      guard budget > 0 else { continue }
      // A word this frequent was meant as typed (TypoTolerance.frequentWordCount).
      if let id = typed.withUnsafeBytes({ terms.find($0) }),
        frequency(Int(id)) >= options.typoTolerance.frequentWordCount
      {
        continue
      }
      let kind = TermLexicon.kind(firstByte: marker)
      var found: [(distance: Int, frequency: Int, bytes: [UInt8])] = []
      var table: [Int] = []
      terms.arena.withUnsafeBufferPointer { arena in
        terms.starts.withUnsafeBufferPointer { starts in
          var scalars: [UInt32] = []
          for id in 0..<terms.count {
            let start = Int(starts[id])
            let end = Int(starts[id + 1])
            // A scalar is 1 to 4 bytes, so a term more than 4 · budget bytes longer or
            // shorter than the word differs by more than `budget` scalars in length.
            guard abs(end - start - typed.count) <= 4 * budget, end > start,
              TermLexicon.kind(firstByte: arena[start]) == kind
            else { continue }
            let key = UnsafeBufferPointer(rebasing: arena[start..<end])
            scalars.removeAll(keepingCapacity: true)
            UTF8Scalar.append(scalarsOf: key, to: &scalars)
            guard abs(scalars.count - typedScalars.count) <= budget else { continue }
            var distance = Self.editDistance(typedScalars, scalars, table: &table)
            // A wrong first character counts twice (countsFirstCharacterTypoTwice); for a
            // tag, the first character after its marker (which both share).
            let letter = kind == .query ? 0 : 1
            if options.typoTolerance.countsFirstCharacterTypoTwice
              && scalars.dropFirst(letter).first != typedScalars.dropFirst(letter).first
            {
              distance += 1
            }
            guard distance <= budget else { continue }
            let bytes = Array(key)
            guard !term.alternatives.contains(bytes) else { continue }
            found.append((distance, frequency(id), bytes))
          }
        }
      }
      found.sort {
        if $0.distance != $1.distance { return $0.distance < $1.distance }
        if $0.frequency != $1.frequency { return $0.frequency > $1.frequency }
        return $0.bytes.lexicographicallyPrecedes($1.bytes)
      }
      for correction in found.prefix(options.clampedCorrections) {
        parsed.terms[index].alternatives.append(correction.bytes)
        added = true
      }
    }
    return added
  }

  /// The restricted Damerau–Levenshtein distance, by the full table (Wagner and Fischer
  /// 1974, with Damerau's transpositions), in `table` (reused between calls).
  static func editDistance(_ lhs: [UInt32], _ rhs: [UInt32], table: inout [Int]) -> Int {
    guard !lhs.isEmpty else { return rhs.count }
    guard !rhs.isEmpty else { return lhs.count }
    let width = rhs.count + 1
    let size = (lhs.count + 1) * width
    if table.count < size { table = [Int](repeating: 0, count: size) }
    for row in 0...lhs.count { table[row * width] = row }
    for column in 0...rhs.count { table[column] = column }
    for row in 1...lhs.count {
      for column in 1...rhs.count {
        let cost = lhs[row - 1] == rhs[column - 1] ? 0 : 1
        var value = min(
          table[(row - 1) * width + column] + 1, table[row * width + column - 1] + 1,
          table[(row - 1) * width + column - 1] + cost)
        if row > 1 && column > 1 && lhs[row - 1] == rhs[column - 2]
          && lhs[row - 2] == rhs[column - 1]
        {
          value = min(value, table[(row - 2) * width + column - 2] + 1)
        }
        table[row * width + column] = value
      }
    }
    return table[lhs.count * width + rhs.count]
  }

  /// The documents in `lhs` or `rhs`, both sorted without repeats, merged in one pass.
  ///
  /// Sorted arrays rather than hash sets: a stop word of ten million documents is millions
  /// of ids, which a hash set takes seconds to build and a merge reads once.
  static func union(_ lhs: [UInt32], _ rhs: [UInt32]) -> [UInt32] {
    if lhs.isEmpty { return rhs }
    if rhs.isEmpty { return lhs }
    var result: [UInt32] = []
    result.reserveCapacity(lhs.count + rhs.count)
    var left = 0
    var right = 0
    while left < lhs.count && right < rhs.count {
      if lhs[left] < rhs[right] {
        result.append(lhs[left])
        left += 1
      } else if rhs[right] < lhs[left] {
        result.append(rhs[right])
        right += 1
      } else {
        result.append(lhs[left])
        left += 1
        right += 1
      }
    }
    result.append(contentsOf: lhs[left...])
    result.append(contentsOf: rhs[right...])
    return result
  }

  /// The documents in both `lhs` and `rhs`, both sorted without repeats.
  static func intersection(_ lhs: [UInt32], _ rhs: [UInt32]) -> [UInt32] {
    var result: [UInt32] = []
    var left = 0
    var right = 0
    while left < lhs.count && right < rhs.count {
      if lhs[left] < rhs[right] {
        left += 1
      } else if rhs[right] < lhs[left] {
        right += 1
      } else {
        result.append(lhs[left])
        left += 1
        right += 1
      }
    }
    return result
  }

  /// Every document of a list, read block by block from the bytes alone.
  private static func decodeWhole(_ postings: TypePostings, list index: Int) -> [UInt32] {
    let list = postings.lists[index]
    var result: [UInt32] = []
    var offset = Int(list.dataOffset)
    var previous: Int64 = -1
    for block in 0..<Int(list.blockCount) {
      if list.blockCount > 1 {
        offset = Int(postings.blockDataOffsets[Int(list.firstBlock) + block])
      }
      let header = postings.bytes.base + offset
      let count = Int(header[0]) + 1
      let width = Int(header[1])
      let data = UnsafeRawPointer(header + 2 + postings.fieldCount)
      for slot in 0..<count {
        previous += Int64(BitPacking.value(at: slot, from: data, width: width)) + 1
        result.append(UInt32(previous))
      }
    }
    return result
  }
}
