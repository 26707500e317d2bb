import Foundation
import Synchronization

/// Trending content for the Discover page: videos, hashtag challenges, sounds and effects
/// rising now, from view, like, share and post events.
///
/// ```swift
/// let trending = TrendingContent(index: index)
/// try trending.record(ContentEvent(.view, video: "v1", user: "u9", at: date, region: "US"))
/// let page = try trending.list(.video, region: "US", limit: 20)
/// for item in page.items { print(item.title, item.score, item.isRising) }
/// ```
///
/// **Counting.** Events become deduplicated contributions (see `TrendingState`): a viewer,
/// liker or sharer counts once per video per short half-life (weight 1 for a view, 2 for a
/// like, 3 for a share, the strongest kept); a creator counts once per hashtag it posted
/// with (a participant); a video counts once per sound and effect it uses (a use). Views of
/// a video add to its hashtags', sound's and effect's total views. Each item keeps two
/// forward-decayed counts (Cormode et al., ICDE 2009) with the half-lives of
/// ``TrendingConfiguration/Windows``, in integer fixed point per landmark epoch, so they
/// merge exactly across instances (``merge(_:)``); plus lifetime views and lifetime actors,
/// and a sketch of its distinct users (exact up to 8, then estimated, ±41%).
///
/// **Scores.** With `O` the short-window count and `L` the long-window count at "now",
/// the count the long window predicts for the short one is `E = L · τ_short / τ_long`
/// (τ = halfLife / ln 2: a steady rate `r` gives `r τ` in each window), and
///
///     z = (O - E) / sqrt(E + prior)
///
/// is the Poisson surprise of `O` given `E` (the standard score of a Poisson count, whose
/// variance is its mean; `prior` = ``TrendingConfiguration/priorCount`` smooths items with
/// no past). An item is listed when `O` ≥ ``TrendingConfiguration/minimumObservedCount``,
/// it has ``TrendingConfiguration/minimumDistinctUsers`` distinct users, the index holds it
/// and nothing about it is blocked; lists are ordered by `z`, ties by id. It is flagged
/// rising when `z` ≥ ``TrendingConfiguration/risingThreshold`` and `O` ≥
/// ``TrendingConfiguration/risingRatio`` · `E`. A steady hit has `O ≈ E` and `z ≈ 0`, so a
/// smaller item rising now ranks above it; one user's many views count once per window, so
/// a bot's burst neither lifts `O` nor passes the distinct-user gate.
///
/// **Time.** Event times are whole seconds. An event dated after the clock's "now" (a
/// skewed client clock) is recorded at "now", so it never outweighs the present; lists are
/// read at the later of "now" and the newest event, so every count and score is finite. An
/// event older than ``TrendingConfiguration/retentionHalfLives`` long half-lives before its
/// type's current epoch is refused (``RecordOutcome/tooOld``).
///
/// **Memory.** Each tracked counter (an item, or an item within a region) is 40 bytes in a
/// 48-byte table slot, 53 to 62 bytes with the table's free slots; the journal holds a
/// 56-byte slot per deduplicated contribution within the retention horizon, 80 to 120
/// bytes with its free slots. ``memoryUsage`` measures both.
///
/// **Views.** A video's views are counted globally and per region; a hashtag's, sound's or
/// effect's views are the views of the videos using it, in all regions, and a regional list
/// shows that total.
///
/// **Concurrency.** Calls are serialized by the store; the class is safe to share.
public final class TrendingContent: Sendable {
  /// The longest video, user or item id accepted, in UTF-8 bytes.
  public static let maximumIdentifierLength = 1_024
  /// The most hashtags a post may carry.
  public static let maximumHashtagsPerPost = 100
  /// The longest region code accepted, in UTF-8 bytes.
  public static let maximumRegionLength = 16

  let store: any TrendingStore
  let index: DiscoverIndex?
  let clock: @Sendable () -> Date
  let caches = Lock(TrendingCaches())

  /// The configuration the store was made with.
  public var configuration: TrendingConfiguration { store.configuration }

  /// Creates trending content over an index.
  ///
  /// - Parameters:
  ///   - index: The index whose documents name, describe and link the items; items it
  ///     does not hold are counted but not listed until it does. `nil` for none.
  ///   - store: Where the state lives; in memory by default, with the default
  ///     configuration.
  ///   - clock: Gives "now" for lists and caps event times. Inject one to test trending.
  public init(
    index: DiscoverIndex?, store: any TrendingStore = InMemoryTrendingStore(),
    clock: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.index = index
    self.store = store
    self.clock = clock
    // The catalog is built now, O(n) in the index's documents, rather than by the first
    // event recorded.
    _ = catalog
  }

  /// Creates trending content over an index, in memory, with a configuration.
  public convenience init(
    index: DiscoverIndex?, configuration: TrendingConfiguration,
    clock: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.init(
      index: index, store: InMemoryTrendingStore(configuration: configuration), clock: clock)
  }

  /// The catalog of the index's current snapshot, built on first use.
  var catalog: TrendingCatalog {
    guard let segments = index?.segments else {
      return caches.withLock { caches in
        if let catalog = caches.catalog, catalog.segments.documentCount == 0 { return catalog }
        let catalog = TrendingCatalog()
        caches.catalog = catalog
        return catalog
      }
    }
    if let catalog = caches.withLock({ $0.catalog }), catalog.segments === segments {
      return catalog
    }
    let catalog = TrendingCatalog(segments: segments)
    caches.withLock { $0.catalog = catalog }
    return catalog
  }

  /// How many counters are tracked (items, and items within regions), and the bytes the
  /// state holds: counters, journal and posts.
  public var memoryUsage: TrendingMemoryUsage {
    (try? store.withState { state throws(SearchError) in state.memoryUsage }) ?? .init()
  }
}

/// What ``TrendingContent`` caches: the catalog of the current index snapshot and the lists
/// last computed.
struct TrendingCaches: Sendable {
  var catalog: TrendingCatalog?
  var rankings: [RankingKey: Ranking] = [:]
  /// Per region key, the featured videos of the video ranking last computed.
  var featured: [UInt64: FeaturedIndex] = [:]
  /// The cards of listed items, for one catalog.
  var cards: CardCache?
  /// The blocklist's keys for one catalog.
  var blocked: (catalog: TrendingCatalog, blocklist: Set<String>, keys: Set<ContentKey>)?
}
