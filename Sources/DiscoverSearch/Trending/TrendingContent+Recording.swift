import Foundation

/// What ``TrendingContent/record(_:)`` did with an event.
public enum RecordOutcome: String, Sendable, Hashable {
  /// It counted toward at least one item's trend.
  case counted
  /// Its user had already counted for its items in this window as early and as strongly;
  /// only its views were added.
  case duplicate
  /// It is older than the retention horizon, so it can no longer be deduplicated or
  /// merged exactly; nothing was recorded.
  case tooOld
}

extension TrendingContent {
  /// Records one event.
  ///
  /// - Returns: Whether it counted, was a duplicate within its window, or was too old.
  /// - Throws: ``SearchError/Code/invalidArgument`` for an empty or over-long video, user,
  ///   sound, effect or region, too many or empty hashtags, or a time that is not a finite
  ///   date after 2001-01-01.
  /// - Complexity: O(1) expected, plus O(h) in the video's hashtags; a landmark move
  ///   (once every 16 short half-lives of event time) is O(n) in the journal.
  @discardableResult
  public func record(_ event: ContentEvent) throws(SearchError) -> RecordOutcome {
    let contribution = try EventContribution(event, now: clock())
    let catalog = self.catalog
    return try store.withState { state throws(SearchError) in
      let outcome = contribution.apply(to: &state, catalog: catalog)
      state.evictIfNeeded(at: Double(state.newestTime))
      return outcome
    }
  }

  /// Records events in order, under one lock.
  ///
  /// - Returns: How many counted, were duplicates or too old.
  /// - Throws: ``SearchError/Code/invalidArgument`` at the first invalid event; the events
  ///   before it are recorded.
  @discardableResult
  public func record(contentsOf events: some Sequence<ContentEvent>) throws(SearchError)
    -> TrendingRecordReport
  {
    // An array's buffer is shared, not copied; the loop below then reads it without the
    // generic iterator's calls through witness tables.
    try record(ContiguousArray(events))
  }

  private func record(_ events: ContiguousArray<ContentEvent>) throws(SearchError)
    -> TrendingRecordReport
  {
    let now = clock()
    let catalog = self.catalog
    var report = TrendingRecordReport()
    var failure: SearchError?
    try store.withState { state throws(SearchError) in
      // In groups: the lookups of a group are prefetched together before it is applied.
      var group: [EventContribution] = []
      group.reserveCapacity(Self.prefetchGroupSize)
      var next = events.startIndex
      while next < events.endIndex {
        group.removeAll(keepingCapacity: true)
        while group.count < Self.prefetchGroupSize, next < events.endIndex {
          do throws(SearchError) {
            group.append(
              try EventContribution(events[next], now: now, hashtagKeys: &state.hashtagKeys))
            next += 1
          } catch {
            failure = error
            break
          }
        }
        for index in group.indices { group[index].prefetch(in: state, catalog: catalog) }
        for contribution in group {
          report.add(contribution.apply(to: &state, catalog: catalog))
          state.evictIfNeeded(at: Double(state.newestTime))
        }
        if failure != nil { return }
      }
    }
    if let failure { throw failure }
    return report
  }

  /// How many events ``record(contentsOf:)`` prefetches together: enough misses in flight to
  /// fill the memory pipeline, few enough that the lines stay in L1 until used.
  static let prefetchGroupSize = 16

  /// Removes every contribution of one user (a banned bot), as if its events had never been
  /// recorded: its views, likes, shares and posts leave every count, and the lists are as
  /// they would have been.
  ///
  /// Exact for events within the retention horizon; lifetime views of older events stay.
  ///
  /// - Returns: How many deduplicated contributions were removed.
  /// - Complexity: O(n) in the journal.
  @discardableResult
  public func retract(user userID: String) -> Int {
    let user = ContentKey(user: userID)
    let catalog = self.catalog
    let removed =
      (try? store.withState { state throws(SearchError) in
        let before = state
        return state.retract(user: user) { video in
          EventContribution.uses(of: video, catalog: catalog, state: before).all
        }
      }) ?? 0
    caches.withLock { $0.rankings.removeAll() }
    return removed
  }

  /// Adds the state another instance recorded: the result is what one instance would hold
  /// had it recorded both streams, bit for bit.
  ///
  /// - Precondition: Both have the same configuration.
  /// - Complexity: O(n + m) in the two journals.
  public func merge(_ other: TrendingContent) throws(SearchError) {
    let theirs = try other.store.withState { state throws(SearchError) in state }
    try store.withState { state throws(SearchError) in state.merge(theirs) }
    caches.withLock { $0.rankings.removeAll() }
  }

  /// A copy of the state, for comparisons and saving.
  var stateCopy: TrendingState {
    get throws(SearchError) { try store.withState { state throws(SearchError) in state } }
  }
}

/// Counts of what ``TrendingContent/record(contentsOf:)`` did.
public struct TrendingRecordReport: Sendable, Hashable {
  /// Events that counted.
  public var counted = 0
  /// Events whose user had already counted in the window.
  public var duplicates = 0
  /// Events refused as older than the retention horizon.
  public var tooOld = 0

