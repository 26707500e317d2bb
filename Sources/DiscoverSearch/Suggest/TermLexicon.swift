import Foundation

/// The term dictionary in byte order, with each term's document frequency: the trie that
/// prefix completion, prefix search and typo correction walk.
///
/// The index's own dictionary is a hash table (``ByteStringTable``), which finds a whole
/// term in O(1) but cannot list the terms that start with `danc` or lie within one typo of
/// `dacne`. This sorted copy can; it is built on first use (``SuggestionCache``), because
/// most searches never need it and sorting a million terms takes a noticeable moment.
final class TermLexicon: Sendable {
  /// The terms in byte order.
  let keys: SortedKeys
  /// Each sorted term's document frequency over all types, with its range maximum.
  let frequencies: RangeMaximum
  /// The largest document frequency of words, of `#hashtags` and of `@mentions`, for
  /// putting them on one scale (``Suggestion`` ranking).
  let largestFrequencies: (word: UInt32, hashtag: UInt32, mention: UInt32)
  /// `log1p` of each of ``largestFrequencies``: the scale of a term's popularity.
  let largestLogarithms: (word: Double, hashtag: Double, mention: Double)
  /// The first characters of the terms, with their ranges: the root of the trie, whose
  /// thousands of children (every script's letters) a typo walk would otherwise find by
  /// galloping through the whole dictionary each time.
  let rootChildren: [(child: SortedKeys.Child, mask: ByteMask)]
  /// The `#hashtag` and `@mention` terms, and the characters that follow their marker: a
  /// typo walk for a tag starts there, so that the first letter after the marker is the
  /// one that counts twice (``TypoTolerance/countsFirstCharacterTypoTwice``).
  let markedTerms:
    [UInt8: (range: Range<Int>, children: [(child: SortedKeys.Child, mask: ByteMask)])]

