import DiscoverSearch
import Foundation
import Testing

@testable import SyntheticCorpus

@Suite("QueryMixGenerator")
struct QueryMixGeneratorTests {
  let mix = CorpusFixtures.queryMix

  /// A corpus small enough to read: three videos, a user, a hashtag, no sounds.
  static let handMade: [Document] = [
    .video(
      Video(
        id: "a", title: "Easy pasta recipe 🍝 | dinner in 10 minutes!",
        hashtags: ["PastaTok", "recipe"], creator: "chef")),
    .video(Video(id: "b", title: "東京ダンス猫かわいい", hashtags: ["ダンス"], creator: "chef")),
    .video(Video(id: "c", title: "(Official Video) - Cat vs. cucumber", creator: "chef")),
    .user(User(id: "chef", username: "chef.mario", displayName: "Chef Mario")),
    .hashtag(Hashtag(id: "h", name: "DanceChallenge")),
  ]

  @Test func sameSeedGivesSameQueriesAndDifferentSeedsDiffer() {
    #expect(mix.makeQueries(count: 500, seed: 1) == mix.makeQueries(count: 500, seed: 1))
    #expect(mix.makeQueries(count: 500, seed: 1) != mix.makeQueries(count: 500, seed: 2))
    #expect(
      mix.makeSuggestQueries(count: 500, seed: 1) == mix.makeSuggestQueries(count: 500, seed: 1))
    #expect(
      mix.makeSuggestQueries(count: 500, seed: 1) != mix.makeSuggestQueries(count: 500, seed: 2))
  }

  @Test func sameDocumentsAndSeedGiveTheSameSamples() {
    var again = QueryMixGenerator(seed: 5)
    again.observe(contentsOf: CorpusFixtures.documents)
    #expect(again.makeQueries(count: 300, seed: 9) == mix.makeQueries(count: 300, seed: 9))
    #expect(again.observedDocumentCount == CorpusFixtures.documents.count)
  }

  @Test func searchKindsFollowTheDocumentedShares() {
    let labeled = mix.makeLabeledQueries(count: 2_000, seed: 3)
    #expect(labeled.count == 2_000)
    for category in QueryMixGenerator.SearchCategory.allCases {
      let count = labeled.filter { $0.category == category }.count
      #expect(abs(Double(count) - 2_000 * category.share) <= 1, "\(category): \(count)")
    }
    let titleWordShare = [0.20, 0.15, 0.10].reduce(0, +)
    #expect(abs(titleWordShare - 0.45) < 1e-9)
  }

  @Test func tabsAndLimitsFollowTheDocumentedShares() {
    let queries = mix.makeQueries(count: 2_000, seed: 3)
    for (tab, share) in QueryMixGenerator.tabShares {
      let count = queries.filter { $0.tab == tab }.count
      #expect(abs(Double(count) - 2_000 * share) <= 1, "\(tab): \(count)")
    }
    #expect(queries.allSatisfy { $0.kind == .search && ($0.limit == 10 || $0.limit == 20) })
    #expect(queries.filter { $0.limit == 20 }.count == 300)
  }

  @Test func queriesLookLikeTheirKind() {
    for (category, query) in mix.makeLabeledQueries(count: 2_000, seed: 4) {
      let text = query.text
      #expect(!text.isEmpty && !text.allSatisfy(\.isWhitespace))
      #expect(text.utf8.count == Array(text.utf8).count)
      switch category {
      case .hashtag: #expect(text.hasPrefix("#") && text.count > 1, "\(text)")
      case .username: #expect(text.hasPrefix("@") && text.count > 1, "\(text)")
      case .unmatchedWord: #expect(text.split(separator: " ").count >= 2, "\(text)")
      case .nonsense: #expect(text.allSatisfy { $0.isASCII && ($0.isLetter || $0 == " ") })
      case .nonLatinWord: #expect(QueryText.isNonLatin(text), "\(text)")
      case .oneTitleWord, .twoTitleWords, .threeTitleWords, .soundWords:
        #expect(!text.hasPrefix(" ") && !text.hasSuffix(" "), "\(text)")
      }
    }
  }

  @Test func titleWordQueriesComeFromObservedTitles() {
    let titleWords = Set(
      CorpusFixtures.videos.flatMap { QueryText.words(in: $0.title) }.map { $0.lowercased() })
    let labeled = mix.makeLabeledQueries(count: 1_000, seed: 8).filter {
      $0.category == .oneTitleWord && !QueryText.hasSpacelessScript($0.query.text)
    }
    #expect(!labeled.isEmpty)
    for (_, query) in labeled {
      #expect(titleWords.contains(query.text.lowercased()), "\(query.text)")
    }
  }

  @Test func suggestKindsFollowTheDocumentedShares() {
    let labeled = mix.makeLabeledSuggestQueries(count: 2_000, seed: 3)
    for category in QueryMixGenerator.SuggestCategory.allCases {
      let count = labeled.filter { $0.category == category }.count
      #expect(abs(Double(count) - 2_000 * category.share) <= 1, "\(category): \(count)")
    }
    for (category, query) in labeled {
      let text = query.text
      #expect(query.kind == .suggest && query.tab == .top && query.limit == 10)
      #expect(!text.isEmpty && !text.allSatisfy(\.isWhitespace))
      switch category {
      case .wordPrefix: #expect((1...8).contains(text.count), "\(text)")
      case .hashtagPrefix: #expect(text.hasPrefix("#") && (2...9).contains(text.count), "\(text)")
      case .usernamePrefix: #expect(text.hasPrefix("@") && (2...9).contains(text.count), "\(text)")
      case .multiWordPartial: #expect(text.contains(" ") && !text.hasSuffix(" "), "\(text)")
      case .typo: #expect((3...9).contains(text.count), "\(text)")
      }
    }
  }

  @Test func suggestQueriesAreWrittenAsSuggestLines() throws {
    let searches = mix.makeQueries(count: 20, seed: 6)
    let completions = mix.makeSuggestQueries(count: 20, seed: 6)
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("query-mix-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: url) }
    try QueryFile.write(searches + completions, to: url)
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    let suggestLines = lines.filter { $0.hasPrefix("{\"kind\":\"suggest\",\"q\":") }
    #expect(suggestLines.count == 20)
    // Contract 2: a completion request names no tab.
    #expect(suggestLines.allSatisfy { !$0.contains("\"tab\"") && $0.hasSuffix("\"limit\":10}") })
    #expect(try QueryFile.load(at: url) == searches + completions)
  }

  @Test func titleWordStartsAreFoundByteByByte() {
    var small = QueryMixGenerator(seed: 1)
    small.observe(contentsOf: Self.handMade)
    let texts = ["easy", "pas", "cucum", "official", "東京", "ダン", "rch", "#pas", "recipe ", ""]
    #expect(small.positionsOfTitleWordStarts(in: texts) == [0, 1, 2, 3, 4])
    // The last letter of a prefix may gain a vowel sign in the word: तैयार starts तैयारी.
    var hindi = QueryMixGenerator(seed: 1)
    hindi.observe(.video(Video(id: "h", title: "परीक्षा की तैयारी")))
    #expect(hindi.positionsOfTitleWordStarts(in: ["तैयार", "तैयारी", "की", "तैयारीx"]) == [0, 1, 2])
  }

  @Test func everyMadeWordPrefixStartsAnObservedTitleWordOutsideSpacelessScripts() {
    let labeled = mix.makeLabeledSuggestQueries(count: 2_000, seed: 3)
    let starts = mix.positionsOfTitleWordStarts(in: labeled.map(\.query.text))
    for (position, (category, query)) in labeled.enumerated()
    where category == .wordPrefix && !QueryText.hasSpacelessScript(query.text) {
      #expect(starts.contains(position), "\(query.text)")
    }
  }

  @Test func worksOnASmallHandMadeCorpus() {
    var small = QueryMixGenerator(seed: 1)
    small.observe(contentsOf: Self.handMade)
    let queries = small.makeQueries(count: 300, seed: 2)
    let suggestions = small.makeSuggestQueries(count: 300, seed: 2)
    #expect(queries.count == 300 && suggestions.count == 300)
    for query in queries + suggestions {
      #expect(!query.text.isEmpty && !query.text.allSatisfy(\.isWhitespace), "\(query)")
      #expect(!query.text.contains("://"))
    }
    let texts = Set(queries.map { $0.text.lowercased() })
    #expect(texts.contains("@chef.mario"))
    #expect(texts.contains("#dancechallenge") || texts.contains("#pastatok"))
    // Pure punctuation such as "|" and "-" never becomes a query word.
    #expect(!texts.contains { $0.split(separator: " ").contains { $0 == "|" || $0 == "-" } })
    // No sounds were observed: sound queries fall back to title words.
    #expect(!texts.contains { $0.contains("original sound") })
  }

  @Test func worksWithNothingObserved() {
    let empty = QueryMixGenerator()
    let queries =
      empty.makeQueries(count: 50, seed: 1) + empty.makeSuggestQueries(count: 50, seed: 1)
    #expect(queries.count == 100)
    #expect(queries.allSatisfy { !$0.text.isEmpty })
    #expect(empty.makeQueries(count: 0, seed: 1).isEmpty)
  }

  @Test func reservoirsStayAtTheirCapacity() {
    var generator = QueryMixGenerator(reservoirCapacity: 256, seed: 3)
    for index in 0..<100_000 {
      let document: Document
      switch index % 4 {
      case 0:
        document = .video(Video(id: "v\(index)", title: "title \(index)", hashtags: ["t\(index)"]))
      case 1: document = .user(User(id: "u\(index)", username: "user\(index)"))
      case 2: document = .hashtag(Hashtag(id: "h\(index)", name: "tag\(index)"))
      default: document = .sound(Sound(id: "s\(index)", title: "sound \(index)"))
      }
      generator.observe(document)
    }
    #expect(generator.observedDocumentCount == 100_000)
    for sample in [
      generator.titles, generator.hashtags, generator.usernames, generator.soundTitles,
    ] {
      #expect(sample.elements.count == 256)
    }
    #expect(generator.titles.seenCount == 25_000 && generator.hashtags.seenCount == 50_000)
  }

  @Test func longTitlesAreCutBeforeTheyAreKept() {
    let long = String(repeating: "dance 💃🏽 ", count: 500)
    let cut = QueryMixGenerator.bounded(long)
    #expect(cut.utf8.count <= QueryMixGenerator.maximumTitleBytes)
    #expect(long.hasPrefix(cut))
  }
}
