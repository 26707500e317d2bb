/// A tiny, fast, seedable 64-bit pseudo-random generator: SplitMix64.
///
/// The algorithm is Steele, Lea and Flood, "Fast Splittable Pseudorandom Number Generators"
/// (OOPSLA 2014), in the form Sebastiano Vigna publishes as the reference C code at
/// <https://prng.di.unimi.it/splitmix64.c>. Its state is a Weyl sequence (a counter advanced by
/// the odd constant 0x9E3779B97F4A7C15, the golden ratio in fixed point), and each output is
/// that counter passed through a bijective 64-bit finalizer, so every seed, including 0, gives
/// a full-period stream.
///
/// The corpus uses it in two ways: to seed ``Xoshiro256StarStar`` (as Vigna recommends), and
/// as the per-document stream, seeded with ``mix(_:)`` of the corpus seed and the document's
/// position so that any document can be generated on its own.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  /// The Weyl-sequence state; the next output is the finalizer applied to `state + gamma`.
  public var state: UInt64

  /// Creates a generator whose stream is fully determined by `seed`.
  public init(seed: UInt64) {
    self.state = seed
  }

  /// Returns the next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    return Self.mix(state)
  }

  /// The SplitMix64 output finalizer: a bijection on 64-bit words with strong avalanche.
  ///
  /// The shift and multiply constants are those of the reference code (Stafford's "Mix13"
  /// variant of MurmurHash3's finalizer). Used on its own as a hash to derive independent
  /// seeds from `(seed, position)` pairs.
  public static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
