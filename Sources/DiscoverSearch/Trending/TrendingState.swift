import Foundation

/// Everything trending content knows, as one value: the journal of deduplicated
/// contributions, the counters derived from it, and what posts said videos use.
///
/// Its contents are internal: a ``TrendingStore`` keeps it, ``TrendingContent`` reads and
/// changes it.
///
/// **Exactness.** The short and long decayed sums and the distinct-user sketches are a pure
/// function of the journal and each window's landmark epoch; the lifetime views and lifetime
/// actors are integer sums over the events. So recording a stream in any order, recording
/// any split of it on several instances and merging them (`merge(_:)`), retracting a user
/// (`retract(user:viewedItems:)`), or saving and reopening, all give the same state, bit
/// for bit, as long as no event is older than the retention horizon and nothing is evicted.
///
/// **Landmarks.** Each window of each type has its own landmark (`DecayClock`). When the
/// short window's moves (every 16 short half-lives of event time), only the short sums are
/// recomputed, from the entries of the last 17 short half-lives (the journal's newest
/// tables): older ones weigh under half a unit against the new landmark, which rounds to
/// exactly 0. When the
/// long window's moves (every 16 long half-lives), entries past the retention horizon are
/// dropped and the type's counters are recomputed from the whole journal.
///
/// - Complexity: recording a contribution is O(1) expected; a short landmark move is O(r) in
///   the recent entries; a long landmark move, a merge and a retraction are O(n) in the
///   journal.
public struct TrendingState: Sendable {
  let configuration: TrendingConfiguration
  let clocks: [DecayClock]

  /// Per content type, the landmark of the short window's epoch; `nil` before its first
  /// contribution.
  var shortLandmarks: [Int64?] = [nil, nil, nil, nil]
  /// Per content type, the landmark of the long window's epoch.
  var longLandmarks: [Int64?] = [nil, nil, nil, nil]
  /// The newest event time recorded, seconds since 2001-01-01: lists are read no earlier.
  var newestTime: Int64 = .min
  /// The earliest event time recorded: how long the windows have been filling (see
  /// ``warmUpRatio(_:at:)``).
  var firstTime: Int64?
  /// The deduplicated contributions, one table per deduplication span.
  var journal = PartitionedJournal()
  /// Per content type, counters by item key (global) and by ``ContentKey/inRegion(_:)`` key.
  var counters = [FingerprintTable<ContentKey, ItemCounters>](repeating: .init(), count: 4)
  /// Per content type, the counters that reached the minimum observed count: the
  /// candidates of the type's lists, each with a copy of its counters.
  var hot = [CandidateList](repeating: CandidateList(), count: 4)
  /// The lifetime views of the hashtags, sounds and effects videos use: the views of those
  /// videos, in all regions. Kept apart from the counters (see ``UseViews``).
  var useViews = UseViews()
  /// Associations of videos known from posts.
  var postedVideos: [ContentKey: PostedVideo] = [:]
  /// Bumped by every change, for list caches.
  var generation: UInt64 = 0
  /// Per content type, the weights and threshold last computed: events come about in time
  /// order, several in each second, and reuse them. A cache only, never compared or saved.
  private var memos = InlineArray<4, WeightMemo>(repeating: WeightMemo())
  /// The keys of the hashtags posts named lately. A cache only, never compared or saved.
  var hashtagKeys = HashtagKeys()

  init(configuration: TrendingConfiguration) {
    self.configuration = configuration
    clocks = ContentType.allCases.map {
      DecayClock(
        configuration.windows(for: $0), retentionHalfLives: configuration.retentionHalfLives)
    }
  }

  func clock(_ type: ContentType) -> DecayClock { clocks[type.index] }

  /// The latest event time recorded, in seconds since 2001-01-01 (in the year 2127): journal
  /// entries keep times in 32 bits.
  static let latestSeconds: Int64 = 3_999_999_999

  // MARK: Recording

