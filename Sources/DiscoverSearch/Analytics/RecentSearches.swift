import Foundation

/// Every user's recent searches in memory: most recent first, one entry per normalized
/// query, at most `limit` per user.
///
/// "Most recent" orders by the search's time, then by the order searches were recorded, so
/// searches recorded with the same time (an injected clock) come back newest first. The
/// SQLite store orders its rows the same way (time, then row id), so both agree on which
/// entries the cap drops.
struct RecentSearches: Sendable {
  struct Entry: Sendable, Hashable {
    var normalized: String
    var display: String
    /// Seconds since the decay landmark (`Date.timeIntervalSinceReferenceDate`).
    var time: TimeInterval
  }

  /// What recording a search changed.
  enum Change: Equatable {
    /// The user already had the query at a later time; nothing changed.
    case unchanged
    /// The query is now the user's entry for it (moved or added, then the list was capped).
    case stored
  }

  let limit: Int
  /// Entries by user id, most recent first.
  private(set) var entriesByUser: [String: [Entry]] = [:]

  init(limit: Int) {
    self.limit = max(0, limit)
  }

  /// The user's entries, most recent first.
  func entries(for userID: String) -> [Entry] {
    entriesByUser[userID] ?? []
  }

  /// Replaces the user's entries, to undo a change whose write failed.
  mutating func restore(_ entries: [Entry], for userID: String) {
    entriesByUser[userID] = entries.isEmpty ? nil : entries
  }

  /// Records that the user searched `normalized` at `time`.
  ///
  /// - Complexity: O(limit).
  mutating func record(_ entry: Entry, for userID: String) -> Change {
    var entries = entriesByUser[userID] ?? []
    if let existing = entries.firstIndex(where: { $0.normalized == entry.normalized }) {
      if entries[existing].time > entry.time { return .unchanged }
      entries.remove(at: existing)
    }
    // Newest first; a tie in time goes before, being recorded later.
    let position = entries.firstIndex { $0.time <= entry.time } ?? entries.count
    entries.insert(entry, at: position)
    if entries.count > limit {
      entries.removeLast(entries.count - limit)
    }
    entriesByUser[userID] = entries.isEmpty ? nil : entries
    return .stored
  }

  /// Removes the user's entry for a normalized query, if any.
  mutating func remove(_ normalized: String, for userID: String) {
    guard var entries = entriesByUser[userID] else { return }
    entries.removeAll { $0.normalized == normalized }
    entriesByUser[userID] = entries.isEmpty ? nil : entries
  }

  /// Removes all of the user's entries.
  mutating func removeAll(for userID: String) {
    entriesByUser[userID] = nil
  }
}
