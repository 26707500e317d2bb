import Foundation

/// An exponential decay rate, from a half-life.
///
/// A search `age` seconds old weighs `exp(-perSecond * age) = 2^(-age / halfLife)`.
struct DecayRate: Sendable, Hashable {
  /// λ, in 1/second: `ln 2 / halfLife`.
  let perSecond: Double
  /// The mean lifetime τ = `halfLife / ln 2` = 1/λ, in seconds. A query searched at a steady
  /// `r` searches per second has a decayed count of `r * τ`, so count / τ is a rate that is
  /// comparable between windows of different half-lives.
  let meanLifetime: Double

  init(halfLife: TimeInterval) {
    precondition(
      halfLife.isFinite && halfLife > 0, "a decay half-life must be positive, not \(halfLife)")
    perSecond = M_LN2 / halfLife
    meanLifetime = halfLife / M_LN2
  }
}

/// An exponentially time-decayed count of events with O(1) updates, by forward decay.
///
/// Forward decay (Cormode, Shkapenyuk, Srivastava and Xu, "Forward Decay: A Practical Time
/// Decay Model for Streaming Systems", ICDE 2009) weighs an event at time `t` by
/// `g(t - L) / g(now - L)` for a fixed landmark `L`. With `g(x) = exp(λx)` this equals the
/// usual backward exponential decay `exp(-λ(now - t))`, but the numerator does not depend
/// on `now`: the counter stores `S = Σ exp(λ(tᵢ - L))`, an event adds its term once, events
/// may arrive in any order, and reading divides by `exp(λ(now - L))`.
///
/// `exp(λ(t - L))` overflows a `Double` once `t - L` passes 1,024 half-lives (43 days for a
/// one-hour half-life). The paper moves the landmark and rescales every counter when values
/// grow too large; this counter stores `ln S` instead, which stays linear in time, and adds
/// with log-sum-exp. With the landmark at 2001-01-01 (times are
/// `Date.timeIntervalSinceReferenceDate`), `ln S` is about 10⁵ today, so the relative error
/// of one update is about 10⁻¹¹.
struct DecayedCounter: Sendable, Hashable {
  /// `ln Σ exp(λ tᵢ)` over the events, with times in seconds since the landmark; -∞ when
  /// there are none.
  private(set) var logScaledTotal: Double = -.infinity

  /// Whether no event was ever added.
  var isEmpty: Bool { logScaledTotal == -.infinity }

  /// Adds one event at `time` (seconds since the landmark).
  mutating func add(at time: TimeInterval, rate: DecayRate) {
    let term = rate.perSecond * time
    let larger = max(logScaledTotal, term)
    let smaller = min(logScaledTotal, term)
    // log(e^a + e^b) = max + log1p(e^(min - max)); e^(-∞) is 0 for the first event.
    logScaledTotal = larger + log1p(exp(smaller - larger))
  }

  /// The decayed count at `now` (seconds since the landmark).
  func value(at now: TimeInterval, rate: DecayRate) -> Double {
    exp(logScaledTotal - rate.perSecond * now)
  }
}
