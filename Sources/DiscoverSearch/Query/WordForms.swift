import Foundation

/// Other forms of a query word that people mean when they type it: its plural or singular
/// (`dogs` for "dog"), its pieces when words were typed without a space (`tomcruise` for
/// "Tom Cruise"), and, for two adjacent words, the word they make together (`tik tok` for
/// #tiktok). Every form is checked against the index's dictionaries before it is searched.
enum WordForms {
  // MARK: Plural and singular

  /// The forms of `word` in the other grammatical number, most likely first, by the
  /// S-stemmer's rules and the first step of Porter2, run in both directions; empty unless
  /// `word` is at least three letters, all of them Latin.
  ///
  /// Plural to singular: `-sses` → `-ss` (Porter2 step 1a); `-ies` → `-y` when at least
  /// two letters precede it (Harman's S-stemmer); `-es` after s, x, z, ch or sh is dropped
  /// (`boxes`, `matches`), and `-es` also loses only its `s` (`horses`, Harman's `-es` →
  /// `-e`); a final `s` is dropped unless it follows `s` or `u`, and only when a vowel comes
  /// before the letter it follows (Porter2: `gaps` → `gap`, but `gas`, `this`, `virus` and
  /// `class` stay). Singular to plural, the regular English rules: a consonant then `y`
  /// gives `-ies`; s, x, z, ch and sh take `-es`; any other word takes `-s`.
  ///
  /// Sources: D. Harman, "How effective is suffixing?", JASIS 42(1), 1991 (the S-stemmer);
  /// M. Porter, the English (Porter2) stemmer of the Snowball project, step 1a. Both were
  /// made for English; the final-`s` rule also folds the regular `-s` plurals of Spanish,
  /// Portuguese, French and Italian words ending in a vowel (`amigos`, `películas`), which
  /// is as far as other languages go here (their `-es` plurals, `canciones`, would need a
  /// language's own rules). Forms the index does not hold are dropped by the caller, so a
  /// rule that does not fit finds nothing.
  static func otherNumberForms(of word: [UInt8]) -> [[UInt8]] {
    guard word.count >= 3, isLatinWord(word) else { return [] }
    var forms: [[UInt8]] = []
    func add(_ form: [UInt8]) {
      if form.count >= 2 && form != word && !forms.contains(form) { forms.append(form) }
    }
    if word.hasSuffix("ss") {
      // Singular: `class`, `boss`.
      add(word + Array("es".utf8))
    } else if word.last == UInt8(ascii: "s") {
      let stem = word.dropLast()
      if word.hasSuffix("sses") {
        add(Array(word.dropLast(2)))
      } else if word.hasSuffix("ies") && word.count >= 5 {
        add(Array(word.dropLast(3)) + [UInt8(ascii: "y")])
      } else if word.hasSuffix("es") && Self.endsInSibilant(word.dropLast(2)) {
        add(Array(word.dropLast(2)))
        add(Array(stem))
      } else if !stem.hasSuffix("s") && !stem.hasSuffix("u")
        && stem.dropLast().contains(where: Self.isVowel)
      {
        add(Array(stem))
      }
    } else if word.last == UInt8(ascii: "y"), let before = word.dropLast().last,
      !Self.isVowel(before)
    {
      add(Array(word.dropLast()) + Array("ies".utf8))
    } else if Self.endsInSibilant(word[...]) {
      add(word + Array("es".utf8))
    } else {
      add(word + [UInt8(ascii: "s")])
    }
    return forms
  }

  /// Whether `word` ends in s, x, z, ch or sh, after which the English plural is `-es`.
  private static func endsInSibilant(_ word: ArraySlice<UInt8>) -> Bool {
    guard let last = word.last else { return false }
    if last == UInt8(ascii: "s") || last == UInt8(ascii: "x") || last == UInt8(ascii: "z") {
      return true
    }
    return last == UInt8(ascii: "h")
      && word.dropLast().last.map {
        $0 == UInt8(ascii: "c") || $0 == UInt8(ascii: "s")
      } == true
  }

