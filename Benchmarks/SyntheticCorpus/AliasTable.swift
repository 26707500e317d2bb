import Foundation

/// An O(1) sampler for a fixed discrete distribution: Walker's alias method, built in O(n) with
/// Vose's stable algorithm.
///
/// Walker, "An Efficient Method for Generating Discrete Random Variables with General
/// Distributions" (ACM TOMS 3(3), 1977); Vose, "A Linear Algorithm for Generating Random
/// Numbers with a Given Distribution" (IEEE TSE 17(9), 1991). Each column `i` keeps its own
/// outcome with probability `threshold / 2^32` and otherwise yields its `alias`; a column that
/// always keeps its outcome is its own alias.
///
/// One 64-bit draw serves both steps: the high word of `draw * n` picks the column, and the low
/// word, which is the fractional part of `draw * n / 2^64` and so uniform, gives the coin. Both
/// halves of a column share 8 bytes, so a draw touches one cache line.
struct AliasTable: Sendable {
  /// One column of the table.
  private struct Column {
    /// The column keeps its own outcome when the coin is below this, out of 2^32.
    var threshold: UInt32
    /// The outcome otherwise.
    var alias: UInt32
  }

  private let columns: [Column]

  /// The number of outcomes.
  var count: Int { columns.count }

  /// Builds a table for outcomes `0..<weights.count` with probabilities proportional to
  /// `weights` (non-negative, not all zero).
  ///
  /// - Complexity: O(n).
  init(weights: [Double]) {
    let n = weights.count
    precondition(n > 0 && n <= Int(UInt32.max), "AliasTable needs 1...2^32-1 weights, got \(n)")
    let total = weights.reduce(0, +)
    precondition(total > 0, "AliasTable needs a positive total weight")
    var scaled = weights.map { $0 * Double(n) / total }
    var alias = [UInt32](repeating: 0, count: n)
    var probability = [Double](repeating: 1, count: n)
    var small: [Int] = []
    var large: [Int] = []
    for i in 0..<n {
      if scaled[i] < 1 { small.append(i) } else { large.append(i) }
    }
    while let s = small.popLast(), let l = large.last {
      probability[s] = scaled[s]
      alias[s] = UInt32(l)
      scaled[l] -= 1 - scaled[s]
      if scaled[l] < 1 {
        large.removeLast()
        small.append(l)
      }
    }
    // Whatever is left (in either list, through rounding) keeps its own outcome: probability 1,
    // expressed by making the column its own alias.
    self.columns = (0..<n).map { index in
      let scaled = probability[index] * 0x1.0p32
      return scaled >= 0x1.0p32
        ? Column(threshold: UInt32.max, alias: UInt32(index))
        : Column(threshold: UInt32(scaled), alias: alias[index])
    }
  }

  /// Draws one outcome.
  func sample<G: RandomNumberGenerator>(using generator: inout G) -> Int {
    let product = generator.next().multipliedFullWidth(by: UInt64(columns.count))
    let index = Int(truncatingIfNeeded: product.high)
    let column = columns[index]
    return UInt32(truncatingIfNeeded: product.low >> 32) < column.threshold
      ? index : Int(column.alias)
  }

  /// A table for the Zipf distribution on ranks `0..<count`: `P(rank k) ∝ 1 / (k + 1)^exponent`.
  ///
  /// Zipf, "Human Behavior and the Principle of Least Effort" (1949): word frequency falls as a
  /// power of rank, with exponent close to 1 in natural text.
  ///
  /// - Complexity: O(n).
  static func zipf(count: Int, exponent: Double) -> AliasTable {
    AliasTable(weights: (0..<count).map { zipfWeight(rank: $0, exponent: exponent) })
  }

  /// The unnormalized Zipf weight of `rank` (0-based).
  static func zipfWeight(rank: Int, exponent: Double) -> Double {
    exponent == 1 ? 1 / Double(rank + 1) : 1 / pow(Double(rank + 1), exponent)
  }
}
