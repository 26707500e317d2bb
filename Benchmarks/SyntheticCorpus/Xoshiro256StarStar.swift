/// A fast, high-quality seedable generator with 256 bits of state: xoshiro256**.
///
/// The algorithm is Blackman and Vigna, "Scrambled Linear Pseudorandom Number Generators"
/// (ACM TOMS 47(4), 2021), following the reference C code at
/// <https://prng.di.unimi.it/xoshiro256starstar.c>. The state is filled from a
/// ``SplitMix64`` stream, as the authors recommend, so that no seed yields the all-zero state.
/// Used for the long streams: building vocabularies, sampling reservoirs, making query mixes.
public struct Xoshiro256StarStar: RandomNumberGenerator, Sendable {
  private var s0: UInt64
  private var s1: UInt64
  private var s2: UInt64
  private var s3: UInt64

  /// Creates a generator whose stream is fully determined by `seed`.
  public init(seed: UInt64) {
    var seeder = SplitMix64(seed: seed)
    s0 = seeder.next()
    s1 = seeder.next()
    s2 = seeder.next()
    s3 = seeder.next()
  }

  /// Returns the next 64 random bits.
  public mutating func next() -> UInt64 {
    let result = rotateLeft(s1 &* 5, by: 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotateLeft(s3, by: 45)
    return result
  }

  private func rotateLeft(_ x: UInt64, by k: UInt64) -> UInt64 {
    (x << k) | (x >> (64 &- k))
  }
}
