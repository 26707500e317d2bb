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
/// recomputed, from the entries of the last 17 short half-lives (`recentEntries`): older
/// ones weigh under half a unit against the new landmark, which rounds to exactly 0. When the
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
  var journal: [JournalKey: JournalEntry] = [:]
  /// Per content type, counters by item key (global) and by ``ContentKey/inRegion(_:)`` key.
  var counters: [[ContentKey: ItemCounters]] = [[:], [:], [:], [:]]
  /// Per list, the counters that reached the minimum observed count (the lists'
  /// candidates), each with its item's key.
  var hot: [RankingKey: [ContentKey: ContentKey]] = [:]
  /// Per content type, the keys of entries made recently, each with a time no earlier than
  /// the entry's: what a short landmark move recomputes.
  var recentEntries: [[(key: JournalKey, bound: Int64)]] = [[], [], [], []]
  /// Associations of videos known from posts.
  var postedVideos: [ContentKey: PostedVideo] = [:]
  /// Bumped by every change, for list caches.
  var generation: UInt64 = 0

  init(configuration: TrendingConfiguration) {
    self.configuration = configuration
    clocks = ContentType.allCases.map {
      DecayClock(
        configuration.windows(for: $0), retentionHalfLives: configuration.retentionHalfLives)
    }
  }

  func clock(_ type: ContentType) -> DecayClock { clocks[type.index] }

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
    let previous = journal.updateValue(entry, forKey: key)
    let updated = previous.map { $0.merged(with: entry) } ?? entry
    if previous != nil { journal[key] = updated }
    let isNew = previous == nil
    if isNew { recentEntries[type.index].append((key, entry.time)) }
    let reweighs = isNew || !previous!.weighsTheSame(as: updated)
    // Each weight once, for the global and the regional counter alike.
    let unit = clock.weight(
      at: updated.time, landmark: shortLandmark, halfLife: clock.shortHalfLife)
    var shortDelta = UInt64(updated.weight) &* unit
    var longDelta =
      UInt64(updated.weight)
      &* clock.weight(at: updated.time, landmark: longLandmark, halfLife: clock.longHalfLife)
    if let previous, reweighs {
      shortDelta &-=
        UInt64(previous.weight)
        &* clock.weight(at: previous.time, landmark: shortLandmark, halfLife: clock.shortHalfLife)
      longDelta &-=
        UInt64(previous.weight)
        &* clock.weight(at: previous.time, landmark: longLandmark, halfLife: clock.longHalfLife)
    }
    let userHash = DistinctSketch.hash(of: entry.user)
    let actors: UInt32 = isNew && key.bucket == JournalKey.lifetime ? 1 : 0
    let threshold =
      configuration.minimumObservedCount
      * clock.unitValue(at: newestTime, landmark: shortLandmark, halfLife: clock.shortHalfLife)
    let deltas = CounterDeltas(
      short: reweighs ? shortDelta : 0, long: reweighs ? longDelta : 0,
      user: isNew ? userHash : nil, views: entry.views, actors: actors)
    apply(
      deltas, type: type, to: key.item, list: RankingKey(type: type, region: 0), item: key.item,
      hotThreshold: threshold)
    if key.region != 0 {
      apply(
        deltas, type: type, to: key.item.inRegion(ContentKey(rawValue: key.region)),
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

  private mutating func apply(
    _ deltas: CounterDeltas, type: ContentType, to counterKey: ContentKey, list: RankingKey,
    item: ContentKey, hotThreshold: Double
  ) {
    var isHot = false
    modifyCounter(type, counterKey) { counter in
      counter.short &+= deltas.short
      counter.long &+= deltas.long
      if let user = deltas.user { counter.users.insert(hash: user) }
      counter.views &+= deltas.views
      counter.lifetimeActors &+= deltas.actors
      isHot = Double(counter.short) >= hotThreshold
    }
    if isHot, hot[list]?[counterKey] == nil { hot[list, default: [:]][counterKey] = item }
  }

  /// Changes one counter in place, creating it when missing.
  @inline(__always)
  private mutating func modifyCounter(
    _ type: ContentType, _ key: ContentKey, _ body: (inout ItemCounters) -> Void
  ) {
    body(&counters[type.index][key, default: ItemCounters()])
  }

  /// Adds views of a video to the lifetime views of an item it uses (a hashtag, sound or
  /// effect), globally and in the region, without a journal entry: those items trend by
  /// their participants and uses, and their views are only shown.
  mutating func addViews(_ views: UInt32, to type: ContentType, _ item: ContentKey, region: UInt64)
  {
    guard views > 0 else { return }
    generation &+= 1
    modifyCounter(type, item) { $0.views &+= views }
    if region != 0 {
      modifyCounter(type, item.inRegion(ContentKey(rawValue: region))) { $0.views &+= views }
    }
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

  /// Recomputes the type's short sums against its new short landmark from the recent
  /// entries, and forgets the recent entries that now weigh exactly 0.
  private mutating func rebuildShortSums(of type: ContentType) {
    generation &+= 1
    let clock = clock(type)
    let landmark = shortLandmarks[type.index]!
    let cutoff = clock.shortZeroCutoff(landmark: landmark)
    recentEntries[type.index].removeAll { $0.bound < cutoff }
    for key in counters[type.index].keys { counters[type.index][key]!.short = 0 }
    for (key, _) in recentEntries[type.index] {
      guard let entry = journal[key] else { continue }
      let weight =
        UInt64(entry.weight)
        &* clock.weight(at: entry.time, landmark: landmark, halfLife: clock.shortHalfLife)
      guard weight > 0 else { continue }
      for counterKey in counterKeys(of: key) {
        modifyCounter(type, counterKey) { $0.short &+= weight }
      }
    }
  }

  /// Drops journal entries of `types` older than their retention horizon, then recomputes
  /// their derived counters.
  mutating func pruneAndRebuild(types: [ContentType]) {
    generation &+= 1
    let horizons = longLandmarks.enumerated().map { index, landmark in
      landmark.map { $0 - clocks[index].retention } ?? .min
    }
    let affected = Set(types)
    journal = journal.filter {
      !affected.contains($0.value.type) || $0.value.time >= horizons[$0.value.type.index]
    }
    rebuildDerived(types: affected)
  }

  /// Recomputes the short and long sums, the sketches, the recent entries and the hot set
  /// of `types` from the journal.
  mutating func rebuildDerived(types: Set<ContentType>) {
    generation &+= 1
    for type in types {
      counters[type.index] = counters[type.index].compactMapValues { item in
        var item = item
        item.short = 0
        item.long = 0
        item.users = DistinctSketch()
        // A counter with nothing left, not even lifetime totals, is forgotten.
        return item.views == 0 && item.lifetimeActors == 0 ? nil : item
      }
      recentEntries[type.index].removeAll()
    }
    hot = hot.filter { !types.contains($0.key.type) }
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
      if entry.time >= clock.shortZeroCutoff(landmark: shortLandmark) {
        recentEntries[entry.type.index].append((key, entry.lastTime))
      }
      let user = DistinctSketch.hash(of: entry.user)
      for counterKey in counterKeys(of: key) {
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
      guard let landmark = shortLandmarks[entry.type.index] else { continue }
      let clock = clock(entry.type)
      let threshold =
        configuration.minimumObservedCount
        * clock.unitValue(at: newestTime, landmark: landmark, halfLife: clock.shortHalfLife)
      for (counterKey, region) in [
        (key.item, 0), (key.item.inRegion(ContentKey(rawValue: key.region)), key.region),
      ]
      where region == 0 || key.region != 0 {
        let list = RankingKey(type: entry.type, region: region)
        guard hot[list]?[counterKey] == nil,
          let item = counters[entry.type.index][counterKey], Double(item.short) >= threshold
        else { continue }
        hot[list, default: [:]][counterKey] = key.item
      }
    }
  }

  /// The global counter's key and, for an entry with a region, the regional one.
  func counterKeys(of key: JournalKey) -> [ContentKey] {
    key.region == 0 ? [key.item] : [key.item, key.item.inRegion(ContentKey(rawValue: key.region))]
  }

  /// Drops the list's hot counters whose short count at `now` fell below the minimum
  /// observed count: they cannot be listed now, nor later without a new contribution, which
  /// checks them again.
  mutating func coolDown(_ list: RankingKey, at now: Double) {
    guard let candidates = hot[list] else { return }
    let factor = decayFactors(list.type, at: now).short
    let floor = configuration.minimumObservedCount
    hot[list] = candidates.filter { counterKey, _ in
      guard let item = counters[list.type.index][counterKey] else { return false }
      return Double(item.short) * factor >= floor
    }
  }
}

/// Which list a ranking is: a type, globally (region 0) or in one region.
struct RankingKey: Hashable, Sendable {
  var type: ContentType
  var region: UInt64
}