  /// Records one deduplicated contribution.
  mutating func contribute(_ key: JournalKey, _ entry: JournalEntry) -> RecordOutcome {
    let type = entry.type
    let clock = clock(type)
    advanceLandmarks(of: type, to: entry.time)
    let shortLandmark = shortLandmarks[type.index]!
    let longLandmark = longLandmarks[type.index]!
    guard entry.time >= longLandmark - clock.retention else { return .tooOld }
    generation &+= 1
    newestTime = max(newestTime, entry.time)
    firstTime = min(firstTime ?? entry.time, entry.time)
    let (previous, updated) = journal.modifyValue(forKey: key, inserting: entry) {
      stored, isNew in
      if isNew { return (JournalEntry?.none, stored) }
      let previous = stored
      stored = stored.merged(with: entry)
      return (previous, stored)
    }
    let isNew = previous == nil
    let reweighs = isNew || !previous!.weighsTheSame(as: updated)
    // Each weight once, for the global and the regional counter alike.
    let units = memos[type.index].weights(
      at: updated.time, shortLandmark: shortLandmark, longLandmark: longLandmark, clock: clock)
    var shortDelta = UInt64(updated.weight) &* units.short
    var longDelta = UInt64(updated.weight) &* units.long
    if let previous, reweighs {
      shortDelta &-=
        UInt64(previous.weight)
        &* clock.weight(at: previous.time, landmark: shortLandmark, halfLife: clock.shortHalfLife)
      longDelta &-=
        UInt64(previous.weight)
        &* clock.weight(at: previous.time, landmark: longLandmark, halfLife: clock.longHalfLife)
    }
    let userHash = DistinctSketch.hash(of: entry.user)
    let actors: UInt32 = isNew && key.isLifetime ? 1 : 0
    let threshold = memos[type.index].threshold(
      at: newestTime, landmark: shortLandmark, clock: clock,
      minimum: configuration.minimumObservedCount)
    let deltas = CounterDeltas(
      short: reweighs ? shortDelta : 0, long: reweighs ? longDelta : 0,
      user: isNew ? userHash : nil, views: entry.views, actors: actors)
    apply(
      deltas, type: type, to: key.item, list: RankingKey(type: type, region: 0), item: key.item,
      hotThreshold: threshold)
    if key.region != 0 {
      apply(
        deltas, type: type, to: key.regionalCounterKey,
        list: RankingKey(type: type, region: key.region), item: key.item, hotThreshold: threshold)
    }
    return reweighs ? .counted : .duplicate
  }

  /// What one contribution changes in a counter.
  private struct CounterDeltas {
    var short: UInt64
    var long: UInt64
    var user: UInt16?
    var views: UInt32
    var actors: UInt32
  }

  /// Adds the deltas to one counter, and makes it a candidate of its list when its short sum
  /// crosses the threshold.
  ///
  /// Only a crossing is checked: within a landmark epoch a short sum only grows and the
  /// threshold (the minimum count at the newest time) only rises, so a sum that was already
  /// at the threshold before this contribution was at it when it last grew, and joined then.
  /// Everything that lowers sums or moves landmarks recomputes the candidates.
  private mutating func apply(
    _ deltas: CounterDeltas, type: ContentType, to counterKey: ContentKey, list: RankingKey,
    item: ContentKey, hotThreshold: Double
  ) {
    let (crosses, updated) = counters[type.index].modifyValue(
      forKey: counterKey, inserting: .filler
    ) { counter, _ in
      let before = Double(counter.short)
      counter.short &+= deltas.short
      counter.long &+= deltas.long
      if let user = deltas.user { counter.users.insert(hash: user) }
      counter.views &+= deltas.views
      counter.lifetimeActors &+= deltas.actors
      return (before < hotThreshold && Double(counter.short) >= hotThreshold, counter)
    }
    if crosses {
      hot[type.index].insert(
        counter: counterKey, item: item, region: list.region, counters: updated)
    } else {
      hot[type.index].update(counterKey, to: updated)
    }
  }

  /// Changes one counter in place, creating it when missing.
  @inline(__always)
  private mutating func modifyCounter(
    _ type: ContentType, _ key: ContentKey, _ body: (inout ItemCounters) -> Void
  ) {
    counters[type.index].modifyValue(forKey: key, inserting: .filler) { counter, _ in
      body(&counter)
    }
  }

