import DiscoverSearch
import Testing

@testable import SyntheticCorpus

@Suite("Vocabulary")
struct VocabularyTests {
  let vocabulary = CorpusFixtures.corpus.vocabulary

  @Test func holdsTheDefaultNumberOfDistinctWords() {
    #expect(vocabulary.count == Vocabulary.defaultSize)
    #expect(Set(vocabulary.entries.map(\.word)).count == vocabulary.count)
  }

  @Test func headHoldsRealShortVideoWords() {
    let head = Set(vocabulary.entries.prefix(400).map(\.word))
    for word in [
      "fyp", "dance", "challenge", "funny", "cat", "recipe", "ダンス", "東京", "猫", "跳舞",
      "音乐", "แมว", "เต้น", "댄스", "고양이", "🔥", "😂", "💃🏽", "👩‍🍳", "café", "niño", "über",
    ] {
      #expect(head.contains(word), "\(word) in the head")
    }
  }

  @Test func everyScriptIsPresent() {
    let scripts = Set(vocabulary.entries.map(\.script))
    #expect(scripts == Set(WordScript.allCases))
    func has(_ range: ClosedRange<UInt32>) -> Bool {
      vocabulary.entries.contains { entry in
        entry.word.unicodeScalars.contains { range.contains($0.value) }
      }
    }
    #expect(has(0x0400...0x04FF), "Cyrillic")
    #expect(has(0x0370...0x03FF), "Greek")
    #expect(has(0x3040...0x309F), "Hiragana")
    #expect(has(0x30A0...0x30FF), "Katakana")
    #expect(has(0x4E00...0x9FFF), "CJK ideographs")
    #expect(has(0xAC00...0xD7A3), "Hangul")
    #expect(has(0x0E00...0x0E7F), "Thai")
  }

  @Test func aboutAnEighthOfWordsAreNonLatin() {
    let nonLatin = vocabulary.entries.filter { $0.script.isNonLatin }.count
    let share = Double(nonLatin) / Double(vocabulary.count)
    #expect((0.10...0.15).contains(share), "non-Latin share of distinct words \(share)")
    #expect(
      vocabulary.entries.filter { $0.script.isNonLatin }.allSatisfy {
        QueryText.isNonLatin($0.word)
      })
  }

  @Test func aboutAnEighthOfTitleWordsAreNonLatin() {
    var words = 0
    var nonLatin = 0
    for video in CorpusFixtures.videos.prefix(5_000) {
      for word in QueryText.words(in: video.title) {
        words += 1
        if QueryText.isNonLatin(word) { nonLatin += 1 }
      }
    }
    let share = Double(nonLatin) / Double(words)
    #expect((0.08...0.25).contains(share), "non-Latin share of title words \(share)")
  }

  @Test func hasAccentsSkinTonesAndZeroWidthJoinerSequences() {
    let accented = vocabulary.entries.filter { $0.script == .accented }
    #expect(accented.count > 5_000)
    #expect(accented.allSatisfy { $0.word.unicodeScalars.contains { $0.value >= 0x80 } })
    let skinToned = vocabulary.entries.filter { entry in
      entry.word.unicodeScalars.contains { (0x1F3FB...0x1F3FF).contains($0.value) }
    }
    #expect(!skinToned.isEmpty)
    #expect(vocabulary.entries.contains { $0.word.unicodeScalars.contains { $0.value == 0x200D } })
    // A skin-toned emoji is one character, as a user perceives it, with one modifier.
    #expect(skinToned.contains { $0.word.count == 1 })
    for entry in skinToned {
      let scalars = Array(entry.word.unicodeScalars)
      let doubled = zip(scalars, scalars.dropFirst()).contains { pair in
        (0x1F3FB...0x1F3FF).contains(pair.0.value) && (0x1F3FB...0x1F3FF).contains(pair.1.value)
      }
      #expect(!doubled, "\(entry.word)")
    }
  }

  @Test func alphabetsHoldOneCharacterPerEntry() {
    #expect(Lexicon.skinTones.count == 5)
    for alphabet in [
      Lexicon.skinTones, Lexicon.toneableEmoji, Lexicon.plainEmoji, Lexicon.katakana,
      Lexicon.hiragana, Lexicon.kanji, Lexicon.hanzi, Lexicon.thaiConsonants,
      Lexicon.cyrillicConsonants, Lexicon.greekVowels,
    ] {
      #expect(alphabet.allSatisfy { $0.unicodeScalars.count == 1 }, "\(alphabet.prefix(5))")
    }
  }

  @Test func capitalizedFormsCapitalizeOnlyLatinWords() {
    let rankOfDance = vocabulary.entries.firstIndex { $0.word == "dance" }!
    #expect(vocabulary[rankOfDance].capitalized == "Dance")
    let rankOfCat = vocabulary.entries.firstIndex { $0.word == "猫" }!
    #expect(vocabulary[rankOfCat].capitalized == "猫")
    var bytes: [UInt8] = []
    vocabulary.appendWord(rankOfDance, capitalized: true, to: &bytes)
    vocabulary.appendWord(rankOfCat, capitalized: false, to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == "Dance猫")
  }

  @Test func hashtagVocabularyHasCamelCaseAndLowerCaseCompounds() {
    let names = CorpusFixtures.corpus.hashtagVocabulary.names
    #expect(names.contains("DanceChallenge") && names.contains("CatsOfTikTok"))
    #expect(names.contains("foodtok"))
    let camelCase = names.filter { name in
      name.first?.isUppercase == true && name.dropFirst().contains(where: \.isUppercase)
        && name.contains(where: \.isLowercase)
    }
    #expect(camelCase.count > names.count / 5, "\(camelCase.count) camel-case tags")
    let lowerCase = names.filter { $0.allSatisfy { $0.isLowercase && $0.isASCII } && $0.count > 8 }
    #expect(lowerCase.count > names.count / 10, "\(lowerCase.count) lower-case compounds")
    #expect(names.contains { QueryText.isNonLatin($0) })
    #expect(Set(names.map { $0.lowercased() }).count == names.count)
  }

  @Test func videoTagsIncludeLowerCasedCamelCaseTags() {
    let tags = Set(CorpusFixtures.videos.flatMap(\.hashtags))
    #expect(tags.contains("DanceChallenge") && tags.contains("dancechallenge"))
  }
}
