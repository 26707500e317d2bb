import Foundation

/// What a list entry shows of an index document: its strings, read from the index once and
/// kept for the pages after (a list's best items change little between refreshes). A class,
/// so that a page takes a card from the cache with one reference count, not one per string.
final class ItemCard: Sendable {
  let id: String
  let title: String
  /// The document's own count: a video's or hashtag's views, a sound's or effect's videos.
  let count: Int
  let thumbnailURL: String?
  let createdAt: Date?
  /// A video's creator, a hashtag's description, a sound's artist.
  let subtitle: String?

  /// Reads the card of the document at `position` from the catalog's snapshot.
  convenience init(_ type: ContentType, at position: Int, catalog: TrendingCatalog) {
    let snapshot = catalog.snapshot
    switch type {
    case .video:
      let video = snapshot.catalogVideo(at: position, includingHashtags: false)
      self.init(
        id: video.id, title: video.title, count: video.viewCount,
        thumbnailURL: video.thumbnailURL, createdAt: video.createdAt, subtitle: video.creator)
    case .hashtag:
      let hashtag = snapshot.catalogHashtag(at: position)
      self.init(
        id: hashtag.id, title: hashtag.name, count: hashtag.viewCount, subtitle: hashtag.description
      )
    case .sound:
      let sound = snapshot.catalogSound(at: position)
      self.init(id: sound.id, title: sound.title, count: sound.videoCount, subtitle: sound.artist)
    case .effect:
      let effect = snapshot.catalogEffect(at: position)
      self.init(
        id: effect.id, title: effect.name, count: effect.useCount,
        thumbnailURL: effect.thumbnailURL)
    }
  }

  init(
    id: String, title: String, count: Int, thumbnailURL: String? = nil, createdAt: Date? = nil,
    subtitle: String? = nil
  ) {
    self.id = id
    self.title = title
    self.count = count
    self.thumbnailURL = thumbnailURL
    self.createdAt = createdAt
    self.subtitle = subtitle
  }
}

/// The cards read for one catalog, by item key, up to ``limit``.
///
/// Found through a fingerprint table of the item keys (already hashes) into an array, not a
/// dictionary of hashed (type, position) pairs: a refreshed page looks up all its cards in a
/// cache that recording has pushed out of the processor's caches, and one probe of a
/// compact table misses less than a dictionary's hashing and buckets.
struct CardCache: Sendable {
  /// How many cards are kept; past it the cache starts over (the cards of the lists' best
  /// items come back on their next page).
  static let limit = 8_192

  let catalog: TrendingCatalog
  private var offsets = FingerprintTable<ContentKey, Int32>(maximumLoad: 0.7)
  private var cards: [ItemCard] = []

  init(catalog: TrendingCatalog) { self.catalog = catalog }

  var count: Int { cards.count }

  subscript(key: ContentKey) -> ItemCard? { offsets[key].map { cards[Int($0)] } }

  mutating func insert(_ card: ItemCard, for key: ContentKey) {
    guard offsets[key] == nil else { return }
    offsets[key] = Int32(cards.count)
    cards.append(card)
  }
}

extension TrendingContent {
  /// The cards of `items` of `type`, from the cache or read from the index.
  func cards(of items: [RankedItem], type: ContentType, catalog: TrendingCatalog) -> [ItemCard] {
    var found = caches.withLock { caches -> [ItemCard?] in
      guard let cache = caches.cards, cache.catalog === catalog else {
        return Array(repeating: nil, count: items.count)
      }
      return items.map { cache[$0.key] }
    }
    var read: [(ContentKey, ItemCard)] = []
    for index in found.indices where found[index] == nil {
      let card = ItemCard(type, at: items[index].position, catalog: catalog)
      found[index] = card
      read.append((items[index].key, card))
    }
    if !read.isEmpty {
      caches.withLock { caches in
        if caches.cards?.catalog !== catalog
          || caches.cards!.count + read.count > CardCache.limit
        {
          caches.cards = CardCache(catalog: catalog)
        }
        for (key, card) in read { caches.cards!.insert(card, for: key) }
      }
    }
    return found.map { $0! }
  }
}
