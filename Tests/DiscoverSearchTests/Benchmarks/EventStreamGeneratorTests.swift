import DiscoverSearch
import Foundation
import Testing

@testable import SyntheticCorpus

@Suite("SyntheticEventStream")
struct EventStreamGeneratorTests {
  /// A hand-made corpus: 3,000 videos whose views fall with their number, 400 hashtags (plain
  /// words and camel-case ones), 100 sounds, 300 users.
  static let corpus: EventStreamCorpus = {
    let hashtags = (1...400).map { number in
      EventStreamCorpus.HashtagEntry(
        id: "h\(number)", name: number % 2 == 0 ? "tag\(number)" : "DanceChallenge\(number)",
        videoCount: 1_000 / number)
    }
    let videos = (1...3_000).map { number in
      EventStreamCorpus.VideoEntry(
        id: "v\(number)", viewCount: 10_000_000 / number,
        hashtags: [hashtags[number % 400].name, hashtags[(number * 7) % 400].name],
        sound: "s\(number % 100 + 1)", creator: "u\(number % 300 + 1)")
    }
    return EventStreamCorpus(
      videos: videos, hashtags: hashtags, soundIDs: (1...100).map { "s\($0)" },
      userIDs: (1...300).map { "u\($0)" })
  }()

  /// The seed of the shared stream; printed by the expectations that depend on it.
  static let seed: UInt64 = 7

  /// A stream just big enough for the full planted mix (one day keeps it small), and all its
  /// events.
  static let fullStream = SyntheticEventStream(
    corpus: corpus, eventCount: Int(Planner.fullPlantingRate.rounded(.up)) * 1_440, seed: seed,
    days: 1)
  static let fullEvents = allEvents(of: fullStream, chunkSize: 50_000)
  /// The positions in ``fullEvents`` of each video's events.
  static let fullEventsByVideo: [String: [Int]] = Dictionary(
    grouping: fullEvents.indices, by: { fullEvents[$0].videoID })

  typealias Planner = SyntheticEventStream.Planner

  static func allEvents(of stream: SyntheticEventStream, chunkSize: Int) -> [ContentEvent] {
    var stream = stream
    var events: [ContentEvent] = []
    while case let chunk = stream.nextChunk(maxCount: chunkSize), !chunk.isEmpty {
      #expect(chunk.count <= chunkSize)
      events.append(contentsOf: chunk)
    }
    return events
  }

  @Test func sameSeedGivesTheSameEventsAndTruth() {
    let first = SyntheticEventStream(corpus: Self.corpus, eventCount: 30_000, seed: 11)
    let second = SyntheticEventStream(corpus: Self.corpus, eventCount: 30_000, seed: 11)
    let other = SyntheticEventStream(corpus: Self.corpus, eventCount: 30_000, seed: 12)
    #expect(first.truth == second.truth)
    let events = Self.allEvents(of: first, chunkSize: 4_096)
    #expect(events == Self.allEvents(of: second, chunkSize: 4_096))
    #expect(events != Self.allEvents(of: other, chunkSize: 4_096))
    #expect(first.effects.map(\.name) == second.effects.map(\.name))
  }

  @Test(arguments: [1, 7, 1_000, 25_000, 1_000_000])
  func chunkSizesChangeNothingAndTheCountIsExact(chunkSize: Int) {
    let stream = SyntheticEventStream(corpus: Self.corpus, eventCount: 25_000, seed: 3)
    let reference = Self.allEvents(of: stream, chunkSize: 4_096)
    let events = Self.allEvents(of: stream, chunkSize: chunkSize)
    #expect(reference.count == 25_000)
    #expect(events == reference, "chunk size \(chunkSize)")
  }

  @Test(arguments: [0, 1, 999, 12_345])
  func eventCountIsExactForAnyCount(eventCount: Int) {
    var stream = SyntheticEventStream(corpus: Self.corpus, eventCount: eventCount, seed: 5)
    #expect(Self.allEvents(of: stream, chunkSize: 1_000).count == eventCount)
    while !stream.nextChunk(maxCount: 500).isEmpty {}
    #expect(stream.emittedCount == eventCount)
    #expect(stream.nextChunk(maxCount: 10).isEmpty)
  }

