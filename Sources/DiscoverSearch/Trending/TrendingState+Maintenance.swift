extension TrendingState {
  // MARK: Retraction

  /// Removes every contribution of one user, as if its events had never been recorded:
  /// its journal entries, the views and lifetime actors they added (and the views they added
  /// to the hashtags of the videos viewed), then recomputes the derived counters.
  ///
  /// Exact for the user's events still in the journal (within the retention horizon);
  /// lifetime totals of older events stay.
  ///
  /// - Parameter viewedItems: The hashtags, sound and effect a video's views were added to.
  /// - Returns: How many journal entries were removed.
  /// - Complexity: O(n) in the journal.
  @discardableResult
  mutating func retract(
    user: ContentKey, viewedItems: (ContentKey) -> [(ContentType, ContentKey)]
  ) -> Int {
    let removed = journal.filter { $0.value.user == user }
    guard !removed.isEmpty else { return 0 }
    for (key, entry) in removed {
      journal[key] = nil
      for counterKey in key.counterKeys {
        adjustLifetime(
          entry.type, counterKey, views: entry.views,
          actors: key.isLifetime ? 1 : 0)
      }
      if entry.type == .video, entry.views > 0 {
        for (_, item) in viewedItems(key.item) {
          useViews.subtract(UInt64(entry.views), from: item)
        }
      }
    }
    postedVideos = postedVideos.filter { $0.value.creator != user }
    recomputeNewestTimes()
    rebuildDerived(types: Set(ContentType.allCases))
    return removed.count
  }

  /// Sets the newest time and each type's landmark from what the journal holds, as if the
  /// removed entries' events had never come.
  private mutating func recomputeNewestTimes() {
    var newest = [Int64](repeating: .min, count: ContentType.allCases.count)
    for (_, entry) in journal {
      newest[entry.type.index] = max(newest[entry.type.index], entry.lastTime)
    }
    newestTime = newest.max() ?? .min
    for type in ContentType.allCases where longLandmarks[type.index] != nil {
      let latest = newest[type.index]
      let clock = clock(type)
      shortLandmarks[type.index] = latest == .min ? nil : clock.shortLandmark(containing: latest)
      longLandmarks[type.index] = latest == .min ? nil : clock.longLandmark(containing: latest)
    }
  }

  /// Takes `views` and `actors` back from a counter's lifetime totals.
  private mutating func adjustLifetime(
    _ type: ContentType, _ key: ContentKey, views: UInt32, actors: UInt32
  ) {
    guard var item = counters[type.index][key] else { return }
    item.views -= min(item.views, views)
    item.lifetimeActors -= min(item.lifetimeActors, actors)
    counters[type.index][key] = item
  }

  // MARK: Merging

  /// Adds another instance's state to this one: the result is what one process would hold
  /// had it recorded both instances' events.
  ///
  /// Journals are united (an entry in both keeps the earliest time and the strongest weight,
  /// and adds the views), lifetime totals are added (less the lifetime actors both counted),
  /// landmarks move to the later of the two, and the derived counters are recomputed.
  ///
  /// - Precondition: Both states have the same configuration.
  /// - Complexity: O(n + m) in the two journals.
  mutating func merge(_ other: TrendingState) {
    precondition(
      configuration == other.configuration, "only states with one configuration merge")
    for index in ContentType.allCases.map(\.index) {
      for (key, item) in other.counters[index] {
        var merged = counters[index][key] ?? ItemCounters()
        merged.views &+= item.views
        merged.lifetimeActors &+= item.lifetimeActors
        counters[index][key] = merged
      }
    }
    for (key, views) in other.useViews.folded { useViews.add(views, to: key) }
    for (key, entry) in other.journal {
      if let existing = journal[key] {
        journal[key] = existing.merged(with: entry)
        if key.isLifetime {
          for counterKey in key.counterKeys {
            adjustLifetime(entry.type, counterKey, views: 0, actors: 1)
          }
        }
      } else {
        journal[key] = entry
      }
    }
    for (video, posted) in other.postedVideos { recordPost(of: video, posted) }
    newestTime = max(newestTime, other.newestTime)
    if let theirs = other.firstTime { firstTime = min(firstTime ?? theirs, theirs) }
    for index in longLandmarks.indices {
      if let theirs = other.longLandmarks[index] {
        longLandmarks[index] = max(longLandmarks[index] ?? theirs, theirs)
      }
      if let theirs = other.shortLandmarks[index] {
        shortLandmarks[index] = max(shortLandmarks[index] ?? theirs, theirs)
      }
    }
    pruneAndRebuild(types: ContentType.allCases)
  }

  // MARK: Bounds

  /// The number of counters, global and regional, of every type.
  var counterCount: Int { counters.reduce(0) { $0 + $1.count } }

  /// When more than ``TrendingConfiguration/maximumTrackedItems`` counters are kept, evicts
  /// the tenth with the lowest long-window counts at `now`, with their journal entries.
  ///
  /// - Complexity: O(n log n) in the counters when it evicts, O(1) otherwise.
  mutating func evictIfNeeded(at now: Double) {
    guard counterCount > configuration.maximumTrackedItems else { return }
    var ranked: [(long: Double, type: ContentType, key: ContentKey)] = []
    ranked.reserveCapacity(counterCount)
    for type in ContentType.allCases {
      for (key, item) in counters[type.index] {
        ranked.append((decayedCounts(item, type: type, at: now).long, type, key))
      }
    }
    ranked.sort { $0.long < $1.long || ($0.long == $1.long && $0.key < $1.key) }
    let keep = configuration.maximumTrackedItems * 9 / 10
    var evicted = Set<ContentKey>()
    for victim in ranked.prefix(ranked.count - keep) {
      counters[victim.type.index][victim.key] = nil
      evicted.insert(victim.key)
    }
    // An item's use views go with its global counter.
    useViews.removeAll { evicted.contains($0) }
    // An entry goes with any of its counters: the item's, or the item's in its region.
    journal.removeAll { key, _ in
      evicted.contains(key.item)
        || (key.region != 0 && evicted.contains(key.regionalCounterKey))
    }
    rebuildDerived(types: Set(ContentType.allCases))
  }
}

extension TrendingState: Equatable {
  /// Two states are equal when they hold the same journal, counters, posts, landmarks and
  /// newest time: the bit-for-bit comparison of exact merging. The hot set and the
  /// generation follow from those or only serve caches.
  public static func == (lhs: TrendingState, rhs: TrendingState) -> Bool {
    lhs.configuration == rhs.configuration && lhs.shortLandmarks == rhs.shortLandmarks
      && lhs.longLandmarks == rhs.longLandmarks
      && lhs.newestTime == rhs.newestTime && lhs.firstTime == rhs.firstTime
      && lhs.journal == rhs.journal
      && lhs.counters == rhs.counters && lhs.useViews == rhs.useViews
      && lhs.postedVideos == rhs.postedVideos
  }
}
