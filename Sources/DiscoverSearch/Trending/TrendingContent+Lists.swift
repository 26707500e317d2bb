import Foundation

/// A computed list: the listed items scoring at least its ``floor`` with what their page
/// entries need, and the order of the best ones.
///
/// Most requests ask for the first pages, so a refresh keeps only the items scoring at least
/// a floor that the previous computation of the list suggests (``nextFloor``): a few hundred
/// of thousands of candidates, the only ones whose score needs a square root and whose entry
/// is made. Every listed item scoring at least the floor is kept, so the kept items are the
/// head of the whole list, in its order; a page past them computes the whole list
/// (``isComplete``). Only the first ``orderedLength`` items are ordered when the list is
/// computed; a page past them selects its items from all those kept
/// (`TrendingContent.page(of:after:limit:)`).
struct Ranking: Sendable {
  var computedAt: Double
  var generation: UInt64
  /// The catalog the items' positions are in.
  var catalog: TrendingCatalog
  /// Every listed item scoring at least ``floor``, in no particular order.
  var items: [RankedItem]
  /// Each item's score, in the order of ``items``: what selections read, compactly.
  var scores: [Double]
  /// The indices in ``items`` of the best ones, best first: all of them when few.
  var ordered: [Int32]
  /// The lowest score kept; `-infinity` when every listed item is kept.
  var floor: Double

  /// How many items a computed list orders.
  static let orderedLength = 100

  /// Whether ``items`` holds every listed item.
  var isComplete: Bool { floor == -.infinity }

  /// Whether ``ordered`` holds every listed item.
  var isOrderedWhole: Bool { isComplete && ordered.count == items.count }

  /// The floor for the next computation of this list: the last ordered score, lowered by a
  /// quarter of its size and a little more (scores drift between refreshes), or `-infinity`
  /// when this list orders all its items.
  var nextFloor: Double {
    guard !isOrderedWhole, ordered.count == Self.orderedLength, let last = ordered.last else {
      return -.infinity
    }
    let score = scores[Int(last)]
    return score - 0.25 * abs(score) - 0.05
  }
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

