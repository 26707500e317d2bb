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
  /// The catalog the items' positions are in.
  var catalog: TrendingCatalog
  /// Every listed item, in no particular order.
  var items: [RankedItem]
  /// The indices in ``items`` of the best ones, best first: all of them when few.
  var ordered: [Int32]

  /// How many items a computed list orders.
  static let orderedLength = 100

  /// Whether ``ordered`` holds every item.
  var isOrderedWhole: Bool { ordered.count == items.count }
}

/// The featured videos of the items pages asked for, from one video ranking: each item's
/// entry is computed the first time a page shows it, then read until the ranking changes.
struct FeaturedIndex: Sendable {
  var computedAt: Double
  var generation: UInt64
  var catalog: TrendingCatalog
  var positions: FingerprintTable<ContentKey, FeaturedVideos>
}

/// An item's best three trending videos, best first, inline: their scores and catalog
/// positions.
struct FeaturedVideos: Sendable, TableFiller {
  static let capacity = 3
  private var scores: (Double, Double, Double) = (0, 0, 0)
  private var slots: (Int32, Int32, Int32) = (0, 0, 0)
  private(set) var count = 0

  static var filler: FeaturedVideos { FeaturedVideos() }

  private func keptScore(_ rank: Int) -> Double {
    rank == 0 ? scores.0 : rank == 1 ? scores.1 : scores.2
  }

  private func keptPosition(_ rank: Int) -> Int32 {
    rank == 0 ? slots.0 : rank == 1 ? slots.1 : slots.2
  }

  private mutating func set(_ rank: Int, _ score: Double, _ position: Int32) {
    switch rank {
    case 0: (scores.0, slots.0) = (score, position)
    case 1: (scores.1, slots.1) = (score, position)
    default: (scores.2, slots.2) = (score, position)
    }
  }

  /// Offers a video: kept when it is among the best three so far. `precedes` orders two
  /// positions of equal score (by id).
  mutating func offer(
    score: Double, position: Int, precedes: (_ position: Int, _ other: Int) -> Bool
  ) {
    func isBetter(_ rank: Int) -> Bool {
      let other = keptScore(rank)
      return score != other ? score > other : precedes(position, Int(keptPosition(rank)))
    }
    var rank = count
    while rank > 0, isBetter(rank - 1) { rank -= 1 }
    guard rank < Self.capacity else { return }
    var moved = min(count, Self.capacity - 1)
    while moved > rank {
      set(moved, keptScore(moved - 1), keptPosition(moved - 1))
      moved -= 1
    }
    set(rank, score, Int32(position))
    count = min(count + 1, Self.capacity)
  }

