import Foundation
import Synchronization
import Testing

@testable import DiscoverSearch

@Suite("Suggest: completions")
struct SuggestionTests {
  /// "dance" in 30 titles, "dancer" in 20, ... and "dan" in one: the typed word is rare.
  static func corpus() throws -> DiscoverIndex {
    var documents: [Document] = []
    for number in 0..<30 {
      documents.append(Fixtures.video("d\(number)", "dance challenge number \(number)"))
    }
    for number in 0..<20 { documents.append(Fixtures.video("r\(number)", "dancer life \(number)")) }
    for number in 0..<12 {
      documents.append(Fixtures.video("g\(number)", "dancing queen \(number)"))
    }
    for number in 0..<8 { documents.append(Fixtures.video("a\(number)", "danger zone \(number)")) }
    for number in 0..<5 {
      documents.append(Fixtures.video("s\(number)", "dandelion field \(number)"))
    }
    documents += [
      Fixtures.video("dan", "dan the man"),
      Fixtures.video("tag", "weekend vibes", hashtags: ["DanceChallenge", "dancemoves"]),
      Fixtures.user("u1", "dance_queen", displayName: "Dance Queen"),
      Fixtures.user("u2", "danny", displayName: "Danny Boy"),
      Fixtures.hashtag("h1", "dancechallenge"),
      Fixtures.sound("moonlight", "Dancing in the Moonlight", artist: "Toploader"),
    ]
    return try DiscoverIndex.build(from: documents)
  }

  @Test func theExactWordAndTheMostPopularCompletionAreNeverHidden() throws {
    let index = try Self.corpus()
    let suggestions = try index.suggestions(forPrefix: "dan", limit: 3)
    let texts = suggestions.map(\.text)
    #expect(suggestions.count == 3)
    // The typed word itself, although 30 documents say "dance" and it is in one title.
    #expect(texts.first == "dan")
    #expect(texts.contains("dance"), "\(texts)")
    #expect(suggestions.allSatisfy { $0.typos == 0 })
  }

  @Test func completionsFollowPopularity() throws {
    let index = try Self.corpus()
    let words = try index.suggestions(forPrefix: "danc", limit: 10).filter { $0.kind == .query }
      .map(\.text)
    // dance (30 + more) before dancer (20) before dancing (12).
    let dance = try #require(words.firstIndex(of: "dance"))
    let dancer = try #require(words.firstIndex(of: "dancer"))
    let dancing = try #require(words.firstIndex(of: "dancing"))
    #expect(dance < dancer && dancer < dancing, "\(words)")
  }

  @Test func aWordThatSpellsANameGivesWayToTheName() throws {
    var documents = (0..<6).map { Fixtures.video("v\($0)", "dancequeen mykingdom \($0)") }
    documents += [
      Fixtures.video("t", "weekend", hashtags: ["MyKingdom"]),
      Fixtures.user("u1", "dq", displayName: "Dance Queen"),
    ]
    let index = try DiscoverIndex.build(from: documents)
    // The display name, folded and without its space, spells the word "dancequeen".
    let dance = try index.suggestions(forPrefix: "danc", limit: 10)
    #expect(dance.contains { $0.text == "Dance Queen" && $0.kind == .user }, "\(dance)")
    #expect(!dance.contains { $0.text == "dancequeen" }, "\(dance)")
    // The hashtag without its marker spells the word "mykingdom".
    let kingdom = try index.suggestions(forPrefix: "myk", limit: 10)
    #expect(kingdom.contains { $0.text == "#mykingdom" && $0.kind == .hashtag }, "\(kingdom)")
    #expect(!kingdom.contains { $0.text == "mykingdom" }, "\(kingdom)")
    // Typed whole, the word stays: the exact text is never hidden.
    #expect(try index.suggestions(forPrefix: "dancequeen").first?.text == "dancequeen")
  }

