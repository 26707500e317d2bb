/// Text surgery for making queries out of observed titles: splitting into words, telling
/// scripts apart, cutting prefixes, making typos and nonsense.
///
/// Works on `Character`s and scalar properties: this runs a few thousand times per query mix,
/// not per document, so clarity wins over speed.
enum QueryText {
  /// The words of `text`: split at whitespace, with punctuation and math, currency or modifier
  /// symbols stripped from both ends (`"(Official"` becomes `Official`, `#dance` becomes
  /// `dance`). Pure punctuation and URLs are dropped. Emoji are kept: they are words here.
  static func words(in text: String) -> [String] {
    text.split(whereSeparator: \.isWhitespace).compactMap { token in
      guard !token.contains("://"), !token.lowercased().hasPrefix("www.") else { return nil }
      guard let first = token.firstIndex(where: { !isStrippable($0) }),
        let last = token.lastIndex(where: { !isStrippable($0) })
      else { return nil }
      return String(token[first...last])
    }
  }

  /// Whether a character is punctuation or a symbol other than an emoji-like "other symbol".
  static func isStrippable(_ character: Character) -> Bool {
    character.unicodeScalars.allSatisfy { scalar in
      switch scalar.properties.generalCategory {
      case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
        .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol,
        .currencySymbol, .modifierSymbol:
        true
      default:
        false
      }
    }
  }

  /// Whether `word` holds a letter of a non-Latin script or an emoji.
  ///
  /// Latin here is U+0000 to U+036F (ASCII, Latin-1, Latin Extended, IPA, combining marks) and
  /// U+1E00 to U+1EFF (Latin Extended Additional); emoji are counted from U+2000 so that
  /// digits, which carry the Emoji property, are not.
  static func isNonLatin(_ word: String) -> Bool {
    word.unicodeScalars.contains { scalar in
      let value = scalar.value
      if value < 0x370 || (0x1E00...0x1EFF).contains(value) { return false }
      return scalar.properties.isAlphabetic || (value >= 0x2000 && scalar.properties.isEmoji)
    }
  }

  /// Whether `word` holds a character of a script written without spaces: kana, CJK
  /// ideographs or Thai.
  static func hasSpacelessScript(_ word: String) -> Bool {
    word.unicodeScalars.contains { scalar in
      switch scalar.value {
      case 0x0E00...0x0E7F, 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF: true
      default: false
      }
    }
  }

  /// A user-sized piece of a run of spaceless text: a title's `東京ダンス猫かわいい` is one
  /// whitespace token, but nobody types all of it. The run is split at punctuation inside it
  /// (`【東京】ダンス`), one part is chosen, and a part longer than 4 characters is cut to 2 to 4
  /// of them. Words without a spaceless script are returned unchanged.
  static func typeablePiece<G: RandomNumberGenerator>(
    of word: String, using generator: inout G
  ) -> String {
    guard hasSpacelessScript(word) else { return word }
    let parts = word.split(whereSeparator: isStrippable)
    guard !parts.isEmpty else { return word }
    let characters = Array(generator.pick(parts))
    guard characters.count > 4 else { return String(characters) }
    let length = generator.nextInt(in: 2...4)
    let start = generator.nextInt(below: characters.count - length + 1)
    return String(characters[start..<(start + length)])
  }

  /// The first `length` characters of `word` (all of it if shorter).
  static func prefix(of word: String, length: Int) -> String {
    String(word.prefix(length))
  }

  /// A token that matches nothing: an impossible opening pair (`qz`, `zx`, ...) and 3 to 6
  /// consonants, such as `qzxvkt`. No vowels, so no real or generated word is ever spelled.
  static func makeNonsenseToken<G: RandomNumberGenerator>(using generator: inout G) -> String {
    let openings = ["qz", "zx", "xq", "qx", "jq", "vq", "zq", "qj"]
    let consonants = Array("bcdfghjklmnpqrstvwxz")
    var token = generator.pick(openings)
    for _ in 0..<generator.nextInt(in: 3...6) { token.append(generator.pick(consonants)) }
    return token
  }

  /// QWERTY neighbours of each lower-case letter, for substitution typos.
  static let keyboardNeighbours: [Character: String] = [
    "q": "wa", "w": "qes", "e": "wrd", "r": "etf", "t": "ryg", "y": "tuh", "u": "yij",
    "i": "uok", "o": "ipl", "p": "ol", "a": "qsz", "s": "awdz", "d": "sefx", "f": "drgc",
    "g": "fthv", "h": "gyjb", "j": "hukn", "k": "jilm", "l": "kop", "z": "asx", "x": "zsdc",
    "c": "xdfv", "v": "cfgb", "b": "vghn", "n": "bhjm", "m": "njk",
  ]

  /// `word` with one typing slip, chosen among the kinds Damerau found to make up most
  /// misspellings ("A technique for computer detection and correction of spelling errors",
  /// CACM 7(3), 1964): a neighbouring key substituted (40%), two adjacent letters swapped
  /// (25%), a letter dropped (20%) or doubled (15%). Needs at least two characters; the
  /// result always differs from `word`.
  static func makeTypo<G: RandomNumberGenerator>(of word: String, using generator: inout G)
    -> String
  {
    var characters = Array(word)
    precondition(characters.count >= 2, "a typo needs a word of two characters or more")
    let roll = generator.nextUnit()
    let index = generator.nextInt(below: characters.count)
    if roll < 0.40, let neighbours = keyboardNeighbours[characters[index]] {
      characters[index] = generator.pick(Array(neighbours))
    } else if roll < 0.65 {
      let left = generator.nextInt(below: characters.count - 1)
      if characters[left] != characters[left + 1] {
        characters.swapAt(left, left + 1)
      } else {
        characters.remove(at: left)
      }
    } else if roll < 0.85 {
      characters.remove(at: index)
    } else {
      characters.insert(characters[index], at: index)
    }
    let typo = String(characters)
    return typo == word ? String(characters.dropLast()) : typo
  }
}
