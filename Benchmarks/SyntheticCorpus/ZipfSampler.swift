import Foundation

/// An O(1) sampler of Zipf-distributed ranks, `P(rank k) ∝ 1 / (k + 1)^s` on `0..<count`, that
/// stays cache-friendly for large vocabularies.
///
/// Zipf, "Human Behavior and the Principle of Least Effort" (1949). Frequent ranks come from an
/// ``AliasTable`` over the first ``headCount`` ranks (small enough to stay in cache); the rest
/// from rejection-inversion, Hörmann and Derflinger, "Rejection-inversion to generate variates
/// from monotone discrete distributions" (ACM TOMACS 6(3), 1996), which needs no table at all.
/// A uniform alias table over 200,000 ranks costs a cache miss per draw, which made corpus
/// generation memory-bound; with the split, most draws touch only the cached head table.
///
/// Rejection-inversion here follows the formulation of Apache Commons RNG's
/// `RejectionInversionZipfSampler`, generalized to a lower bound `L` (1-based ranks
/// `L...N`): with `h(x) = x^-s` and `H(x) = (x^(1-s) - 1) / (1-s)` (`ln x` when `s = 1`),
/// draw `u` uniform in `[H(L + 1/2) - h(L), H(N + 1/2)]`, let `k = round(H⁻¹(u))` clamped to
/// `L...N`, and accept when `u >= H(k + 1/2) - h(k)`. Each `k` is accepted on an interval of
/// length exactly `h(k)`, so accepted ranks follow `h`; since `h` is convex, the acceptance
/// probability is high (above 90% for `s = 1`).
struct ZipfSampler: Sendable {
  /// Ranks drawn from the alias table; the rest use rejection-inversion. At 8 bytes a column
  /// the table takes 256 KiB, which stays in a core's L2 cache, and for 200,000 ranks with
  /// `s = 1` it serves 86% of draws.
  static let maximumHeadCount = 32_768

  /// The number of ranks.
  let count: Int
  /// The exponent `s`.
  let exponent: Double
  /// The number of ranks in the alias-table head.
  let headCount: Int
  private let head: AliasTable
  /// The probability that a draw falls in the head, `sum h(1...headCount) / sum h(1...count)`.
  private let headProbability: Double
  private let tailLow: Double
  private let tailHigh: Double

  /// Prepares a sampler over `0..<count` with exponent `exponent` (positive).
  ///
  /// - Complexity: O(count) to sum the normalizing constant once.
  init(count: Int, exponent: Double) {
    precondition(count > 0, "ZipfSampler needs at least one rank")
    precondition(exponent > 0, "ZipfSampler needs a positive exponent, got \(exponent)")
    self.count = count
    self.exponent = exponent
    let headCount = Swift.min(count, Self.maximumHeadCount)
    self.headCount = headCount
    self.head = AliasTable.zipf(count: headCount, exponent: exponent)
    var headWeight = 0.0
    var total = 0.0
    for rank in 0..<count {
      let weight = AliasTable.zipfWeight(rank: rank, exponent: exponent)
      total += weight
      if rank == headCount - 1 { headWeight = total }
    }
    self.headProbability = headWeight / total
    // Tail in 1-based ranks: L = headCount + 1 ... N = count.
    let low = Double(headCount + 1)
    self.tailLow = Self.integral(low + 0.5, exponent) - Self.density(low, exponent)
    self.tailHigh = Self.integral(Double(count) + 0.5, exponent)
  }

  /// Draws a 0-based rank.
  func sample<G: RandomNumberGenerator>(using generator: inout G) -> Int {
    if headCount == count || generator.nextUnit() < headProbability {
      return head.sample(using: &generator)
    }
    let low = headCount + 1
    while true {
      let u = tailLow + generator.nextUnit() * (tailHigh - tailLow)
      let x = Self.inverseIntegral(u, exponent)
      let k = Swift.min(count, Swift.max(low, Int(x + 0.5)))
      if u >= Self.integral(Double(k) + 0.5, exponent) - Self.density(Double(k), exponent) {
        return k - 1
      }
    }
  }

  /// `h(x) = x^-s`.
  private static func density(_ x: Double, _ s: Double) -> Double {
    s == 1 ? 1 / x : exp(-s * log(x))
  }

  /// `H(x) = ∫₁ˣ h`, written with `expm1` so it stays accurate as `s` approaches 1
  /// (and exactly `ln x` at `s = 1`, the common case, saving two transcendental calls).
  private static func integral(_ x: Double, _ s: Double) -> Double {
    let logX = log(x)
    return s == 1 ? logX : expm1OverX((1 - s) * logX) * logX
  }

  /// `H⁻¹(y)`, written with `log1p`; the argument is clamped at -1 where `H⁻¹` is undefined.
  private static func inverseIntegral(_ y: Double, _ s: Double) -> Double {
    if s == 1 { return exp(y) }
    let t = Swift.max(-1, y * (1 - s))
    return exp(log1pOverX(t) * y)
  }

  /// `expm1(x) / x`, with its Taylor series near 0 (the `s = 1` limit).
  private static func expm1OverX(_ x: Double) -> Double {
    abs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x))
  }

  /// `log1p(x) / x`, with its Taylor series near 0 (the `s = 1` limit).
  private static func log1pOverX(_ x: Double) -> Double {
    abs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x))
  }
}
