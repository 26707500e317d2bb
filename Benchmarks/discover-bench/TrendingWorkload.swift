import DiscoverCLI
import DiscoverSearch
import Foundation
import Synchronization
import SyntheticCorpus

/// Records a seeded synthetic event stream into trending content and judges the lists
/// against the stream's own record of what it planted (DESIGN contract 3, `--events N`).
///
/// Events are made in chunks of about a fifth of a simulated minute outside the clock;
/// recording each chunk is timed. The simulated "now" is the newest event time; once a
/// simulated minute, lists are asked for at that "now" (every list call timed, each one a
/// refresh since the clock moved past the refresh interval):
/// - each planted riser's list, in each of the five minutes after its burst starts: it is
///   found when its key is in the top 50 in any of them;
/// - the video list during each bot burst's first five minutes: the bot target must not be
///   flagged rising;
/// - every tenth minute after the first simulated day, the video list: no steady hit may be
///   flagged rising. The first day is the baseline: at the start of the stream every item is
///   new (its long window empty), as after a cold start, and the generator plants nothing in
///   it.
struct TrendingWorkload {
  /// How deep a riser may be and still count as found: the top 50.
  static let listDepth = 50
  /// Minutes after a burst starts within which a riser must show.
  static let detectionMinutes = 5

  struct Result {
    var events: Int
    var recordSeconds: Double
    var usage: TrendingMemoryUsage
    /// Each list asked for after the clock moved: a refresh, computed from the counters.
    var listLatency: LatencySummary
    /// The same list asked for again at the same "now": served from the cache, as most
    /// requests of a service are within a refresh interval.
    var cachedListLatency: LatencySummary
    var risersPlanted: Int
    var risersFound: Int
    var botsFlaggedRising: Int
    var steadyFlaggedRising: Int
    var report: TrendingRecordReport
    var eventsPerSecond: Double { recordSeconds > 0 ? Double(events) / recordSeconds : 0 }
  }

  let options: BenchmarkOptions
  let eventCount: Int
  var progress: ProgressLine?

  func run() throws -> Result {
    progress?.update("Trending: preparing the corpus and the event stream")
    let documents = try Self.corpusDocuments(options)
    var stream = SyntheticEventStream(
      corpus: EventStreamCorpus(documents: documents), eventCount: eventCount, seed: options.seed)
    let extras =
      stream.effects.map { Document.effect(Effect(id: $0.id, name: $0.name)) }
      + stream.inventedSounds.map { Document.sound(Sound(id: $0.id, title: $0.title)) }
    let index = try DiscoverIndex.build(from: documents + extras)
    let clock = SimulatedClock(stream.start)
    let trending = TrendingContent(index: index, clock: clock.function)
    var judge = TrendingJudge(truth: stream.truth, start: stream.start)

    // Chunks of about a fifth of a simulated minute; lists are judged once a simulated minute.
    let chunkSize = max(1, eventCount / (stream.days * 1_440 * 5))
    var newest = stream.start
    var nextCheck = stream.start + 60
    var nanoseconds: UInt64 = 0
    var report = TrendingRecordReport()
    var recorded = 0
    var listMicros: [Double] = []
    var cachedMicros: [Double] = []
    var minute = 0
    while true {
      let chunk = stream.nextChunk(maxCount: chunkSize)
      if chunk.isEmpty { break }

      let start = Measurement.now()
      report.add(try trending.record(contentsOf: chunk))
      nanoseconds += Measurement.now() - start
      recorded += chunk.count
      // The stream's own time: the newest event so far (its events are nearly sorted).
      newest = max(newest, chunk.map(\.time).max() ?? newest)
      clock.set(newest)
      if newest >= nextCheck {
        try judge.check(
          at: newest, trending: trending, latencies: &listMicros, cachedLatencies: &cachedMicros)
        nextCheck = newest + 60
        minute += 1
      }
      if minute % 60 == 0 {
        progress?.update(
          "Trending: \(TextFormatting.grouped(recorded)) of \(TextFormatting.grouped(eventCount)) events recorded"
        )
      }
    }
    return Result(
      events: recorded, recordSeconds: Double(nanoseconds) / 1e9, usage: trending.memoryUsage,
      listLatency: LatencySummary(microseconds: listMicros),
      cachedListLatency: LatencySummary(microseconds: cachedMicros),
      risersPlanted: stream.truth.risers.count, risersFound: judge.risersFound.count,
      botsFlaggedRising: judge.botsFlagged.count, steadyFlaggedRising: judge.steadyFlagged.count,
      report: report)
  }

