import CPrefetch
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

  /// Reads the card of the document at `position` from the catalog's segments.
  convenience init(_ type: ContentType, at position: Int, catalog: TrendingCatalog) {
    let snapshot = catalog.segments
    switch type {
    case .video:
      let video = snapshot.catalogVideo(at: position, includingUses: false)
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

  /// Where a page's use of this card touches memory: the card's own header and its strings'
  /// storage, whose reference counts a page entry increments.
  var lines: CardLines {
    CardLines(
      card: UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque()),
      strings: (
        CardLines.storage(of: id), CardLines.storage(of: title),
        thumbnailURL.map(CardLines.storage(of:)) ?? 0, subtitle.map(CardLines.storage(of:)) ?? 0
      ))
  }
}

/// The addresses a page entry's use of a card touches, kept beside the card so that a page
/// can ask for all of them before it takes any card: a refresh follows recording, which
/// pushes the cards out of the processor's caches, and taking a card or a string increments
/// a reference count, an atomic instruction that waits for its cache line before any later
/// load may start. Prefetched first, the misses of a whole page overlap instead of coming
/// one after another (group prefetching: Chen, Ailamaki, Gibbons and Mowry, ICDE 2004).
struct CardLines: Sendable {
  /// The card object's address.
  var card: UInt
  /// Each string's heap storage address, 0 for a string stored inline.
  var strings: (UInt, UInt, UInt, UInt)

  /// The start of a string's UTF-8 bytes when they live in heap storage of their own, 0 for
  /// a small string (inline, nothing to load).
  static func storage(of string: String) -> UInt {
    // Small strings hold up to 15 UTF-8 bytes in the String value itself.
    guard string.utf8.count > 15 else { return 0 }
    var copy = string
    return copy.withUTF8 { UInt(bitPattern: $0.baseAddress) }
  }

  /// Starts loading every line.
  ///
  /// - SAFETY: the addresses are only hints, never dereferenced: a prefetch never faults,
  ///   whatever the address, and a stale one (a card released since) costs one wasted load.
  func prefetch() {
    // Reference counts sit in the first 16 bytes of an object; a native string's UTF-8
    // bytes start 32 bytes into its storage object.
    cprefetch_for_writing(UnsafeRawPointer(bitPattern: card &+ 8))
    Self.prefetchStorage(strings.0)
    Self.prefetchStorage(strings.1)
    Self.prefetchStorage(strings.2)
    Self.prefetchStorage(strings.3)
  }

  @inline(__always)
  private static func prefetchStorage(_ address: UInt) {
    if address != 0 { cprefetch_for_writing(UnsafeRawPointer(bitPattern: address &- 24)) }
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
  /// What each card's use touches, in the order of ``cards``.
  private var lines: [CardLines] = []
  /// What the last cards read touched in the index, kept so that its loads stay.
  var touched: UInt32 = 0

  init(catalog: TrendingCatalog) { self.catalog = catalog }

  var count: Int { cards.count }

  /// The cards of `keys`, `nil` for those not cached, in three passes so that the cache
  /// misses of each pass overlap: the table slots, then every line the cards found touch,
  /// then the cards.
  func cards(of keys: [ContentKey]) -> [ItemCard?] {
    for key in keys { offsets.prefetch(key) }
    let found = keys.map { offsets[$0] }
    for case let offset? in found { lines[Int(offset)].prefetch() }
    return found.map { offset in offset.map { cards[Int($0)] } }
  }

  mutating func insert(_ card: ItemCard, for key: ContentKey) {
    guard offsets[key] == nil else { return }
    offsets[key] = Int32(cards.count)
    cards.append(card)
    lines.append(card.lines)
  }
}

extension TrendingContent {
  /// The cards of `items` of `type`, from the cache or read from the index.
  func cards(of items: [RankedItem], type: ContentType, catalog: TrendingCatalog) -> [ItemCard] {
    var found = caches.withLock { caches -> [ItemCard?] in
      guard let cache = caches.cards, cache.catalog === catalog else {
        return Array(repeating: nil, count: items.count)
      }
      return cache.cards(of: items.map(\.key))
    }
    var read: [(ContentKey, ItemCard)] = []
    let touched = Self.touchCards(
      of: found.indices.filter { found[$0] == nil }.map { items[$0].position }, type: type,
      catalog: catalog)
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
        caches.cards!.touched = touched
      }
    }
    return found.map { $0! }
  }

  /// Brings what the cards of the documents at `positions` read into the cache, all of them
  /// at once (see ``IndexSnapshot/touchResultFields(_:)``): the cards a refreshed page reads
  /// are those of items new to it, each about ten values at random in an index that
  /// recording has pushed out of the processor's caches. Returns a sum of what it read.
  private static func touchCards(
    of positions: [Int], type: ContentType, catalog: TrendingCatalog
  ) -> UInt32 {
    let searchType: SearchResultType? =
      switch type {
      case .video: .video
      case .hashtag: .hashtag
      case .sound: .sound
      case .effect: nil
      }
    guard positions.count > 1, let searchType else { return 0 }
    return catalog.segments.touchResultFields(positions.map { (searchType, UInt32($0)) })
  }
}