  @Test func truthHasThePlantedMix() throws {
    let truth = Self.fullStream.truth
    let counts = Dictionary(grouping: truth.risers, by: \.type).mapValues(\.count)
    #expect(counts == [.video: 20, .hashtag: 8, .sound: 6, .effect: 6], "seed \(Self.seed)")
    #expect(truth.bots.count == 10)
    #expect(truth.steadyVideoIDs == (1...20).map { "v\($0)" })
    // A one-day stream keeps its first half as the baseline.
    let baselineEnd = SyntheticCorpus.referenceDate.addingTimeInterval(43_200)
    #expect(truth.risers.allSatisfy { $0.burstStart >= baselineEnd })
    #expect(truth.bots.allSatisfy { $0.start >= baselineEnd })
    #expect(truth.risers.map(\.burstStart) == truth.risers.map(\.burstStart).sorted())
    let keys = truth.risers.map { "\($0.type):\($0.key)" }
    #expect(Set(keys).count == keys.count)
    let steady = Set(truth.steadyVideoIDs)
    let bots = Set(truth.bots.map(\.videoID))
    for riser in truth.risers where riser.type == .video {
      #expect(!steady.contains(riser.key) && !bots.contains(riser.key))
    }
    #expect(bots.isDisjoint(with: steady))
    let hashtagsByID = Dictionary(uniqueKeysWithValues: Self.corpus.hashtags.map { ($0.id, $0) })
    for riser in truth.risers where riser.type == .hashtag {
      let document = try #require(riser.hashtagDocumentID.flatMap { hashtagsByID[$0] })
      #expect(Analyzer.fold(document.name) == riser.key)
    }
    let effectIDs = Set(Self.fullStream.effects.map(\.id))
    #expect(truth.risers.filter { $0.type == .effect }.allSatisfy { effectIDs.contains($0.key) })
    #expect(truth.risers.allSatisfy { $0.type == .hashtag || $0.hashtagDocumentID == nil })
  }

  @Test func smallStreamsPlantFewer() {
    // A quarter of the full rate over three days: a quarter of the mix.
    let small = SyntheticEventStream(corpus: Self.corpus, eventCount: 288_000, seed: 2).truth
    #expect((8...12).contains(small.risers.count))
    #expect((2...3).contains(small.bots.count))
    let tiny = SyntheticEventStream(corpus: Self.corpus, eventCount: 1_000, seed: 2).truth
    #expect(tiny.risers.isEmpty && tiny.bots.isEmpty)
  }

  @Test func effectsAndInventedSoundsAreNamedOnce() {
    let effects = Self.fullStream.effects
    #expect(effects.count == 200)
    #expect(effects.first?.id == "fx1" && effects.last?.id == "fx200")
    #expect(Set(effects.map(\.name)).count == 200)
    #expect(Self.fullStream.inventedSounds.isEmpty)
    var soundless = Self.corpus
    soundless.soundIDs = []
    let stream = SyntheticEventStream(corpus: soundless, eventCount: 20_000, seed: 1)
    let invented = Set(stream.inventedSounds.map(\.id))
    #expect(invented.count == 200)
    let sounds = Self.allEvents(of: stream, chunkSize: 10_000).compactMap(\.sound)
    #expect(!sounds.isEmpty && sounds.allSatisfy { invented.contains($0) })
  }

  @Test func compositionFollowsTheDocumentedShares() {
    let events = Self.fullEvents
    let total = Double(events.count)
    var kinds: [ContentEvent.Kind: Int] = [:]
    for event in events { kinds[event.kind, default: 0] += 1 }
    for (kind, share) in [(ContentEvent.Kind.view, 0.90), (.like, 0.06), (.share, 0.02)] {
      #expect(abs(Double(kinds[kind, default: 0]) / total - share) < 0.015, "\(kind)")
    }
    #expect((0.015...0.035).contains(Double(kinds[.post, default: 0]) / total))
    let withoutRegion = Double(events.filter { $0.region == nil }.count) / total
    #expect(abs(withoutRegion - 0.30) < 0.05)
    let regions = Set(events.compactMap(\.region))
    #expect(regions == ["US", "BR", "IN", "ID", "JP", "GB", "DE", "MX"])
  }

  @Test func postsCarryCorpusHashtagsSoundsAndStreamEffects() {
    let posts = Self.fullEvents.filter { $0.kind == .post }
    let names = Set(Self.corpus.hashtags.map { $0.name.lowercased() })
    let sounds = Set(Self.corpus.soundIDs)
    let effects = Set(Self.fullStream.effects.map(\.id))
    #expect(posts.allSatisfy { (1...4).contains($0.hashtags.count) })
    #expect(posts.allSatisfy { $0.hashtags.allSatisfy { names.contains($0.lowercased()) } })
    #expect(posts.allSatisfy { $0.sound.map(sounds.contains) ?? true })
    #expect(posts.allSatisfy { $0.effect.map(effects.contains) ?? true })
    #expect(posts.allSatisfy { $0.videoID.hasPrefix("ev") })
    #expect(Set(posts.map(\.videoID)).count == posts.count)
    let retyped = posts.flatMap(\.hashtags).filter { !names.contains($0) }
    #expect(!retyped.isEmpty, "some posts write a hashtag in another case")
  }

