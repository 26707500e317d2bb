import Foundation

/// A computed list: every listed item with what its page entries need, and the order of the
/// best ones.
///
/// Only the first ``orderedLength`` items are ordered when the list is computed: the pages
/// most requests ask for. A page past them selects its items from all of them
/// (`TrendingContent.page(of:after:limit:)`).
struct Ranking: Sendable {
  var computedAt: Double
  var generation: UInt64
  /// Every listed item, in no particular order.
  var items: [RankedItem]
  /// The indices in ``items`` of the best ones, best first: all of them when few.
  var ordered: [Int32]

  /// How many items a computed list orders.
  static let orderedLength = 100

  /// Whether ``ordered`` holds every item.
  var isOrderedWhole: Bool { ordered.count == items.count }
}

/// The featured videos of every item, from one video ranking.
struct FeaturedIndex: Sendable {
  var computedAt: Double
  var generation: UInt64
  var positions: FingerprintTable<ContentKey, FeaturedVideos>
}

/// The catalog positions of an item's best three trending videos, best first, inline.
struct FeaturedVideos: Sendable, TableFiller {
  static let capacity = 3
  private var first: Int32 = 0
  private var second: Int32 = 0
  private var third: Int32 = 0
  private(set) var count: Int32 = 0

  static var filler: FeaturedVideos { FeaturedVideos() }

  var isFull: Bool { count == Self.capacity }

  /// Adds a video after those kept, when there is room.
  mutating func append(_ position: Int) {
    switch count {
    case 0: first = Int32(position)
    case 1: second = Int32(position)
    case 2: third = Int32(position)
    default: return
    }
    count += 1
  }

  var positions: [Int] { [first, second, third].prefix(Int(count)).map(Int.init) }
}

/// One listed item of a ranking.
struct RankedItem: Sendable {
  var key: ContentKey
  var position: Int
  var score: Double
  var observed: Double
  var expected: Double
  var distinctUsers: Int
  var views: UInt64
  var actors: UInt32
  var isRising: Bool
}

/// What the score of one counter comes to.
struct TrendTerms: Sendable {
  var observed: Double
  var expected: Double
  var long: Double
  var z: Double
  var distinctUsers: Int
  var isRising: Bool
  var passesGates: Bool
}

extension TrendingContent {
  /// The largest page a list returns.
  public static let maximumListLimit = 1_000

  /// One page of a trending list, best first.
  ///
  /// - Parameters:
  ///   - type: Videos (the grid), hashtags (challenges), sounds or effects.
  ///   - region: Only counters of events from this region (a code such as `US`), or `nil`
  ///     for all events.
  ///   - limit: Items per page, 1 to ``maximumListLimit``.
  ///   - cursor: The previous page's ``TrendingPage/nextCursor``, or `nil` for the first.
  /// - Throws: ``SearchError/Code/invalidArgument`` for a cursor of another list or region.
  /// - Complexity: O(n log `limit`) in the listed items while the list is cached (for
  ///   ``TrendingConfiguration/refreshInterval`` of the clock), plus O(c) in the candidates,
  ///   the counters that reached the minimum observed count, to compute it; a hashtag, sound
  ///   or effect page also orders the video list once per computed video list.
  public func list(
    _ type: ContentType, region: String? = nil, limit: Int = 20, after cursor: TrendingCursor? = nil
  ) throws(SearchError) -> TrendingPage {
    precondition(
      (1...Self.maximumListLimit).contains(limit),
      "a trending list's limit must be 1 to \(Self.maximumListLimit), not \(limit)")
    let regionName = region.map { $0.uppercased() }
    if let cursor, cursor.type != type || cursor.region != regionName {
      throw SearchError(
        .invalidArgument,
        "the cursor belongs to the \(cursor.type.rawValue) list\(cursor.region.map { " in \($0)" } ?? ""), not to this one; start without a cursor"
      )
    }
    let catalog = self.catalog
    let ranking = try self.ranking(type, region: regionName, catalog: catalog)
    let (selected, hasMore) = Self.page(
      of: ranking, type: type, after: cursor, limit: limit, catalog: catalog)
    let featured =
      type == .video
      ? [:]
      : try featuredVideos(
        region: regionName, for: Set(selected.map(\.key)), catalog: catalog)
    let items = selected.map {
      makeItem($0, type: type, featured: featured[$0.key] ?? [], catalog: catalog)
    }
    let next =
      hasMore
      ? TrendingCursor(
        type: type, region: regionName, score: selected[selected.count - 1].score,
        id: catalog.id(type, at: selected[selected.count - 1].position))
      : nil
    return TrendingPage(items: items, nextCursor: next)
  }