  /// Adds views of a video to the lifetime views of an item it uses (a hashtag, sound or
  /// effect), without a journal entry: those items trend by their participants and uses, and
  /// their views, a total over all regions, are only shown.
  mutating func addViews(_ views: UInt32, to item: ContentKey) {
    useViews.add(UInt64(views), to: item)
  }

  /// The lifetime views of an item: a video's own (in its region, for a regional counter), or
  /// the views of the videos using a hashtag, sound or effect (in all regions).
  func lifetimeViews(of item: ContentKey, _ type: ContentType, counters: ItemCounters) -> UInt64 {
    type == .video ? UInt64(counters.views) : useViews.views(of: item)
  }

  /// Records what a post said a video uses; the earliest post wins.
  mutating func recordPost(of video: ContentKey, _ posted: PostedVideo) {
    if let existing = postedVideos[video], existing.time <= posted.time { return }
    generation &+= 1
    postedVideos[video] = posted
  }

  // MARK: Reading

  /// The factors that turn a type's fixed-point sums into decayed counts at `now` (seconds
  /// since 2001-01-01), read no earlier than the newest event, so that no count exceeds its
  /// contributions.
  func decayFactors(_ type: ContentType, at now: Double) -> (short: Double, long: Double) {
    guard let shortLandmark = shortLandmarks[type.index],
      let longLandmark = longLandmarks[type.index]
    else { return (0, 0) }
    let clock = clock(type)
    let readTime = max(now, Double(newestTime))
    return (
      clock.value(of: 1, landmark: shortLandmark, at: readTime, halfLife: clock.shortHalfLife),
      clock.value(of: 1, landmark: longLandmark, at: readTime, halfLife: clock.longHalfLife)
    )
  }

  /// `E / L`: the short-window count a long-window count `L` predicts, per unit of `L`.
  ///
  /// For a steady rate `r` over the last `a` seconds, a window of mean lifetime `τ` holds
  /// `r τ (1 - e^(-a/τ))`, so `E = L · τ_short (1 - e^(-a/τ_short)) / (τ_long (1 - e^(-a/τ_long)))`.
  /// Long after the first event this is `τ_short / τ_long`; in the first hours the long window
  /// has not filled yet, and without the correction every item would look twice as busy as
  /// its past at the end of the first day. The factor is the bias correction of an
  /// exponentially weighted average started from zero (Kingma and Ba, "Adam", ICLR 2015,
  /// section 3), with `a` counted from the first recorded event: in a state that has just
  /// started, every item is new, and none can rise against its own past.
  func warmUpRatio(_ type: ContentType, at now: Double) -> Double {
    let clock = clock(type)
    let shortLifetime = DecayClock.meanLifetime(clock.shortHalfLife)
    let longLifetime = DecayClock.meanLifetime(clock.longHalfLife)
    guard let first = firstTime else { return shortLifetime / longLifetime }
    let age = max(max(now, Double(newestTime)) - Double(first), 1)
    let shortFill = -Foundation.expm1(-age / shortLifetime)
    let longFill = -Foundation.expm1(-age / longLifetime)
    return shortLifetime * shortFill / (longLifetime * longFill)
  }

  /// The decayed short and long counts of a counter at `now`.
  func decayedCounts(_ item: ItemCounters, type: ContentType, at now: Double)
    -> (short: Double, long: Double)
  {
    let factors = decayFactors(type, at: now)
    return (Double(item.short) * factors.short, Double(item.long) * factors.long)
  }

  // MARK: Landmarks

  /// Moves the type's landmarks forward when `time` is past their epochs.
  private mutating func advanceLandmarks(of type: ContentType, to time: Int64) {
    let clock = clock(type)
    let longTarget = clock.longLandmark(containing: time)
    let shortTarget = clock.shortLandmark(containing: time)
    guard let long = longLandmarks[type.index], let short = shortLandmarks[type.index] else {
      longLandmarks[type.index] = longTarget
      shortLandmarks[type.index] = shortTarget
      return
    }
    if longTarget > long {
      longLandmarks[type.index] = longTarget
      shortLandmarks[type.index] = max(short, shortTarget)
      pruneAndRebuild(types: [type])
    } else if shortTarget > short {
      shortLandmarks[type.index] = shortTarget
      rebuildShortSums(of: type)
    }
  }

