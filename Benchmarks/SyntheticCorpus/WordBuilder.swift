/// Builds one random word in a given script from the alphabets of ``Lexicon``.
///
/// Words are built from syllables so they look like words of their language: onset, vowel and
/// coda for English-like words; consonant-vowel syllables for Cyrillic and Greek; kana runs,
/// kanji compounds, two- and three-character Chinese words; Hangul syllables composed from their
/// jamo indexes; Thai syllables from leading-vowel and following-vowel templates.
enum WordBuilder {
  /// Makes a word of `script`. Not necessarily new: the caller removes duplicates.
  static func makeWord<G: RandomNumberGenerator>(
    _ script: WordScript, using generator: inout G
  ) -> String {
    switch script {
    case .latin: makeLatin(using: &generator)
    case .accented: makeAccented(using: &generator)
    case .cyrillic: makeCyrillic(using: &generator)
    case .greek: makeGreek(using: &generator)
    case .japanese: makeJapanese(using: &generator)
    case .chinese: makeChinese(using: &generator)
    case .korean: makeKorean(using: &generator)
    case .thai: makeThai(using: &generator)
    case .emoji: makeEmoji(using: &generator)
    }
  }

  /// An English-like pseudo-word of 1 to 4 syllables and 3 to 10 letters (`brolen`, `shatik`).
  static func makeLatin<G: RandomNumberGenerator>(using generator: inout G) -> String {
    while true {
      // Syllable counts 1, 2, 3, 4 with weights 25%, 50%, 20%, 5%: most words are short.
      let roll = generator.nextUnit()
      let syllables = roll < 0.25 ? 1 : roll < 0.75 ? 2 : roll < 0.95 ? 3 : 4
      var word = ""
      for index in 0..<syllables {
        word += generator.pick(Lexicon.onsets)
        word += generator.pick(Lexicon.nuclei)
        if index == syllables - 1 || generator.chance(0.2) {
          word += generator.pick(Lexicon.codas)
        }
      }
      if (3...10).contains(word.utf8.count) { return word }
    }
  }

  /// A Latin word with one or two letters accented (`brólen`, `niño`-like).
  static func makeAccented<G: RandomNumberGenerator>(using generator: inout G) -> String {
    var characters = Array(makeLatin(using: &generator))
    let replaceable = characters.indices.filter {
      Lexicon.accentReplacements[characters[$0]] != nil
    }
    guard !replaceable.isEmpty else { return String(characters) + "é" }
    let changes = replaceable.count > 2 && generator.chance(0.25) ? 2 : 1
    var result = characters.map(String.init)
    for _ in 0..<changes {
      let index = generator.pick(replaceable)
      if let choices = Lexicon.accentReplacements[characters[index]] {
        result[index] = generator.pick(choices)
        characters[index] = "_"
      }
    }
    return result.joined()
  }

  /// A Russian-like word of 2 to 4 consonant-vowel syllables (`малоки`).
  static func makeCyrillic<G: RandomNumberGenerator>(using generator: inout G) -> String {
    var word = ""
    for _ in 0..<generator.nextInt(in: 2...4) {
      word += generator.pick(Lexicon.cyrillicConsonants)
      word += generator.pick(Lexicon.cyrillicVowels)
    }
    if generator.chance(0.4) { word += generator.pick(Lexicon.cyrillicConsonants) }
    return word
  }

  /// A Greek-like word of 2 to 4 syllables, with the final-sigma rule (`καλόνες`).
  static func makeGreek<G: RandomNumberGenerator>(using generator: inout G) -> String {
    var word = ""
    for _ in 0..<generator.nextInt(in: 2...4) {
      word += generator.pick(Lexicon.greekConsonants)
      word += generator.pick(Lexicon.greekVowels)
    }
    if generator.chance(0.35) { word += "ς" }
    return word
  }