  /// The list of `type` in `region`, from the cache while it is fresh.
  func ranking(_ type: ContentType, region: String?, catalog: TrendingCatalog) throws(SearchError)
    -> Ranking
  {
    let now = clock().timeIntervalSinceReferenceDate
    let key = RankingKey(type: type, region: region.map { ContentKey(region: $0).rawValue } ?? 0)
    let generation = try store.withState { state throws(SearchError) in state.generation }
    if let cached = caches.withLock({ $0.rankings[key] }),
      cached.generation == generation
        || abs(now - cached.computedAt) < configuration.refreshInterval
    {
      return cached
    }
    let ranking = try computeRanking(key, at: now, catalog: catalog)
    caches.withLock { $0.rankings[key] = ranking }
    return ranking
  }

  /// How many candidates ahead scoring prefetches their counters and catalog positions.
  private static let lookahead = 8

  /// Scores every candidate of the list and keeps those listed, unordered.
  private func computeRanking(_ key: RankingKey, at now: Double, catalog: TrendingCatalog)
    throws(SearchError) -> Ranking
  {
    let blocked = blockedKeys(catalog: catalog)
    let items = try store.withState { state throws(SearchError) -> [RankedItem] in
      guard let candidates = state.hot[key] else { return [] }
      let formula = TrendFormula(key.type, state: state, at: now)
      let shortFactor = formula.shortFactor
      let floor = formula.minimumObservedCount
      // A candidate leaves only when below the threshold recording checks against (at the
      // newest event, not at a later "now"), so that its next crossing brings it back; the
      // margin keeps rounding from dropping one that recording still sees at it.
      let threshold = state.hotThreshold(key.type) * (1 - 1e-9)
      var items: [RankedItem] = []
      var cooled: [ContentKey] = []
      let table = state.counters[key.type.index]
      let pairs = Array(candidates)
      for (offset, (counterKey, item)) in pairs.enumerated() {
        // Candidates are spread over the tables: look a few ahead up first.
        if offset + Self.lookahead < pairs.count {
          let ahead = pairs[offset + Self.lookahead]
          table.prefetch(ahead.key)
          catalog.prefetchPosition(of: ahead.value, key.type)
        }
        guard let counters = table[counterKey] else {
          cooled.append(counterKey)
          continue
        }
        guard Double(counters.short) * shortFactor >= floor else {
          if Double(counters.short) < threshold { cooled.append(counterKey) }
          continue
        }
        guard let position = catalog.position(of: item, key.type) else { continue }
        if !blocked.isEmpty {
          if blocked.contains(item) { continue }
          if key.type == .video,
            catalog.uses(ofVideoAt: position).all.contains(where: { blocked.contains($0.1) })
          {
            continue
          }
        }
        let terms = formula.terms(of: counters)
        guard terms.passesGates else { continue }
        items.append(
          RankedItem(
            key: item, position: position, score: terms.z,
            observed: terms.observed, expected: terms.expected,
            distinctUsers: terms.distinctUsers,
            views: state.lifetimeViews(of: item, key.type, counters: counters),
            actors: counters.lifetimeActors, isRising: terms.isRising))
      }
      for counterKey in cooled { state.hot[key]?[counterKey] = nil }
      return items
    }
    let generation = try store.withState { state throws(SearchError) in state.generation }
    let ordered = Self.select(
      from: items, type: key.type, after: nil, count: Ranking.orderedLength, catalog: catalog)
    return Ranking(computedAt: now, generation: generation, items: items, ordered: ordered)
  }

  /// The keys the blocklist keeps out, for this catalog, computed once per catalog.
  func blockedKeys(catalog: TrendingCatalog) -> Set<ContentKey> {
    let blocklist = configuration.blocklist
    return caches.withLock { caches in
      if let cached = caches.blocked, cached.catalog === catalog, cached.blocklist == blocklist {
        return cached.keys
      }
      let keys = catalog.blockedKeys(blocklist)
      caches.blocked = (catalog, blocklist, keys)
      return keys
    }
  }

  /// Whether `item` comes before `other` in a list: the higher score first, and of equal
  /// scores the smaller id (read from the index only for ties).
  @inline(__always)
  static func precedes(
    _ item: RankedItem, _ other: RankedItem, type: ContentType, catalog: TrendingCatalog
  ) -> Bool {
    if item.score != other.score { return item.score > other.score }
    return catalog.id(type, at: item.position) < catalog.id(type, at: other.position)
  }

