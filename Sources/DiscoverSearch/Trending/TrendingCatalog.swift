import CPrefetch
import Synchronization

/// The last ``TrendingCatalog/serial`` given.
private let catalogSerials = Atomic<UInt64>(0)

/// An index's content as trending content needs it: item keys to catalog positions, and for
/// each video the keys of the hashtags, sound and effect its events count toward.
///
/// Built once per index snapshot (O(n) in its documents) and immutable; the strings of a list
/// item are read from the snapshot only for the items listed.
final class TrendingCatalog: Sendable {
  /// The segments the catalog was built from (``catalogVideo(at:)`` and its kin read them).
  let segments: SegmentSet
  /// A number no other catalog of this process has: what positions cached elsewhere are
  /// checked against.
  let serial: UInt64
  // One table per type, each a stored property: read in place on every event and candidate,
  // without the retain and release of copying a table out of an array.
  private let videoPositions: FingerprintTable<ContentKey, Int32>
  private let hashtagPositions: FingerprintTable<ContentKey, Int32>
  private let soundPositions: FingerprintTable<ContentKey, Int32>
  private let effectPositions: FingerprintTable<ContentKey, Int32>
  /// Per video position, where its uses are in ``videoUses`` (a ``UseSpan``): one word, so
  /// that a view's fan-out to what its video uses reads two cache lines, not one per array.
  private let useSpans: [UseSpan]
  /// Each video's hashtag keys, then its sound's key and its effect's key when it has them.
  private let videoUses: [ContentKey]
  private let hashtagKeysByPosition: [ContentKey]
  /// The distinct hashtags, sounds and effects the catalog's videos use, each once: the
  /// items a view of a catalog video adds to, numbered densely (a *use number*).
  let usedItems: [ContentKey]
  /// Per entry of ``videoUses``, its item's use number: a view adds to a dense array at
  /// these, without a table lookup per item.
  private let useNumbers: [Int32]
  /// Per hashtag, sound and effect document position, the use number of its item, or -1
  /// when no catalog video uses it.
  private let documentUseNumbers: [[Int32]]
  /// The use number of each item in ``usedItems``.
  private let useNumbersByKey: FingerprintTable<ContentKey, Int32>

  /// The catalog of one segment.
  convenience init(snapshot: IndexSnapshot) {
    self.init(segments: SegmentSet(snapshot))
  }

  /// The catalog of every segment of `segments`.
  init(segments: SegmentSet) {
    self.segments = segments
    let snapshot = segments
    serial = catalogSerials.add(1, ordering: .relaxed).newValue
    var videos = FingerprintTable<ContentKey, Int32>()
    videos.reserveCapacity(snapshot.catalogVideoCount)
    var spans: [UseSpan] = []
    spans.reserveCapacity(snapshot.catalogVideoCount)
    var uses: [ContentKey] = []
    // A deleted document keeps its position but no key: the catalog does not hold it.
    for position in 0..<snapshot.catalogVideoCount {
      guard !snapshot.isDeleted(position, of: .video) else {
        spans.append(UseSpan(start: uses.count, hashtagCount: 0, hasSound: false, hasEffect: false))
        continue
      }
      let video = snapshot.catalogVideo(at: position)
      videos[ContentKey(.video, video.id)] = Int32(position)
      let start = uses.count
      for hashtag in video.hashtags.prefix(UseSpan.maximumHashtags) {
        uses.append(ContentKey(.hashtag, Self.foldHashtag(hashtag)))
      }
      let hashtagCount = uses.count - start
      if let sound = video.sound { uses.append(ContentKey(.sound, sound)) }
      if let effect = video.effect { uses.append(ContentKey(.effect, effect)) }
      spans.append(
        UseSpan(
          start: start, hashtagCount: hashtagCount, hasSound: video.sound != nil,
          hasEffect: video.effect != nil))
    }
    var hashtagTable = FingerprintTable<ContentKey, Int32>()
    var hashtagKeys: [ContentKey] = []
    for position in 0..<snapshot.catalogHashtagCount {
      guard !snapshot.isDeleted(position, of: .hashtag) else {
        hashtagKeys.append(ContentKey(.hashtag, ""))
        continue
      }
      let key = ContentKey(.hashtag, Self.foldHashtag(snapshot.catalogHashtag(at: position).name))
      hashtagKeys.append(key)
      // Two hashtag documents of one folded name: the first (most popular) names it.
      if hashtagTable[key] == nil { hashtagTable[key] = Int32(position) }
    }
    var soundTable = FingerprintTable<ContentKey, Int32>()
    for position in 0..<snapshot.catalogSoundCount where !snapshot.isDeleted(position, of: .sound) {
      soundTable[ContentKey(.sound, snapshot.catalogSound(at: position).id)] = Int32(position)
    }
    var effectTable = FingerprintTable<ContentKey, Int32>()
    for position in 0..<snapshot.catalogEffectCount where !snapshot.isDeleted(position, of: .effect)
    {
      effectTable[ContentKey(.effect, snapshot.catalogEffect(at: position).id)] = Int32(position)
    }
    videoPositions = videos
    hashtagPositions = hashtagTable
    soundPositions = soundTable
    effectPositions = effectTable
    useSpans = spans
    videoUses = uses
    hashtagKeysByPosition = hashtagKeys
    let numbers: FingerprintTable<ContentKey, Int32>
    (usedItems, useNumbers, numbers) = Self.numberUses(uses)
    func documentNumbers(_ table: FingerprintTable<ContentKey, Int32>, count: Int) -> [Int32] {
      var result = [Int32](repeating: -1, count: count)
      for (key, position) in table { result[Int(position)] = numbers[key] ?? -1 }
      return result
    }
    useNumbersByKey = numbers
    documentUseNumbers = [
      [],
      documentNumbers(hashtagTable, count: snapshot.catalogHashtagCount),
      documentNumbers(soundTable, count: snapshot.catalogSoundCount),
      documentNumbers(effectTable, count: snapshot.catalogEffectCount),
    ]
  }

