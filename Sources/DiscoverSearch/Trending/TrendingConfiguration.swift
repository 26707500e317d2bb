import Foundation

/// The settings of ``TrendingContent``: decay windows per content type, the gates an item
/// must pass to be listed, the rising threshold, and bounds.
public struct TrendingConfiguration: Sendable, Hashable {
  /// The two decay windows of one content type.
  public struct Windows: Sendable, Hashable {
    /// The half-life of the short window, in seconds: what is happening now. It is also the
    /// deduplication window: one user counts at most once per item in each span of this
    /// length (aligned to whole multiples of it since 2001-01-01).
    public var shortHalfLife: TimeInterval
    /// The half-life of the long window, in seconds: the item's own baseline.
    public var longHalfLife: TimeInterval

    /// Creates windows; both half-lives must be whole seconds from 60 s to 365 days, the
    /// long one at least twice the short one.
    public init(shortHalfLife: TimeInterval, longHalfLife: TimeInterval) {
      precondition(
        shortHalfLife >= 60 && longHalfLife <= 365 * 86_400
          && shortHalfLife.rounded() == shortHalfLife && longHalfLife.rounded() == longHalfLife,
        "trending half-lives must be whole seconds from 60 s to 365 days")
      precondition(
        longHalfLife >= 2 * shortHalfLife,
        "the long half-life must be at least twice the short one, not \(longHalfLife) against \(shortHalfLife)"
      )
      self.shortHalfLife = shortHalfLife
      self.longHalfLife = longHalfLife
    }
  }

  /// Videos: 1 hour and 24 hours. A video's moment is short.
  public var videoWindows = Windows(shortHalfLife: 3_600, longHalfLife: 86_400)
  /// Hashtags: 6 hours and 7 days. A challenge builds over days.
  public var hashtagWindows = Windows(shortHalfLife: 6 * 3_600, longHalfLife: 7 * 86_400)
  /// Sounds: 6 hours and 7 days.
  public var soundWindows = Windows(shortHalfLife: 6 * 3_600, longHalfLife: 7 * 86_400)
  /// Effects: 6 hours and 7 days.
  public var effectWindows = Windows(shortHalfLife: 6 * 3_600, longHalfLife: 7 * 86_400)

  /// How many different users an item needs before it is listed: viewers of a video,
  /// creators who posted with a hashtag, sound or effect. 5 by default, so that a handful of
  /// accounts can never put an item on the Discover page.
  public var minimumDistinctUsers = 5
  /// The smallest observed short-window count `O` an item needs to be listed (about that many
  /// distinct users within the last short half-life). 5 by default.
  public var minimumObservedCount = 5.0
  /// The surprise `z` past which a listed item is flagged rising. 3 by default: three
  /// standard deviations above what its own past predicts.
  public var risingThreshold = 3.0
  /// A rising item must also have at least this many times its expected count. 2 by default,
  /// so that a huge steady item's small relative wobble, which can have a large `z`, is not
  /// called rising.
  public var risingRatio = 2.0
  /// The pseudo-count added to the expected count under the square root of `z`, so that an
  /// item with no past is not infinitely surprising. 4 by default: a brand-new item needs
  /// about 7 users in its first minutes to pass `z = 3`.
  public var priorCount = 4.0
  /// Ids of videos, hashtags, sounds and effects, and hashtag names (with or without `#`,
  /// any case), kept out of every list. A video using a blocked hashtag, sound or effect is
  /// kept out as well, and is never featured.
  public var blocklist: Set<String> = []
  /// How long a computed list is served before it is computed again, in seconds of the
  /// clock. 1 second by default: a burst shows on the next refresh.
  public var refreshInterval: TimeInterval = 1
  /// How many item counters are kept at most (global and per-region counters alike); past
  /// it, the items with the lowest long-window counts are evicted with their journal entries.
  /// 4,000,000 by default, about 230 MB.
  public var maximumTrackedItems = 4_000_000
  /// How many long half-lives a contribution stays in the journal, where it can still be
  /// deduplicated, merged and retracted exactly. 6 by default: a pruned contribution weighs
  /// under 1.6% of its first weight in the long window. Events older than this before the
  /// newest are refused.
  public var retentionHalfLives = 6.0

  /// Creates the default configuration.
  public init() {}

  /// The windows of one content type.
  public func windows(for type: ContentType) -> Windows {
    switch type {
    case .video: videoWindows
    case .hashtag: hashtagWindows
    case .sound: soundWindows
    case .effect: effectWindows
    }
  }
}
