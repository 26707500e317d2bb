/// A Levenshtein automaton for one word: accepts the strings within a few edits of it, where
/// an edit is an insertion, a deletion, a substitution or a transposition of two adjacent
/// characters (Damerau, "A technique for computer detection and correction of spelling
/// errors", CACM 1964; the restricted "optimal string alignment" form, in which a
/// transposed pair is not edited again).
///
/// Schulz and Mihov ("Fast string correction with Levenshtein automata", IJDAR 2002) show
/// that a deterministic automaton for a word and a bound n has states that only depend on
/// the 2n + 1 diagonals around the current position, and that walking it in step with a
/// trie of the dictionary finds every word within n edits while visiting only the trie
/// nodes that can still lead to one. Here a state is the bounded row of the
/// dynamic-programming table (Wagner and Fischer, JACM 1974) for the candidate prefix read
/// so far, with values capped at n + 1: equal rows are equal states, a row whose smallest
/// value exceeds n is the dead state, and stepping costs O(n) (see `step`). The trie
/// is the sorted key array of ``SortedKeys``, walked character by character.
///
/// In prefix mode the automaton accepts any string that *starts* with a string within n
/// edits of the word, so a partly typed word (`dnace cha`) finds its completions.
struct LevenshteinAutomaton: Sendable {
  /// The word's characters (Unicode scalar values).
  let word: [UInt32]
  /// The most edits accepted.
  let maximumDistance: Int
  /// Whether strings that extend an accepted string are accepted too.
  let matchesPrefixes: Bool

  init(word: [UInt32], maximumDistance: Int, matchesPrefixes: Bool) {
    self.word = word
    self.maximumDistance = max(0, min(maximumDistance, 3))
    self.matchesPrefixes = matchesPrefixes
  }

  /// Keys a walk visits at most: bounds the cost of a hostile or unlucky word.
  static let nodeBudget = 50_000

  /// A match: keys that are within `distance` edits (in prefix mode, keys that start with
  /// a string within `distance` edits).
  struct Match: Sendable, Hashable {
    var keys: Range<Int>
    var distance: Int
  }

  /// The keys of `range` accepted by the automaton, each with its fewest edits.
  ///
  /// - Parameters:
  ///   - keys: The sorted keys.
  ///   - range: A range of keys sharing their first `depth` bytes (a trie node).
  ///   - depth: How many bytes of each key to skip: the part already matched.
  ///   - children: The node's children, when known in advance (``SortedKeys/children(of:depth:)``
  ///     of the whole dictionary, computed once), instead of finding them by galloping.
  /// - Returns: Matches; in prefix mode the ranges of a match with fewer edits may sit
  ///   inside a range with more.
  /// - Complexity: O(v · n) for v visited trie nodes and a distance of n (a step computes
  ///   the 2n + 1 columns around the diagonal), plus a binary search per child followed. Once a node has spent the whole budget, only the
  ///   few characters that keep it alive are looked up (a character of the word, or the one
  ///   a transposition needs) rather than every child, so v depends on the distance and
  ///   the word, not on the number of keys; it is capped at ``nodeBudget``.
  func matches(
    in keys: SortedKeys, range: Range<Int>, depth: Int = 0,
    children: [SortedKeys.Child]? = nil
  ) -> [Match] {
    guard !range.isEmpty else { return [] }
    var walk = AutomatonWalk(automaton: self, keys: keys)
    walk.run(range: range, depth: depth, children: children)
    return walk.matches
  }

}

/// One walk of a ``LevenshteinAutomaton`` over a range of ``SortedKeys``, depth first.
private struct AutomatonWalk {
  let word: [UInt32]
  let keys: SortedKeys
  let matchesPrefixes: Bool
  /// Columns of a row: the word's length + 1.
  let width: Int
  let limit: UInt8
  /// Values above `limit` are stored as `cap`.
  let cap: UInt8
  /// Rows that fit: no accepted key is longer than the word plus the distance.
  let levels: Int
  /// Row `level` at `rows[level * width ..< (level + 1) * width]`.
  var rows: [UInt8]
  /// The character read to reach each level.
  var characters: [UInt32]
  var matches: [LevenshteinAutomaton.Match] = []
  var visited = 0
  /// Characters that keep a spent state alive, ``liveStride`` per level (recursion reuses
  /// the slots of deeper levels only).
  var live: [UInt32]
  let liveStride: Int

  init(automaton: LevenshteinAutomaton, keys: SortedKeys) {
    word = automaton.word
    self.keys = keys
    matchesPrefixes = automaton.matchesPrefixes
    width = word.count + 1
    limit = UInt8(automaton.maximumDistance)
    cap = limit + 1
    levels = word.count + automaton.maximumDistance + 2
    rows = [UInt8](repeating: cap, count: levels * width)
    characters = [UInt32](repeating: 0, count: levels)
    // A diagonal at the limit per column, and a transposition per column.
    liveStride = 2 * width
    live = [UInt32](repeating: 0, count: levels * liveStride)
    for column in 0..<width { rows[column] = UInt8(min(column, Int(cap))) }
  }