  /// The distinct items of `uses` in order of first use, each use's number among them, and
  /// each item's number by key.
  private static func numberUses(_ uses: [ContentKey])
    -> ([ContentKey], [Int32], FingerprintTable<ContentKey, Int32>)
  {
    var numbers = FingerprintTable<ContentKey, Int32>()
    var items: [ContentKey] = []
    var useNumbers: [Int32] = []
    useNumbers.reserveCapacity(uses.count)
    for use in uses {
      let number = numbers.modifyValue(forKey: use, inserting: Int32(items.count)) {
        number, isNew in
        if isNew { items.append(use) }
        return number
      }
      useNumbers.append(number)
    }
    return (items, useNumbers, numbers)
  }

  /// An empty catalog, for trending content without an index.
  convenience init() {
    self.init(snapshot: IndexSnapshot.makeEmpty(configuration: IndexConfiguration()))
  }

  /// A hashtag name as trending keys it: without a leading `#`, folded like terms.
  static func foldHashtag(_ name: String) -> String {
    let trimmed = name.hasPrefix("#") ? String(name.dropFirst()) : name
    if let folded = foldASCIIWord(trimmed) { return folded }
    return Analyzer.fold(trimmed).filter { $0 != " " }
  }

  /// The fold of a name of ASCII letters and digits only, the common case, without the
  /// analyzer: such a name is one word, and folding it lower-cases it. `nil` for any other
  /// name.
  private static func foldASCIIWord(_ name: String) -> String? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(name.utf8.count)
    for byte in name.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        bytes.append(byte)
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte | 0x20)
      default: return nil
      }
    }
    return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
  }

  /// Starts loading the slot ``position(of:_:)`` reads first.
  @inline(__always)
  func prefetchPosition(of key: ContentKey, _ type: ContentType) {
    switch type {
    case .video: videoPositions.prefetch(key)
    case .hashtag: hashtagPositions.prefetch(key)
    case .sound: soundPositions.prefetch(key)
    case .effect: effectPositions.prefetch(key)
    }
  }

  /// The catalog position of an item, or `nil` when the index does not hold it.
  @inline(__always)
  func position(of key: ContentKey, _ type: ContentType) -> Int? {
    let position =
      switch type {
      case .video: videoPositions[key]
      case .hashtag: hashtagPositions[key]
      case .sound: soundPositions[key]
      case .effect: effectPositions[key]
      }
    return position.map(Int.init)
  }

  /// Calls `body` with the key of each hashtag, sound and effect a catalog video uses,
  /// without building a ``VideoUses``.
  @inline(__always)
  func forEachUse(ofVideoAt position: Int, _ body: (ContentKey) -> Void) {
    for index in useSpans[position].range { body(videoUses[index]) }
  }

  /// The use numbers (see ``usedItems``) of what a catalog video uses, in a buffer valid
  /// only inside `body`.
  @inline(__always)
  func withUseNumbers<Result>(
    ofVideoAt position: Int, _ body: (UnsafeBufferPointer<Int32>) -> Result
  ) -> Result {
    withUseNumbers(in: useSpans[position].range, body)
  }

  /// The use numbers of what a catalog video uses of one type (hashtags, sound or effect),
  /// in a buffer valid only inside `body`.
  @inline(__always)
  func withUseNumbers<Result>(
    ofVideoAt position: Int, ofType type: ContentType,
    _ body: (UnsafeBufferPointer<Int32>) -> Result
  ) -> Result {
    withUseNumbers(in: useSpans[position].range(of: type), body)
  }

  /// Brings the use numbers of one type of the videos at `positions` into the cache, one
  /// level of indirection at a time across all of them: their spans, then the numbers the
  /// spans point to. Read video by video, each of those two cache misses waits for the one
  /// before; the prefetches of a stage are independent and overlap (group prefetching:
  /// Chen, Ailamaki, Gibbons and Mowry, ICDE 2004).
  func prefetchUseNumbers(ofVideosAt positions: [Int], ofType type: ContentType) {
    useSpans.withUnsafeBufferPointer { spans in
      guard let base = spans.baseAddress else { return }
      for position in positions {
        // SAFETY: checked against the buffer; a prefetch never faults in any case.
        precondition(position < spans.count, "a video position past the catalog")
        cprefetch_for_reading(base + position)
      }
    }
    useNumbers.withUnsafeBufferPointer { numbers in
      guard let base = numbers.baseAddress else { return }
      for position in positions {
        let start = useSpans[position].range(of: type).lowerBound
        // SAFETY: a span starts inside `useNumbers` or at its end (an empty span); a
        // prefetch of the address just past it never faults.
        precondition(start <= numbers.count, "a use span past the uses")
        cprefetch_for_reading(base + start)
      }
    }
  }

  /// The use numbers at a range of ``videoUses``, in a buffer valid only inside `body`.
  @inline(__always)
  private func withUseNumbers<Result>(
    in range: Range<Int>, _ body: (UnsafeBufferPointer<Int32>) -> Result
  ) -> Result {
    useNumbers.withUnsafeBufferPointer { numbers in
      // SAFETY: a span's range lies inside `videoUses`, which `useNumbers` parallels.
      precondition(range.upperBound <= numbers.count, "a use span past the uses")
      return body(UnsafeBufferPointer(rebasing: numbers[range]))
    }
  }

  /// The use number of the item at a hashtag, sound or effect document position, or `nil`
  /// when no catalog video uses it.
  @inline(__always)
  func useNumber(of type: ContentType, at position: Int) -> Int? {
    let number = documentUseNumbers[type.index][position]
    return number < 0 ? nil : Int(number)
  }

  /// Starts loading where the use numbers of `items` are found, so that the lookups of
  /// ``useNumber(of:)`` after it overlap their cache misses.
  func prefetchUseNumbers(of items: [ContentKey]) {
    for item in items { useNumbersByKey.prefetch(item) }
  }

  /// The use number of an item, or `nil` when no catalog video uses it.
  @inline(__always)
  func useNumber(of item: ContentKey) -> Int? {
    useNumbersByKey[item].map(Int.init)
  }

  /// The keys of what a catalog video uses.
  func uses(ofVideoAt position: Int) -> VideoUses {
    let span = useSpans[position]
    let hashtagEnd = span.start + span.hashtagCount
    let effectOffset = hashtagEnd + (span.hasSound ? 1 : 0)
    return VideoUses(
      hashtags: Array(videoUses[span.start..<hashtagEnd]),
      sound: span.hasSound ? videoUses[hashtagEnd] : nil,
      effect: span.hasEffect ? videoUses[effectOffset] : nil)
  }
}