  /// One page of a list: the first `limit` items after the cursor, in order, and whether
  /// more follow.
  static func page(
    of ranking: Ranking, type: ContentType, after cursor: TrendingCursor?, limit: Int,
    catalog: TrendingCatalog
  ) -> (items: [RankedItem], hasMore: Bool) {
    let items = ranking.items
    let ordered = ranking.ordered
    // Within the ordered items (plus one, to tell whether more follow), a slice of them.
    let start =
      cursor.map { cursor in
        ordered.firstIndex { isAfter(items[Int($0)], cursor, type: type, catalog: catalog) }
          ?? ordered.count
      } ?? 0
    if start + limit < ordered.count || ranking.isOrderedWhole {
      let end = min(start + limit, ordered.count)
      return (ordered[start..<end].map { items[Int($0)] }, end < ordered.count)
    }
    let selected = select(
      from: items, type: type, after: cursor, count: limit + 1, catalog: catalog)
    return (selected.prefix(limit).map { items[Int($0)] }, selected.count > limit)
  }

  /// Whether `item` comes after `cursor` in its list.
  private static func isAfter(
    _ item: RankedItem, _ cursor: TrendingCursor, type: ContentType, catalog: TrendingCatalog
  ) -> Bool {
    item.score < cursor.score
      || (item.score == cursor.score && catalog.id(type, at: item.position) > cursor.id)
  }

  /// The indices of the first `count` items after the cursor, in order.
  ///
  /// Kept to the best `count` seen so far, a small sorted buffer of indices, this is
  /// O(n log count) comparisons with few moves for items in no order, instead of sorting all
  /// n; a count that is a fair share of n sorts the items after the cursor instead.
  static func select(
    from items: [RankedItem], type: ContentType, after cursor: TrendingCursor?, count: Int,
    catalog: TrendingCatalog
  ) -> [Int32] {
    func comesAfterCursor(_ item: RankedItem) -> Bool {
      cursor.map { isAfter(item, $0, type: type, catalog: catalog) } ?? true
    }
    func precedes(_ item: RankedItem, _ other: RankedItem) -> Bool {
      Self.precedes(item, other, type: type, catalog: catalog)
    }
    if count * 8 >= items.count {
      let kept = items.indices.filter { comesAfterCursor(items[$0]) }.map(Int32.init)
      return Array(kept.sorted { precedes(items[Int($0)], items[Int($1)]) }.prefix(count))
    }
    var best: [Int32] = []
    best.reserveCapacity(count)
    for (index, item) in items.enumerated() where comesAfterCursor(item) {
      if best.count == count {
        guard precedes(item, items[Int(best[count - 1])]) else { continue }
        best.removeLast()
      }
      var low = 0
      var high = best.count
      while low < high {
        let middle = (low + high) / 2
        if precedes(items[Int(best[middle])], item) { low = middle + 1 } else { high = middle }
      }
      best.insert(Int32(index), at: low)
    }
    return best
  }

  /// `O`, `E`, `z` and the gates of one counter at `now`.
  static func terms(
    of counters: ItemCounters, type: ContentType, state: TrendingState, at now: Double
  ) -> TrendTerms {
    TrendFormula(type, state: state, at: now).terms(of: counters)
  }

  /// The best trending videos (at most 3 each) that use each of `keys`, in `region`.
  private func featuredVideos(
    region: String?, for keys: Set<ContentKey>, catalog: TrendingCatalog
  ) throws(SearchError) -> [ContentKey: [String]] {
    guard !keys.isEmpty else { return [:] }
    let videos = try ranking(.video, region: region, catalog: catalog)
    let regionKey = region.map { ContentKey(region: $0).rawValue } ?? 0
    // What each item's best videos are follows from the video ranking alone: computed once
    // per video ranking, then read by every hashtag, sound and effect page until it changes.
    let index = caches.withLock { caches -> FingerprintTable<ContentKey, FeaturedVideos>? in
      guard let cached = caches.featured[regionKey], cached.computedAt == videos.computedAt,
        cached.generation == videos.generation
      else { return nil }
      return cached.positions
    }
    let positions = index ?? Self.featuredPositions(of: videos, catalog: catalog)
    if index == nil {
      caches.withLock {
        $0.featured[regionKey] = FeaturedIndex(
          computedAt: videos.computedAt, generation: videos.generation, positions: positions)
      }
    }
    var featured: [ContentKey: [String]] = [:]
    for key in keys {
      if let found = positions[key] {
        featured[key] = found.positions.map { catalog.id(.video, at: $0) }
      }
    }
    return featured
  }

