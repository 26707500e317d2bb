import Testing

@testable import DiscoverSearch

@Suite("WordForms")
struct WordFormsTests {
  static func forms(_ word: String) -> [String] {
    WordForms.otherNumberForms(of: Array(word.utf8)).map { String(decoding: $0, as: UTF8.self) }
  }

  static let folded: [(String, Set<String>)] = [
    ("dogs", ["dog"]),
    ("friends", ["friend"]),
    ("stories", ["story"]),
    ("boxes", ["box", "boxe"]),
    ("matches", ["match", "matche"]),
    ("classes", ["class"]),
    ("horses", ["hors", "horse"]),
    ("dog", ["dogs"]),
    ("story", ["stories"]),
    ("boy", ["boys"]),
    ("box", ["boxes"]),
    ("match", ["matches"]),
    ("amigos", ["amigo"]),
    ("películas", ["película"]),
  ]

  @Test(arguments: folded)
  func pluralAndSingularFollowTheRules(_ word: String, _ expected: Set<String>) {
    // Every form is a candidate only: the search keeps those the index holds.
    #expect(Set(Self.forms(word)) == expected)
  }

  static let unfolded = [
    "gas", "this", "virus", "class", "is", "us", "東京", "서울", "москва", "b2b", "mp3s",
  ]

  @Test(arguments: unfolded)
  func wordsThatMustNotFoldStayAlone(_ word: String) {
    // A final s after s or u, or with no vowel before the letter it follows, is not a
    // plural; nor is anything outside the Latin script, or with digits.
    if word == "class" {
      #expect(Self.forms(word) == ["classes"])
    } else {
      #expect(Self.forms(word).isEmpty, "\(word)")
    }
  }

  @Test func latinWordsAreLowercaseLatinLettersOnly() {
    #expect(WordForms.isLatinWord(Array("straße".utf8)))
    #expect(WordForms.isLatinWord(Array("garçon".utf8)))
    #expect(WordForms.isLatinWord(Array("łódź".utf8)))
    #expect(!WordForms.isLatinWord(Array("a÷b".utf8)))
    #expect(!WordForms.isLatinWord(Array("ab1".utf8)))
    #expect(!WordForms.isLatinWord(Array("привет".utf8)))
  }

  static let counts: [String: UInt32] = [
    "tom": 40, "cruise": 12, "to": 900, "mcr": 2, "uise": 1, "jerry": 8, "jones": 9,
    "jerryjones": 0, "cristiano": 5, "ronaldo": 7, "cris": 3, "tiano": 2, "lady": 20,
    "gaga": 7,
  ]

  static func split(_ word: String) -> [String]? {
    WordForms.bestSplit(
      of: Array(word.utf8), minimumPiece: 3, documentCount: 10_000,
      frequency: { counts[String(decoding: $0, as: UTF8.self)] ?? 0 }
    )?.map { String(decoding: $0, as: UTF8.self) }
  }

  @Test func theMostProbableCutWins() {
    #expect(Self.split("tomcruise") == ["tom", "cruise"])
    #expect(Self.split("jerryjones") == ["jerry", "jones"])
    // Two frequent pieces beat three rarer ones.
    #expect(Self.split("cristianoronaldo") == ["cristiano", "ronaldo"])
    #expect(Self.split("ladygaga") == ["lady", "gaga"])
  }

  @Test func noCutWithoutKnownPiecesOfTheMinimumLength() {
    #expect(Self.split("tomxyz") == nil)
    // "to" is frequent but shorter than three characters.
    #expect(Self.split("tojones") == nil)
    #expect(Self.split("abc") == nil)
  }
}