  @Test(arguments: [
    "Goobeaty Hq", "Dance Queen", "A B C", "Zoe", "Vidrusti Storytime Daily", "Dance  Queen",
    "Dance Queen!", "Dance-Queen", "Café Paris", "Dance 2024", "Dance Queen 🔥", "DJ's Mix",
    "Supercalifragilisticexpialidocious Song", "Dance ",
  ])
  func plainNamesGetTheRangeTheTokenizerGives(name: String) {
    let workspace = SearchWorkspace()
    for words in 1...3 {
      let tokenized = IndexSnapshot.tokenizedRange(in: name, words: words, workspace: workspace)
      if let plain = IndexSnapshot.plainWordsRange(in: name, words: words) {
        #expect(plain == tokenized, "\(name), \(words) words")
      }
      #expect(
        IndexSnapshot.matchedRange(in: name, words: words, workspace: workspace) == tokenized)
    }
  }

  @Test func markersRestrictTheKind() throws {
    let index = try Self.corpus()
    let hashtags = try index.suggestions(forPrefix: "#danc")
    #expect(!hashtags.isEmpty)
    #expect(hashtags.allSatisfy { $0.kind == .hashtag && $0.text.hasPrefix("#danc") })
    #expect(hashtags.map(\.text).contains("#dancechallenge"))
    let users = try index.suggestions(forPrefix: "@dan")
    #expect(users.allSatisfy { $0.kind == .user && $0.text.hasPrefix("@dan") })
    #expect(Set(users.map(\.text)) == ["@dance_queen", "@danny"])
    // Without the marker, the matched part of a hashtag starts after its `#`.
    let tag = try #require(
      try index.suggestions(forPrefix: "dancech").first { $0.text == "#dancechallenge" })
    #expect(tag.matchedRange?.utf8Offsets == 1..<8)
    // Without a marker, words, hashtags, users and sounds mix.
    let mixed = Set(try index.suggestions(forPrefix: "danc", limit: 20).map(\.kind))
    #expect(mixed == [.query, .hashtag, .user, .sound])
  }

  @Test func earlierWordsAreWholeAndTheLastIsAPrefix() throws {
    let index = try Self.corpus()
    let suggestions = try index.suggestions(forPrefix: "dance cha")
    let first = try #require(suggestions.first)
    #expect(first.text == "dance challenge")
    #expect(first.kind == .query)
    #expect(first.matchedRange?.utf8Offsets == 0..<9)
    // "danc" is not a whole word of the index (and too short for a typo).
    #expect(!(try index.suggestions(forPrefix: "danc cha")).map(\.text).contains("dance challenge"))
    // A display name and a sound title, by their words.
    let queen = try index.suggestions(forPrefix: "dance qu")
    #expect(queen.contains { $0.kind == .user && $0.text == "Dance Queen" })
    let sound = try index.suggestions(forPrefix: "dancing in the m")
    let moonlight = try #require(sound.first { $0.kind == .sound })
    #expect(moonlight.text == "Dancing in the Moonlight")
    #expect(
      moonlight.matchedRange?.range(in: moonlight.text).map { String(moonlight.text[$0]) }
        == "Dancing in the Moonlight")
    // A trailing space asks for the next word.
    let next = try index.suggestions(forPrefix: "dance ")
    #expect(next.map(\.text).contains("dance challenge"))
    #expect(next.allSatisfy { $0.text.lowercased().hasPrefix("dance ") })
  }

  @Test(arguments: [
    ("dnace cha", "dance challenge", 1),  // transposition in an earlier word
    ("dance chalelnge", "dance challenge", 1),  // transposition in the last word
    ("chalenge", "challenge", 1),  // deletion
    ("challlenge", "challenge", 1),  // insertion
    ("chbllenge", "challenge", 1),  // substitution
    ("xhallenge", "challenge", 2),  // the first letter of a long word: counts twice
    ("dandleion", "dandelion", 1),  // transposition in the prefix
    ("dandeli", "dandelion", 0),  // exact prefix
    ("dnadel", "dandelion", 1),  // transposition in a partial word
  ])
  func typosAreCorrectedInEveryPosition(typed: String, expected: String, typos: Int) throws {
    let index = try Self.corpus()
    let suggestions = try index.suggestions(forPrefix: typed)
    let match = try #require(
      suggestions.first { $0.text == expected }, "\(typed): \(suggestions.map(\.text))")
    #expect(match.typos == typos)
    // Typo tolerance off: nothing for the misspelling.
    let strict = try index.suggestions(
      forPrefix: typed, options: SuggestOptions(typoTolerance: .disabled))
    #expect(strict.contains { $0.text == expected } == (typos == 0))
  }

  @Test func aWrongFirstLetterOfAShortWordNeedsTheLenientRule() throws {
    let index = try Self.corpus()
    // For a tag, the first letter after the marker is the one that counts twice.
    let tag = try index.suggestions(forPrefix: "#dnacech")
    #expect(tag.contains { $0.text == "#dancechallenge" && $0.typos == 1 })
    #expect(
      !(try index.suggestions(forPrefix: "#xancech")).contains { $0.text == "#dancechallenge" })
    #expect(!(try index.suggestions(forPrefix: "xancer")).contains { $0.text == "dancer" })
    let lenient = SuggestOptions(
      typoTolerance: TypoTolerance(countsFirstCharacterTypoTwice: false))
    let found = try index.suggestions(forPrefix: "xancer", options: lenient)
    #expect(found.contains { $0.text == "dancer" && $0.typos == 1 })
  }

  @Test func completionsAfterAnUnknownWordUseItsCorrection() throws {
    let index = try Self.corpus()
    let suggestions = try index.suggestions(forPrefix: "dnace cha")
    #expect(suggestions.first?.text == "dance challenge")
    #expect(!suggestions.contains { $0.text.hasPrefix("dnace") })
  }

  @Test func shortWordsGetNoTypos() throws {
    let index = try Self.corpus()
    // "dnac" has 4 characters: below the one-typo length of 5.
    #expect(try index.suggestions(forPrefix: "dnac").isEmpty)
    #expect(try index.suggestions(forPrefix: "9999").isEmpty)
  }

  @Test func pastRecentAndTrendingSearchesMergeIn() throws {
    let index = try Self.corpus()
    let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
    let analytics = QueryAnalytics(clock: clock.now)
    for user in ["u1", "u2", "u3", "u4"] {
      try analytics.recordSearch(
        SearchEvent(query: "dance battle", userID: user, time: clock.now(), resultCount: 5))
    }
    try analytics.recordSearch(
      SearchEvent(query: "Dandelion wine", userID: "me", time: clock.now(), resultCount: 2))
    let mine = try index.suggestions(
      forPrefix: "dan", limit: 20, userID: "me", analytics: analytics)
    // The user's recent search comes first, flagged, in its normalized form.
    #expect(mine.first?.text == "dandelion wine")
    #expect(mine.first?.isRecent == true)
    // A past query of four users is suggested and flagged as trending.
    let battle = try #require(mine.first { $0.text == "dance battle" })
    #expect(battle.kind == .query)
    #expect(battle.isTrending)
    // Another user does not see my recent search, and one user is too few to suggest it.
    let theirs = try index.suggestions(forPrefix: "dan", userID: "u1", analytics: analytics)
    #expect(!theirs.contains { $0.text == "dandelion wine" })
    // A past query with an emoji is found by its typed start.
    try analytics.recordSearch(
      SearchEvent(query: "🔥 dance", userID: "me", time: clock.now(), resultCount: 2))
    let emoji = try index.suggestions(forPrefix: "🔥 d", userID: "me", analytics: analytics)
    #expect(emoji.first?.text == "🔥 dance")
    #expect(emoji.first?.isRecent == true)
    try analytics.deleteRecentSearch("🔥 dance", for: "me")
    // Deleting it removes it.
    try analytics.deleteRecentSearch("dandelion WINE", for: "me")
    let after = try index.suggestions(forPrefix: "dan", userID: "me", analytics: analytics)
    #expect(!after.contains { $0.isRecent })
  }

  @Test func hostileInputGivesEmptyOrBoundedResults() throws {
    let index = try Self.corpus()
    for text in [
      "", "   ", "\u{0}\u{1}\u{200B}", "#", "@", String(repeating: "dance ", count: 2_000),
      String(repeating: "x", count: 100_000), "🔥🔥🔥", "\"dance", "da\u{0301}nce",
    ] {
      let suggestions = try index.suggestions(forPrefix: text, limit: 10)
      #expect(suggestions.count <= 10)
    }
    #expect(throws: SearchError.self) { try index.suggestions(forPrefix: "dan", limit: 0) }
    #expect(throws: SearchError.self) { try index.suggestions(forPrefix: "dan", limit: 101) }
    // An empty index suggests nothing.
    #expect(try DiscoverIndex().suggestions(forPrefix: "dan").isEmpty)
  }

  /// A title pair outranks a more frequent word that only shares documents with the
  /// earlier word.
  @Test func anAdjacentPhraseOutranksWordsThatOnlyShareDocuments() throws {
    // "lady gaga" in two titles: a title pair.
    var documents = (0..<2).map { Fixtures.video("g\($0)", "lady gaga live \($0)") }
    // "get" in twenty documents with "lady", never next to it: alone, a word ten times as
    // frequent as "gaga".
    documents += (0..<20).map { Fixtures.video("t\($0)", "the lady says you get it \($0)") }
    documents += [
      // "gone" and "lady" share one document, far apart.
      Fixtures.video("d", "gone fishing", description: "a lady was there"),
      // "lady gwendolyn": one title, next to each other.
      Fixtures.video("w", "lady gwendolyn waves"),
    ]
    let index = try DiscoverIndex.build(from: documents)
    let suggestions = try index.suggestions(forPrefix: "lady g", limit: 10)
    let texts = suggestions.map(\.text)
    #expect(texts.first == "lady gaga", "\(texts)")
    let get = try #require(texts.firstIndex(of: "lady get"), "\(texts)")
    #expect(get > 0)
    #expect(texts.contains("lady gwendolyn"), "\(texts)")
    // The scores say so too: ``Suggestion/score`` orders the list.
    #expect(zip(suggestions, suggestions.dropFirst()).allSatisfy { $0.score >= $1.score })
    // Without a pair, words that share documents are still suggested.
    #expect(try index.suggestions(forPrefix: "lady i").map(\.text) == ["lady it"])
  }

  /// Phrases of the corpus first: `lady gaga` is in seven documents, `lady get` in one
  /// description (the two words far apart), `lady goo` in none; those come after.
  @Test(arguments: [
    ("lady g", "lady gaga", ["lady get", "lady goo", "lady gmail"]),
    ("squid g", "squid game", ["squid get", "squid goo", "squid gmail"]),
  ])
  func realCorpusPhrasesComeBeforeWordsThatOnlyShareDocuments(
    typed: String, phrase: String, leftOut: [String]
  ) throws {
    let index = try RealCorpus.load().index
    let suggestions = try index.suggestions(forPrefix: typed, limit: 10)
    let texts = suggestions.map(\.text)
    #expect(texts.first == phrase, "\(texts)")
    let phrases = suggestions.prefix { !leftOut.contains($0.text) }
    for text in leftOut where texts.contains(text) {
      #expect(phrases.contains { $0.text == phrase }, "\(texts)")
    }
    // The earlier words lead to a phrase, so they are taken as typed, not corrected.
    #expect(suggestions.allSatisfy { $0.typos == 0 }, "\(texts)")
  }

  /// The bigrams of one run of Chinese or Japanese are pieces of one typed word: completing
  /// the last piece continues the run, and ranks as before with names and tags.
  @Test func realCorpusCompletesARunOfChineseAsBefore() throws {
    let index = try RealCorpus.load().index
    let run = try index.suggestions(forPrefix: "火影忍", limit: 10)
    #expect(run.map(\.text) == ["火影 影忍", "火影忍者一家"], "\(run.map(\.text))")
    #expect(run.last?.kind == .user)
  }

  @Test func realCorpusCompletions() throws {
    let index = try RealCorpus.load().index
    let bruno = try index.suggestions(forPrefix: "bru")
    #expect(bruno.first?.text == "Bruno Mars")
    #expect(bruno.first?.kind == .user)
    let music = try index.suggestions(forPrefix: "#mus")
    #expect(music.first?.text == "#music")
    #expect(music.allSatisfy { $0.kind == .hashtag })
    #expect(try index.suggestions(forPrefix: "@mr").first?.text == "@mrbeast")
    let trailer = try index.suggestions(forPrefix: "offical trai")
    #expect(trailer.first?.text == "official trailer")
    #expect(trailer.first?.typos == 1)
    let video = try index.suggestions(forPrefix: "music vi")
    #expect(video.first?.text == "music video")
  }
}

/// A settable clock for analytics tests.
final class TestClock: Sendable {
  private let current: Mutex<Date>
  init(_ start: Date) { current = Mutex(start) }
  var now: @Sendable () -> Date { { [self] in current.withLock { $0 } } }
  func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}