  /// For every hashtag, sound and effect the ranked videos use, the positions of its best
  /// three, best first.
  private static func featuredPositions(of videos: Ranking, catalog: TrendingCatalog)
    -> FingerprintTable<ContentKey, FeaturedVideos>
  {
    // A video uses about ten items; sized once, the table never rehashes while filling.
    var featured = FingerprintTable<ContentKey, FeaturedVideos>(
      maximumLoad: 0.75, minimumCapacity: 12 * videos.items.count)
    // An item's best videos come first: the whole video list, in order. Sorting small
    // (score, index) pairs moves far fewer bytes than sorting the items.
    let pairs = videos.items.indices.map { (score: videos.items[$0].score, index: $0) }
    let ordered = pairs.sorted {
      $0.score != $1.score
        ? $0.score > $1.score
        : precedes(
          videos.items[$0.index], videos.items[$1.index], type: .video, catalog: catalog)
    }
    for (_, index) in ordered {
      let video = videos.items[index]
      catalog.forEachUse(ofVideoAt: video.position) { item in
        featured[item, default: FeaturedVideos()].append(video.position)
      }
    }
    return featured
  }

  /// A page entry, with the strings read from the index.
  private func makeItem(
    _ ranked: RankedItem, type: ContentType, featured: [String], catalog: TrendingCatalog
  ) -> TrendingItem {
    let snapshot = catalog.snapshot
    let growth = ranked.observed - ranked.expected
    switch type {
    case .video:
      let video = snapshot.catalogVideo(at: ranked.position, includingHashtags: false)
      return TrendingItem(
        id: video.id, type: .video, title: video.title,
        viewCount: video.viewCount + Int(ranked.views), thumbnailURL: video.thumbnailURL,
        createdAt: video.createdAt, score: ranked.score, isRising: ranked.isRising,
        details: .video(.init(creator: video.creator, distinctUsers: ranked.distinctUsers)))
    case .hashtag:
      let hashtag = snapshot.catalogHashtag(at: ranked.position)
      return TrendingItem(
        id: hashtag.id, type: .hashtag, title: hashtag.name,
        viewCount: hashtag.viewCount + Int(ranked.views), thumbnailURL: nil, createdAt: nil,
        score: ranked.score, isRising: ranked.isRising,
        details: .hashtag(
          .init(
            description: hashtag.description, participants: Int(ranked.actors),
            featuredVideoIDs: featured)))
    case .sound:
      let sound = snapshot.catalogSound(at: ranked.position)
      return TrendingItem(
        id: sound.id, type: .sound, title: sound.title, viewCount: Int(ranked.views),
        thumbnailURL: nil, createdAt: nil, score: ranked.score, isRising: ranked.isRising,
        details: .sound(
          .init(
            artist: sound.artist, videoCount: sound.videoCount + Int(ranked.actors),
            growth: growth, featuredVideoIDs: featured)))
    case .effect:
      let effect = snapshot.catalogEffect(at: ranked.position)
      return TrendingItem(
        id: effect.id, type: .effect, title: effect.name, viewCount: Int(ranked.views),
        thumbnailURL: effect.thumbnailURL, createdAt: nil, score: ranked.score,
        isRising: ranked.isRising,
        details: .effect(
          .init(
            videoCount: effect.useCount + Int(ranked.actors), growth: growth,
            featuredVideoIDs: featured)))
    }
  }
}

/// The score formula of one list at one "now": decay factors and thresholds read once, so
/// that scoring a candidate touches only its counter.
struct TrendFormula: Sendable {
  let shortFactor: Double
  let longFactor: Double
  /// `E / L` (see ``TrendingState/warmUpRatio(_:at:)``).
  let expectedPerLong: Double
  let minimumObservedCount: Double
  let minimumDistinctUsers: Int
  let priorCount: Double
  let risingThreshold: Double
  let risingRatio: Double

  init(_ type: ContentType, state: TrendingState, at now: Double) {
    let factors = state.decayFactors(type, at: now)
    shortFactor = factors.short
    longFactor = factors.long
    expectedPerLong = state.warmUpRatio(type, at: now)
    let configuration = state.configuration
    minimumObservedCount = configuration.minimumObservedCount
    minimumDistinctUsers = configuration.minimumDistinctUsers
    priorCount = configuration.priorCount
    risingThreshold = configuration.risingThreshold
    risingRatio = configuration.risingRatio
  }

  /// `O`, `E`, `z` and the gates of one counter.
  @inline(__always)
  func terms(of counters: ItemCounters) -> TrendTerms {
    let observed = Double(counters.short) * shortFactor
    let long = Double(counters.long) * longFactor
    let expected = long * expectedPerLong
    let z = (observed - expected) / (expected + priorCount).squareRoot()
    let passesVolume = observed >= minimumObservedCount && z.isFinite
    let distinct = counters.users.count
    let passes = passesVolume && distinct >= minimumDistinctUsers
    return TrendTerms(
      observed: observed, expected: expected, long: long, z: z.isFinite ? z : 0,
      distinctUsers: distinct,
      isRising: passes && z >= risingThreshold && observed >= risingRatio * expected,
      passesGates: passes)
  }
}
