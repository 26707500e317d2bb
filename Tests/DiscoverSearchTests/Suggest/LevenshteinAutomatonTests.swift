import Testing

@testable import DiscoverSearch

/// The restricted Damerau–Levenshtein distance by the full dynamic-programming table: the
/// slow reference the automaton must agree with (the benchmark's reference uses it too).
func referenceDistance(_ lhs: [UInt32], _ rhs: [UInt32]) -> Int {
  var table: [Int] = []
  return IndexSnapshot.editDistance(lhs, rhs, table: &table)
}

private func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

private func keys(_ words: [String]) -> SortedKeys {
  SortedKeys.make(sorting: Array(Set(words)).map { Array($0.utf8) }).keys
}

/// The words of `keys` the automaton accepts, with their distances.
private func accepted(
  _ word: String, distance: Int, prefix: Bool, in keys: SortedKeys, usesRootTable: Bool = false
) -> [String: Int] {
  let automaton = LevenshteinAutomaton(
    word: scalars(word), maximumDistance: distance, matchesPrefixes: prefix)
  var result: [String: Int] = [:]
  let children = usesRootTable ? keys.children(of: 0..<keys.count, depth: 0) : nil
  for match in automaton.matches(in: keys, range: 0..<keys.count, children: children) {
    for index in match.keys {
      let key = keys.string(index)
      result[key] = min(result[key] ?? Int.max, match.distance)
    }
  }
  return result
}

@Suite("Suggest: Levenshtein automaton")
struct LevenshteinAutomatonTests {
  static let dictionary = [
    "dance", "dancer", "dancing", "danced", "dace", "lance", "chance", "glance", "dane",
    "challenge", "challenger", "change", "chalet", "cafe", "café", "caffe", "naïve", "danse",
    "adnce", "dnace", "dan", "d", "dancechallenge", "trend", "trending", "tender",
  ]

  /// Typo tables: one edit of each kind, anywhere in the word, including the first letter.
  @Test(arguments: [
    ("dance", "dance", 0),  // exact
    ("dnace", "dance", 1),  // transposition
    ("adnce", "dance", 1),  // transposition of the first two letters
    ("dancr", "dance", 1),  // substitution at the end
    ("xance", "dance", 1),  // substitution of the first letter
    ("dace", "dance", 1),  // deletion
    ("ddance", "dance", 1),  // insertion
    ("ance", "dance", 1),  // deletion of the first letter
    ("chalenge", "challenge", 1),
    ("chalelnge", "challenge", 1),
    ("trnding", "trending", 1),
  ])
  func oneEditFindsTheWord(typed: String, expected: String, distance: Int) {
    let found = accepted(typed, distance: 1, prefix: false, in: keys(Self.dictionary))
    #expect(found[expected] == distance, "\(typed) → \(expected): \(found)")
  }

  @Test func theReferenceDistanceCountsEachEditOnce() {
    #expect(referenceDistance(scalars("ab"), scalars("ba")) == 1)
    #expect(referenceDistance(scalars("kitten"), scalars("sitting")) == 3)
    #expect(referenceDistance(scalars(""), scalars("abc")) == 3)
    #expect(referenceDistance(scalars("café"), scalars("cafe")) == 1)
  }

  @Test func twoEditsNeedABudgetOfTwo() {
    let keys = keys(Self.dictionary)
    // Two transpositions away from "challenge".
    #expect(referenceDistance(scalars("chlalnege"), scalars("challenge")) == 2)
    #expect(accepted("chlalnege", distance: 1, prefix: false, in: keys)["challenge"] == nil)
    #expect(accepted("chlalnege", distance: 2, prefix: false, in: keys)["challenge"] == 2)
  }

  @Test func prefixModeMatchesCompletionsOfAMistypedPrefix() {
    let keys = keys(Self.dictionary)
    let found = accepted("chnace", distance: 1, prefix: true, in: keys)
    #expect(found["chance"] == 1)
    let partial = accepted("dnac", distance: 1, prefix: true, in: keys)
    for word in ["dance", "dancer", "dancing", "dancechallenge"] {
      #expect(partial[word] == 1, "\(word): \(partial)")
    }
    // Exact prefixes have no typo.
    #expect(accepted("danc", distance: 1, prefix: true, in: keys)["dancing"] == 0)
  }

  /// Every word the automaton returns, and only those, is within the distance, with the
  /// exact distance: checked against the dynamic-programming table over random words.
  /// Words of up to ten characters of one to four UTF-8 bytes, and budgets up to three, so
  /// that the band of columns a step computes is narrower than the word.
  @Test func agreesWithTheReferenceOnRandomWords() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("abcdeéダ🔥")
    func randomWord() -> String {
      String(
        (0..<Int.random(in: 1...10, using: &generator)).map { _ in
          alphabet.randomElement(using: &generator)!
        })
    }
    let words = Array(Set((0..<400).map { _ in randomWord() }))
    let sorted = keys(words)
    for _ in 0..<60 {
      let typed = randomWord()
      for budget in 1...3 {
        let found = accepted(typed, distance: budget, prefix: false, in: sorted)
        // The precomputed root children give the same walk.
        #expect(
          accepted(typed, distance: budget, prefix: false, in: sorted, usesRootTable: true)
            == found)
        for word in words {
          let distance = referenceDistance(scalars(typed), scalars(word))
          #expect(found[word] == (distance <= budget ? distance : nil), "\(typed) vs \(word)")
        }
        let prefixes = accepted(typed, distance: budget, prefix: true, in: sorted)
        for word in words {
          let characters = scalars(word)
          let best = (0...characters.count).map {
            referenceDistance(scalars(typed), Array(characters[0..<$0]))
          }.min()!
          #expect(prefixes[word] == (best <= budget ? best : nil), "prefix \(typed) vs \(word)")
        }
      }
    }
  }

  @Test func budgetsFollowMeilisearchDefaults() {
    let tolerance = TypoTolerance()
    #expect(tolerance.budget(for: scalars("danc")) == 0)
    #expect(tolerance.budget(for: scalars("dance")) == 1)
    #expect(tolerance.budget(for: scalars("challeng")) == 1)
    #expect(tolerance.budget(for: scalars("challenge")) == 2)
    #expect(tolerance.budget(for: scalars("#dance")) == 1)
    #expect(tolerance.budget(for: scalars("#danc")) == 0)
    #expect(tolerance.budget(for: scalars("2024123")) == 0)
    #expect(tolerance.budget(for: scalars("1,000.5")) == 0)
    #expect(TypoTolerance.disabled.budget(for: scalars("challenge")) == 0)
  }

  /// The walk's own UTF-8 encoder agrees with the standard library on every scalar.
  @Test func scalarEncodingMatchesTheStandardLibrary() {
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let (packed, length) = UTF8Scalar.encode(value)
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: packed >> (8 * UInt32($0))) }
      #expect(bytes == Array(String(scalar).utf8), "U+\(String(value, radix: 16))")
      if bytes != Array(String(scalar).utf8) { return }
    }
  }
}