  /// Whether `byte` is an ASCII vowel (`y` counts, as in Porter2).
  private static func isVowel(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a"), UInt8(ascii: "e"), UInt8(ascii: "i"), UInt8(ascii: "o"),
      UInt8(ascii: "u"), UInt8(ascii: "y"):
      true
    default: false
    }
  }

  /// Whether every character of `word` (case-folded UTF-8) is a lowercase Latin letter:
  /// ASCII a–z, or a letter of Latin-1 Supplement or Latin Extended-A or -B (U+00DF to
  /// U+024F, but not ÷). Names in other scripts, numbers and mixed tokens never fold.
  static func isLatinWord(_ word: [UInt8]) -> Bool {
    var index = 0
    while index < word.count {
      let byte = word[index]
      if byte < 0x80 {
        guard byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") else { return false }
        index += 1
        continue
      }
      // Two-byte sequences C3 9F (ß) to C9 8F (ɏ) cover U+00DF...U+024F.
      guard index + 1 < word.count, (0xC3...0xC9).contains(byte) else { return false }
      let scalar = (UInt32(byte & 0x1F) << 6) | UInt32(word[index + 1] & 0x3F)
      guard scalar >= 0xDF && scalar <= 0x24F && scalar != 0xF7 else { return false }
      index += 2
    }
    return true
  }

  /// Forms are searched beside a query's words only where a word and its form are found
  /// in at most this many documents together
  /// (``QueryExpansion/addWordForms(to:options:prefixTerm:maximumDocuments:documentFrequency:)``):
  /// a word that frequent finds plenty as typed, and its union with a form would cost more
  /// than its single list.
  static let maximumDocumentsAsTyped = 2_000

  // MARK: Words typed together

  /// A word found in at most this many documents may be words typed together: it is
  /// searched as its pieces too (`bohemianrhapsody`, a tag of one video, also finds the
  /// titles with "Bohemian Rhapsody").
  static let rareWordCount = 2

  /// The most probable way to cut `word` into two or three words of the index, or `nil`
  /// when there is none.
  ///
  /// Word segmentation by a unigram language model, as in P. Norvig, "Natural Language
  /// Corpus Data", in *Beautiful Data* (O'Reilly, 2009): a cut is worth the product of its
  /// pieces' probabilities, each piece's probability its document frequency over
  /// `documentCount`, and dynamic programming over the cut points finds the best. Here
  /// the whole word is one the index does not hold (or rare), so a cut into known words is
  /// taken; pieces must be at least `minimumPiece` characters, and the word is cut at
  /// character boundaries only.
  ///
  /// - Complexity: O(*n*²) dictionary lookups for a word of *n* characters (at most 32
  ///   characters are tried).
  static func bestSplit(
    of word: [UInt8], minimumPiece: Int = 2, maximumPieces: Int = 3, documentCount: Int,
    frequency: ([UInt8]) -> UInt32
  ) -> [[UInt8]]? {
    // Character starts, and the end.
    var bounds: [Int] = []
    for (offset, byte) in word.enumerated() where byte & 0xC0 != 0x80 { bounds.append(offset) }
    bounds.append(word.count)
    let characters = bounds.count - 1
    guard characters >= 2 * minimumPiece, characters <= 32, maximumPieces >= 2 else {
      return nil
    }
    let total = Double(max(documentCount, 1))
    // best[p][i]: the best log probability of the first i characters cut into p pieces.
    let none = -Double.infinity
    var best = [[Double]](
      repeating: [Double](repeating: none, count: characters + 1), count: maximumPieces + 1)
    var cut = [[Int]](
      repeating: [Int](repeating: -1, count: characters + 1), count: maximumPieces + 1)
    best[0][0] = 0
    for end in minimumPiece...characters {
      for start in 0...(end - minimumPiece) {
        let count = frequency(Array(word[bounds[start]..<bounds[end]]))
        guard count >= 1 else { continue }
        let logProbability = log(Double(count) / total)
        for pieces in 1...maximumPieces where best[pieces - 1][start] > none {
          let score = best[pieces - 1][start] + logProbability
          if score > best[pieces][end] {
            best[pieces][end] = score
            cut[pieces][end] = start
          }
        }
      }
    }
    guard
      let pieces = (2...maximumPieces).max(by: { best[$0][characters] < best[$1][characters] }),
      best[pieces][characters] > none
    else { return nil }
    var result: [[UInt8]] = []
    var end = characters
    for count in stride(from: pieces, to: 0, by: -1) {
      let start = cut[count][end]
      result.append(Array(word[bounds[start]..<bounds[end]]))
      end = start
    }
    return result.reversed()
  }
}

extension Array where Element == UInt8 {
  /// Whether the bytes end with `suffix`'s UTF-8.
  fileprivate func hasSuffix(_ suffix: String) -> Bool {
    let tail = Array(suffix.utf8)
    return count >= tail.count && self[(count - tail.count)...].elementsEqual(tail)
  }
}

extension ArraySlice where Element == UInt8 {
  /// Whether the bytes end with `suffix`'s UTF-8.
  fileprivate func hasSuffix(_ suffix: String) -> Bool {
    let tail = Array(suffix.utf8)
    return count >= tail.count && self[(endIndex - tail.count)...].elementsEqual(tail)
  }
}
