/// Everything trending content knows, as one value: the journal of deduplicated
/// contributions, the counters derived from it, and what posts said videos use.
///
/// Its contents are internal: a ``TrendingStore`` keeps it, ``TrendingContent`` reads and
/// changes it.
///
/// **Exactness.** The short and long decayed sums and the distinct-user sketches are a pure
/// function of the journal and each type's landmark epoch; the lifetime views and lifetime
/// actors are integer sums over the events. So recording a stream in any order, recording
/// any split of it on several instances and merging them (``merge(_:)``), retracting a user
/// (``retract(user:viewedItems:)``), or saving and reopening, all give the same state, bit
/// for bit, as long as no event is older than the retention horizon and nothing is evicted.
///
/// - Complexity: recording a contribution is O(1) expected; a landmark move, a merge and a
///   retraction are O(n) in the journal.
public struct TrendingState: Sendable {
  let configuration: TrendingConfiguration
  let clocks: [DecayClock]

  /// Per content type, the landmark of its epoch; `nil` before its first contribution.
  var landmarks: [Int64?] = [nil, nil, nil, nil]
  /// The newest event time recorded, seconds since 2001-01-01: lists are read no earlier.
  var newestTime: Int64 = .min
  var journal: [JournalKey: JournalEntry] = [:]
  /// Per content type, counters by item key (global) and by ``ContentKey/inRegion(_:)`` key.
  var counters: [[ContentKey: ItemCounters]] = [[:], [:], [:], [:]]
  /// Counters that reached the minimum observed count: the lists' candidates.
  var hot: [ContentKey: HotItem] = [:]
  /// Associations of videos known from posts.
  var postedVideos: [ContentKey: PostedVideo] = [:]
  /// Bumped by every change, for list caches.
  var generation: UInt64 = 0

  init(configuration: TrendingConfiguration) {
    self.configuration = configuration
    clocks = ContentType.allCases.map {
      DecayClock(configuration.windows(for: $0), retentionHalfLives: configuration.retentionHalfLives)
    }
  }

  func clock(_ type: ContentType) -> DecayClock { clocks[type.index] }

  // MARK: Recording

  /// Records one deduplicated contribution.
  mutating func contribute(_ key: JournalKey, _ entry: JournalEntry) -> RecordOutcome {
    let clock = clock(entry.type)
    let landmark = advanceLandmark(of: entry.type, to: entry.time)
    guard entry.time >= landmark - clock.retention else { return .tooOld }
    generation &+= 1
    newestTime = max(newestTime, entry.time)
    let previous = journal[key]
    let updated = previous.map { $0.merged(with: entry) } ?? entry
    journal[key] = updated
    let isNew = previous == nil
    let typeIndex = entry.type.index
    for counterKey in counterKeys(of: key) {
      var item = counters[typeIndex][counterKey] ?? ItemCounters()
      if let previous, !previous.weighsTheSame(as: updated) {
        subtractWeights(of: previous, from: &item, clock: clock, landmark: landmark)
      }
      if isNew || !previous!.weighsTheSame(as: updated) {
        addWeights(of: updated, to: &item, clock: clock, landmark: landmark)
      }
      if isNew {
        item.users.insert(hash: DistinctSketch.hash(of: entry.user))
        if key.bucket == JournalKey.lifetime { item.lifetimeActors &+= 1 }
      }
      item.views &+= entry.views
      counters[typeIndex][counterKey] = item
      markHotIfNeeded(
        counterKey, item: item,
        hot: HotItem(item: key.item, type: entry.type, region: counterKey == key.item ? 0 : key.region),
        clock: clock, landmark: landmark, time: entry.time)
    }
    return isNew || !previous!.weighsTheSame(as: updated) ? .counted : .duplicate
  }

  /// Adds views of a video to the lifetime views of an item it uses (a hashtag, sound or
  /// effect), globally and in the region, without a journal entry: those items trend by
  /// their participants and uses, and their views are only shown.
  mutating func addViews(_ views: UInt32, to type: ContentType, _ item: ContentKey, region: UInt64) {
    guard views > 0 else { return }
    generation &+= 1
    counters[type.index][item, default: ItemCounters()].views &+= views
    if region != 0 {
      counters[type.index][item.inRegion(ContentKey(rawValue: region)), default: ItemCounters()]
        .views &+= views
    }
  }

  /// Records what a post said a video uses; the earliest post wins.
  mutating func recordPost(of video: ContentKey, _ posted: PostedVideo) {
    if let existing = postedVideos[video], existing.time <= posted.time { return }
    generation &+= 1
    postedVideos[video] = posted
  }

  // MARK: Reading