/// Where one video's uses are in a catalog's array of them, in one word: the start (bits 0
/// to 39), the number of hashtags (bits 40 to 61), and whether a sound (bit 62) and an
/// effect (bit 63) follow the hashtags.
struct UseSpan: Sendable {
  private let bits: UInt64

  /// The most hashtags of one video a catalog keeps (a field holds at most 65,536 tokens).
  static let maximumHashtags = 1 << 22 - 1

  init(start: Int, hashtagCount: Int, hasSound: Bool, hasEffect: Bool) {
    precondition(start < 1 << 40, "a catalog holds fewer than 2^40 uses of videos")
    precondition(hashtagCount <= Self.maximumHashtags, "too many hashtags for one video")
    bits =
      UInt64(start) | UInt64(hashtagCount) << 40 | (hasSound ? 1 << 62 : 0)
      | (hasEffect ? 1 << 63 : 0)
  }

  var start: Int { Int(bits & (1 << 40 - 1)) }
  var hashtagCount: Int { Int(bits >> 40 & (1 << 22 - 1)) }
  var hasSound: Bool { bits & 1 << 62 != 0 }
  var hasEffect: Bool { bits & 1 << 63 != 0 }
  /// The offsets of every use: hashtags, then the sound and the effect.
  var range: Range<Int> {
    start..<(start + hashtagCount + (hasSound ? 1 : 0) + (hasEffect ? 1 : 0))
  }

