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
/// value exceeds n is the dead state, and stepping costs O(length of the word). The trie
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
  /// - Returns: Matches; in prefix mode the ranges of a match with fewer edits may sit
  ///   inside a range with more.
  /// - Complexity: O(v · m) for v visited trie nodes and a word of m characters; v depends
  ///   on the distance and the alphabet, not on the number of keys, and is capped at
  ///   ``nodeBudget``.
  func matches(in keys: SortedKeys, range: Range<Int>, depth: Int = 0) -> [Match] {
    let width = word.count + 1
    let limit = UInt8(maximumDistance)
    let cap = limit + 1
    let levels = word.count + maximumDistance + 2
    var rows = [UInt8](repeating: cap, count: levels * width)
    for column in 0..<width { rows[column] = UInt8(min(column, Int(cap))) }
    var characters = [UInt32](repeating: 0, count: levels)
    struct Frame {
      var end: Int
      var depth: Int
      var next: Int
      /// In prefix mode, the edits of the best match reported above this node.
      var reported: UInt8
    }
    var matches: [Match] = []
    var rootReported = cap
    if matchesPrefixes && rows[width - 1] <= limit {
      // A word no longer than the distance: every key matches; deeper ones may match better.
      matches.append(Match(keys: range, distance: Int(rows[width - 1])))
      rootReported = rows[width - 1]
      guard rootReported > 0 else { return matches }
    }
    var stack = [
      Frame(end: range.upperBound, depth: depth, next: range.lowerBound, reported: rootReported)
    ]
    var visited = 0
    rows.withUnsafeMutableBufferPointer { rows in
      while var frame = stack.last, visited < Self.nodeBudget {
        let level = stack.count - 1
        guard frame.next < frame.end else {
          stack.removeLast()
          continue
        }
        visited += 1
        let index = frame.next
        let key = keys.key(index)
        if key.count <= frame.depth {
          // The node's own key: it has no more characters.
          if !matchesPrefixes && rows[level * width + width - 1] <= limit {
            matches.append(
              Match(keys: index..<(index + 1), distance: Int(rows[level * width + width - 1])))
          }
          stack[level].next = index + 1
          continue
        }
        let (character, length) = UTF8Scalar.decode(key, at: frame.depth)
        let unit = UnsafeBufferPointer(rebasing: key[frame.depth..<(frame.depth + length)])
        let childEnd = keys.endOfChild(from: index, upTo: frame.end, depth: frame.depth, unit: unit)
        frame.next = childEnd
        stack[level].next = childEnd
        guard level + 1 < levels else { continue }
        let smallest = step(
          rows: rows, level: level, width: width, character: character, characters: characters,
          cap: cap)
        guard smallest <= limit else { continue }
        characters[level + 1] = character
        let distance = rows[(level + 1) * width + width - 1]
        if matchesPrefixes {
          if distance < frame.reported {
            matches.append(Match(keys: index..<childEnd, distance: Int(distance)))
          }
          let reported = min(distance, frame.reported)
          // Deeper nodes can only matter if they may match with fewer edits.
          guard smallest < reported else { continue }
          stack.append(
            Frame(end: childEnd, depth: frame.depth + length, next: index, reported: reported))
        } else {
          stack.append(
            Frame(end: childEnd, depth: frame.depth + length, next: index, reported: cap))
        }
      }
    }
    return matches
  }

  /// Computes row `level + 1` from rows `level` and `level - 1` after reading `character`,
  /// and returns its smallest value.
  @inline(__always)
  private func step(
    rows: UnsafeMutableBufferPointer<UInt8>, level: Int, width: Int, character: UInt32,
    characters: [UInt32], cap: UInt8
  ) -> UInt8 {
    let previous = level * width
    let current = previous + width
    let candidateLength = level + 1
    rows[current] = UInt8(min(candidateLength, Int(cap)))
    var smallest = rows[current]
    let previousCharacter = characters[level]
    for column in 1..<width {
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
  /// (``SearchResponse/didYouMean``), whether or not corrections join its results.
  public var didYouMeanThreshold: Int
  /// The factor on the score of a term matched with one typo; two typos apply it twice.
  public var penalty: Float

  /// Creates typo settings; the defaults are those documented on each property.
  public init(
    isEnabled: Bool = true, minimumLengthForOneTypo: Int = 5, minimumLengthForTwoTypos: Int = 9,
    minimumResults: Int = 1, didYouMeanThreshold: Int = 3, penalty: Float = 0.5
  ) {
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