  @Test func lateEventsAreFewAndAtMostTenMinutesLate() {
    var latest = Date.distantPast
    var late = 0
    for event in Self.fullEvents {
      if event.time < latest {
        late += 1
        #expect(latest.timeIntervalSince(event.time) <= 600)
      }
      latest = max(latest, event.time)
    }
    let share = Double(late) / Double(Self.fullEvents.count)
    #expect((0.003...0.015).contains(share), "late share \(share)")
    let stream = Self.fullStream
    #expect(Self.fullEvents.allSatisfy { $0.time >= stream.start && $0.time < stream.end })
  }

  @Test func risersBurstAfterTheirStartFromManyDistinctUsers() {
    var waveVideos: [String: Set<String>] = [:]
    for event in Self.fullEvents where event.kind == .post {
      for key in Self.riserKeys(ofPost: event) {
        waveVideos[key, default: []].insert(event.videoID)
      }
    }
    for riser in Self.fullStream.truth.risers {
      let key = "\(riser.type):\(riser.key)"
      let videos = riser.type == .video ? [riser.key] : waveVideos[key, default: []]
      let firstMinutes = riser.burstStart..<riser.burstStart.addingTimeInterval(300)
      let hourBefore = riser.burstStart.addingTimeInterval(-3_600)..<riser.burstStart
      var usersInFirstMinutes: Set<String> = []
      var eventsHourBefore = 0
      for video in videos {
        for event in Self.fullEventsByVideo[video, default: []].map({ Self.fullEvents[$0] }) {
          if firstMinutes.contains(event.time) { usersInFirstMinutes.insert(event.userID) }
          if hourBefore.contains(event.time) { eventsHourBefore += 1 }
        }
      }
      #expect(usersInFirstMinutes.count >= 20, "\(key): seed \(Self.seed)")
      // Five times the rate of the hour before, at least: events an hour before / 60 minutes
      // against distinct users in the first 5 minutes / 5.
      #expect(eventsHourBefore * 25 < usersInFirstMinutes.count * 60, "\(key) was not quiet")
    }
  }

  @Test func botBurstsComeFromAtMostThreeUsersOnTheirVideo() {
    for burst in Self.fullStream.truth.bots {
      #expect((1...3).contains(burst.botUserIDs.count))
      #expect(burst.viewCount >= 1_000)
      let bots = Set(burst.botUserIDs)
      let events = Self.fullEvents.filter { bots.contains($0.userID) }
      #expect(events.count == burst.viewCount)
      let window = burst.start..<burst.start.addingTimeInterval(burst.duration)
      #expect(events.allSatisfy { $0.videoID == burst.videoID && window.contains($0.time) })
      #expect(events.allSatisfy { $0.kind == .view })
    }
  }

  @Test func documentsAreDescribedByType() {
    let corpus = EventStreamCorpus(documents: [
      .video(Video(id: "a", title: "A", hashtags: ["Dance"], creator: "c", sound: "s")),
      .user(User(id: "c", username: "carol")),
      .hashtag(Hashtag(id: "h", name: "Dance", videoCount: 3)),
      .sound(Sound(id: "s", title: "Song")),
    ])
    #expect(corpus.videos == [.init(id: "a", hashtags: ["Dance"], sound: "s", creator: "c")])
    #expect(corpus.hashtags == [.init(id: "h", name: "Dance", videoCount: 3)])
    #expect(corpus.soundIDs == ["s"] && corpus.userIDs == ["c"])
    let events = Self.allEvents(
      of: SyntheticEventStream(corpus: corpus, eventCount: 2_000, seed: 1), chunkSize: 512)
    #expect(events.count == 2_000)
    #expect(events.filter { $0.kind != .post }.allSatisfy { $0.videoID == "a" })
  }

  /// The riser keys a post counts toward: its folded hashtags, its sound, its effect.
  static func riserKeys(ofPost event: ContentEvent) -> [String] {
    event.hashtags.map { "hashtag:\(Analyzer.fold($0))" }
      + [event.sound.map { "sound:\($0)" }, event.effect.map { "effect:\($0)" }].compactMap { $0 }
  }
}