  /// The offsets of the uses of one type: the hashtags, the sound or the effect; none for
  /// videos.
  func range(of type: ContentType) -> Range<Int> {
    let soundOffset = start + hashtagCount
    let effectOffset = soundOffset + (hasSound ? 1 : 0)
    switch type {
    case .video: return start..<start
    case .hashtag: return start..<soundOffset
    case .sound: return soundOffset..<effectOffset
    case .effect: return effectOffset..<(effectOffset + (hasEffect ? 1 : 0))
    }
  }
}

/// The hashtags, sound and effect a video uses, as item keys.
struct VideoUses: Sendable, Hashable {
  var hashtags: [ContentKey]
  var sound: ContentKey?
  var effect: ContentKey?

  var isEmpty: Bool { hashtags.isEmpty && sound == nil && effect == nil }

  /// Every item the video's views and posts count toward.
  var all: [(ContentType, ContentKey)] {
    hashtags.map { (.hashtag, $0) }
      + [sound.map { (.sound, $0) }, effect.map { (.effect, $0) }]
      .compactMap { $0 }
  }
}

extension TrendingCatalog {
  /// The id of the document at a catalog position.
  func id(_ type: ContentType, at position: Int) -> String {
    let (ids, local) = segments.idColumn(type, at: position)
    return ids.string(at: local)
  }

  /// Brings the ids of the documents at `positions` into the cache, their offsets and then
  /// their bytes, each stage's misses overlapping (see ``prefetchUseNumbers(ofVideosAt:ofType:)``).
  func prefetchIDs(_ type: ContentType, at positions: [Int]) {
    for position in positions {
      let (ids, local) = segments.idColumn(type, at: position)
      ids.prefetch(local, includingBytes: false)
    }
    for position in positions {
      let (ids, local) = segments.idColumn(type, at: position)
      ids.prefetch(local, includingBytes: true)
    }
  }

  /// The UTF-8 bytes of the id of the document at a catalog position, in its segment.
  private func idBytes(_ type: ContentType, at position: Int) -> UnsafeBufferPointer<UInt8> {
    let (ids, local) = segments.idColumn(type, at: position)
    return ids.utf8(at: local)
  }

  /// Whether the id at `position` comes before the id at `other`, in the order that breaks
  /// ties in lists: UTF-8 byte order (code point order), compared in place, without making
  /// strings.
  func idPrecedes(_ type: ContentType, at position: Int, _ other: Int) -> Bool {
    idBytes(type, at: position).lexicographicallyPrecedes(idBytes(type, at: other))
  }

  /// Whether the id at `position` comes after `id` in UTF-8 byte order (see
  /// ``idPrecedes(_:at:_:)``).
  func id(_ type: ContentType, at position: Int, follows id: String) -> Bool {
    var id = id
    return id.withUTF8 { $0.lexicographicallyPrecedes(idBytes(type, at: position)) }
  }

  /// The position of a hashtag document by its id, by a linear scan (hashtag documents are
  /// few next to videos; used to resolve blocklist entries and explanations).
  func hashtagPosition(id: String) -> Int? {
    (0..<segments.catalogHashtagCount).first { self.id(.hashtag, at: $0) == id }
  }

  /// The keys `blocklist` keeps out: each entry as a video, sound or effect id, a hashtag
  /// name, and the name of the hashtag document it is the id of.
  func blockedKeys(_ blocklist: Set<String>) -> Set<ContentKey> {
    var keys = Set<ContentKey>()
    for entry in blocklist {
      keys.insert(ContentKey(.video, entry))
      keys.insert(ContentKey(.sound, entry))
      keys.insert(ContentKey(.effect, entry))
      let folded = Self.foldHashtag(entry)
      if !folded.isEmpty { keys.insert(ContentKey(.hashtag, folded)) }
    }
    if !blocklist.isEmpty {
      for position in 0..<segments.catalogHashtagCount
      where blocklist.contains(id(.hashtag, at: position)) {
        keys.insert(hashtagKeysByPosition[position])
      }
    }
    return keys
  }
}