  /// The benchmark's corpus as documents: the synthetic one or the file.
  static func corpusDocuments(_ options: BenchmarkOptions) throws -> [Document] {
    if let count = options.documentCount {
      var documents: [Document] = []
      documents.reserveCapacity(count)
      SyntheticCorpus(documentCount: count, seed: options.seed).forEachBatch(
        size: IndexingWorkload.batchSize
      ) { documents += $0 }
      return documents
    }
    return try CorpusLoader.loadDocuments(
      at: options.corpus ?? BenchmarkOptions.embeddedCorpus, policy: .skip
    ).documents
  }
}

/// A clock the workload moves to each simulated minute.
final class SimulatedClock: Sendable {
  private let current: Mutex<Date>
  init(_ start: Date) { current = Mutex(start) }
  var now: Date { current.withLock { $0 } }
  func set(_ date: Date) { current.withLock { $0 = date } }
  var function: @Sendable () -> Date { { self.now } }
}

/// Asks for the lists the truth needs judged at each simulated minute, and keeps the verdicts.
struct TrendingJudge {
  let truth: EventStreamTruth
  let steady: Set<String>
  private(set) var risersFound = Set<Int>()
  private(set) var botsFlagged = Set<Int>()
  private(set) var steadyFlagged = Set<String>()
  private var minute = 0
  static let debug = ProcessInfo.processInfo.environment["DISCOVER_BENCH_TRENDING_DEBUG"] != nil
  /// When the baseline day ends.
  let baselineEnd: Date

  init(truth: EventStreamTruth, start: Date) {
    self.truth = truth
    steady = Set(truth.steadyVideoIDs)
    baselineEnd = start + 86_400
  }

  /// Lists at `now`, timing every call, and records what they show.
  mutating func check(
    at now: Date, trending: TrendingContent, latencies: inout [Double],
    cachedLatencies: inout [Double]
  ) throws {
    minute += 1
    var lists: [ContentType: TrendingPage] = [:]
    func list(_ type: ContentType) throws -> TrendingPage {
      if let page = lists[type] { return page }
      let start = Measurement.now()
      let page = try trending.list(type, limit: TrendingWorkload.listDepth)
      latencies.append(Double(Measurement.now() - start) / 1e3)
      let again = Measurement.now()
      let cached = try trending.list(type, limit: TrendingWorkload.listDepth)
      cachedLatencies.append(Double(Measurement.now() - again) / 1e3)
      precondition(cached == page, "a cached list differs from the list just computed")
      lists[type] = page
      return page
    }
    let window = Double(TrendingWorkload.detectionMinutes) * 60
    for (number, riser) in truth.risers.enumerated() where !risersFound.contains(number) {
      let age = now.timeIntervalSince(riser.burstStart)
      guard age > 0, age <= window else { continue }
      let page = try list(riser.type)
      let found = page.items.contains { item in
        riser.type == .hashtag
          ? (item.id == riser.hashtagDocumentID || item.title.lowercased() == riser.key)
          : item.id == riser.key
      }
      if found { risersFound.insert(number) }
      if !found, age > window - 60, Self.debug {
        let explanation = try trending.explain(riser.type, id: riser.key)
        print(
          "missed \(riser.type) \(riser.key) peak \(riser.peakEventsPerMinute)/min: O \(explanation?.observed ?? -1) E \(explanation?.expected ?? -1) z \(explanation?.z ?? -1) users \(explanation?.distinctUsers ?? -1) views \(explanation?.lifetimeViews ?? -1) actors \(explanation?.lifetimeActors ?? -1) \(explanation?.reasons ?? []) last score \(page.items.last?.score ?? -1)"
        )
      }
    }
    for (number, bot) in truth.bots.enumerated() {
      let age = now.timeIntervalSince(bot.start)
      guard age > 0, age <= max(window, bot.duration + 60) else { continue }
      if try list(.video).items.contains(where: { $0.id == bot.videoID && $0.isRising }) {
        botsFlagged.insert(number)
      }
    }
    if minute % 10 == 0, now > baselineEnd {
      for item in try list(.video).items where item.isRising && steady.contains(item.id) {
        if Self.debug, !steadyFlagged.contains(item.id),
          let explanation = try trending.explain(.video, id: item.id)
        {
          print(
            "steady \(item.id) at \(now): O \(explanation.observed) E \(explanation.expected) z \(explanation.z)"
          )
        }
        steadyFlagged.insert(item.id)
      }
    }
  }
}
