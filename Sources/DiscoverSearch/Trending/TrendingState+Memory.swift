/// How much trending state is held.
public struct TrendingMemoryUsage: Sendable, Hashable {
  /// Tracked counters: items, and items within regions.
  public var trackedItems = 0
  /// Bytes of the counters and their table slots.
  public var counterBytes = 0
  /// Deduplicated contributions in the journal.
  public var journalEntries = 0
  /// Bytes of the journal and its table slots.
  public var journalBytes = 0
  /// Bytes of what posts said videos use, and of the hot set.
  public var otherBytes = 0

  /// Creates an empty usage.
  public init() {}

  /// All bytes.
  public var totalBytes: Int { counterBytes + journalBytes + otherBytes }

  /// Counter bytes per tracked item: the bound of ``TrendingContent``'s memory per item.
  public var bytesPerTrackedItem: Double {
    trackedItems == 0 ? 0 : Double(counterBytes) / Double(trackedItems)
  }
}

extension TrendingState {
  /// The bytes held, from the tables' slots (a ``FingerprintTable`` slot is its key and value
  /// at their strides) and, for the dictionaries of posts and candidates, their capacities.
  var memoryUsage: TrendingMemoryUsage {
    var usage = TrendingMemoryUsage()
    usage.trackedItems = counterCount
    usage.counterBytes = counters.reduce(0) { $0 + $1.allocatedBytes } + useViews.allocatedBytes
    usage.journalEntries = journal.count
    usage.journalBytes = journal.allocatedBytes
    let posts = postedVideos.reduce(0) {
      $0 + ($1.value.hashtags.isEmpty ? 0 : 32 + $1.value.hashtags.count * 8)
    }
    usage.otherBytes =
      Self.dictionaryBytes(postedVideos.capacity, key: ContentKey.self, value: PostedVideo.self)
      + posts
      + hot.reduce(0) { $0 + $1.allocatedBytes }
    return usage
  }

  private static func dictionaryBytes<Key, Value>(
    _ capacity: Int, key: Key.Type, value: Value.Type
  ) -> Int {
    // Swift's native dictionary rounds its slots up to a power of two at 75% load.
    guard capacity > 0 else { return 0 }
    var slots = 1
    while slots * 3 / 4 < capacity { slots *= 2 }
    return slots * (MemoryLayout<Key>.stride + MemoryLayout<Value>.stride) + slots / 8
  }
}
