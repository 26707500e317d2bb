import DiscoverSearch
import Foundation

/// A seeded, deterministic stream of ``ContentEvent``s over simulated days on a corpus, with
/// its own record of the risers and bot bursts it planted (``truth``).
///
/// The stream is made one simulated minute at a time, in emission order, straight into the
/// chunks that ``nextChunk(maxCount:)`` hands out, so fifty million events never need to be
/// held at once; the events do not depend on the chunk sizes asked for. What it holds:
/// - **Background** traffic, about 96% of the events: views, likes, shares and posts in the
///   proportions 90 : 6 : 2 : 2, steady apart from a mild daily cycle. Videos come from the
///   corpus by a Zipf law on their view-count rank, users from a pool of ``eventUserCount``
///   accounts (`eu1`, ...) by a milder Zipf law on activity, each user with a fixed region
///   (70% of them have one of eight). Posts are new videos (`ev1`, ...) by corpus users, with
///   1 to 4 corpus hashtags, a sound (80%) and one of the stream's own ``effects`` (30%).
/// - **Steady hits**: the head of the popularity ranking keeps a constant high rate, which is
///   the background's Zipf head itself; ``EventStreamTruth/steadyVideoIDs`` names them.
/// - **Planted risers** after the first day, so that a baseline exists: videos whose rate
///   jumps 30 to 100 times, and waves of new videos on one hashtag, sound or effect. Each
///   holds its peak for 30 to 120 minutes and then decays with a 10-minute time constant.
/// - **Bot bursts**: one to three accounts (`bot1`, ...) viewing one video thousands of times
///   within a few minutes.
/// - **Late events**: 1% of events are emitted up to 10 simulated minutes after their time, so
///   chunks are in emission order and times are nearly sorted. An event is made at its place
///   in emission order and a late one dated back, which needs no buffer and never moves an
///   event once made.
///
/// Planted volumes scale with ``eventCount``, so a stream of two million events and one of
/// twenty million have the same composition (about 4% planted). Every burst peaks at 8 events
/// a minute at least, to be plain within five minutes; so that this floor never dominates, a
/// stream of less than 267 events a minute (1.15 million over three days) plants
/// proportionally fewer risers and bot bursts.
///
/// ```swift
/// var stream = SyntheticEventStream(
///   corpus: EventStreamCorpus(documents: documents), eventCount: 5_000_000, seed: 42)
/// let truth = stream.truth
/// while case let chunk = stream.nextChunk(maxCount: 100_000), !chunk.isEmpty {
///   for event in chunk { trending.record(event) }
/// }
/// ```
package struct SyntheticEventStream: Sendable {
  /// The simulated days of a stream unless told otherwise: three, so planted risers have two
  /// days after a day of baseline.
  package static let defaultDays = 3
  /// The fewest event users: a pool small enough to show bot-like repetition would make the
  /// background itself look like bots.
  static let minimumEventUserCount = 10_000
  /// Events per event user: one user for every 20 events keeps a heavy user's share of a
  /// video's audience far below a bot's at any stream size.
  static let eventsPerEventUser = 20
  /// The share of events emitted late, and the most they are delayed (10 simulated minutes).
  static let lateShare = 0.01
  static let maximumDelay: TimeInterval = 600

  /// How many events the stream holds: ``nextChunk(maxCount:)`` hands out exactly this many.
  package let eventCount: Int
  /// The seed every event derives from.
  package let seed: UInt64
  /// When the first simulated minute starts.
  package let start: Date
  /// How many simulated days the events span: every event's time is in `start..<end`.
  package let days: Int
  /// The effects that posts use, `fx1` to `fx200` with invented names; the benchmark adds them
  /// to its index as effect documents.
  package let effects: [(id: String, name: String)]
  /// Sounds the stream invents when the corpus has none (`es1`, ...), which the benchmark then
  /// adds as sound documents; empty when the corpus has sounds, which posts then use.
  package let inventedSounds: [(id: String, title: String)]
  /// What the stream planted: available before the first event.
  package let truth: EventStreamTruth
  /// How many events have been handed out so far.
  package private(set) var emittedCount = 0

  // The catalog, ranked by popularity, and its samplers.
  let videoIDs: [String]
  let videoSampler: ZipfSampler
  let hashtagNames: [String]
  let hashtagSampler: ZipfSampler?
  let soundIDs: [String]
  let soundSampler: ZipfSampler?
  let effectIDs: [String]
  let effectSampler: ZipfSampler
  let creatorIDs: [String]
  /// The pool's user ids, `eu1`, ..., made once so that no event formats a number.
  let eventUserIDs: [String]
  let eventUserRegions: [UInt8]
  let eventUserSampler: ZipfSampler

  // The plan.
  let bursts: [Burst]
  let backgroundEventCount: Int
  let totalMinutes: Int
  let startSeconds: TimeInterval

  // Generation state: the minute being made, and what is left of it.
  var generator: Xoshiro256StarStar
  var nextMinute = 0
  var minuteStart: TimeInterval = 0
  var minuteEventCount = 0
  var slot = 0
  var backgroundLeft = 0
  var burstLeft = 0
  var activeBursts: [Int] = []
  var activeRemaining: [Int] = []
  var nextPostNumber = 1
  var waveVideos: [[String]]
  var idScratch: [UInt8] = []

  /// The number of users in the background pool: one per 20 events, at least 10,000.
  package var eventUserCount: Int { eventUserIDs.count }

  /// When the last simulated minute ends.
  package var end: Date { start.addingTimeInterval(Double(totalMinutes) * 60) }

  /// Plans a stream of `eventCount` events over `days` days on `corpus`.
  ///
  /// Every plant decision is made here, so ``truth`` is complete before the first chunk.
  ///
  /// - Parameters:
  ///   - corpus: The videos (at least one), hashtags, sounds and users events refer to.
  ///   - eventCount: Exactly how many events the stream holds, at least 0.
  ///   - seed: Any value; equal seeds on equal corpora give identical streams.
  ///   - start: When the first simulated minute starts; by default the synthetic corpus's
  ///     reference date, so a stream does not depend on the day it is made.
  ///   - days: How many simulated days the events span, at least 1.
  /// - Complexity: O(v log v + h log h + eventCount / 20) for v videos and h hashtags.
  package init(
    corpus: EventStreamCorpus, eventCount: Int, seed: UInt64,
    start: Date = SyntheticCorpus.referenceDate, days: Int = defaultDays
  ) {
    precondition(eventCount >= 0, "eventCount must not be negative, got \(eventCount)")
    precondition(days >= 1, "days must be at least 1, got \(days)")
    precondition(!corpus.videos.isEmpty, "an event stream needs at least one corpus video")
    self.eventCount = eventCount
    self.seed = seed
    self.start = start
    self.days = days
    self.totalMinutes = days * Self.minutesPerDay
    self.startSeconds = start.timeIntervalSinceReferenceDate

    let ranked = RankedCorpus(corpus)
    videoIDs = ranked.videoIDs
    videoSampler = ZipfSampler(count: videoIDs.count, exponent: Self.videoExponent)
    hashtagNames = ranked.hashtags.map(\.name)
    hashtagSampler =
      hashtagNames.isEmpty
      ? nil : ZipfSampler(count: hashtagNames.count, exponent: Self.hashtagExponent)
    let effects = Self.makeCatalogNames(
      count: Self.effectCount, idPrefix: "fx", words: Self.effectWords, seed: seed ^ 0xEFFEC7)
    self.effects = effects.map { (id: $0.id, name: $0.name) }
    effectIDs = effects.map(\.id)
    effectSampler = ZipfSampler(count: effectIDs.count, exponent: Self.effectExponent)
    let inventedSounds =
      ranked.soundIDs.isEmpty
      ? Self.makeCatalogNames(
        count: Self.inventedSoundCount, idPrefix: "es", words: Self.soundWords,
        seed: seed ^ 0x50C7D)
      : []
    self.inventedSounds = inventedSounds.map { (id: $0.id, title: $0.name) }
    soundIDs = ranked.soundIDs.isEmpty ? inventedSounds.map(\.id) : ranked.soundIDs
    soundSampler =
      soundIDs.isEmpty ? nil : ZipfSampler(count: soundIDs.count, exponent: Self.soundExponent)

    let userCount = Swift.max(
      Self.minimumEventUserCount, eventCount / Self.eventsPerEventUser)
    eventUserIDs = Self.makeIDs(prefix: "eu", count: userCount)
    eventUserRegions = Self.makeUserRegions(count: userCount, seed: seed ^ 0x4E610)
    eventUserSampler = ZipfSampler(count: userCount, exponent: Self.userExponent)
    creatorIDs = ranked.creatorIDs.isEmpty ? Array(eventUserIDs.prefix(1_000)) : ranked.creatorIDs

    var planner = Planner(
      ranked: ranked, soundIDs: soundIDs, effectIDs: effectIDs, eventCount: eventCount,
      totalMinutes: totalMinutes, startSeconds: startSeconds, seed: seed)
    let plan = planner.makePlan()
    bursts = plan.bursts
    truth = plan.truth
    backgroundEventCount = eventCount - plan.plantedEventCount
    waveVideos = Array(repeating: [], count: plan.bursts.count)
    generator = Xoshiro256StarStar(seed: SplitMix64.mix(seed ^ 0xE7E475))
  }

  /// The next events in emission order: at most `maxCount`, and an empty array once all
  /// ``eventCount`` events have been handed out.
  ///
  /// Chunks are cut from one fixed sequence: the events, and their order, do not depend on the
  /// chunk sizes asked for. Times are in order except for the 1% of late events, each emitted
  /// at most 10 simulated minutes after its time.
  ///
  /// - Parameter maxCount: The most events to return, at least 1.
  /// - Returns: The next events, or `[]` at the end.
  /// - Complexity: O(maxCount), plus O(bursts) for each simulated minute begun.
  package mutating func nextChunk(maxCount: Int) -> [ContentEvent] {
    precondition(maxCount > 0, "maxCount must be positive, got \(maxCount)")
    let count = Swift.min(maxCount, eventCount - emittedCount)
    var chunk: [ContentEvent] = []
    chunk.reserveCapacity(count)
    while chunk.count < count {
      if slot == minuteEventCount {
        beginMinute()
        continue
      }
      chunk.append(makeNextEvent())
    }
    emittedCount += count
    return chunk
  }
}
