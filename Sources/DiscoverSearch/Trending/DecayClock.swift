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
struct DecayClock: Sendable, Hashable {
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

  init(_ windows: TrendingConfiguration.Windows, retentionHalfLives: Double) {
    shortHalfLife = Int64(windows.shortHalfLife)
    longHalfLife = Int64(windows.longHalfLife)
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

  /// `2^((time - landmark) / halfLife)` in fixed point, rounded to the nearest unit.
  ///
  /// Within an epoch this is under 2³²; a time far past the landmark (which the landmark
  /// moves prevent for recorded events) saturates at 2⁶² rather than trapping.
  func weight(at time: Int64, landmark: Int64, halfLife: Int64) -> UInt64 {
    let exponent = Double(time - landmark) / Double(halfLife)
    let value = (exp2(min(exponent, 46)) * Self.unit).rounded()
    return UInt64(min(value, 0x1p62))
  }

  /// The unit weight at `time` as a `Double`, without rounding or bounds: for comparing a
  /// sum with a threshold at any time.
  func unitValue(at time: Int64, landmark: Int64, halfLife: Int64) -> Double {
    exp2(Double(time - landmark) / Double(halfLife)) * Self.unit
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