  /// Recomputes the type's short sums against its new short landmark from the journal's
  /// recent entries: older ones weigh exactly 0. A counter whose sum reaches the candidate
  /// threshold while the entries are added becomes a candidate (see `apply`), so the walk
  /// finds the candidates too.
  private mutating func rebuildShortSums(of type: ContentType) {
    generation &+= 1
    let clock = clock(type)
    let landmark = shortLandmarks[type.index]!
    let cutoff = clock.shortZeroCutoff(landmark: landmark)
    let threshold = hotThreshold(type)
    // The type's table and candidates are taken out while the journal is walked: each of
    // the walk's changes is then to a local value, not through `self` and its arrays.
    var table = counters[type.index]
    counters[type.index] = FingerprintTable()
    var candidates = hot[type.index]
    hot[type.index] = CandidateList()
    table.updateEach { _, counter in
      counter.short = 0
      return true
    }
    journal.forEachEntry(from: cutoff) { key, entry in
      guard entry.type == type else { return }
      let weight =
        UInt64(entry.weight)
        &* clock.weight(at: entry.time, landmark: landmark, halfLife: clock.shortHalfLife)
      guard weight > 0 else { return }
      Self.addShort(
        weight, to: key.item, of: key.item, region: 0, threshold: threshold, table: &table,
        candidates: &candidates)
      if key.region != 0 {
        Self.addShort(
          weight, to: key.regionalCounterKey, of: key.item, region: key.region,
          threshold: threshold, table: &table, candidates: &candidates)
      }
    }
    candidates.resynchronize(from: table)
    counters[type.index] = table
    hot[type.index] = candidates
  }

  /// Adds a weight to a counter's short sum during a landmark move; the counter becomes a
  /// candidate (its counters copied once the walk is done) when the sum crosses `threshold`.
  /// Static, with the table and candidates passed in: a nested function capturing them
  /// would check exclusive access to them on every call.
  @inline(__always)
  private static func addShort(
    _ weight: UInt64, to counterKey: ContentKey, of item: ContentKey, region: UInt64,
    threshold: Double, table: inout FingerprintTable<ContentKey, ItemCounters>,
    candidates: inout CandidateList
  ) {
    let crosses = table.modifyValue(forKey: counterKey, inserting: .filler) { counter, _ in
      let before = Double(counter.short)
      counter.short &+= weight
      return before < threshold && Double(counter.short) >= threshold
    }
    if crosses {
      candidates.insert(counter: counterKey, item: item, region: region, counters: .filler)
    }
  }

  /// Makes the entry's global counter, and its regional one, candidates of their lists when
  /// their short sums are at `threshold`.
  private mutating func addCandidates(of key: JournalKey, type: ContentType, threshold: Double) {
    addCandidate(key.item, of: key.item, to: RankingKey(type: type, region: 0), threshold)
    if key.region != 0 {
      addCandidate(
        key.regionalCounterKey, of: key.item, to: RankingKey(type: type, region: key.region),
        threshold)
    }
  }

  private mutating func addCandidate(
    _ counterKey: ContentKey, of item: ContentKey, to list: RankingKey, _ threshold: Double
  ) {
    guard let counter = counters[list.type.index][counterKey], Double(counter.short) >= threshold
    else { return }
    hot[list.type.index].insert(
      counter: counterKey, item: item, region: list.region, counters: counter)
  }

  /// The short sum at which a counter of `type` becomes a list candidate: the minimum
  /// observed count at the newest time, in fixed-point units of the short landmark.
  func hotThreshold(_ type: ContentType) -> Double {
    guard let landmark = shortLandmarks[type.index] else { return .infinity }
    return Self.hotThreshold(
      clock: clock(type), landmark: landmark, newestTime: newestTime,
      minimum: configuration.minimumObservedCount)
  }

  /// ``hotThreshold(_:)`` from its parts: static, so that recording, which changes the
  /// state, does not copy it to call a method that reads it.
  @inline(__always)
  static func hotThreshold(
    clock: DecayClock, landmark: Int64, newestTime: Int64, minimum: Double
  ) -> Double {
    minimum * clock.unitValue(at: newestTime, landmark: landmark, halfLife: clock.shortHalfLife)
  }

