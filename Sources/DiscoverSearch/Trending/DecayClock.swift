import Foundation

/// The fixed-point forward-decay weights of one content type's two windows.
///
/// Forward decay (Cormode, Shkapenyuk, Srivastava and Xu, "Forward Decay: A Practical Time
/// Decay Model for Streaming Systems", ICDE 2009) weighs an event at time `t` by
/// `g(t - L)` for a landmark `L` and reads a counter at `now` by dividing by `g(now - L)`;
/// with `g(x) = 2^(x / halfLife)` this is exponential decay, and an event's weight does not
/// depend on when it is recorded, so late and out-of-order events get their exact weight.
///
/// To make counters **exactly mergeable**, a weight is an integer: `g(t - L)` in fixed
/// point with ``fractionBits`` fractional bits, computed from whole seconds, so it is the
/// same on every instance, and sums of integers do not depend on the order or the split in
/// which they were added. Each window's landmark is an *epoch*: a whole multiple of 16 of its
/// half-lives, so every instance picks the same one for the same events. Within an epoch,
/// `t - L < 16` half-lives, so one contribution weighs under 2³² units (× its kind's weight),
/// and a counter overflows only past 2³⁰ contributions in one epoch. When the newest event
/// passes the epoch, the paper's landmark move is done exactly: the window's sums are
/// recomputed from the journal against the new landmark (``TrendingState``), instead of
/// rescaling rounded sums.
final class DecayClock: Sendable {
  /// Fractional bits of a weight: a contribution at the landmark weighs 2¹⁶ units.
  static let fractionBits = 16
  static let unit = Double(1 << fractionBits)

  let shortHalfLife: Int64
  let longHalfLife: Int64
  /// The short window's landmark spacing: 16 short half-lives.
  let shortEpochLength: Int64
  /// The long window's landmark spacing: 16 long half-lives.
  let longEpochLength: Int64
  /// The deduplication span: one short half-life.
  let bucketLength: Int64
  /// How far back from the long window's landmark contributions are kept.
  let retention: Int64
  /// `2^(x / halfLife)` of each window, read from tables.
  private let shortPowers: PowerTable
  private let longPowers: PowerTable

  init(_ windows: TrendingConfiguration.Windows, retentionHalfLives: Double) {
    shortHalfLife = Int64(windows.shortHalfLife)
    longHalfLife = Int64(windows.longHalfLife)
    shortPowers = PowerTable(halfLife: shortHalfLife)
    longPowers = PowerTable(halfLife: longHalfLife)
    shortEpochLength = 16 * shortHalfLife
    longEpochLength = 16 * longHalfLife
    bucketLength = shortHalfLife
    retention = Int64((retentionHalfLives * windows.longHalfLife).rounded(.up))
  }

  /// The landmark of the short window's epoch holding `time`.
  func shortLandmark(containing time: Int64) -> Int64 {
    floorDivide(time, shortEpochLength) * shortEpochLength
  }

  /// The landmark of the long window's epoch holding `time`.
  func longLandmark(containing time: Int64) -> Int64 {
    floorDivide(time, longEpochLength) * longEpochLength
  }

  /// The time before which a contribution's short weight against `landmark` rounds to 0:
  /// `2^(-17) * 2^16` is half a unit.
  func shortZeroCutoff(landmark: Int64) -> Int64 {
    landmark - 17 * shortHalfLife
  }

  /// The deduplication bucket of `time`.
  func bucket(of time: Int64) -> Int64 {
    floorDivide(time, bucketLength)
  }

  /// The table of a window's half-life.
  @inline(__always)
  private func powers(_ halfLife: Int64) -> PowerTable {
    halfLife == shortHalfLife ? shortPowers : longPowers
  }