  mutating func run(range: Range<Int>, depth: Int, children: [SortedKeys.Child]?) {
    var reported = cap
    if matchesPrefixes && rows[width - 1] <= limit {
      // A word no longer than the distance: every key matches; deeper ones may match better.
      matches.append(.init(keys: range, distance: Int(rows[width - 1])))
      reported = rows[width - 1]
      guard reported > 0 else { return }
    }
    explore(range: range, depth: depth, level: 0, reported: reported, children: children)
  }

  /// Visits the children of the node `range` (keys sharing `depth` bytes) in state `level`.
  private mutating func explore(
    range: Range<Int>, depth: Int, level: Int, reported: UInt8,
    children: [SortedKeys.Child]? = nil
  ) {
    guard visited < LevenshteinAutomaton.nodeBudget else { return }
    visited += 1
    var start = range.lowerBound
    let last = level * width + width - 1
    if keys.key(start).count <= depth {
      // The node's own key: it has no more characters.
      if !matchesPrefixes && rows[last] <= limit {
        matches.append(.init(keys: start..<(start + 1), distance: Int(rows[last])))
      }
      start += 1
    }
    guard start < range.upperBound, level + 1 < levels else { return }
    if let children {
      for child in children where child.keys.lowerBound >= start {
        visit(
          child.keys, character: child.scalar, length: Int(child.length), depth: depth,
          level: level, reported: reported)
      }
      return
    }
    var smallest = cap
    for column in 0..<width { smallest = min(smallest, rows[level * width + column]) }
    if level > 0 && smallest >= limit {
      // The budget is spent: only a character that continues the word on a diagonal at the
      // limit, or completes a transposition, keeps the state alive.
      // Collected without repeats in this level's slots of ``live``.
      let first = level * liveStride
      var liveCount = 0
      func collect(_ character: UInt32) {
        for index in first..<(first + liveCount) where live[index] == character { return }
        live[first + liveCount] = character
        liveCount += 1
      }
      for column in 1..<width where rows[level * width + column - 1] == limit {
        collect(word[column - 1])
      }
      if width > 2 {
        for column in 2..<width
        where word[column - 1] == characters[level]
          && rows[(level - 1) * width + column - 2] < limit
        {
          collect(word[column - 2])
        }
      }
      for index in first..<(first + liveCount) {
        let character = live[index]
        var (packed, length) = UTF8Scalar.encode(character)
        let child = withUnsafeBytes(of: &packed) {
          keys.childRange(
            in: start..<range.upperBound, depth: depth,
            unit: UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[0..<length]))
        }
        if !child.isEmpty {
          visit(
            child, character: character, length: length, depth: depth, level: level,
            reported: reported)
        }
      }
      return
    }
    var index = start
    while index < range.upperBound && visited < LevenshteinAutomaton.nodeBudget {
      let key = keys.key(index)
      let (character, length) = UTF8Scalar.decode(key, at: depth)
      let childEnd = keys.endOfChild(
        from: index, upTo: range.upperBound, depth: depth,
        unit: UnsafeBufferPointer(rebasing: key[depth..<(depth + length)]))
      visit(
        index..<childEnd, character: character, length: length, depth: depth, level: level,
        reported: reported)
      index = childEnd
    }
  }

  /// Steps from state `level` by `character` into the child `keys` and explores it.
  private mutating func visit(
    _ child: Range<Int>, character: UInt32, length: Int, depth: Int, level: Int,
    reported: UInt8
  ) {
    let smallest = step(level: level, character: character)
    guard smallest <= limit else { return }
    characters[level + 1] = character
    let distance = rows[(level + 1) * width + width - 1]
    var reported = reported
    if matchesPrefixes {
      if distance < reported {
        matches.append(.init(keys: child, distance: Int(distance)))
        reported = distance
      }
      // Deeper nodes can only matter if they may match with fewer edits.
      guard smallest < reported else { return }
    }
    explore(range: child, depth: depth + length, level: level + 1, reported: reported)
  }

  /// Computes row `level + 1` from rows `level` and `level - 1` after reading `character`,
  /// and returns its smallest value.
  ///
  /// Only the columns within `limit` of the diagonal are computed (Ukkonen, "Algorithms for
  /// approximate string matching", Information and Control 1985): an entry at row i and
  /// column j is at least |i − j|, so every other one is the cap, which it keeps from the
  /// initial rows (a level's band never moves). A word of 19 characters with two typos
  /// then costs 5 columns a step instead of 19.
  private mutating func step(level: Int, character: UInt32) -> UInt8 {
    let previous = level * width
    let current = previous + width
    let cap = self.cap
    let previousCharacter = characters[level]
    let band = max(1, level + 1 - Int(limit))..<min(width, level + 2 + Int(limit))
    return rows.withUnsafeMutableBufferPointer { rows in
      rows[current] = UInt8(min(level + 1, Int(cap)))
      var smallest = rows[current]
      for column in band {
        let wordCharacter = word[column - 1]
        let substitution = rows[previous + column - 1] &+ (wordCharacter == character ? 0 : 1)
        var value = min(rows[previous + column] &+ 1, rows[current + column - 1] &+ 1, substitution)
        if column >= 2 && level >= 1 && wordCharacter == previousCharacter
          && word[column - 2] == character
        {
          value = min(value, rows[previous - width + column - 2] &+ 1)
        }
        value = min(value, cap)
        rows[current + column] = value
        smallest = min(smallest, value)
      }
      return smallest
    }
  }
}