  var positions: [Int] { (0..<count).map { Int(keptPosition($0)) } }
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
        region: regionName, for: Set(selected.map(\.key)), type: type, catalog: catalog)
    let cards = cards(of: selected, type: type, catalog: catalog)
    let items = zip(selected, cards).map { ranked, card in
      Self.makeItem(ranked, type: type, card: card, featured: featured[ranked.key] ?? [])
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
    if let cached = caches.withLock({ $0.rankings[key] }), cached.catalog === catalog,
      cached.generation == generation
        || abs(now - cached.computedAt) < configuration.refreshInterval
    {
      return cached
    }
    let ranking = try computeRanking(key, at: now, catalog: catalog)
    caches.withLock { $0.rankings[key] = ranking }
    return ranking
  }

  /// How many candidates ahead scoring prefetches the view totals of hashtags, sounds and
  /// effects.
  private static let lookahead = 8

  /// Scores every candidate of the list and keeps those listed, unordered; drops the
  /// candidates that cooled.
  private func computeRanking(_ key: RankingKey, at now: Double, catalog: TrendingCatalog)
    throws(SearchError) -> Ranking
  {
    let blocked = blockedKeys(catalog: catalog)
    let (items, generation) = try store.withState {
      state throws(SearchError) -> ([RankedItem], UInt64) in
      // Taken out while scored, so that it changes in place.
      var candidates = state.hot[key.type.index]
      state.hot[key.type.index] = CandidateList()
      if candidates.catalogSerial != catalog.serial {
        candidates.forgetPositions(catalogSerial: catalog.serial)
      }
      guard let list = candidates.list(ofRegion: key.region) else {
        state.hot[key.type.index] = candidates
        return ([], state.generation)
      }
      let (items, cooled) = candidates.withCandidates(ofList: list) { candidates in
        Self.score(&candidates, of: key, state: state, at: now, catalog: catalog, blocked: blocked)
      }
      candidates.remove(atSortedOffsets: cooled, fromList: list)
      state.hot[key.type.index] = candidates
      return (items, state.generation)
    }
    let ordered = Self.select(
      from: items, type: key.type, after: nil, count: Ranking.orderedLength, catalog: catalog)
    return Ranking(
      computedAt: now, generation: generation, catalog: catalog, items: items, ordered: ordered)
  }

  /// The listed items among the candidates of the list, and the offsets of those that
  /// cooled, in increasing order; looks up the positions not yet resolved.
  private static func score(
    _ candidates: inout [CandidateList.Candidate], of key: RankingKey, state: TrendingState,
    at now: Double, catalog: TrendingCatalog, blocked: Set<ContentKey>
  ) -> (items: [RankedItem], cooled: [Int]) {
    let formula = TrendFormula(key.type, state: state, at: now)
    let shortFactor = formula.shortFactor
    let floor = formula.minimumObservedCount
    // A candidate leaves only when below the threshold recording checks against (at the
    // newest event, not at a later "now"), so that its next crossing brings it back; the
    // margin keeps rounding from dropping one that recording still sees at it.
    let threshold = state.hotThreshold(key.type) * (1 - 1e-9)
    let isVideo = key.type == .video
    var items: [RankedItem] = []
    items.reserveCapacity(candidates.count)
    var cooled: [Int] = []
    for offset in candidates.indices {
      if !isVideo, offset + lookahead < candidates.count {
        state.useViews.prefetch(candidates[offset + lookahead].item)
      }
      let candidate = candidates[offset]
      let counters = candidate.counters
      guard Double(counters.short) * shortFactor >= floor else {
        if Double(counters.short) < threshold { cooled.append(offset) }
        continue
      }
      let item = candidate.item
      var position = candidate.position
      if position == CandidateList.Candidate.unresolved {
        position =
          catalog.position(of: item, key.type).map(Int32.init)
          ?? CandidateList.Candidate.absent
        candidates[offset].position = position
      }
      guard position >= 0,
        blocked.isEmpty
          || !isBlocked(item, at: Int(position), key.type, catalog: catalog, blocked)
      else { continue }
      let terms = formula.terms(of: counters)
      guard terms.passesGates else { continue }
      items.append(
        RankedItem(
          key: item, position: Int(position), score: terms.z,
          observed: terms.observed, expected: terms.expected,
          distinctUsers: terms.distinctUsers,
          views: isVideo
            ? UInt64(counters.views)
            : state.useViews.views(of: item, key.type, at: Int(position), in: catalog),
          actors: counters.lifetimeActors, isRising: terms.isRising))
    }
    return (items, cooled)
  }

  /// Whether the blocklist keeps an item out: the item itself, or for a video anything it
  /// uses.
  private static func isBlocked(
    _ item: ContentKey, at position: Int, _ type: ContentType, catalog: TrendingCatalog,
    _ blocked: Set<ContentKey>
  ) -> Bool {
    if blocked.contains(item) { return true }
    guard type == .video else { return false }
    var usesBlocked = false
    catalog.forEachUse(ofVideoAt: position) { usesBlocked = usesBlocked || blocked.contains($0) }
    return usesBlocked
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
      || (item.score == cursor.score
        && catalog.id(type, at: item.position, follows: cursor.id))
  }

  /// The indices of the first `count` items after the cursor, in order.
  ///
  /// The `count`-th best score is found first (``Swift/Array/largest(rank:)``, expected
  /// O(n)); only the items scoring at least that, `count` plus any ties with it, are then
  /// sorted. Both steps compare compact (score, index) pairs, reading ids only for equal
  /// scores.
  static func select(
    from items: [RankedItem], type: ContentType, after cursor: TrendingCursor?, count: Int,
    catalog: TrendingCatalog
  ) -> [Int32] {
    typealias Entry = (score: Double, index: Int32)
    var entries: [Entry] = []
    entries.reserveCapacity(items.count)
    for (index, item) in items.enumerated()
    where cursor.map({ isAfter(item, $0, type: type, catalog: catalog) }) ?? true {
      entries.append((item.score, Int32(index)))
    }
    if count < entries.count {
      var scores = entries.map(\.score)
      let cutoff = scores.largest(rank: count)
      entries.removeAll { $0.score < cutoff }
    }
    entries.sort { entry, other in
      if entry.score != other.score { return entry.score > other.score }
      return catalog.idPrecedes(
        type, at: items[Int(entry.index)].position, items[Int(other.index)].position)
    }
    return entries.prefix(count).map(\.index)
  }

  /// `O`, `E`, `z` and the gates of one counter at `now`.
  static func terms(
    of counters: ItemCounters, type: ContentType, state: TrendingState, at now: Double
  ) -> TrendTerms {
    TrendFormula(type, state: state, at: now).terms(of: counters)
  }

  /// The best trending videos (at most 3 each) that use each of `keys`, items of `type`, in
  /// `region`.
  private func featuredVideos(
    region: String?, for keys: Set<ContentKey>, type: ContentType, catalog: TrendingCatalog
  ) throws(SearchError) -> [ContentKey: [String]] {
    guard !keys.isEmpty else { return [:] }
    let videos = try ranking(.video, region: region, catalog: catalog)
    let regionKey = region.map { ContentKey(region: $0).rawValue } ?? 0
    // What an item's best videos are follows from the video ranking alone: computed for the
    // items of a page, then read by every page that shows them until the ranking changes.
    var index =
      caches.withLock { caches -> FeaturedIndex? in
        guard let cached = caches.featured[regionKey], cached.computedAt == videos.computedAt,
          cached.generation == videos.generation, cached.catalog === videos.catalog
        else { return nil }
        return cached
      }
      ?? FeaturedIndex(
        computedAt: videos.computedAt, generation: videos.generation, catalog: videos.catalog,
        positions: FingerprintTable(maximumLoad: 0.7))
    let missing = keys.filter { index.positions[$0] == nil }
    if !missing.isEmpty {
      Self.addFeatured(
        of: missing, type: type, from: videos, to: &index.positions, catalog: catalog)
      caches.withLock { $0.featured[regionKey] = index }
    }
    var featured: [ContentKey: [String]] = [:]
    for key in keys {
      if let found = index.positions[key], found.count > 0 {
        featured[key] = found.positions.map { catalog.id(.video, at: $0) }
      }
    }
    return featured
  }

  /// Adds to `index` the best three ranked videos of each of `keys`, all of one type
  /// (hashtags, sounds or effects), in one pass over the ranked videos' uses of that type.
  private static func addFeatured(
    of keys: Set<ContentKey>, type: ContentType, from videos: Ranking,
    to index: inout FingerprintTable<ContentKey, FeaturedVideos>, catalog: TrendingCatalog
  ) {
    // The few keys asked for, in a small table that stays in cache while every ranked
    // video's uses are looked up in it, behind a filter that turns most other uses away
    // with one bit test.
    var best = FingerprintTable<ContentKey, FeaturedVideos>(
      maximumLoad: 0.5, minimumCapacity: keys.count)
    var filter = KeyFilter()
    for key in keys {
      best[key] = FeaturedVideos()
      filter.insert(key)
    }
    func precedes(_ position: Int, _ other: Int) -> Bool {
      catalog.idPrecedes(.video, at: position, other)
    }
    for video in videos.items {
      catalog.forEachUse(ofVideoAt: video.position, ofType: type) { item in
        guard filter.mayContain(item) else { return }
        best.modifyValueIfPresent(forKey: item) { featured in
          featured.offer(score: video.score, position: video.position, precedes: precedes)
        }
      }
    }
    for (key, featured) in best { index[key] = featured }
  }

  /// A page entry: its item's card and what the ranking says of it.
  private static func makeItem(
    _ ranked: RankedItem, type: ContentType, card: ItemCard, featured: [String]
  ) -> TrendingItem {
    let growth = ranked.observed - ranked.expected
    let details: TrendingItem.Details
    var viewCount = Int(ranked.views)
    switch type {
    case .video:
      viewCount += card.count
      details = .video(.init(creator: card.subtitle, distinctUsers: ranked.distinctUsers))
    case .hashtag:
      viewCount += card.count
      details = .hashtag(
        .init(
          description: card.subtitle, participants: Int(ranked.actors),
          featuredVideoIDs: featured))
    case .sound:
      details = .sound(
        .init(
          artist: card.subtitle, videoCount: card.count + Int(ranked.actors), growth: growth,
          featuredVideoIDs: featured))
    case .effect:
      details = .effect(
        .init(
          videoCount: card.count + Int(ranked.actors), growth: growth,
          featuredVideoIDs: featured))
    }
    return TrendingItem(
      id: card.id, type: type, title: card.title, viewCount: viewCount,
      thumbnailURL: card.thumbnailURL, createdAt: card.createdAt, score: ranked.score,
      isRising: ranked.isRising, details: details)
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

/// A set of keys that may answer "maybe" for a key it does not hold, never "no" for one it
/// does: one bit per key of 512, a Bloom filter with one hash function (Bloom,
/// "Space/Time Trade-offs in Hash Coding with Allowable Errors", CACM 13(7), 1970). With the
/// 50 keys of a page, about one other key in ten gets through.
struct KeyFilter: Sendable {
  private var words = InlineArray<8, UInt64>(repeating: 0)

  /// The word and bit of a key: its top 9 bits (a key is already a mixed hash), so the word
  /// is below 8.
  @inline(__always)
  private static func place(of key: ContentKey) -> (word: Int, bit: UInt64) {
    let bits = key.rawValue >> 55
    return (Int(bits >> 6), 1 << (bits & 63))
  }

  mutating func insert(_ key: ContentKey) {
    let (word, bit) = Self.place(of: key)
    words[word] |= bit
  }

  @inline(__always)
  func mayContain(_ key: ContentKey) -> Bool {
    let (word, bit) = Self.place(of: key)
    return words[word] & bit != 0
  }
}