  /// A page of a trending list for a request: ``list(_:region:limit:after:)`` with its
  /// parameters in one value, the limit checked rather than trusted.
  ///
  /// - Throws: ``SearchError/Code/invalidArgument`` for a limit outside
  ///   1...``maximumListLimit`` or a cursor of another list or region.
  public func list(_ request: TrendingRequest) throws(SearchError) -> TrendingPage {
    guard (1...Self.maximumListLimit).contains(request.limit) else {
      throw SearchError(
        .invalidArgument,
        "a trending list's limit must be 1 to \(Self.maximumListLimit), not \(request.limit)")
    }
    return try list(
      request.type, region: request.region, limit: request.limit, after: request.cursor)
  }

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
    var ranking = try self.ranking(type, region: regionName, catalog: catalog)
    var page = Self.page(of: ranking, type: type, after: cursor, limit: limit, catalog: catalog)
    if page == nil {
      ranking = try self.ranking(type, region: regionName, catalog: catalog, complete: true)
      page = Self.page(of: ranking, type: type, after: cursor, limit: limit, catalog: catalog)
    }
    guard let page else { preconditionFailure("a complete list pages every cursor") }
    var selected = page.items
    let hasMore = page.hasMore
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
        region: regionName, for: selected.map(\.key), type: type, catalog: catalog)
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
  ///
  /// - Parameter complete: Whether every listed item is needed (a page past the kept head),
  ///   not only those scoring at least the floor.
  func ranking(
    _ type: ContentType, region: String?, catalog: TrendingCatalog, complete: Bool = false
  ) throws(SearchError) -> Ranking {
    let now = clock().timeIntervalSinceReferenceDate
    let key = RankingKey(type: type, region: region.map { ContentKey(region: $0).rawValue } ?? 0)
    let generation = try store.withState { state throws(SearchError) in state.generation }
    let cached = caches.withLock { $0.rankings[key] }.flatMap {
      $0.catalog === catalog ? $0 : nil
    }
    if let cached, !complete || cached.isComplete,
      cached.generation == generation
        || abs(now - cached.computedAt) < configuration.refreshInterval
    {
      return cached
    }
    let floor = complete ? -Double.infinity : cached?.nextFloor ?? -.infinity
    let ranking = try computeRanking(key, at: now, catalog: catalog, floor: floor)
    caches.withLock { $0.rankings[key] = ranking }
    return ranking
  }

  /// Scores every candidate of the list and keeps those listed, unordered; drops the
  /// candidates that cooled.
  private func computeRanking(
    _ key: RankingKey, at now: Double, catalog: TrendingCatalog, floor: Double
  ) throws(SearchError) -> Ranking {
    let blocked = blockedKeys(catalog: catalog)
    let (items, scores, floor, generation) = try store.withState {
      state throws(SearchError) -> ([RankedItem], [Double], Double, UInt64) in
      // Taken out while scored, so that it changes in place.
      var candidates = state.hot[key.type.index]
      state.hot[key.type.index] = CandidateList()
      if candidates.catalogSerial != catalog.serial {
        candidates.forgetPositions(
          catalogSerial: catalog.serial, from: state.counters[key.type.index])
      }
      guard let list = candidates.list(ofRegion: key.region) else {
        state.hot[key.type.index] = candidates
        return ([], [], -.infinity, state.generation)
      }
      var scored = candidates.withCandidates(ofList: list) { candidates in
        Self.score(
          &candidates, of: key, state: state, at: now, catalog: catalog, blocked: blocked,
          floor: floor)
      }
      candidates.remove(
        atSortedOffsets: scored.cooled, absentAt: scored.absent, fromList: list)
      var floor = floor
      if floor > -.infinity, scored.items.count < Ranking.orderedLength {
        // Too few above the floor for the ordered head: scores fell since the list was last
        // computed. Every item then.
        floor = -.infinity
        scored = candidates.withCandidates(ofList: list) { candidates in
          Self.score(
            &candidates, of: key, state: state, at: now, catalog: catalog, blocked: blocked,
            floor: floor)
        }
      }
      state.hot[key.type.index] = candidates
      return (scored.items, scored.scores, floor, state.generation)
    }
    let ordered = Self.select(
      from: items, scores: scores, type: key.type, after: nil, count: Ranking.orderedLength,
      catalog: catalog)
    return Ranking(
      computedAt: now, generation: generation, catalog: catalog, items: items, scores: scores,
      ordered: ordered, floor: floor)
  }

  /// The listed items among the candidates of the list that score at least `floor`, with
  /// their scores, and the offsets of the candidates that cooled and of those whose item the
  /// catalog does not hold, each in increasing order; looks up the positions not yet resolved.
  ///
  /// In passes over the candidates' compact copies: positions of new candidates; which
  /// candidates may score at least the floor, by a test without a square root, a division or
  /// a branch that the data decides (``TrendFormula/mayClear(_:_:)``; a branch per gate,
  /// mispredicted on every other candidate, cost more than the arithmetic); then the exact
  /// score and the entry of those alone, a few hundred of a thousand or more.
  private static func score(
    _ candidates: inout [CandidateList.Candidate], of key: RankingKey, state: TrendingState,
    at now: Double, catalog: TrendingCatalog, blocked: Set<ContentKey>, floor: Double
  ) -> (items: [RankedItem], scores: [Double], cooled: [Int], absent: [Int]) {
    let absent = resolvePositions(&candidates, type: key.type, catalog: catalog)
    let formula = TrendFormula(key.type, state: state, at: now)
    // A candidate leaves when its short sum falls to half the threshold recording adds it
    // at (the minimum count at the newest event, not at a later "now", so that its next
    // crossing brings it back): an item hovering about the minimum would otherwise leave and
    // come back at every refresh, a removal and an insertion of a few table writes each.
    let leavingSum = state.hotThreshold(key.type) * CandidateList.leavingShare
    // A gated-out candidate scores -infinity, below every floor, `-infinity` included.
    let lowest = Swift.max(floor, -Double.greatestFiniteMagnitude)
    let bound = TrendFormula.FloorBound(lowest)
    var kept = [Int32](repeating: 0, count: candidates.count)
    var keptCount = 0
    var cooled: [Int] = []
    kept.withUnsafeMutableBufferPointer { kept in
      for offset in candidates.indices {
        // Written always, counted only when it may clear the floor: no branch on the score.
        kept[keptCount] = Int32(offset)
        keptCount += formula.mayClear(candidates[offset], bound) ? 1 : 0
        if Double(candidates[offset].counters.short) < leavingSum,
          candidates[offset].position >= 0
        {
          cooled.append(offset)
        }
      }
    }
    var items: [RankedItem] = []
    items.reserveCapacity(keptCount)
    var scores: [Double] = []
    scores.reserveCapacity(keptCount)
    let isVideo = key.type == .video
    for offset in kept.prefix(keptCount).map(Int.init) {
      let candidate = candidates[offset]
      let score = formula.gatedScore(of: candidate)
      let position = Int(candidate.position)
      guard score >= lowest,
        blocked.isEmpty
          || !isBlocked(candidate.item, at: position, key.type, catalog: catalog, blocked)
      else { continue }
      let terms = formula.terms(of: candidate.counters)
      items.append(
        RankedItem(
          key: candidate.item, position: position, score: score,
          observed: terms.observed, expected: terms.expected,
          distinctUsers: terms.distinctUsers,
          views: isVideo ? UInt64(candidate.counters.views) : 0,
          actors: candidate.counters.lifetimeActors, isRising: terms.isRising))
      scores.append(score)
    }
    return (items, scores, cooled, absent)
  }

  /// Looks up the catalog positions of the candidates that have none yet (new since the last
  /// refresh, or the catalog changed).
  ///
  /// - Returns: The offsets of the candidates whose item the catalog does not hold, in
  ///   increasing order.
  private static func resolvePositions(
    _ candidates: inout [CandidateList.Candidate], type: ContentType, catalog: TrendingCatalog
  ) -> [Int] {
    var absent: [Int] = []
    for offset in candidates.indices where candidates[offset].position < 0 {
      if candidates[offset].position == CandidateList.Candidate.unresolved {
        candidates[offset].position =
          catalog.position(of: candidates[offset].item, type).map(Int32.init)
          ?? CandidateList.Candidate.absent
      }
      if candidates[offset].position == CandidateList.Candidate.absent { absent.append(offset) }
    }
    return absent
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
  /// more follow; `nil` when the ranking keeps too few items for it (it is not complete, and
  /// fewer than `limit + 1` of its items follow the cursor).
  static func page(
    of ranking: Ranking, type: ContentType, after cursor: TrendingCursor?, limit: Int,
    catalog: TrendingCatalog
  ) -> (items: [RankedItem], hasMore: Bool)? {
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
      from: items, scores: ranking.scores, type: type, after: cursor, count: limit + 1,
      catalog: catalog)
    // Every listed item not kept scores below every kept one, so the kept items after the
    // cursor come first; with fewer than a page and one of them, the rest is not known.
    guard ranking.isComplete || selected.count > limit else { return nil }
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
  /// O(n)) among the compact scores; only the items scoring at least that, `count` plus any
  /// ties with it, are then sorted, reading ids only for equal scores.
  static func select(
    from items: [RankedItem], scores: [Double], type: ContentType,
    after cursor: TrendingCursor?, count: Int, catalog: TrendingCatalog
  ) -> [Int32] {
    var eligible: [Int32] = []
    eligible.reserveCapacity(items.count)
    for index in items.indices
    where cursor.map({ isAfter(items[index], $0, type: type, catalog: catalog) }) ?? true {
      eligible.append(Int32(index))
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

  /// `O`, `E`, `z` and the gates of one counter at `now`.
  static func terms(
    of counters: ItemCounters, type: ContentType, state: TrendingState, at now: Double
  ) -> TrendTerms {
    TrendFormula(type, state: state, at: now).terms(of: counters)
  }

  /// The best trending videos (at most 3 each) that use each of `keys`, items of `type`, in
  /// `region`, among the first ``Ranking/orderedLength`` of the video list: a tag's featured
  /// videos trend themselves, and finding them reads a hundred videos' uses, however many
  /// videos are listed.
  private func featuredVideos(
    region: String?, for keys: [ContentKey], type: ContentType, catalog: TrendingCatalog
  ) throws(SearchError) -> [ContentKey: [String]] {
    guard !keys.isEmpty else { return [:] }
    let videos = try ranking(.video, region: region, catalog: catalog)
    let regionKey = region.map { ContentKey(region: $0).rawValue } ?? 0
    // What an item's best videos are follows from the video ranking alone: computed for the
    // items of a page, then read by every page that shows them until the ranking changes.
    // Taken out of the cache while it grows, so that it changes in place.
    var index =
      caches.withLock { caches -> FeaturedIndex? in
        guard let cached = caches.featured.removeValue(forKey: regionKey),
          cached.computedAt == videos.computedAt, cached.generation == videos.generation,
          cached.catalog === videos.catalog
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
    }
    let positions = keys.map { index.positions[$0]?.positions ?? [] }
    caches.withLock { $0.featured[regionKey] = index }
    catalog.prefetchIDs(.video, at: positions.flatMap { $0 })
    var featured: [ContentKey: [String]] = [:]
    for (key, positions) in zip(keys, positions) where !positions.isEmpty {
      featured[key] = positions.map { catalog.id(.video, at: $0) }
    }
    return featured
  }

  /// Adds to `index` the best three of the ordered videos of `videos` that use each of
  /// `keys`, all of one type (hashtags, sounds or effects), in one pass over those videos'
  /// uses of that type.
  private static func addFeatured(
    of keys: [ContentKey], type: ContentType, from videos: Ranking,
    to index: inout FingerprintTable<ContentKey, FeaturedVideos>, catalog: TrendingCatalog
  ) {
    index.reserveCapacity(index.count + keys.count)
    catalog.prefetchUseNumbers(of: keys)
    var numbers: [Int32] = []
    for key in keys {
      index[key] = FeaturedVideos()
      if let number = catalog.useNumber(of: key) { numbers.append(Int32(number)) }
    }
    // Each use of a video is turned away, or found, by a filter test and a search among a
    // page's numbers, without reading a key: only the keys asked for are offered videos.
    let wanted = SmallNumberSet(numbers)
    func precedes(_ position: Int, _ other: Int) -> Bool {
      catalog.idPrecedes(.video, at: position, other)
    }
    catalog.prefetchUseNumbers(
      ofVideosAt: videos.ordered.map { videos.items[Int($0)].position }, ofType: type)
    for itemIndex in videos.ordered {
      let video = videos.items[Int(itemIndex)]
      catalog.withUseNumbers(ofVideoAt: video.position, ofType: type) { numbers in
        // Only the keys asked for are in `wanted`; the others' entries stay as they are.
        for number in numbers where wanted.contains(number) {
          index.modifyValueIfPresent(forKey: catalog.usedItems[Int(number)]) { featured in
            featured.offer(score: video.score, position: video.position, precedes: precedes)
          }
        }
      }
    }
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
    self.init(
      shortFactor: factors.short, longFactor: factors.long,
      expectedPerLong: state.warmUpRatio(type, at: now), configuration: state.configuration)
  }

  init(
    shortFactor: Double, longFactor: Double, expectedPerLong: Double,
    configuration: TrendingConfiguration
  ) {
    self.shortFactor = shortFactor
    self.longFactor = longFactor
    self.expectedPerLong = expectedPerLong
    minimumObservedCount = configuration.minimumObservedCount
    minimumDistinctUsers = configuration.minimumDistinctUsers
    priorCount = configuration.priorCount
    risingThreshold = configuration.risingThreshold
    risingRatio = configuration.risingRatio
  }

  /// `O`, `E`, `z` and the gates of one counter.
  @inline(__always)
  func terms(of counters: ItemCounters) -> TrendTerms {
    terms(short: counters.short, long: counters.long, distinctUsers: counters.users.count)
  }

  /// `O`, `E`, `z` and the gates of a candidate's copy of its counter.
  @inline(__always)
  func terms(of counters: CandidateList.Counters) -> TrendTerms {
    terms(short: counters.short, long: counters.long, distinctUsers: Int(counters.distinctUsers))
  }

  /// A candidate's `z` when it passes the volume and distinct-user gates and its item is in
  /// the catalog, `-infinity` otherwise: the same `z` as ``terms(short:long:distinctUsers:)``,
  /// computed with selects rather than branches.
  @inline(__always)
  func gatedScore(of candidate: CandidateList.Candidate) -> Double {
    let (observed, _, _, z) = counts(short: candidate.counters.short, long: candidate.counters.long)
    let passes =
      (observed >= minimumObservedCount ? 1 : 0)
      & (Int(candidate.counters.distinctUsers) >= minimumDistinctUsers ? 1 : 0)
      & (candidate.position >= 0 ? 1 : 0) & (z.isFinite ? 1 : 0)
    return passes == 1 ? z : -.infinity
  }

  /// `O`, the decayed long count, `E` and `z` of a counter's sums: the one place they are
  /// computed, so that every score of a counter is the same to the last bit.
  @inline(__always)
  private func counts(short: UInt64, long: UInt64)
    -> (observed: Double, long: Double, expected: Double, z: Double)
  {
    let (observed, long, expected) = decayed(short: short, long: long)
    return (observed, long, expected, (observed - expected) / (expected + priorCount).squareRoot())
  }

  /// `O`, the decayed long count and `E` of a counter's sums, for ``counts(short:long:)``
  /// and ``mayClear(_:_:)`` alike.
  @inline(__always)
  private func decayed(short: UInt64, long: UInt64)
    -> (observed: Double, long: Double, expected: Double)
  {
    let long = Double(long) * longFactor
    return (Double(short) * shortFactor, long, long * expectedPerLong)
  }

  /// A floor `f` on `z` in the terms ``mayClear(_:_:)`` compares with: `z = d / √s ≥ f`
  /// (with `d = O - E`, `s = E + prior > 0`) holds when `d ≥ 0` and `d² ≥ f² s` for `f ≥ 0`,
  /// and when `d ≥ 0` or `d² ≤ f² s` for `f < 0`. The floor is lowered by a millionth of
  /// itself (and of 1), so that rounding in the squares never turns away a candidate whose
  /// exact `z` clears it: the test may pass a few more, which the exact score then drops.
  struct FloorBound: Sendable {
    let isNonNegative: Bool
    let squared: Double

    init(_ floor: Double) {
      let lowered = floor - 1e-6 * Swift.max(1, abs(floor))
      isNonNegative = lowered >= 0
      squared = lowered * lowered
    }
  }

  /// Whether a candidate passes the volume and distinct-user gates, its item is in the
  /// catalog, and its `z` may clear a floor: true whenever ``gatedScore(of:)`` is at least
  /// the floor, and for few others; computed with selects, without a square root or a
  /// division.
  @inline(__always)
  func mayClear(_ candidate: CandidateList.Candidate, _ bound: FloorBound) -> Bool {
    let (observed, _, expected) = decayed(
      short: candidate.counters.short, long: candidate.counters.long)
    let difference = observed - expected
    let squares = difference * difference
    let limit = bound.squared * (expected + priorCount)
    let nonNegative = difference >= 0 ? 1 : 0
    let clears =
      bound.isNonNegative
      ? nonNegative & (squares >= limit ? 1 : 0) : nonNegative | (squares <= limit ? 1 : 0)
    let passes =
      (observed >= minimumObservedCount ? 1 : 0)
      & (Int(candidate.counters.distinctUsers) >= minimumDistinctUsers ? 1 : 0)
      & (candidate.position >= 0 ? 1 : 0) & clears
    return passes == 1
  }

  /// `O`, `E`, `z` and the gates of a counter's sums and distinct users.
  @inline(__always)
  func terms(short: UInt64, long: UInt64, distinctUsers distinct: Int) -> TrendTerms {
    let (observed, long, expected, z) = counts(short: short, long: long)
    let passesVolume = observed >= minimumObservedCount && z.isFinite
    let passes = passesVolume && distinct >= minimumDistinctUsers
    return TrendTerms(
      observed: observed, expected: expected, long: long, z: z.isFinite ? z : 0,
      distinctUsers: distinct,
      isRising: passes && z >= risingThreshold && observed >= risingRatio * expected,
      passesGates: passes)
  }
}

/// A few numbers (a page's use numbers) behind a 4,096-bit filter, so that testing a
/// number that is not among them costs one bit test: a bit set over all use numbers would
/// be hundreds of kilobytes to clear for fifty of them.
struct SmallNumberSet {
  private var filter = [UInt64](repeating: 0, count: 64)
  private let sorted: [Int32]

  init(_ numbers: [Int32]) {
    sorted = numbers.sorted()
    for number in numbers { filter[Int(number) >> 6 & 63] |= 1 << (UInt64(number) & 63) }
  }

  @inline(__always)
  func contains(_ number: Int32) -> Bool {
    guard filter[Int(number) >> 6 & 63] & (1 << (UInt64(number) & 63)) != 0 else {
      return false
    }
    var low = 0
    var high = sorted.count
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle] < number { low = middle + 1 } else { high = middle }
    }
    return low < sorted.count && sorted[low] == number
  }
}
