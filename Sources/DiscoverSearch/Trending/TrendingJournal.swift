/// One deduplicated contribution to an item's counters, as the journal keeps it.
///
/// The journal is what makes the counters exact: every counter is a pure function of the set
/// of entries (and the landmark), so recording in any order, merging any split, retracting a
/// user and reopening a saved state all give the same bits.
///
/// An entry's key is the item, the actor it deduplicates on and the span it covers: the
/// viewer and the short-window span for a video (one user counts once per video per span),
/// the creator and ``JournalKey/lifetime`` for a hashtag (a participant counts once), the
/// video and its creator, and ``JournalKey/lifetime``, for a sound or effect (a use is a
/// distinct video). An entry's user is always determined by its key.
struct JournalKey: Hashable, Sendable, FingerprintKey {
  /// The ``bucket`` of a contribution that counts once for the item's whole life.
  static let lifetime: Int64 = -1 << 62

  /// The fingerprint's high half, kept so that a table walk never mixes a resident's four
  /// fields again: first, so that two keys usually differ at their first word.
  private let hash: UInt32
  /// The bucket in 32 bits: buckets are whole short half-lives (60 s at least) since
  /// 2001-01-01 until the year 2127 (``TrendingState/latestSeconds``), from 0 to under 2³¹;
  /// ``lifetime`` is stored as `Int32.min`.
  private let storedBucket: Int32
  let item: ContentKey
  let actor: ContentKey
  /// The region key, 0 for none. Part of the key, so that an entry's region never changes
  /// whatever order its events come in; a user seen in two regions within one span counts
  /// once in each.
  let region: UInt64

  /// - Precondition: `bucket` is ``lifetime`` or fits in 32 bits (``isValidBucket(_:)``).
  init(item: ContentKey, actor: ContentKey, bucket: Int64, region: UInt64) {
    precondition(Self.isValidBucket(bucket), "a journal bucket out of range: \(bucket)")
    self.item = item
    self.actor = actor
    self.region = region
    storedBucket = bucket == Self.lifetime ? .min : Int32(bucket)
    // The four fields mixed (each multiplied by its own odd constant, then `fmix64`).
    hash = UInt32(
      truncatingIfNeeded: ContentKey.mix(
        item.rawValue &+ actor.rawValue &* 0x9E37_79B9_7F4A_7C15
          &+ UInt64(bitPattern: bucket) &* 0xC2B2_AE3D_27D4_EB4F
          &+ region &* 0x1656_67B1_9E37_79F9) >> 32)
  }

  /// Whether a bucket read from outside can be stored.
  static func isValidBucket(_ bucket: Int64) -> Bool {
    bucket == lifetime || (Int64(Int32.min) + 1...Int64(Int32.max)).contains(bucket)
  }

  /// The deduplication span: a whole number of short half-lives since 2001-01-01, or
  /// ``lifetime``.
  var bucket: Int64 { storedBucket == .min ? Self.lifetime : Int64(storedBucket) }

  /// Whether the entry counts once for the item's whole life.
  var isLifetime: Bool { storedBucket == .min }

  /// The stored hash in both halves: a table takes a key's slot from the high bits.
  var fingerprint: UInt64 { UInt64(hash) << 32 | UInt64(hash) }

  /// The key of the entry's counter within its region (meaningful when it has one).
  var regionalCounterKey: ContentKey { item.inRegion(ContentKey(rawValue: region)) }

  /// The global counter's key and, for an entry with a region, the regional one.
  var counterKeys: [ContentKey] { region == 0 ? [item] : [item, regionalCounterKey] }

  /// No entry's item is the vacant content key.
  static var vacant: JournalKey {
    JournalKey(item: .vacant, actor: .vacant, bucket: 0, region: 0)
  }
}

/// What a journal entry holds besides its key.
///
/// When several events share a key, the entry keeps the earliest time (its weight is that of
/// the first time the actor counted) and the strongest kind's weight: choices that do not
/// depend on the order in which the events came.
///
/// 24 bytes: times are whole seconds since 2001-01-01 in 32 bits (events are refused from
/// the year 2127 on, ``TrendingState/latestSeconds``).
struct JournalEntry: Hashable, Sendable, TableFiller {
  /// The user the entry is counted for: distinct users, and retraction.
  var user: ContentKey
  private var earliestSeconds: UInt32
  private var latestSeconds: UInt32
  /// How many view events the entry stands for.
  var views: UInt32
  /// The strongest kind's weight: 1 for a view, post or use, 2 for a like, 3 for a share.
  var weight: UInt8
  var type: ContentType

  /// - Precondition: `time` and `lastTime` are from 0 to ``TrendingState/latestSeconds``.
  init(
    type: ContentType, user: ContentKey, time: Int64, lastTime: Int64, weight: UInt8,
    views: UInt32
  ) {
    self.user = user
    earliestSeconds = UInt32(time)
    latestSeconds = UInt32(lastTime)
    self.views = views
    self.weight = weight
    self.type = type
  }

  /// Seconds since 2001-01-01 of the earliest event.
  var time: Int64 {
    get { Int64(earliestSeconds) }
    set { earliestSeconds = UInt32(newValue) }
  }

  /// Seconds since 2001-01-01 of the latest event: the state's newest time is the latest
  /// of these, which retraction can recompute.
  var lastTime: Int64 {
    get { Int64(latestSeconds) }
    set { latestSeconds = UInt32(newValue) }
  }

  static var filler: JournalEntry {
    JournalEntry(type: .video, user: .vacant, time: 0, lastTime: 0, weight: 0, views: 0)
  }

  /// This entry combined with another of the same key: the earliest time, the strongest
  /// weight, the views added.
  func merged(with other: JournalEntry) -> JournalEntry {
    var result = self
    result.time = min(time, other.time)
    result.lastTime = max(lastTime, other.lastTime)
    result.weight = max(weight, other.weight)
    result.views = views &+ other.views
    return result
  }

  /// Whether two entries of one key add the same weight to the counters.
  func weighsTheSame(as other: JournalEntry) -> Bool {
    time == other.time && weight == other.weight
  }
}

/// The counters of one item, globally or within one region.
///
/// Five numbers, 40 bytes: the short and long fixed-point decayed sums and the distinct-user
/// sketch are derived from the journal; the lifetime views and lifetime distinct actors
/// (participants of a hashtag, uses of a sound or effect) are added as events come and stay
/// when old entries leave the journal.
struct ItemCounters: Sendable, Hashable, TableFiller {
  static var filler: ItemCounters { ItemCounters() }

  var short: UInt64 = 0
  var long: UInt64 = 0
  var users = DistinctSketch()
  var views: UInt32 = 0
  var lifetimeActors: UInt32 = 0
}

/// What a post event said a video uses, for videos the index does not hold (yet).
struct PostedVideo: Hashable, Sendable {
  var hashtags: [ContentKey]
  var sound: ContentKey?
  var effect: ContentKey?
  var creator: ContentKey
  /// Seconds since 2001-01-01 of the earliest post; on a conflict the earliest post wins.
  var time: Int64
}