  /// A Japanese word: a katakana loanword (50%), a hiragana word (20%) or a kanji compound
  /// with optional kana ending (30%).
  static func makeJapanese<G: RandomNumberGenerator>(using generator: inout G) -> String {
    var word = ""
    let roll = generator.nextUnit()
    if roll < 0.5 {
      let length = generator.nextInt(in: 2...5)
      for index in 0..<length {
        word += generator.pick(Lexicon.katakana)
        if index == 0 && length > 2 && generator.chance(0.2) { word += "ー" }
      }
      if generator.chance(0.25) { word += "ン" }
    } else if roll < 0.7 {
      for _ in 0..<generator.nextInt(in: 2...4) { word += generator.pick(Lexicon.hiragana) }
    } else {
      for _ in 0..<generator.nextInt(in: 1...3) { word += generator.pick(Lexicon.kanji) }
      for _ in 0..<generator.nextInt(in: 0...2) { word += generator.pick(Lexicon.hiragana) }
    }
    return word
  }

  /// A Chinese word of two characters (70%) or three.
  static func makeChinese<G: RandomNumberGenerator>(using generator: inout G) -> String {
    var word = ""
    for _ in 0..<(generator.chance(0.7) ? 2 : 3) { word += generator.pick(Lexicon.hanzi) }
    return word
  }

  /// Common Hangul vowels by jamo index: ㅏ ㅐ ㅓ ㅔ ㅗ ㅜ ㅡ ㅣ ㅕ ㅛ.
  static let hangulVowels = [0, 1, 4, 5, 8, 13, 18, 20, 6, 12]
  /// Common Hangul final consonants by jamo index: ㄱ ㄴ ㄹ ㅁ ㅂ ㅅ ㅇ.
  static let hangulTails = [1, 4, 8, 16, 17, 19, 21]

  /// A Korean word of 2 to 4 Hangul syllables, composed as
  /// `U+AC00 + (lead * 21 + vowel) * 28 + tail` (Unicode 15, section 3.12), from common vowels
  /// and final consonants so that the syllables look like everyday Korean.
  static func makeKorean<G: RandomNumberGenerator>(using generator: inout G) -> String {
    var scalars = String.UnicodeScalarView()
    for _ in 0..<generator.nextInt(in: 2...4) {
      // The 14 plain initial consonants (skipping the doubled ones, which are rarer).
      let lead = generator.pick([0, 2, 3, 5, 6, 7, 9, 11, 12, 14, 15, 16, 17, 18])
      let vowel = generator.pick(hangulVowels)
      // Most Korean syllables are open; 35% get a final consonant.
      let tail = generator.chance(0.35) ? generator.pick(hangulTails) : 0
      let value = 0xAC00 + (lead * 21 + vowel) * 28 + tail
      if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
    }
    return String(scalars)
  }

  /// A Thai word of 1 to 3 syllables from common spelling templates (leading vowels เ แ โ ไ
  /// before the consonant, following vowels า ี ุ after it, ั and ิ between two consonants,
  /// and the tone marks ่ ้ on some syllables).
  static func makeThai<G: RandomNumberGenerator>(using generator: inout G) -> String {
    var word = ""
    for _ in 0..<generator.nextInt(in: 1...3) {
      let consonant = generator.pick(Lexicon.thaiConsonants)
      let tone = generator.chance(0.3) ? generator.pick(["\u{0E48}", "\u{0E49}"]) : ""
      switch generator.nextInt(below: 8) {
      case 0: word += consonant + tone + "า"
      case 1: word += "เ" + consonant + tone
      case 2: word += consonant + "ี" + tone
      case 3: word += "แ" + consonant + tone
      case 4: word += "โ" + consonant + tone
      case 5: word += "ไ" + consonant + tone
      case 6: word += consonant + "ั" + tone + generator.pick(Lexicon.thaiConsonants)
      default: word += consonant + "ิ" + tone + generator.pick(Lexicon.thaiConsonants)
      }
    }
    return word
  }

  /// An emoji "word": one emoji (35%), one with a skin tone (20%), a ZWJ sequence (15%), or a
  /// run of two or three (30%, like `🔥🔥` or `😂😭`).
  static func makeEmoji<G: RandomNumberGenerator>(using generator: inout G) -> String {
    let roll = generator.nextUnit()
    if roll < 0.35 { return generator.pick(Lexicon.plainEmoji) }
    if roll < 0.55 {
      return generator.pick(Lexicon.toneableEmoji) + generator.pick(Lexicon.skinTones)
    }
    if roll < 0.70 { return generator.pick(Lexicon.zwjEmoji) }
    var word = ""
    for _ in 0..<generator.nextInt(in: 2...3) { word += generator.pick(Lexicon.plainEmoji) }
    return word
  }
}