  /// Sorts the terms of `snapshot`.
  ///
  /// - Complexity: O(t log t) for t terms, plus one pass over every type's term presence.
  convenience init(snapshot: IndexSnapshot) {
    let terms = snapshot.terms
    let termCount = terms.count
    var frequency = [UInt32](repeating: 0, count: termCount)
    for partition in snapshot.partitions {
      let postings = partition.postings
      var listIndex = 0
      for word in 0..<postings.termPresence.count {
        var bits = postings.termPresence[word]
        while bits != 0 {
          let term = word << 6 | bits.trailingZeroBitCount
          bits &= bits &- 1
          guard term < termCount, listIndex < postings.lists.count else { continue }
          frequency[term] &+= postings.lists[listIndex].documentFrequency
          listIndex += 1
        }
      }
    }
    var order = (0..<termCount).map { UInt32($0) }
    terms.arena.withUnsafeBufferPointer { arena in
      terms.starts.withUnsafeBufferPointer { starts in
        @inline(__always) func key(_ id: UInt32) -> UnsafeBufferPointer<UInt8> {
          let start = Int(starts[Int(id)])
          return UnsafeBufferPointer(
            rebasing: arena[start..<Int(starts[Int(id) + 1])])
        }
        order.sort { SortedKeys.compare(key($0), key($1)) < 0 }
      }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(terms.arena.count)
    var starts: [UInt32] = [0]
    starts.reserveCapacity(termCount + 1)
    var weights: [UInt32] = []
    weights.reserveCapacity(termCount)
    for id in order {
      terms.withBytes(of: id) { bytes.append(contentsOf: $0) }
      starts.append(UInt32(truncatingIfNeeded: bytes.count))
      weights.append(frequency[Int(id)])
    }
    self.init(keys: SortedKeys(bytes: Column(bytes), starts: Column(starts)), weights: weights)
  }

  /// The lexicon of several segments' terms: their sorted keys merged (a k-way merge, each
  /// step taking the smallest head), a term's frequencies summed over the segments.
  ///
  /// - Complexity: O(t · s) for t terms in all and s lexicons, plus the range-maximum tables.
  convenience init(merging lexicons: [TermLexicon]) {
    var weights: [UInt32] = []
    let keys = SortedKeys.merging(lexicons.map(\.keys)) { _, holders in
      let weight = holders.reduce(UInt64(0)) {
        $0 + UInt64(lexicons[$1.list].frequencies.weights[$1.position])
      }
      weights.append(UInt32(clamping: weight))
    }
    self.init(keys: keys, weights: weights)
  }

  /// The lexicon of terms already sorted, each with the number of documents holding it.
  ///
  /// - Precondition: `weights` has one weight per key.
  /// - Complexity: O(t) for t terms, plus the range-maximum tables.
  convenience init(keys: SortedKeys, weights: [UInt32]) {
    precondition(weights.count == keys.count, "a lexicon needs one weight per term")
    let frequencies = RangeMaximum(
      weights: weights, cachedRanges: keys.nodes(minimumSize: RangeMaximum.cachedNodeSize))
    let rootChildren = keys.children(of: 0..<keys.count, depth: 0).map {
      ($0, ByteMask(keys: $0.keys, in: keys))
    }
    let markedChildren = Self.markers.map { marker in
      keys.children(of: Self.range(of: marker, in: keys), depth: 1).map {
        ($0, ByteMask(keys: $0.keys, in: keys))
      }
    }
    self.init(
      keys: keys, frequencies: frequencies, rootChildren: rootChildren,
      markedChildren: markedChildren)
  }

  /// The lexicon from its parts as an index file keeps them (format 11): the children of
  /// the root and of each of ``markers`` (in that order) with their masks.
  ///
  /// - Precondition: `frequencies` has one weight per key.
  /// - Complexity: O(1) but for copying the children.
  init(
    keys: SortedKeys, frequencies: RangeMaximum,
    rootChildren: [(child: SortedKeys.Child, mask: ByteMask)],
    markedChildren: [[(child: SortedKeys.Child, mask: ByteMask)]]
  ) {
    precondition(frequencies.weights.count == keys.count, "a lexicon needs one weight per term")
    precondition(markedChildren.count == Self.markers.count, "children for each marker")
    self.keys = keys
    self.frequencies = frequencies
    self.rootChildren = rootChildren
    var marked:
      [UInt8: (range: Range<Int>, children: [(child: SortedKeys.Child, mask: ByteMask)])] = [:]
    for (marker, children) in zip(Self.markers, markedChildren) {
      marked[marker] = (Self.range(of: marker, in: keys), children)
    }
    markedTerms = marked
    // Hashtags and mentions are the ranges of their markers ('#' sorts before '@'), words
    // the rest: a range-maximum query each.
    func largest(in ranges: [Range<Int>]) -> UInt32 {
      ranges.filter { !$0.isEmpty }.reduce(1) {
        max($0, frequencies.weights[frequencies.argmax($1)])
      }
    }
    let hashtags = marked[UInt8(ascii: "#")]!.range
    let mentions = marked[UInt8(ascii: "@")]!.range
    let words = [
      0..<hashtags.lowerBound, hashtags.upperBound..<mentions.lowerBound,
      mentions.upperBound..<keys.count,
    ]
    largestFrequencies = (largest(in: words), largest(in: [hashtags]), largest(in: [mentions]))
    largestLogarithms = (
      log1p(Double(largestFrequencies.word)), log1p(Double(largestFrequencies.hashtag)),
      log1p(Double(largestFrequencies.mention))
    )
  }

  /// The first bytes of terms that name something other than words, whose children a typo
  /// walk starts from: `#` hashtags and `@` mentions, in byte order.
  static let markers: [UInt8] = [UInt8(ascii: "#"), UInt8(ascii: "@")]

  /// The terms that start with `marker`.
  static func range(of marker: UInt8, in keys: SortedKeys) -> Range<Int> {
    [marker].withUnsafeBufferPointer { keys.range(withPrefix: $0) }
  }

  /// What a term names, by its first byte: `#` a hashtag, `@` a user, anything else a word.
  static func kind(firstByte: UInt8) -> Suggestion.Kind {
    switch firstByte {
    case UInt8(ascii: "#"): .hashtag
    case UInt8(ascii: "@"): .user
    default: .query
    }
  }

  /// The `log1p` of the largest frequency of terms of `kind`: the scale of their popularity.
  func largestLogarithm(of kind: Suggestion.Kind) -> Double {
    switch kind {
    case .hashtag: largestLogarithms.hashtag
    case .user: largestLogarithms.mention
    default: largestLogarithms.word
    }
  }

  /// The number of documents that contain `term` (0 if the dictionary does not have it).
  func frequency(of term: [UInt8]) -> UInt32 {
    position(of: term).map { frequencies.weights[$0] } ?? 0
  }

  /// The kind of the term at `position`.
  @inline(__always)
  func kind(at position: Int) -> Suggestion.Kind {
    Self.kind(firstByte: keys.key(position).first ?? 0)
  }

  var byteCount: Int {
    keys.byteCount + frequencies.byteCount
      + (rootChildren.count + markedTerms.values.reduce(0) { $0 + $1.children.count })
      * (MemoryLayout<SortedKeys.Child>.stride + 16)
  }

  /// The position of `term` in byte order, if the dictionary has it.
  func position(of term: [UInt8]) -> Int? {
    term.withUnsafeBufferPointer { keys.index(of: $0) }
  }

  /// The most frequent terms that start with `prefix`, most frequent first, and the
  /// position of `prefix` itself if it is a term (found on the way).
  ///
  /// - Complexity: O(log t + k log k) for k results.
  func completions(of prefix: [UInt8], count: Int, accepts: (Int) -> Bool = { _ in true })
    -> (exact: Int?, best: [Int])
  {
    let range = prefix.withUnsafeBufferPointer { keys.range(withPrefix: $0) }
    // A key equal to the prefix sorts first among the keys that start with it.
    let exact = range.first.flatMap { keys.key($0).count == prefix.count ? $0 : nil }
    return (exact, frequencies.best(in: range, count: count, accepts: accepts))
  }

  /// The terms within the typo budget of `word`: each position once, with its fewest
  /// edits, fewest edits first and then most frequent; at most `count`.
  ///
  /// - Parameters:
  ///   - word: A folded query word.
  ///   - maximumDistance: The most edits.
  ///   - isPrefix: Whether `word` is a partly typed word, so that any term starting with a
  ///     close string matches.
  ///   - count: How many terms at most.
  /// - Complexity: See ``LevenshteinAutomaton/matches(in:range:depth:)``.
  func corrections(
    of word: [UInt8], maximumDistance: Int, isPrefix: Bool, count: Int,
    tolerance: TypoTolerance, accepts: (Int) -> Bool = { _ in true }
  ) -> [(position: Int, distance: Int)] {
    guard maximumDistance > 0, count > 0 else { return [] }
    var scalars = word.withUnsafeBufferPointer { UTF8Scalar.scalars(of: $0) }
    var range = 0..<keys.count
    var depth = 0
    var children = rootChildren
    if let marker = word.first, scalars.count > 1, let tags = markedTerms[marker] {
      // A tag: the marker matches exactly, the walk starts after it.
      scalars.removeFirst()
      range = tags.range
      depth = 1
      children = tags.children
    }
    let matches = keys.typoMatches(
      of: scalars, budget: maximumDistance, isPrefix: isPrefix, tolerance: tolerance,
      range: range, depth: depth, children: children)
    return Self.best(of: matches, count: count, maxima: frequencies, accepts: accepts)
  }

  /// The most frequent term of the same kind one typo from `word` and more frequent than
  /// it, if `word` may have a typo at all (long enough, not a number, found in fewer than
  /// ``TypoTolerance/frequentWordCount`` documents, and fewer than `rarerThan`).
  ///
  /// One typo at most: a two-typo walk can cost a millisecond, too much for a keystroke or
  /// for a corrected query offered beside results. Used for the earlier words of a
  /// completion and for the "did you mean" of a search with few hits.
  func oneTypoCorrection(
    of word: [UInt8], isPrefix: Bool = false, tolerance: TypoTolerance, rarerThan: Int = .max
  ) -> (position: Int, distance: Int)? {
    guard let first = word.first else { return nil }
    let budget = min(
      tolerance.budget(for: word.withUnsafeBufferPointer { UTF8Scalar.scalars(of: $0) }), 1)
    guard budget > 0 else { return nil }
    let kind = Self.kind(firstByte: first)
    let typedFrequency = frequency(of: word)
    // A word this frequent was meant as typed: no walk to look for a better one.
    guard Int(typedFrequency) < min(tolerance.frequentWordCount, rarerThan) else { return nil }
    return corrections(
      of: word, maximumDistance: budget, isPrefix: isPrefix, count: 1, tolerance: tolerance,
      accepts: { self.kind(at: $0) == kind && self.frequencies.weights[$0] > typedFrequency }
    ).first
  }

  /// The best positions of fuzzy matches: fewer edits first, then higher weight.
  static func best(
    of matches: [LevenshteinAutomaton.Match], count: Int, maxima: RangeMaximum,
    accepts: (Int) -> Bool
  ) -> [(position: Int, distance: Int)] {
    var result: [(position: Int, distance: Int)] = []
    var seen: Set<Int> = []
    let distances = Set(matches.map(\.distance)).sorted()
    for distance in distances where result.count < count {
      let ranges = matches.filter { $0.distance == distance }.map(\.keys)
      for position in maxima.best(
        in: ranges, count: count - result.count + seen.count,
        accepts: { !seen.contains($0) && accepts($0) })
      where result.count < count && seen.insert(position).inserted {
        result.append((position, distance))
      }
    }
    return result
  }
}