  /// Creates an empty report.
  public init() {}

  /// All events recorded or refused.
  public var total: Int { counted + duplicates + tooOld }

  mutating func add(_ outcome: RecordOutcome) {
    switch outcome {
    case .counted: counted += 1
    case .duplicate: duplicates += 1
    case .tooOld: tooOld += 1
    }
  }

  /// Adds another report's counts.
  public mutating func add(_ other: TrendingRecordReport) {
    counted += other.counted
    duplicates += other.duplicates
    tooOld += other.tooOld
  }
}

/// An event checked and turned into keys, ready to apply to a state.
struct EventContribution: Sendable {
  let kind: ContentEvent.Kind
  let video: ContentKey
  let user: ContentKey
  let time: Int64
  let region: UInt64
  /// For a post that named what it uses.
  let posted: VideoUses?
  /// For a view, like or share: its journal key, once ``prefetch(in:catalog:)`` made it.
  private var preparedKey: JournalKey?

  /// Checks an event and makes its keys.
  init(_ event: borrowing ContentEvent, now: Date) throws(SearchError) {
    var hashtagKeys = HashtagKeys()
    try self.init(event, now: now, hashtagKeys: &hashtagKeys)
  }

  /// Checks an event and makes its keys, folding hashtags through `hashtagKeys`.
  init(_ event: borrowing ContentEvent, now: Date, hashtagKeys: inout HashtagKeys)
    throws(SearchError)
  {
    try Self.validate(event.videoID, "video id")
    try Self.validate(event.userID, "user id")
    let seconds = event.time.timeIntervalSinceReferenceDate
    guard seconds.isFinite, seconds >= 0 else {
      throw SearchError(
        .invalidArgument,
        "an event's time must be a finite date from 2001-01-01 on, not \(event.time)")
    }
    let nowSeconds = now.timeIntervalSinceReferenceDate
    let capped = nowSeconds.isFinite ? min(seconds, max(nowSeconds, 0)) : seconds
    guard capped < Double(TrendingState.latestSeconds + 1) else {
      throw SearchError(.invalidArgument, "an event's time must be before the year 2127")
    }
    kind = event.kind
    video = ContentKey(.video, event.videoID)
    user = ContentKey(user: event.userID)
    time = Int64(capped.rounded(.down))
    if let region = event.region {
      guard !region.isEmpty, region.utf8.count <= TrendingContent.maximumRegionLength else {
        throw SearchError(
          .invalidArgument,
          "a region must be 1 to \(TrendingContent.maximumRegionLength) bytes (a code such as US), or nil for none"
        )
      }
      self.region = ContentKey(region: region).rawValue
    } else {
      region = 0
    }
    posted = try Self.postedUses(of: event, hashtagKeys: &hashtagKeys)
  }

  /// What a post names, or `nil` when it names nothing (the index's video is used).
  private static func postedUses(
    of event: borrowing ContentEvent, hashtagKeys: inout HashtagKeys
  ) throws(SearchError) -> VideoUses? {
    guard event.kind == .post else { return nil }
    guard event.hashtags.count <= TrendingContent.maximumHashtagsPerPost else {
      throw SearchError(
        .invalidArgument,
        "a post may carry at most \(TrendingContent.maximumHashtagsPerPost) hashtags, not \(event.hashtags.count)"
      )
    }
    var hashtags: [ContentKey] = []
    hashtags.reserveCapacity(event.hashtags.count)
    for name in event.hashtags {
      try validate(name, "hashtag")
      let key = try hashtagKeys.key(of: name)
      if !hashtags.contains(key) { hashtags.append(key) }
    }
    if let sound = event.sound { try validate(sound, "sound id") }
    if let effect = event.effect { try validate(effect, "effect id") }
    let uses = VideoUses(
      hashtags: hashtags, sound: event.sound.map { ContentKey(.sound, $0) },
      effect: event.effect.map { ContentKey(.effect, $0) })
    return uses.isEmpty ? nil : uses
  }

  /// The key of a hashtag that is not plain ASCII letters and digits, folded by the
  /// analyzer.
  static func foldedHashtagKey(_ name: String) throws(SearchError) -> ContentKey {
    let folded = TrendingCatalog.foldHashtag(name)
    guard !folded.isEmpty else {
      throw SearchError(
        .invalidArgument, "the hashtag \"\(name)\" has no letters or digits; leave it out")
    }
    return ContentKey(.hashtag, folded)
  }

  private static func validate(_ value: String, _ name: String) throws(SearchError) {
    guard !value.isEmpty else {
      throw SearchError(.invalidArgument, "an event's \(name) must not be empty")
    }
    guard value.utf8.count <= TrendingContent.maximumIdentifierLength else {
      throw SearchError(
        .invalidArgument,
        "an event's \(name) must be at most \(TrendingContent.maximumIdentifierLength) bytes of UTF-8, not \(value.utf8.count)"
      )
    }
  }