  /// The decayed short and long counts of a counter at `now` (seconds since 2001-01-01),
  /// read no earlier than the newest event, so that no count exceeds its contributions.
  func decayedCounts(_ item: ItemCounters, type: ContentType, at now: Double)
    -> (short: Double, long: Double)
  {
    guard let landmark = landmarks[type.index] else { return (0, 0) }
    let clock = clock(type)
    let readTime = max(now, Double(newestTime))
    return (
      clock.value(of: item.short, landmark: landmark, at: readTime, halfLife: clock.shortHalfLife),
      clock.value(of: item.long, landmark: landmark, at: readTime, halfLife: clock.longHalfLife)
    )
  }

  // MARK: Epochs

  /// Moves the type's landmark forward when `time` is past its epoch, recomputing the type's
  /// counters exactly; returns the landmark in force.
  private mutating func advanceLandmark(of type: ContentType, to time: Int64) -> Int64 {
    let target = clock(type).landmark(containing: time)
    guard let current = landmarks[type.index] else {
      landmarks[type.index] = target
      return target
    }
    guard target > current else { return current }
    landmarks[type.index] = target
    pruneAndRebuild(types: [type])
    return target
  }

  /// Drops journal entries of `types` older than their retention horizon, then recomputes
  /// their derived counters.
  mutating func pruneAndRebuild(types: [ContentType]) {
    generation &+= 1
    let horizons = landmarks.enumerated().map { index, landmark in
      landmark.map { $0 - clocks[index].retention } ?? .min
    }
    let affected = Set(types)
    journal = journal.filter { !affected.contains($0.value.type) || $0.value.time >= horizons[$0.value.type.index] }
    rebuildDerived(types: affected)
  }

  /// Recomputes the short and long sums, the sketches and the hot set of `types` from the
  /// journal.
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
    }
    hot = hot.filter { !types.contains($0.value.type) }
    for (key, entry) in journal where types.contains(entry.type) {
      guard let landmark = landmarks[entry.type.index] else { continue }
      let clock = clock(entry.type)
      for counterKey in counterKeys(of: key) {
        var item = counters[entry.type.index][counterKey] ?? ItemCounters()
        addWeights(of: entry, to: &item, clock: clock, landmark: landmark)
        item.users.insert(hash: DistinctSketch.hash(of: entry.user))
        counters[entry.type.index][counterKey] = item
      }
    }
    rebuildHot(types: types)
  }

  /// Recomputes the hot set of `types` from the journal's keys and the counters.
  private mutating func rebuildHot(types: Set<ContentType>) {
    for (key, entry) in journal where types.contains(entry.type) {
      guard let landmark = landmarks[entry.type.index] else { continue }
      let clock = clock(entry.type)
      for counterKey in counterKeys(of: key) where hot[counterKey] == nil {
        guard let item = counters[entry.type.index][counterKey] else { continue }
        markHotIfNeeded(
          counterKey, item: item,
          hot: HotItem(
            item: key.item, type: entry.type, region: counterKey == key.item ? 0 : key.region),
          clock: clock, landmark: landmark, time: newestTime)
      }
    }
  }

  /// The global counter's key and, for an entry with a region, the regional one.
  func counterKeys(of key: JournalKey) -> [ContentKey] {
    key.region == 0 ? [key.item] : [key.item, key.item.inRegion(ContentKey(rawValue: key.region))]
  }

  // MARK: Weights

  private func addWeights(
    of entry: JournalEntry, to item: inout ItemCounters, clock: DecayClock, landmark: Int64
  ) {
    let weight = UInt64(entry.weight)
    item.short &+= weight &* clock.weight(at: entry.time, landmark: landmark, halfLife: clock.shortHalfLife)
    item.long &+= weight &* clock.weight(at: entry.time, landmark: landmark, halfLife: clock.longHalfLife)
  }

  private func subtractWeights(
    of entry: JournalEntry, from item: inout ItemCounters, clock: DecayClock, landmark: Int64
  ) {
    let weight = UInt64(entry.weight)
    item.short &-= weight &* clock.weight(at: entry.time, landmark: landmark, halfLife: clock.shortHalfLife)
    item.long &-= weight &* clock.weight(at: entry.time, landmark: landmark, halfLife: clock.longHalfLife)
  }

  /// Adds a counter to the hot set when its short count at `time` reached the minimum
  /// observed count.
  private mutating func markHotIfNeeded(
    _ counterKey: ContentKey, item: ItemCounters, hot entry: HotItem, clock: DecayClock,
    landmark: Int64, time: Int64
  ) {
    guard hot[counterKey] == nil else { return }
    let unitAtTime = clock.weight(at: time, landmark: landmark, halfLife: clock.shortHalfLife)
    guard Double(item.short) >= configuration.minimumObservedCount * Double(unitAtTime) else {
      return
    }
    hot[counterKey] = entry
  }

  /// Drops hot counters whose short count at `now` fell below a quarter of the minimum.
  mutating func coolDown(at now: Double) {
    hot = hot.filter { key, entry in
      guard let item = counters[entry.type.index][key] else { return false }
      return decayedCounts(item, type: entry.type, at: now).short
        >= configuration.minimumObservedCount / 4
    }
  }
}
