/// Who a request counts against: a user id, an API key, an IP address, hashed once to 64 bits.
///
/// A ``RateLimiter`` keeps one budget per key and operation. Build the key once per request
/// (hashing a string is O(*n*) in its bytes); checks then read only the 64-bit
/// ``fingerprint``, never the string.
///
/// Keys are identifiers compared as bytes: two strings that Swift calls equal but that are
/// spelled with different bytes (`"é"` precomposed and decomposed) are different keys, and a
/// string key never equals a number key, even `ClientKey("42")` and `ClientKey(42)` (apart
/// from a 2⁻⁶⁴ chance). Two different keys share a budget only when their fingerprints
/// collide: with a million live keys, about one chance in 36 million.
public struct ClientKey: Hashable, Sendable, CustomStringConvertible {
  /// The key's 64-bit hash: what the limiter stores and compares.
  ///
  /// Stable within a process; not promised across versions of this library.
  public let fingerprint: UInt64

  /// The key for a string, from its UTF-8 bytes.
  ///
  /// - Complexity: O(*n*) in the string's UTF-8 length; no allocation for a native string.
  public init(_ name: some StringProtocol) {
    if let fingerprint = name.utf8.withContiguousStorageIfAvailable({
      Self.wyhash(UnsafeRawBufferPointer($0), seed: 0)
    }) {
      self.fingerprint = fingerprint
    } else {
      let bytes = Array(name.utf8)
      fingerprint = bytes.withUnsafeBytes { Self.wyhash($0, seed: 0) }
    }
  }

  /// The key for a number, such as a numeric user id.
  ///
  /// The number is mixed by SplitMix64's finalizer, a bijection: distinct numbers always make
  /// distinct keys, and consecutive ids spread over the whole table.
  public init(_ number: UInt64) {
    fingerprint = Self.splitMix64(number)
  }

  /// The fingerprint in hexadecimal, `ClientKey(0x…)`: loggable without the name it hides.
  public var description: String {
    let hex = String(fingerprint, radix: 16)
    return "ClientKey(0x" + String(repeating: "0", count: 16 - hex.count) + hex + ")"
  }

  // MARK: Hashing

  /// wyhash, final version 4.2, with its default secret (Wang Yi,
  /// https://github.com/wangyi-fudan/wyhash, `wyhash.h`, public domain), written here in Swift
  /// and checked against the reference's test vectors.
  ///
  /// Reads 4 or 8 bytes at a time and folds them with `mum`, a 64×64→128-bit multiply whose
  /// halves are xor-ed: about one multiply per 8 bytes, and it passes SMHasher.
  ///
  /// - Complexity: O(*n*) in `bytes.count`.
  static func wyhash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
    let length = bytes.count
    var seed = seed ^ multiplyMix(seed ^ secret0, secret1)
    var a: UInt64
    var b: UInt64
    if length <= 16 {
      if length >= 4 {
        // Two overlapping 4-byte reads from each end cover 4 to 16 bytes without a loop.
        let middle = (length >> 3) << 2
        a = (read4(bytes, 0) << 32) | read4(bytes, middle)
        b = (read4(bytes, length - 4) << 32) | read4(bytes, length - 4 - middle)
      } else if length > 0 {
        a =
          (UInt64(bytes[0]) << 16) | (UInt64(bytes[length >> 1]) << 8) | UInt64(bytes[length - 1])
        b = 0
      } else {
        a = 0
        b = 0
      }
    } else {
      var offset = 0
      var remaining = length
      if remaining > 48 {
        // Three independent lanes, so that the multiplies overlap.
        var lane1 = seed
        var lane2 = seed
        repeat {
          seed = multiplyMix(read8(bytes, offset) ^ secret1, read8(bytes, offset + 8) ^ seed)
          lane1 = multiplyMix(
            read8(bytes, offset + 16) ^ secret2, read8(bytes, offset + 24) ^ lane1)
          lane2 = multiplyMix(
            read8(bytes, offset + 32) ^ secret3, read8(bytes, offset + 40) ^ lane2)
          offset += 48
          remaining -= 48
        } while remaining > 48
        seed ^= lane1 ^ lane2
      }
      while remaining > 16 {
        seed = multiplyMix(read8(bytes, offset) ^ secret1, read8(bytes, offset + 8) ^ seed)
        offset += 16
        remaining -= 16
      }
      // The last 16 bytes, overlapping what the loops read when fewer remain.
      a = read8(bytes, offset + remaining - 16)
      b = read8(bytes, offset + remaining - 8)
    }
    a ^= secret1
    b ^= seed
    let product = a.multipliedFullWidth(by: b)
    return multiplyMix(product.low ^ secret0 ^ UInt64(length), product.high ^ secret1)
  }

  /// SplitMix64's output function (Steele, Lea and Flood, "Fast splittable pseudorandom number
  /// generators", OOPSLA 2014, with the constants of Stafford's "Mix13"): a bijection on 64
  /// bits in which each input bit flips each output bit with probability about one half.
  static func splitMix64(_ number: UInt64) -> UInt64 {
    var z = number
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }

  /// wyhash's `_wymix`: the 128-bit product of `a` and `b`, its halves xor-ed.
  @inline(__always)
  private static func multiplyMix(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let product = a.multipliedFullWidth(by: b)
    return product.high ^ product.low
  }

  /// wyhash's default secret: odd 64-bit numbers, each pair differing in exactly 32 bits.
  private static let secret0: UInt64 = 0x2d35_8dcc_aa6c_78a5
  private static let secret1: UInt64 = 0x8bb8_4b93_962e_acc9
  private static let secret2: UInt64 = 0x4b33_a62e_d433_d4a3
  private static let secret3: UInt64 = 0x4d5a_2da5_1de1_aa47

  /// Four little-endian bytes at `offset`, widened.
  @inline(__always)
  private static func read4(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
    UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
  }

  /// Eight little-endian bytes at `offset`.
  @inline(__always)
  private static func read8(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }
}
