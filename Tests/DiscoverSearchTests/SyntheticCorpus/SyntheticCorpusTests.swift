import DiscoverSearch
import Foundation
import Testing

@testable import SyntheticCorpus

@Suite("SyntheticCorpus")
struct SyntheticCorpusTests {
  @Test func sameSeedGivesIdenticalDocuments() {
    let first = SyntheticCorpus(documentCount: 3_000, seed: 7, vocabularySize: 20_000)
    let second = SyntheticCorpus(documentCount: 3_000, seed: 7, vocabularySize: 20_000)
    #expect(Array(first) == Array(second))
  }

  @Test func differentSeedsGiveDifferentDocuments() {
    let first = Array(SyntheticCorpus(documentCount: 2_000, seed: 7, vocabularySize: 20_000))
    let second = Array(SyntheticCorpus(documentCount: 2_000, seed: 8, vocabularySize: 20_000))
    let equal = zip(first, second).filter { $0 == $1 }.count
    #expect(equal < 20, "\(equal) of 2,000 documents are equal across seeds 7 and 8")
  }

  @Test func batchesIterationAndRandomAccessAgree() {
    let corpus = SyntheticCorpus(documentCount: 12_345, seed: 11, vocabularySize: 20_000)
    let iterated = Array(corpus)
    for (size, threads) in [(5_000, 2), (777, 1), (12_345, 3)] {
      var batched: [Document] = []
      var largest = 0
      corpus.forEachBatch(size: size, threads: threads) { batch in
        largest = max(largest, batch.count)
        batched.append(contentsOf: batch)
      }
      #expect(batched == iterated, "batches of \(size) on \(threads) threads")
      #expect(largest == size)
    }
    for position in [0, 1, 99, 100, 6_000, 12_344] {
      #expect(corpus.document(at: position) == iterated[position])
    }
    #expect(corpus.documents(in: 50..<80) == Array(iterated[50..<80]))
  }

  @Test func typeProportionsMatchTheDocumentedShares() {
    let corpus = CorpusFixtures.corpus
    let total = Double(corpus.documentCount)
    let shares: [(Int, Double)] = [
      (CorpusFixtures.videos.count, SyntheticCorpus.videoShare),
      (CorpusFixtures.users.count, SyntheticCorpus.userShare),
      (CorpusFixtures.hashtags.count, SyntheticCorpus.hashtagShare),
      (CorpusFixtures.sounds.count, SyntheticCorpus.soundShare),
    ]
    for (count, share) in shares {
      #expect(abs(Double(count) / total - share) < 0.01, "\(count) of \(total) for \(share)")
    }
    #expect(corpus.videoCount == CorpusFixtures.videos.count)
    #expect(corpus.userCount == CorpusFixtures.users.count)
    #expect(corpus.hashtagCount == CorpusFixtures.hashtags.count)
    #expect(corpus.soundCount == CorpusFixtures.sounds.count)
  }

  @Test(arguments: [0, 1, 2, 3, 7, 99, 100, 101, 250])
  func typeCountsAddUpForAnySize(documentCount: Int) {
    let corpus = SyntheticCorpus(documentCount: documentCount, seed: 3, vocabularySize: 5_000)
    let documents = Array(corpus)
    #expect(documents.count == documentCount)
    #expect(
      corpus.videoCount + corpus.userCount + corpus.hashtagCount + corpus.soundCount
        == documentCount)
    #expect(documents.filter { $0.type == .video }.count == corpus.videoCount)
    if documentCount > 0 { #expect(documents[0].type == .user) }
  }

