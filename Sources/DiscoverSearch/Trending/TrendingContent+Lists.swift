import Foundation

/// A computed list: every listed item in order, with what its page entries need.
struct Ranking: Sendable {
  var computedAt: Double
  var generation: UInt64
  var items: [RankedItem]
}

/// One listed item of a ranking.
struct RankedItem: Sendable {
  var key: ContentKey
  var position: Int
  var score: Double
  var observed: Double
  var expected: Double
  var distinctUsers: Int
  var views: UInt32
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
  /// - Complexity: O(1) plus the page while the list is cached (for
  ///   ``TrendingConfiguration/refreshInterval`` of the clock); computing it is
  ///   O(c log c) in the candidates, the counters that reached the minimum observed count.
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
    let start = cursor.map { cursor in
      ranking.items.firstIndex {
        $0.score < cursor.score
          || ($0.score == cursor.score && catalog.id(type, at: $0.position) > cursor.id)
      } ?? ranking.items.count
    } ?? 0
    let end = min(ranking.items.count, start + limit)
    let featured =
      type == .video
      ? [:] : try featuredVideos(region: regionName, for: Set(ranking.items[start..<end].map(\.key)), catalog: catalog)
    let items = ranking.items[start..<end].map {
      makeItem($0, type: type, featured: featured[$0.key] ?? [], catalog: catalog)
    }
    let next =
      end < ranking.items.count
      ? TrendingCursor(
        type: type, region: regionName, score: ranking.items[end - 1].score,
        id: catalog.id(type, at: ranking.items[end - 1].position))
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

  /// Scores every candidate of the list, keeps those listed, and orders them.
  private func computeRanking(_ key: RankingKey, at now: Double, catalog: TrendingCatalog)
    throws(SearchError) -> Ranking
  {
    let configuration = self.configuration
    let blocked = caches.withLock { caches in
      if let cached = caches.blocked, cached.catalog === catalog,
        cached.blocklist == configuration.blocklist
      {
        return cached.keys
      }
      let keys = catalog.blockedKeys(configuration.blocklist)
      caches.blocked = (catalog, configuration.blocklist, keys)
      return keys
    }
    var items = try store.withState { state throws(SearchError) -> [RankedItem] in
      state.coolDown(key, at: now)
      guard let candidates = state.hot[key] else { return [] }
      let factors = state.decayFactors(key.type, at: now)
      let expectedPerLong = state.warmUpRatio(key.type, at: now)
      var items: [RankedItem] = []
      for (counterKey, item) in candidates {
        guard let counters = state.counters[key.type.index][counterKey],
          let position = catalog.position(of: item, key.type)
        else { continue }
        if !blocked.isEmpty {
          if blocked.contains(item) { continue }
          if key.type == .video,
            catalog.uses(ofVideoAt: position).all.contains(where: { blocked.contains($0.1) })
          {
            continue
          }
        }
        let terms = Self.terms(
          of: counters, factors: factors, expectedPerLong: expectedPerLong, state: state)
        guard terms.passesGates else { continue }
        items.append(
          RankedItem(
            key: item, position: position, score: terms.z,
            observed: terms.observed, expected: terms.expected,
            distinctUsers: terms.distinctUsers, views: counters.views,
            actors: counters.lifetimeActors, isRising: terms.isRising))
      }
      return items
    }
    // Ids are read from the index only where scores tie: most items never need theirs
    // until shown.
    items.sort { left, right in
      if left.score != right.score { return left.score > right.score }
      return catalog.id(key.type, at: left.position) < catalog.id(key.type, at: right.position)
    }
    let generation = try store.withState { state throws(SearchError) in state.generation }
    return Ranking(computedAt: now, generation: generation, items: items)
  }

  /// `O`, `E`, `z` and the gates of one counter at `now`.
  static func terms(
    of counters: ItemCounters, type: ContentType, state: TrendingState, at now: Double
  ) -> TrendTerms {
    terms(
      of: counters, factors: state.decayFactors(type, at: now),
      expectedPerLong: state.warmUpRatio(type, at: now), state: state)
  }

  /// `O`, `E`, `z` and the gates of one counter, with the type's decay factors and `E / L`
  /// at "now".
  static func terms(
    of counters: ItemCounters, factors: (short: Double, long: Double), expectedPerLong: Double,
    state: TrendingState
  ) -> TrendTerms {
    let configuration = state.configuration
    let observed = Double(counters.short) * factors.short
    let long = Double(counters.long) * factors.long
    let expected = long * expectedPerLong
    let z = (observed - expected) / (expected + configuration.priorCount).squareRoot()
    let passesVolume = observed >= configuration.minimumObservedCount && z.isFinite
    // The sketch's count is read only for items with the volume to be listed.
    let distinct = passesVolume ? counters.users.count : 0
    let passes = passesVolume && distinct >= configuration.minimumDistinctUsers
    return TrendTerms(
      observed: observed, expected: expected, long: long, z: z.isFinite ? z : 0,
      distinctUsers: passesVolume ? distinct : counters.users.count,
      isRising: passes && z >= configuration.risingThreshold
        && observed >= configuration.risingRatio * expected,
      passesGates: passes)
  }

  /// The best trending videos (at most 3 each) that use each of `keys`, in `region`.
  private func featuredVideos(
    region: String?, for keys: Set<ContentKey>, catalog: TrendingCatalog
  ) throws(SearchError) -> [ContentKey: [String]] {
    guard !keys.isEmpty else { return [:] }
    let videos = try ranking(.video, region: region, catalog: catalog)
    var featured: [ContentKey: [String]] = [:]
    for video in videos.items {
      for (_, item) in catalog.uses(ofVideoAt: video.position).all where keys.contains(item) {
        if featured[item, default: []].count < 3 {
          featured[item, default: []].append(catalog.id(.video, at: video.position))
        }
      }
      if featured.count == keys.count, featured.values.allSatisfy({ $0.count == 3 }) { break }
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
      let video = snapshot.catalogVideo(at: ranked.position)
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