  /// Drops journal entries of `types` older than their retention horizon, then recomputes
  /// their derived counters.
  mutating func pruneAndRebuild(types: [ContentType]) {
    generation &+= 1
    let horizons = longLandmarks.enumerated().map { index, landmark in
      landmark.map { $0 - clocks[index].retention } ?? .min
    }
    let affected = Set(types)
    journal.removeAll { _, entry in
      affected.contains(entry.type) && entry.time < horizons[entry.type.index]
    }
    rebuildDerived(types: affected)
  }

  /// Recomputes the short and long sums, the sketches, the recent entries and the hot set
  /// of `types` from the journal.
  mutating func rebuildDerived(types: Set<ContentType>) {
    generation &+= 1
    for type in types {
      counters[type.index].updateEach { _, item in
        item.short = 0
        item.long = 0
        item.users = DistinctSketch()
        // A counter with nothing left, not even lifetime totals, is forgotten.
        return item.views != 0 || item.lifetimeActors != 0
      }
    }
    for type in types { hot[type.index] = CandidateList() }
    for (key, entry) in journal where types.contains(entry.type) {
      guard let shortLandmark = shortLandmarks[entry.type.index],
        let longLandmark = longLandmarks[entry.type.index]
      else { continue }
      let clock = clock(entry.type)
      let weight = UInt64(entry.weight)
      let short =
        weight
        &* clock.weight(at: entry.time, landmark: shortLandmark, halfLife: clock.shortHalfLife)
      let long =
        weight &* clock.weight(at: entry.time, landmark: longLandmark, halfLife: clock.longHalfLife)
      let user = DistinctSketch.hash(of: entry.user)
      for counterKey in key.counterKeys {
        modifyCounter(entry.type, counterKey) { counter in
          counter.short &+= short
          counter.long &+= long
          counter.users.insert(hash: user)
        }
      }
    }
    rebuildHot(types: types)
  }

  /// Recomputes the hot set of `types` from the journal's keys and the counters.
  private mutating func rebuildHot(types: Set<ContentType>) {
    for (key, entry) in journal where types.contains(entry.type) {
      addCandidates(of: key, type: entry.type, threshold: hotThreshold(entry.type))
    }
  }

}

/// The short and long weights of one contribution time and the candidate threshold of one
/// newest time, kept for the next contribution of the same second.
struct WeightMemo: Sendable {
  private var time: Int64 = .min
  private var shortLandmark: Int64 = .min
  private var longLandmark: Int64 = .min
  private var short: UInt64 = 0
  private var long: UInt64 = 0
  private var thresholdTime: Int64 = .min
  private var thresholdLandmark: Int64 = .min
  private var threshold = 0.0

  /// The unit weights at `time` against the two landmarks.
  @inline(__always)
  mutating func weights(
    at time: Int64, shortLandmark: Int64, longLandmark: Int64, clock: DecayClock
  ) -> (short: UInt64, long: UInt64) {
    if time != self.time || shortLandmark != self.shortLandmark
      || longLandmark != self.longLandmark
    {
      self.time = time
      self.shortLandmark = shortLandmark
      self.longLandmark = longLandmark
      short = clock.weight(at: time, landmark: shortLandmark, halfLife: clock.shortHalfLife)
      long = clock.weight(at: time, landmark: longLandmark, halfLife: clock.longHalfLife)
    }
    return (short, long)
  }

  /// ``TrendingState/hotThreshold(clock:landmark:newestTime:minimum:)``.
  @inline(__always)
  mutating func threshold(
    at newestTime: Int64, landmark: Int64, clock: DecayClock, minimum: Double
  ) -> Double {
    if newestTime != thresholdTime || landmark != thresholdLandmark {
      thresholdTime = newestTime
      thresholdLandmark = landmark
      threshold = TrendingState.hotThreshold(
        clock: clock, landmark: landmark, newestTime: newestTime, minimum: minimum)
    }
    return threshold
  }
}

/// Which list a ranking is: a type, globally (region 0) or in one region.
struct RankingKey: Hashable, Sendable {
  var type: ContentType
  var region: UInt64
}
