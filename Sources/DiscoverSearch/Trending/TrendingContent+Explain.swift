import Foundation

extension TrendingContent {
  /// Why an item scores as it does: its counts, `O`, `E`, `z`, its distinct users, and
  /// whether it is listed (with the reasons when it is not).
  ///
  /// - Parameters:
  ///   - type: The item's type.
  ///   - id: A video, sound or effect id; for a hashtag, a hashtag document's id or a
  ///     hashtag name (with or without `#`).
  ///   - region: The region's counters, or `nil` for the global ones.
  /// - Returns: The explanation, or `nil` when nothing was recorded for the item.
  public func explain(_ type: ContentType, id: String, region: String? = nil)
    throws(SearchError) -> TrendingExplanation?
  {
    let catalog = self.catalog
    let item = itemKey(type, id: id, catalog: catalog)
    let regionName = region.map { $0.uppercased() }
    let counterKey = regionName.map { item.inRegion(ContentKey(region: $0)) } ?? item
    let now = clock().timeIntervalSinceReferenceDate
    let configuration = self.configuration
    let position = catalog.position(of: item, type)
    let blocked = blockedKeys(catalog: catalog)
    return try store.withState { state throws(SearchError) -> TrendingExplanation? in
      guard let counters = state.counters[type.index][counterKey] else { return nil }
      let terms = Self.terms(of: counters, type: type, state: state, at: now)
      var reasons: [String] = []
      if counters.users.count < configuration.minimumDistinctUsers {
        reasons.append(
          "\(counters.users.count) distinct users, fewer than the \(configuration.minimumDistinctUsers) needed"
        )
      }
      if terms.observed < configuration.minimumObservedCount {
        reasons.append(
          "observed count \(Self.rounded(terms.observed)) is below the minimum of \(Self.rounded(configuration.minimumObservedCount))"
        )
      }
      if position == nil {
        reasons.append(
          "the index holds no \(type.rawValue) \(id): it is counted but not listed until indexed")
      }
      if blocked.contains(item)
        || (type == .video
          && position.map { catalog.uses(ofVideoAt: $0).all.contains { blocked.contains($0.1) } }
            == true)
      {
        reasons.append("it is blocked, or uses a blocked hashtag, sound or effect")
      }
      let clock = state.clock(type)
      return TrendingExplanation(
        type: type, id: position.map { catalog.id(type, at: $0) } ?? id, region: regionName,
        observed: terms.observed, expected: terms.expected, longCount: terms.long, z: terms.z,
        priorCount: configuration.priorCount, distinctUsers: counters.users.count,
        distinctUsersIsExact: counters.users.isExact,
        lifetimeViews: Int(state.lifetimeViews(of: item, type, counters: counters)),
        lifetimeActors: Int(counters.lifetimeActors),
        shortHalfLife: TimeInterval(clock.shortHalfLife),
        longHalfLife: TimeInterval(clock.longHalfLife), isRising: terms.isRising && reasons.isEmpty,
        isListed: reasons.isEmpty, reasons: reasons)
    }
  }

  /// The key of an item named as a caller names it.
  func itemKey(_ type: ContentType, id: String, catalog: TrendingCatalog) -> ContentKey {
    guard type == .hashtag else { return ContentKey(type, id) }
    if let position = catalog.hashtagPosition(id: id) {
      return ContentKey(
        .hashtag, TrendingCatalog.foldHashtag(catalog.segments.catalogHashtag(at: position).name))
    }
    return ContentKey(.hashtag, TrendingCatalog.foldHashtag(id))
  }

  private static func rounded(_ value: Double) -> String {
    String(format: "%.2f", value)
  }
}
