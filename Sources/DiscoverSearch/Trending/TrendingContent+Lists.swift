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
  /// Each item's score, in the order of ``items``: what selections read, compactly.
  var scores: [Double]
  /// The indices in ``items`` of the best ones, best first: all of them when few.
  var ordered: [Int32]

  /// How many items a computed list orders.
  static let orderedLength = 100

  /// Whether ``ordered`` holds every item.
  var isOrderedWhole: Bool { ordered.count == items.count }

  /// A score that the next computation of this list likely finds at least
  /// ``orderedLength`` items above: the last ordered score, lowered by a quarter of its size
  /// (scores drift between refreshes), or `nil` when this list orders all its items.
  var nextSelectionHint: Double? {
    guard !isOrderedWhole, let last = ordered.last else { return nil }
    let cutoff = scores[Int(last)]
    return cutoff - 0.25 * abs(cutoff) - 0.05
  }
}

/// The featured videos of the items pages asked for, from one video ranking: each item's
/// entry is computed the first time a page shows it, then read until the ranking changes.
struct FeaturedIndex: Sendable {
  var computedAt: Double
  var generation: UInt64
  var catalog: TrendingCatalog
  /// The indices in the video ranking's items of its best ``featuredDepth`` videos, the
  /// only ones featured, in no particular order.
  var depth: [Int32]
  var positions: FingerprintTable<ContentKey, FeaturedVideos>

  /// How deep in the video list featured videos are taken from: the first 1,000 videos, a
  /// grid scrolled far down. A deeper video is hardly trending, and the bound keeps finding
  /// a page's featured videos O(1,000 · uses) however many videos are listed.
  static let featuredDepth = 1_000
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
  var score: Double
  var observed: Double
  var expected: Double
  /// A video's views in the list's region, copied when the list is computed; a hashtag's,
  /// sound's or effect's views, read when a page shows it (a table lookup each, for the few
  /// items of a page rather than for every listed one).
  var views: UInt64
  private var storedPosition: Int32
  private var storedDistinctUsers: Int32
  var actors: UInt32
  var isRising: Bool

  init(
    key: ContentKey, position: Int, score: Double, observed: Double, expected: Double,
    distinctUsers: Int, views: UInt64, actors: UInt32, isRising: Bool
  ) {
    self.key = key
    self.score = score
    self.observed = observed
    self.expected = expected
    self.views = views
    storedPosition = Int32(position)
    storedDistinctUsers = Int32(clamping: distinctUsers)
    self.actors = actors
    self.isRising = isRising
  }

