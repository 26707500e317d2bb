import Testing

@testable import SyntheticCorpus

@Suite("QueryText")
struct QueryTextTests {
  @Test(arguments: [
    (
      "ROSÉ & Bruno Mars - APT. (Official Music Video)",
      ["ROSÉ", "Bruno", "Mars", "APT", "Official", "Music", "Video"]
    ),
    (
      "Easy pasta | dinner!!! #foodtok @chef.mario",
      ["Easy", "pasta", "dinner", "foodtok", "chef.mario"]
    ),
    (
      "🔥🔥 fire 💃🏽 ... see https://example.com/x www.example.com",
      ["🔥🔥", "fire", "💃🏽", "see"]
    ),
    ("  \n\t ", []),
    ("東京ダンス猫かわいい 料理", ["東京ダンス猫かわいい", "料理"]),
  ])
  func wordsSplitAtWhitespaceAndStripPunctuation(text: String, words: [String]) {
    #expect(QueryText.words(in: text) == words)
  }

  @Test func scriptsAreToldApart() {
    for word in ["ダンス", "跳舞", "댄스", "แมว", "кот", "χορός", "🔥", "💃🏽", "👩‍🍳"] {
      #expect(QueryText.isNonLatin(word), "\(word)")
    }
    for word in ["dance", "café", "niño", "Ωmega".dropFirst().description, "2026", "ệ"] {
      #expect(!QueryText.isNonLatin(word), "\(word)")
    }
    #expect(QueryText.hasSpacelessScript("東京") && QueryText.hasSpacelessScript("แมว"))
    #expect(!QueryText.hasSpacelessScript("댄스"))
  }

  @Test func typeablePiecesOfSpacelessRunsAreShort() {
    var generator = Xoshiro256StarStar(seed: 2)
    for _ in 0..<200 {
      let piece = QueryText.typeablePiece(of: "東京ダンス猫かわいい", using: &generator)
      #expect((2...4).contains(piece.count) && "東京ダンス猫かわいい".contains(piece))
    }
    #expect(QueryText.typeablePiece(of: "dancechallenge", using: &generator) == "dancechallenge")
    for _ in 0..<200 {
      let piece = QueryText.typeablePiece(of: "【東京】ダンス｣猫", using: &generator)
      #expect(["東京", "ダンス", "猫"].contains(piece), "\(piece)")
    }
  }

  @Test func typosAlwaysDifferFromTheWord() {
    var generator = Xoshiro256StarStar(seed: 3)
    for word in ["dance", "aa", "chef", "ダンス", "zzzz", "💃🏽🔥"] {
      for _ in 0..<200 {
        let typo = QueryText.makeTypo(of: word, using: &generator)
        #expect(typo != word && !typo.isEmpty, "\(word) -> \(typo)")
        #expect(abs(typo.count - word.count) <= 1)
      }
    }
  }

  @Test func nonsenseTokensHaveNoVowels() {
    var generator = Xoshiro256StarStar(seed: 4)
    for _ in 0..<500 {
      let token = QueryText.makeNonsenseToken(using: &generator)
      #expect((5...8).contains(token.count))
      #expect(!token.contains { "aeiouy".contains($0) })
    }
  }
}