  @Test func idsAreUniqueAndNumberedPerType() {
    let ids = CorpusFixtures.documents.map(\.id)
    #expect(Set(ids).count == ids.count)
    let prefixes: [SearchResultType: String] = [
      .video: "v", .user: "u", .hashtag: "h", .sound: "s",
    ]
    for type in SearchResultType.allCases {
      let numbers = CorpusFixtures.documents.filter { $0.type == type }.map { document in
        Int(document.id.dropFirst()) ?? -1
      }
      #expect(numbers == Array(1...numbers.count), "ids of \(type) are 1...n in order")
      #expect(
        CorpusFixtures.documents.filter { $0.type == type }.allSatisfy {
          $0.id.hasPrefix(prefixes[type]!)
        })
    }
  }

  @Test func everyCreatorAndSoundRefersToAnEarlierDocument() {
    var seen = Set<String>()
    var missing: [String] = []
    var withSound = 0
    for document in CorpusFixtures.documents {
      if case .video(let video) = document {
        if let creator = video.creator, !seen.contains(creator) { missing.append(creator) }
        if video.creator == nil { missing.append("nil creator on \(video.id)") }
        if let sound = video.sound {
          withSound += 1
          if !seen.contains(sound) { missing.append(sound) }
        }
      }
      seen.insert(document.id)
    }
    #expect(missing.isEmpty, "unresolved references: \(missing.prefix(5))")
    let soundShare = Double(withSound) / Double(CorpusFixtures.videos.count)
    #expect(abs(soundShare - SyntheticCorpus.soundUseRate) < 0.02)
  }

  @Test func popularCreatorsPostMore() {
    var posts: [String: Int] = [:]
    for video in CorpusFixtures.videos { posts[video.creator ?? "", default: 0] += 1 }
    let sorted = posts.values.sorted(by: >)
    let topPercent = sorted.prefix(max(1, CorpusFixtures.users.count / 100)).reduce(0, +)
    #expect(Double(topPercent) / Double(CorpusFixtures.videos.count) > 0.1)
  }

  @Test func countsAreNonNegativeAndDatesFallInTheYearBeforeTheReferenceDate() {
    let reference = SyntheticCorpus.referenceDate
    #expect(reference == ISO8601DateFormatter().date(from: "2026-11-01T00:00:00Z"))
    let earliest = reference.addingTimeInterval(-SyntheticCorpus.dateSpan)
    for document in CorpusFixtures.documents {
      switch document {
      case .video(let video):
        #expect(video.viewCount >= 0 && video.likeCount >= 0 && video.likeCount <= video.viewCount)
        #expect(
          video.createdAt.map { $0 >= earliest && $0 <= reference } == true, "\(video.id)")
      case .user(let user): #expect(user.followerCount >= 0)
      case .hashtag(let hashtag): #expect(hashtag.viewCount >= 0 && hashtag.videoCount >= 0)
      case .sound(let sound): #expect(sound.videoCount >= 0)
      case .effect(let effect): #expect(effect.useCount >= 0)
      }
    }
  }

  @Test func recentDaysHoldMoreVideos() {
    let reference = SyntheticCorpus.referenceDate
    let ages = CorpusFixtures.videos.compactMap { video in
      video.createdAt.map { reference.timeIntervalSince($0) / SyntheticCorpus.dateSpan }
    }
    let newestTenth = ages.filter { $0 < 0.1 }.count
    let oldestTenth = ages.filter { $0 > 0.9 }.count
    #expect(newestTenth > oldestTenth * 2)
  }

  @Test func viewCountsHaveTheDocumentedMedianAndAHeavyTail() {
    let views = CorpusFixtures.videos.map(\.viewCount).sorted()
    let median = views[views.count / 2]
    #expect((3_000...8_000).contains(median), "median views \(median)")
    #expect(views.last! > 1_000_000, "largest views \(views.last!)")
  }

  @Test func videosLookLikeShortVideoPosts() {
    let videos = CorpusFixtures.videos
    #expect(videos.allSatisfy { !$0.title.isEmpty && $0.hashtags.count <= 5 })
    #expect(videos.allSatisfy { $0.thumbnailURL == "https://cdn.example.com/t/\($0.id).jpg" })
    let withoutDescription = videos.filter { $0.description == nil }.count
    #expect((0.2...0.4).contains(Double(withoutDescription) / Double(videos.count)))
    #expect(videos.contains { $0.title.contains(" #") })
    #expect(videos.contains { $0.title.contains("@") })
    #expect(videos.contains { $0.description?.contains("https://") == true })
    #expect(videos.contains { $0.description?.contains(where: \.isNumber) == true })
    #expect(
      videos.contains { $0.hashtags.count == 0 } && videos.contains { $0.hashtags.count == 5 })
    let lengths = videos.filter { !QueryText.hasSpacelessScript($0.title) }.map {
      $0.title.split(separator: " ").count
    }
    #expect(lengths.min()! >= 3)
  }

  @Test func spacelessScriptsRunWordsTogetherInSomeTitles() {
    let spaceless = CorpusFixtures.videos.filter { QueryText.hasSpacelessScript($0.title) }
    #expect(spaceless.count > 100)
    let runTogether = spaceless.filter { video in
      video.title.split(separator: " ").contains {
        $0.count > 6 && QueryText.hasSpacelessScript(String($0))
      }
    }
    #expect(!runTogether.isEmpty)
  }

  @Test func usersHaveUniqueHandlesAndAFewAreVerified() {
    let users = CorpusFixtures.users
    let names = users.map(\.username)
    #expect(Set(names).count == names.count)
    let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789._")
    #expect(names.allSatisfy { $0.allSatisfy(allowed.contains) })
    #expect(names.contains { $0.contains("_") } && names.contains { $0.contains(".") })
    #expect(users.allSatisfy { $0.displayName?.isEmpty == false })
    let verified = Double(users.filter(\.isVerified).count) / Double(users.count)
    #expect((0.01...0.035).contains(verified), "verified share \(verified)")
    #expect(users.contains { $0.bio == nil } && users.contains { $0.bio != nil })
  }

  @Test func usernamesStayUniqueFarIntoTheStream() {
    let scheme = CorpusFixtures.corpus.usernames
    var seen = Set<String>()
    // Around the end of the plain layer and into the numbered one.
    let plainLayer = scheme.firstWords.count * scheme.secondWords.count
    for ordinal in Array(0..<2_000) + Array((plainLayer - 2_000)..<(plainLayer + 2_000)) {
      #expect(seen.insert(scheme.username(ofUser: ordinal)).inserted)
    }
  }

  @Test func hashtagNamesAreUniqueIgnoringCase() {
    let names = CorpusFixtures.hashtags.map { $0.name.lowercased() }
    #expect(Set(names).count == names.count)
    #expect(CorpusFixtures.hashtags.first?.name == "fyp")
  }

  @Test func soundsAreOriginalAudioOrSongs() {
    let sounds = CorpusFixtures.sounds
    let original = sounds.filter { $0.title.hasPrefix("original sound - ") }
    #expect((0.4...0.7).contains(Double(original.count) / Double(sounds.count)))
    #expect(sounds.allSatisfy { $0.artist?.isEmpty == false })
  }
}
