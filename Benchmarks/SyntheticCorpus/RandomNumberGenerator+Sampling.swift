import Foundation

/// Sampling helpers shared by the corpus and query generators.
///
/// All of them consume whole 64-bit outputs, so a stream's meaning never depends on the
/// platform's `Int` width or on the standard library's (unspecified) `random(in:)` algorithm.
extension RandomNumberGenerator {
  /// A uniform integer in `0..<bound`, by Lemire's multiply-shift ("Fast Random Integer
  /// Generation in an Interval", ACM TOMS 2019) without the rejection step: the bias is at most
  /// `bound / 2^64`, far below anything a benchmark corpus can show.
  mutating func nextInt(below bound: Int) -> Int {
    precondition(bound > 0, "nextInt(below:) needs a positive bound, got \(bound)")
    return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
  }

  /// A uniform integer in `range` (closed).
  mutating func nextInt(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + nextInt(below: range.count)
  }

  /// A uniform double in `[0, 1)` with 53 random bits (the top bits of one output).
  mutating func nextUnit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// `true` with probability `probability`.
  mutating func chance(_ probability: Double) -> Bool {
    nextUnit() < probability
  }

  /// A standard normal deviate by the Box-Muller transform (Box and Muller, "A Note on the
  /// Generation of Random Normal Deviates", Ann. Math. Statist. 29(2), 1958), using one of the
  /// pair. `1 - u` keeps the logarithm's argument in `(0, 1]`.
  mutating func nextNormal() -> Double {
    let u = 1 - nextUnit()
    let v = nextUnit()
    return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
  }

  /// A lognormal deviate `exp(mu + sigma * Z)`; its median is `exp(mu)`.
  mutating func nextLogNormal(mu: Double, sigma: Double) -> Double {
    exp(mu + sigma * nextNormal())
  }

  /// A skewed index in `0..<count`: `floor(count * u^power)` for uniform `u`.
  ///
  /// For `power > 1` small indexes are favoured: the first fraction `x` of indexes receives a
  /// share `x^(1/power)` of the draws (power 3: the first 1% gets 22%, the first 10% gets 46%).
  /// This is how "popular creators post more": early accounts are the popular ones.
  mutating func nextSkewedIndex(below count: Int, power: Double) -> Int {
    let u = nextUnit()
    // Whole powers by multiplication: `pow` showed up in corpus generation profiles.
    let skewed: Double
    switch power {
    case 2: skewed = u * u
    case 3: skewed = u * u * u
    case 4: skewed = (u * u) * (u * u)
    default: skewed = pow(u, power)
    }
    return min(Int(Double(count) * skewed), count - 1)
  }

  /// A uniformly chosen element of a non-empty array.
  mutating func pick<T>(_ elements: [T]) -> T {
    elements[nextInt(below: elements.count)]
  }
}

/// Converts a non-negative double to `Int`, saturating at `limit` (and at 0 for NaN or negatives)
/// so that an extreme lognormal draw can never trap.
func clampedCount(_ value: Double, limit: Int = 2_000_000_000_000) -> Int {
  guard value.isFinite, value > 0 else { return value == .infinity ? limit : 0 }
  return value >= Double(limit) ? limit : Int(value)
}