extension SortedKeys {
  /// The keys of a trie node within a word's typo budget, with their typos.
  ///
  /// A different first character counts as two typos when the tolerance says so
  /// (Meilisearch's rule): with a budget of one, the first character must be right, and with
  /// two, keys starting with another character may have one more edit. Besides ranking such
  /// matches lower, this keeps a walk out of the thousands of first characters of every
  /// script, where a lookup of one word would spend most of its time. Children whose
  /// subtree lacks too many of the word's characters (``ByteMask``) are skipped: a key
  /// within d edits of a word of n characters contains at least n − d of them.
  ///
  /// - Parameters:
  ///   - word: The typed word's characters.
  ///   - budget: The most typos.
  ///   - isPrefix: Whether keys that extend a match match too.
  ///   - range: The node: keys sharing their first `depth` bytes.
  ///   - children: The node's children, with a byte mask each, when precomputed.
  func typoMatches(
    of word: [UInt32], budget: Int, isPrefix: Bool, tolerance: TypoTolerance,
    range: Range<Int>, depth: Int, children: [(child: Child, mask: ByteMask)]?
  ) -> [LevenshteinAutomaton.Match] {
    guard budget > 0, let firstCharacter = word.first, !range.isEmpty else { return [] }
    let children =
      children
      ?? self.children(of: range, depth: depth).map { ($0, ByteMask.full) }
    let wordMask = ByteMask(scalars: word)
    func walk(_ selected: [Child], budget: Int) -> [LevenshteinAutomaton.Match] {
      guard budget >= 0, !selected.isEmpty else { return [] }
      let automaton = LevenshteinAutomaton(
        word: word, maximumDistance: budget, matchesPrefixes: isPrefix)
      return automaton.matches(in: self, range: range, depth: depth, children: selected)
    }
    func plausible(_ mask: ByteMask, budget: Int) -> Bool {
      mask.countPresent(of: word, wordMask: wordMask) >= word.count - budget
    }
    guard tolerance.countsFirstCharacterTypoTwice else {
      return walk(
        children.filter { plausible($0.mask, budget: budget) }.map(\.child), budget: budget)
    }
    var matches = walk(
      children.filter { $0.child.scalar == firstCharacter }.map(\.child), budget: budget)
    if budget >= 2 {
      let others = children.filter {
        $0.child.scalar != firstCharacter && plausible($0.mask, budget: budget - 1)
      }
      matches += walk(others.map(\.child), budget: budget - 1).map {
        LevenshteinAutomaton.Match(keys: $0.keys, distance: $0.distance + 1)
      }
    }
    return matches
  }
}

/// Which bytes occur in a set of keys: ASCII bytes one bit each, every byte from 0x80 up
/// one shared bit. A cheap filter for typo walks (see ``SortedKeys/typoMatches``).
struct ByteMask: Sendable, Hashable {
  var low: UInt64 = 0
  var high: UInt64 = 0

  /// Every byte present: filters nothing.
  static let full = ByteMask(low: .max, high: .max)

  init(low: UInt64 = 0, high: UInt64 = 0) {
    self.low = low
    self.high = high
  }

  /// The mask of a word's characters.
  init(scalars: [UInt32]) {
    for scalar in scalars { insert(byte: scalar < 0x80 ? UInt8(scalar) : 0x80) }
  }

  /// The mask of the bytes of `keys`.
  init(keys: Range<Int>, in sorted: SortedKeys) {
    guard !keys.isEmpty else { return }
    let start = Int(sorted.starts[keys.lowerBound])
    let end = Int(sorted.starts[keys.upperBound])
    for offset in start..<end { insert(byte: sorted.bytes[offset]) }
  }

