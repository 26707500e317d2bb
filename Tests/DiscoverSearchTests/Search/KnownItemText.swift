import DiscoverSearch

/// SplitMix64 (Steele, Lea and Flood, "Fast Splittable Pseudorandom Number Generators",
/// OOPSLA 2014): a 64-bit state, one add and three xor-shift-multiply steps per number.
///
/// The known-item cases draw only through ``index(below:)`` and ``shuffle(_:)``, written
/// here rather than with the standard library's `random(in:using:)` and
/// `shuffled(using:)`, whose ways of spending a generator's numbers may change between
/// toolchains: the same seed then gives the same cases on every Swift version.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15  // 2^64 divided by the golden ratio
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<count`; the modulo bias is below 2^-40 for the counts used here.
  mutating func index(below count: Int) -> Int {
    precondition(count > 0, "index(below:) needs a positive count")
    return Int(next() % UInt64(count))
  }

  /// One of `elements`, or `nil` when there are none.
  mutating func element<T>(of elements: [T]) -> T? {
    elements.isEmpty ? nil : elements[index(below: elements.count)]
  }

  /// Fisher–Yates (Durstenfeld's in-place form, CACM 1964).
  mutating func shuffle<T>(_ elements: inout [T]) {
    guard elements.count > 1 else { return }
    for last in stride(from: elements.count - 1, to: 0, by: -1) {
      elements.swapAt(last, index(below: last + 1))
    }
  }
}

/// The text rules of the known-item cases: how a title splits into words, which words are
/// stop words, and the misspellings and number flips people type.
enum KnownItemText {
  /// A title's words in runs: whitespace-separated chunks with the punctuation around
  /// them trimmed (`(Official` → `Official`). A chunk with punctuation inside (`Don't`,
  /// `1-0`) ends a run, so that no picked window straddles a word typed in some other way;
  /// a chunk of punctuation only (`-`, `|`) is skipped.
  static func runs(of title: String) -> [[String]] {
    var runs: [[String]] = []
    var current: [String] = []
    for chunk in title.split(whereSeparator: \.isWhitespace) {
      let word = trimmed(chunk)
      if word.isEmpty { continue }
      if word.allSatisfy(isWordCharacter) {
        current.append(word)
      } else {
        if !current.isEmpty { runs.append(current) }
        current = []
      }
    }
    if !current.isEmpty { runs.append(current) }
    return runs
  }

  /// `chunk` without the characters other than letters and digits at either end.
  static func trimmed(_ chunk: Substring) -> String {
    guard let first = chunk.firstIndex(where: isWordCharacter),
      let last = chunk.lastIndex(where: isWordCharacter)
    else { return "" }
    return String(chunk[first...last])
  }

  static func isWordCharacter(_ character: Character) -> Bool {
    character.isLetter || character.isNumber
  }

  /// Whether every letter of `text` is Latin (Basic Latin to Latin Extended-B, and Latin
  /// Extended Additional for Vietnamese), and it has a letter.
  static func isLatin(_ text: String) -> Bool {
    var hasLetter = false
    for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
      guard scalar.value < 0x250 || (0x1E00..<0x1F00).contains(scalar.value) else {
        return false
      }
      hasLetter = true
    }
    return hasLetter
  }

  /// Whether `character` is Chinese, Japanese kana or Korean Hangul.
  static func isCJK(_ character: Character) -> Bool {
    guard let value = character.unicodeScalars.first?.value else { return false }
    return (0x3040..<0x3100).contains(value)  // Hiragana, Katakana
      || (0x3400..<0x4DC0).contains(value)  // CJK Extension A
      || (0x4E00..<0xA000).contains(value)  // CJK Unified Ideographs
      || (0xAC00..<0xD7B0).contains(value)  // Hangul syllables
  }

  static func isASCIILetters(_ word: String) -> Bool {
    !word.isEmpty && word.utf8.allSatisfy { (0x61...0x7A).contains($0) }
  }

  /// Function words of the corpus's main Latin-script languages (English, Spanish,
  /// Portuguese, French, German, Indonesian, Tagalog): a pick of these alone finds nothing
  /// in particular.
  static let stopWords: Set<String> = [
    "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "for", "with", "by",
    "from", "as", "is", "are", "was", "were", "be", "been", "it", "its", "this", "that",
    "these", "those", "i", "me", "my", "you", "your", "he", "she", "his", "her", "we", "our",
    "they", "their", "them", "what", "who", "how", "why", "when", "where", "not", "no", "so",
    "if", "do", "does", "did", "has", "have", "had", "will", "can", "just", "all", "up",
    "out", "about", "into", "over", "than", "then", "there", "here", "el", "la", "los",
    "las", "de", "del", "y", "en", "con", "por", "para", "un", "una", "que", "se", "su",
    "al", "es", "o", "e", "da", "do", "dos", "das", "em", "na", "um", "uma", "le", "les",
    "des", "du", "et", "au", "pour", "sur", "est", "der", "die", "das", "und", "ist", "mit",
    "den", "von", "zu", "di", "dan", "yang", "ang", "ng", "sa", "mga",
  ]

  static func isStopWord(_ word: String) -> Bool {
    stopWords.contains(word.lowercased())
  }

  /// Whether a window of title words is worth typing: with a word of three letters or
  /// more that is not a stop word, and neither starting nor ending with a stop word (people
  /// type `spill the tea`, not `spill the`).
  static func isWorthTyping(_ words: [String]) -> Bool {
    guard let first = words.first, let last = words.last,
      !isStopWord(first), !isStopWord(last)
    else { return false }
    return hasContentWord(words)
  }

  /// Whether `words` has a word of three letters or more that is not a stop word.
  static func hasContentWord(_ words: [String]) -> Bool {
    words.contains { !isStopWord($0) && $0.filter(\.isLetter).count >= 3 }
  }

  /// English function words, the mark of an English title.
  static let englishFunctionWords: Set<String> = [
    "the", "a", "an", "and", "of", "to", "in", "on", "at", "for", "with", "my", "your", "you",
    "is", "i", "it", "this", "that", "how", "what", "who", "why", "when", "from", "by",
  ]

  /// Whether `title` looks English: letters all ASCII, and an English function word.
  static func isEnglishLooking(_ title: String) -> Bool {
    guard !title.unicodeScalars.contains(where: { !$0.isASCII && $0.properties.isAlphabetic })
    else { return false }
    return runs(of: title).joined().contains { englishFunctionWords.contains($0.lowercased()) }
  }

  /// The letters next to each letter on a QWERTY keyboard, rows and the keys above and
  /// below in the staggered layout.
  static let keyboardNeighbours: [UInt8: [UInt8]] = {
    let table: [String: String] = [
      "q": "wa", "w": "qeas", "e": "wrsd", "r": "etdf", "t": "ryfg", "y": "tugh",
      "u": "yihj", "i": "uojk", "o": "ipkl", "p": "ol", "a": "qwsz", "s": "adwezx",
      "d": "sferxc", "f": "dgrtcv", "g": "fhtyvb", "h": "gjyubn", "j": "hkuinm",
      "k": "jliom", "l": "kop", "z": "asx", "x": "zcsd", "c": "xvdf", "v": "cbfg",
      "b": "vngh", "n": "bmhj", "m": "njk",
    ]
    var neighbours: [UInt8: [UInt8]] = [:]
    for (key, value) in table { neighbours[key.utf8.first!] = Array(value.utf8) }
    return neighbours
  }()

  /// The four typos of the as-you-type cases, the common single-edit errors of
  /// Damerau ("A technique for computer detection and correction of spelling errors",
  /// CACM 1964), with a keyboard neighbour for the substitution.
  enum Typo: String, CaseIterable, Sendable {
    case swap, neighbour, deletion, doubling
  }

  /// `word` (ASCII lowercase letters) with one typo, never at its first letter, which
  /// people seldom get wrong; `nil` when the typo leaves the word unchanged.
  static func misspelled(_ word: String, _ typo: Typo, using generator: inout SplitMix64)
    -> String?
  {
    var letters = Array(word.utf8)
    guard letters.count >= 3 else { return nil }
    switch typo {
    case .swap:
      let position = 1 + generator.index(below: letters.count - 2)
      guard letters[position] != letters[position + 1] else { return nil }
      letters.swapAt(position, position + 1)
    case .neighbour:
      let position = 1 + generator.index(below: letters.count - 1)
      guard let choices = keyboardNeighbours[letters[position]],
        let replacement = generator.element(of: choices)
      else { return nil }
      letters[position] = replacement
    case .deletion:
      letters.remove(at: 1 + generator.index(below: letters.count - 1))
    case .doubling:
      let position = 1 + generator.index(below: letters.count - 1)
      letters.insert(letters[position], at: position)
    }
    let typed = String(decoding: letters, as: UTF8.self)
    return typed == word ? nil : typed
  }

  /// Words ending in `s` that are not plurals, left alone.
  static let notPlurals: Set<String> = [
    "news", "always", "perhaps", "various", "series", "species", "chaos", "less", "plus",
    "thus", "yes", "bonus", "lens", "christmas", "texas", "paris", "vegas", "kansas",
  ]

  /// `word` (ASCII lowercase) flipped between singular and plural: `ies` ↔ consonant + `y`,
  /// a trailing `s` dropped or added; `nil` for words these rules do not fit (`-ss`, `-us`,
  /// `-is`, `-x`, `-ch`, …, and ``notPlurals``).
  static func numberFlipped(_ word: String) -> String? {
    guard word.count >= 4, isASCIILetters(word), !notPlurals.contains(word) else { return nil }
    let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
    if word.hasSuffix("ies") && word.count >= 5 { return word.dropLast(3) + "y" }
    if word.hasSuffix("s") {
      if word.hasSuffix("ss") || word.hasSuffix("us") || word.hasSuffix("is") { return nil }
      return String(word.dropLast())
    }
    if word.hasSuffix("y"), !vowels.contains(word.dropLast().last!) {
      return word.dropLast() + "ies"
    }
    for ending in ["x", "z", "ch", "sh"] where word.hasSuffix(ending) { return nil }
    return word + "s"
  }
}