  /// `2^((time - landmark) / halfLife)` in fixed point, rounded to the nearest unit.
  ///
  /// Within an epoch this is under 2³²; a time far past the landmark (which the landmark
  /// moves prevent for recorded events) saturates at 2⁶² rather than trapping.
  ///
  /// - Precondition: `halfLife` is one of the clock's two.
  @inline(__always)
  func weight(at time: Int64, landmark: Int64, halfLife: Int64) -> UInt64 {
    let value = powers(halfLife).power(time - landmark) * Self.unit
    // Below 2⁵², adding and taking away 2⁵² rounds to the nearest integer (ties to even) in
    // the processor's default rounding, without a call to `rint`.
    guard value < 0x1p52 else { return UInt64(min(value, 0x1p62)) }
    return UInt64((value + 0x1p52) - 0x1p52)
  }

  /// The unit weight at `time` as a `Double`, without rounding: for comparing a sum with a
  /// threshold at any time.
  ///
  /// - Precondition: `halfLife` is one of the clock's two.
  @inline(__always)
  func unitValue(at time: Int64, landmark: Int64, halfLife: Int64) -> Double {
    powers(halfLife).power(time - landmark) * Self.unit
  }

  /// A counter's decayed value at `now`: `sum / 2^((now - landmark) / halfLife)`, in
  /// contributions.
  func value(of sum: UInt64, landmark: Int64, at now: Double, halfLife: Int64) -> Double {
    Double(sum) / Self.unit * exp2((Double(landmark) - now) / Double(halfLife))
  }

  /// The mean lifetime `τ = halfLife / ln 2` of a window: a steady rate of `r` per second
  /// gives a decayed count of `r τ`.
  static func meanLifetime(_ halfLife: Int64) -> Double { Double(halfLife) / M_LN2 }
}

/// `⌊a / b⌋` for a positive `b`.
@inline(__always)
func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
  let quotient = a / b
  return (a % b != 0 && a < 0) ? quotient - 1 : quotient
}

/// `2^(x / halfLife)` for a whole number of seconds `x`, from two small tables instead of
/// `exp2`: a weight is computed for every contribution and, at a landmark move, for every
/// recent journal entry.
///
/// With `x = q · halfLife + r` (`0 ≤ r < halfLife`) and `r = a · 2^s + b` (`b < 2^s`,
/// `2^s` about the square root of the half-life), the power is
/// `2^q · 2^(a · 2^s / halfLife) · 2^(b / halfLife)`: the two fractional powers are read from
/// tables made once with `exp2` (169 and 512 entries for a day), their product is rounded
/// once (a relative error under 2⁻⁵², far below a weight's unit), and `2^q` scales it
/// exactly. The result depends only on `x` and the
/// tables, so every instance computes the same weight for the same contribution: what exact
/// merging needs. The same idea, a table of powers split into a coarse and a fine part, is
/// Tang's table-driven exponential (ACM TOMS 15(2), 1989).
final class PowerTable: Sendable {
  let halfLife: Int64
  /// `s`: the fine table covers `2^s` seconds.
  private let shift: Int
  private let coarse: [Double]
  private let fine: [Double]

  init(halfLife: Int64) {
    precondition(halfLife > 0, "a half-life must be positive")
    self.halfLife = halfLife
    var shift = 0
    while Int64(1) << (2 * shift) < halfLife { shift += 1 }
    self.shift = shift
    let seconds = Double(halfLife)
    let span = Int64(1) << shift
    coarse = (0..<Int((halfLife + span - 1) / span)).map {
      exp2(Double(Int64($0) * span) / seconds)
    }
    fine = (0..<Int(span)).map { exp2(Double($0) / seconds) }
  }

  /// `2^(x / halfLife)`, saturating at `2^46` (far past any landmark's epoch) and at
  /// `2^-1000` below.
  @inline(__always)
  func power(_ x: Int64) -> Double {
    let whole = floorDivide(x, halfLife)
    guard whole < 46 else { return 0x1p46 }
    guard whole > -1_000 else { return 0x1p-1000 }
    let rest = Int(x - whole * halfLife)
    let fraction = coarse[rest >> shift] * fine[rest & (1 << shift - 1)]
    // 2^whole from its bit pattern: a normal double's exponent field is whole + 1023.
    return fraction * Double(bitPattern: UInt64(whole + 1_023) << 52)
  }
}