  @inline(__always)
  mutating func insert(byte: UInt8) {
    // Byte 0 never occurs in a key, so it stands for every byte from 0x80.
    let bit = byte >= 0x80 ? 0 : Int(byte)
    if bit < 64 { low |= 1 << UInt64(bit) } else { high |= 1 << UInt64(bit - 64) }
  }

  @inline(__always)
  func contains(byte: UInt8) -> Bool {
    let bit = byte >= 0x80 ? 0 : Int(byte)
    return bit < 64 ? low & (1 << UInt64(bit)) != 0 : high & (1 << UInt64(bit - 64)) != 0
  }

  /// How many of `word`'s characters (counted at every position) occur in the mask.
  func countPresent(of word: [UInt32], wordMask: ByteMask) -> Int {
    if low & wordMask.low == wordMask.low && high & wordMask.high == wordMask.high {
      return word.count
    }
    return word.reduce(0) { $0 + (contains(byte: $1 < 0x80 ? UInt8($1) : 0x80) ? 1 : 0) }
  }
}

/// How many typos a query word may have, after Meilisearch's defaults.
public struct TypoTolerance: Sendable, Hashable {
  /// Whether typos are corrected at all.
  public var isEnabled: Bool
  /// Words of at least this many characters may have one typo (Meilisearch: 5).
  public var minimumLengthForOneTypo: Int
  /// Words of at least this many characters may have two typos (Meilisearch: 9).
  public var minimumLengthForTwoTypos: Int
  /// Corrections join a search's results when the words as typed find fewer hits than
  /// this (Typesense's `typo_tokens_threshold`, whose default is also 1): by default only
  /// a search that finds nothing matches words it was not typed with.
  public var minimumResults: Int
  /// A search that finds fewer hits than this offers a corrected query
  /// (``SearchResponse/didYouMean``), whether or not corrections join its results. With
  /// no hit, the corrections are those the search tried (up to two typos a word). With a
  /// few (the default, 3, covers one or two), a word is corrected only if it alone is found
  /// in fewer documents than this, so that it can be why there are few, and only within
  /// one typo (one short walk of the dictionary per such word); 1 offers a corrected query
  /// only when nothing matches.
  public var didYouMeanThreshold: Int
  /// The factor on the score of a term matched with one typo; two typos apply it twice.
  public var penalty: Float
  /// A word found in at least this many documents is taken as meant and never corrected:
  /// a word that common is rarely a typo of a more common one, and its corrections would
  /// only widen a query (and cost a walk of the dictionary).
  public var frequentWordCount: Int
  /// Whether a wrong first character counts as two typos, as in Meilisearch: a word of 5
  /// to 8 characters must then start right, and one of 9 or more may have a wrong first
  /// character and nothing else wrong. People rarely mistype the first letter, and this
  /// keeps a correction from wandering through every script's first characters.
  public var countsFirstCharacterTypoTwice: Bool

  /// Creates typo settings; the defaults are those documented on each property.
  public init(
    isEnabled: Bool = true, minimumLengthForOneTypo: Int = 5, minimumLengthForTwoTypos: Int = 9,
    minimumResults: Int = 1, didYouMeanThreshold: Int = 3, penalty: Float = 0.5,
    countsFirstCharacterTypoTwice: Bool = true, frequentWordCount: Int = 100
  ) {
    self.frequentWordCount = frequentWordCount
    self.countsFirstCharacterTypoTwice = countsFirstCharacterTypoTwice
    self.isEnabled = isEnabled
    self.minimumLengthForOneTypo = minimumLengthForOneTypo
    self.minimumLengthForTwoTypos = minimumLengthForTwoTypos
    self.minimumResults = minimumResults
    self.didYouMeanThreshold = didYouMeanThreshold
    self.penalty = penalty
  }

  /// No typo correction.
  public static let disabled = TypoTolerance(isEnabled: false)

  /// The typos allowed in a word of `scalars`: none for numbers (a mistyped number is
  /// another number) or when disabled.
  func budget(for scalars: [UInt32]) -> Int {
    guard isEnabled, !scalars.isEmpty else { return 0 }
    // Digits, and the separators numbers are written with.
    let isNumber = scalars.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2C }
    if isNumber { return 0 }
    // Markers of hashtags and mentions are not letters the user mistyped.
    let length = scalars.count - (scalars[0] == 0x23 || scalars[0] == 0x40 ? 1 : 0)
    if length >= max(1, minimumLengthForTwoTypos) { return 2 }
    if length >= max(1, minimumLengthForOneTypo) { return 1 }
    return 0
  }

  /// The score factor of a match with `distance` typos.
  func factor(forDistance distance: Int) -> Float {
    let penalty = penalty.isFinite ? min(max(penalty, 0), 1) : 0.5
    var factor: Float = 1
    for _ in 0..<distance { factor *= penalty }
    return factor
  }
}