  /// What a video uses: what the index says, else what its earliest post said.
  static func uses(of video: ContentKey, catalog: TrendingCatalog, state: TrendingState)
    -> VideoUses
  {
    if let position = catalog.position(of: video, .video) {
      return catalog.uses(ofVideoAt: position)
    }
    guard let posted = state.postedVideos[video] else { return VideoUses(hashtags: []) }
    return VideoUses(hashtags: posted.hashtags, sound: posted.sound, effect: posted.effect)
  }

  /// Applies the contribution: journal entries and counters, and views to what the video
  /// uses.
  func apply(to state: inout TrendingState, catalog: TrendingCatalog) -> RecordOutcome {
    switch kind {
    case .view, .like, .share:
      return applyEngagement(to: &state, catalog: catalog)
    case .post:
      return applyPost(to: &state, catalog: catalog)
    }
  }

  /// The journal key of a view, like or share, with the spans of the video clock.
  private func engagementKey(_ clock: DecayClock) -> JournalKey {
    preparedKey
      ?? JournalKey(item: video, actor: user, bucket: clock.bucket(of: time), region: region)
  }

  /// Makes the journal key of a view, like or share, and starts loading what applying it
  /// looks up first: its journal entry, the video's counters and its catalog position.
  mutating func prefetch(in state: TrendingState, catalog: TrendingCatalog) {
    guard kind != .post else { return }
    let key = engagementKey(state.clock(.video))
    preparedKey = key
    state.journal.prefetch(key)
    state.counters[ContentType.video.index].prefetch(video)
    if region != 0 {
      state.counters[ContentType.video.index].prefetch(key.regionalCounterKey)
    }
    catalog.prefetchPosition(of: video, .video)
  }

  private func applyEngagement(to state: inout TrendingState, catalog: TrendingCatalog)
    -> RecordOutcome
  {
    let views: UInt32 = kind == .view ? 1 : 0
    let weight: UInt8 = kind == .share ? 3 : kind == .like ? 2 : 1
    let outcome = state.contribute(
      engagementKey(state.clock(.video)),
      JournalEntry(
        type: .video, user: user, time: time, lastTime: time, weight: weight, views: views))
    if views > 0, outcome != .tooOld {
      if let position = catalog.position(of: video, .video) {
        state.useViews.add(views, toUsesOfVideoAt: position, catalog: catalog)
      } else if let posted = state.postedVideos[video] {
        for hashtag in posted.hashtags { state.addViews(views, to: hashtag) }
        if let sound = posted.sound { state.addViews(views, to: sound) }
        if let effect = posted.effect { state.addViews(views, to: effect) }
      }
    }
    return outcome
  }

  private func applyPost(to state: inout TrendingState, catalog: TrendingCatalog)
    -> RecordOutcome
  {
    if let posted {
      state.recordPost(
        of: video,
        PostedVideo(
          hashtags: posted.hashtags, sound: posted.sound, effect: posted.effect,
          creator: user, time: time))
    }
    let uses = posted ?? Self.uses(of: video, catalog: catalog, state: state)
    var outcome = RecordOutcome.duplicate
    // A participant is a creator; a use is a video (with its creator, so that an entry's
    // user is fixed by its key whatever order the posts come in).
    func contribute(_ type: ContentType, _ item: ContentKey, actor: ContentKey) -> Bool {
      let result = state.contribute(
        JournalKey(item: item, actor: actor, bucket: JournalKey.lifetime, region: region),
        JournalEntry(type: type, user: user, time: time, lastTime: time, weight: 1, views: 0))
      if result == .counted { outcome = .counted }
      return result != .tooOld
    }
    for hashtag in uses.hashtags {
      guard contribute(.hashtag, hashtag, actor: user) else { return .tooOld }
    }
    let use = ContentKey.combining(video, user)
    if let sound = uses.sound, !contribute(.sound, sound, actor: use) { return .tooOld }
    if let effect = uses.effect, !contribute(.effect, effect, actor: use) { return .tooOld }
    return outcome
  }
}

/// Hashtag names folded to keys, kept for the names seen again: a post's hashtag that is not
/// plain ASCII letters and digits goes through the analyzer (every token of it, a few
/// microseconds), and posts name the same tags over and over. A cache only: it changes no key.
struct HashtagKeys: Sendable {
  private var folded: [String: ContentKey] = [:]
  /// How many names are kept; past it the cache starts over.
  static let limit = 16_384

  init() {}

  /// The key of a hashtag as a post names it.
  ///
  /// - Throws: ``SearchError/Code/invalidArgument`` for a name with no letters or digits.
  mutating func key(of name: String) throws(SearchError) -> ContentKey {
    if let key = ContentKey(asciiHashtag: name) { return key }
    if let key = folded[name] { return key }
    let key = try EventContribution.foldedHashtagKey(name)
    if folded.count >= Self.limit { folded.removeAll(keepingCapacity: true) }
    folded[name] = key
    return key
  }
}
