/// A 64-bit fingerprint of an item, user or region: the key of every trending counter.
///
/// Trending state keys items by fingerprint, not by id string, so that a tracked item is a
/// few numbers (see ``TrendingContent``'s memory bound). Fingerprints are the same in every
/// process and on every instance (unlike Swift's seeded `Hasher`), which exact merging needs:
/// 64-bit FNV-1a (Fowler, Noll and Vo) over the UTF-8 bytes, then MurmurHash3's 64-bit
/// finalizer (Appleby, `fmix64`) to spread FNV's weak high bits. Two different keys share a
/// fingerprint with probability 2⁻⁶⁴ per pair: about 3·10⁻⁸ among a million items. No key
/// is 0 (the one input `fmix64` maps to 0 is moved to 1): 0 marks an empty table slot.
struct ContentKey: Hashable, Sendable, Comparable, FingerprintKey, TableFiller {
  let rawValue: UInt64

  init(rawValue: UInt64) {
    self.rawValue = rawValue
  }

  /// The key of an item of `type` named `key` (a hashtag's folded name, the other types' id).
  init(_ type: ContentType, _ key: String) {
    rawValue = Self.nonZero(
      Self.mix(Self.hash(key, tag: UInt8(truncatingIfNeeded: 0x10 + type.index))))
  }

  /// The key of a user.
  init(user: String) {
    rawValue = Self.nonZero(Self.mix(Self.hash(user, tag: 0x01)))
  }

  var fingerprint: UInt64 { rawValue }
  static var vacant: ContentKey { ContentKey(rawValue: 0) }
  static var filler: ContentKey { vacant }

  /// Whether this is a key a constructor can make: stored keys read back from a file must
  /// be.
  var isValid: Bool { rawValue != 0 }

  /// The key of a region, by its upper-cased code.
  init(region: String) {
    // Hashed as it is checked: a code of upper-case ASCII letters and digits, the common
    // case, is hashed in one pass; any other is upper-cased first.
    var hash = FNV1a()
    hash.combine(0x02)
    let isUpper = Self.withBytes(of: region) { bytes in
      for byte in bytes {
        guard byte < 0x80, !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) else {
          return false
        }
        hash.combine(byte)
      }
      return true
    }
    let value = isUpper ? hash.value : Self.hash(region.uppercased(), tag: 0x02)
    rawValue = Self.nonZero(Self.mix(value))
  }

  /// The key of a hashtag whose name is ASCII letters and digits only, the common case,
  /// folded (lower-cased) as it is hashed: equal to `ContentKey(.hashtag, folded)`
  /// without making the folded string. `nil` for any other name, or an empty one.
  init?(asciiHashtag name: String) {
    var hash = FNV1a()
    hash.combine(UInt8(truncatingIfNeeded: 0x10 + ContentType.hashtag.index))
    var isWord = true
    let count = Self.withBytes(of: name) { bytes in
      for byte in bytes {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
          hash.combine(byte)
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): hash.combine(byte | 0x20)
        default:
          isWord = false
          return 0
        }
      }
      return bytes.count
    }
    guard isWord, count > 0 else { return nil }
    rawValue = Self.nonZero(Self.mix(hash.value))
  }

  /// The key of an item's counters within one region.
  func inRegion(_ region: ContentKey) -> ContentKey {
    ContentKey(
      rawValue: Self.nonZero(Self.mix(rawValue ^ (region.rawValue &* 0x9E37_79B9_7F4A_7C15))))
  }

  /// The key of a derived actor (a video with its creator), never 0.
  static func combining(_ first: ContentKey, _ second: ContentKey) -> ContentKey {
    ContentKey(rawValue: nonZero(mix(first.rawValue ^ second.rawValue)))
  }

  @inline(__always)
  private static func nonZero(_ value: UInt64) -> UInt64 { value == 0 ? 1 : value }

  static func < (lhs: ContentKey, rhs: ContentKey) -> Bool { lhs.rawValue < rhs.rawValue }

  /// FNV-1a of a tag byte then the string's UTF-8 bytes.
  @inline(__always)
  private static func hash(_ text: String, tag: UInt8) -> UInt64 {
    var hash = FNV1a()
    hash.combine(tag)
    withBytes(of: text) { bytes in
      for byte in bytes { hash.combine(byte) }
    }
    return hash.value
  }

  /// Calls `body` with the UTF-8 bytes of `text`, in place when it is stored as UTF-8 (a
  /// native or small string), without copying the string first.
  @inline(__always)
  private static func withBytes<Result>(
    of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = text
    return copy.withUTF8(body)
  }

  /// MurmurHash3's `fmix64`: every input bit affects every output bit.
  static func mix(_ value: UInt64) -> UInt64 {
    var x = value
    x ^= x >> 33
    x &*= 0xff51_afd7_ed55_8ccd
    x ^= x >> 33
    x &*= 0xc4ce_b9fe_1a85_ec53
    x ^= x >> 33
    return x
  }
}