  /// The item's catalog position.
  var position: Int { Int(storedPosition) }
  var distinctUsers: Int { Int(storedDistinctUsers) }
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
    var (selected, hasMore) = Self.page(
      of: ranking, type: type, after: cursor, limit: limit, catalog: catalog)
    if type != .video {
      try store.withState { state throws(SearchError) in
        for index in selected.indices {
          selected[index].views = state.useViews.views(
            of: selected[index].key, type, at: selected[index].position, in: catalog)
        }
      }
    }
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
    let hint = caches.withLock { caches in
      caches.rankings[key].flatMap { $0.catalog === catalog ? $0.nextSelectionHint : nil }
    }
    let ranking = try computeRanking(key, at: now, catalog: catalog, hint: hint)
    caches.withLock { $0.rankings[key] = ranking }
    return ranking
  }

  /// Scores every candidate of the list and keeps those listed, unordered; drops the
  /// candidates that cooled.
  private func computeRanking(
    _ key: RankingKey, at now: Double, catalog: TrendingCatalog, hint: Double?
  ) throws(SearchError) -> Ranking {
    let blocked = blockedKeys(catalog: catalog)
    let (items, scores, above, generation) = try store.withState {
      state throws(SearchError) -> ([RankedItem], [Double], [Int32], UInt64) in
      // Taken out while scored, so that it changes in place.
      var candidates = state.hot[key.type.index]
      state.hot[key.type.index] = CandidateList()
      if candidates.catalogSerial != catalog.serial {
        candidates.forgetPositions(catalogSerial: catalog.serial)
      }
      guard let list = candidates.list(ofRegion: key.region) else {
        state.hot[key.type.index] = candidates
        return ([], [], [], state.generation)
      }
      let scored = candidates.withCandidates(ofList: list) { candidates in
        Self.score(
          &candidates, of: key, state: state, at: now, catalog: catalog, blocked: blocked,
          hint: hint ?? .infinity)
      }
      candidates.remove(atSortedOffsets: scored.cooled, fromList: list)
      state.hot[key.type.index] = candidates
      return (scored.items, scored.scores, scored.above, state.generation)
    }
    // When enough items scored at least the hint, the best ones are all among them.
    let ordered = Self.select(
      from: items, scores: scores,
      among: above.count >= Ranking.orderedLength ? above : nil, type: key.type, after: nil,
      count: Ranking.orderedLength, catalog: catalog)
    return Ranking(
      computedAt: now, generation: generation, catalog: catalog, items: items, scores: scores,
      ordered: ordered)
  }

  /// The listed items among the candidates of the list with their scores, the indices of
  /// those scoring at least `hint`, and the offsets of the candidates that cooled, in
  /// increasing order; looks up the positions not yet resolved.
  private static func score(
    _ candidates: inout [CandidateList.Candidate], of key: RankingKey, state: TrendingState,
    at now: Double, catalog: TrendingCatalog, blocked: Set<ContentKey>, hint: Double
  ) -> (items: [RankedItem], scores: [Double], above: [Int32], cooled: [Int]) {
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
    var scores: [Double] = []
    scores.reserveCapacity(candidates.count)
    var cooled: [Int] = []
    var above: [Int32] = []
    for offset in candidates.indices {
      let counters = candidates[offset].counters
      guard Double(counters.short) * shortFactor >= floor else {
        if Double(counters.short) < threshold { cooled.append(offset) }
        continue
      }
      let item = candidates[offset].item
      var position = candidates[offset].position
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
          distinctUsers: terms.distinctUsers, views: isVideo ? UInt64(counters.views) : 0,
          actors: counters.lifetimeActors, isRising: terms.isRising))
      if terms.z >= hint { above.append(Int32(scores.count)) }
      scores.append(terms.z)
    }
    return (items, scores, above, cooled)
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
      from: items, scores: ranking.scores, among: nil, type: type, after: cursor,
      count: limit + 1, catalog: catalog)
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

  /// The indices of the first `count` items after the cursor, in order, among `subset`
  /// (indices in `items`) or among all items.
  ///
  /// The `count`-th best score is found first (``Swift/Array/largest(rank:)``, expected
  /// O(n)) in a copy of the compact scores; only the items scoring at least that, `count`
  /// plus any ties with it, are then sorted, reading ids only for equal scores.
  static func select(
    from items: [RankedItem], scores: [Double], among subset: [Int32]?, type: ContentType,
    after cursor: TrendingCursor?, count: Int, catalog: TrendingCatalog
  ) -> [Int32] {
    var eligible: [Int32] = []
    eligible.reserveCapacity(subset?.count ?? items.count)
    func consider(_ index: Int) {
      if let cursor, !isAfter(items[index], cursor, type: type, catalog: catalog) { return }
      eligible.append(Int32(index))
    }
    if let subset {
      for index in subset { consider(Int(index)) }
    } else {
      for index in items.indices { consider(index) }
    }
    if count < eligible.count {
      var values = eligible.map { scores[Int($0)] }
      let cutoff = values.largest(rank: count)
      eligible.removeAll { scores[Int($0)] < cutoff }
    }
    eligible.sort { index, other in
      let score = scores[Int(index)]
      let otherScore = scores[Int(other)]
      if score != otherScore { return score > otherScore }
      return catalog.idPrecedes(type, at: items[Int(index)].position, items[Int(other)].position)
    }
    return Array(eligible.prefix(count))
  }

  /// The indices of the items scoring among the best `count`, ties with the last of them
  /// included, in no particular order.
  static func best(_ count: Int, of scores: [Double]) -> [Int32] {
    guard count < scores.count else { return scores.indices.map(Int32.init) }
    var copy = scores
    let cutoff = copy.largest(rank: count)
    return scores.indices.filter { scores[$0] >= cutoff }.map(Int32.init)
  }

  /// `O`, `E`, `z` and the gates of one counter at `now`.
  static func terms(
    of counters: ItemCounters, type: ContentType, state: TrendingState, at now: Double
  ) -> TrendTerms {
    TrendFormula(type, state: state, at: now).terms(of: counters)
  }

  /// The best trending videos (at most 3 each) that use each of `keys`, items of `type`, in
  /// `region`, among the best ``FeaturedIndex/featuredDepth`` of the video list.
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
        depth: Self.best(FeaturedIndex.featuredDepth, of: videos.scores),
        positions: FingerprintTable(maximumLoad: 0.7))
    let missing = keys.filter { index.positions[$0] == nil }
    if !missing.isEmpty {
      Self.addFeatured(
        of: missing, type: type, from: videos, depth: index.depth, to: &index.positions,
        catalog: catalog)
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

  /// Adds to `index` the best three videos of `depth` (indices in the video ranking's items)
  /// that use each of `keys`, all of one type (hashtags, sounds or effects), in one pass over
  /// those videos' uses of that type.
  private static func addFeatured(
    of keys: Set<ContentKey>, type: ContentType, from videos: Ranking, depth: [Int32],
    to index: inout FingerprintTable<ContentKey, FeaturedVideos>, catalog: TrendingCatalog
  ) {
    // The use numbers of the keys asked for, in a bit set: each use of a video is then
    // turned away, or found, by one bit test, without reading a key.
    var best = FingerprintTable<ContentKey, FeaturedVideos>(
      maximumLoad: 0.5, minimumCapacity: keys.count)
    var wanted = [UInt64](repeating: 0, count: (catalog.usedItems.count + 63) / 64)
    for key in keys {
      best[key] = FeaturedVideos()
      if let number = catalog.useNumber(of: key) { wanted[number >> 6] |= 1 << (number & 63) }
    }
    func precedes(_ position: Int, _ other: Int) -> Bool {
      catalog.idPrecedes(.video, at: position, other)
    }
    for itemIndex in depth {
      let video = videos.items[Int(itemIndex)]
      catalog.withUseNumbers(ofVideoAt: video.position, ofType: type) { numbers in
        for number in numbers
        where wanted[Int(number) >> 6] & (1 << (UInt64(number) & 63)) != 0 {
          best.modifyValueIfPresent(forKey: catalog.usedItems[Int(number)]) { featured in
            featured.offer(score: video.score, position: video.position, precedes: precedes)
          }
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
