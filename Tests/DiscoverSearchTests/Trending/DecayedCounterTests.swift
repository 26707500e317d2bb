import Foundation
import SyntheticCorpus
import Testing

@testable import DiscoverSearch

extension TrendingTests {
  /// Forward-decayed counts against the direct sum, and the trending formula's anchors.
  @Suite("Trending: decayed counter and scorer")
  struct DecayedCounterTests {
    @Test func matchesTheDirectSumInAnyOrder() {
      let seed = UInt64.random(in: 0...UInt64.max)
      var generator = SplitMix64(seed: seed)
      let halfLife: TimeInterval = 3600
      let rate = DecayRate(halfLife: halfLife)
      let now: TimeInterval = 800_000_000  // 2026, far from the 2001 landmark
      var counter = DecayedCounter()
      var expected = 0.0
      for _ in 0..<1_000 {
        let time = now - Double.random(in: 0...(20 * halfLife), using: &generator)
        counter.add(at: time, rate: rate)
        expected += pow(2, -(now - time) / halfLife)
      }
      let value = counter.value(at: now, rate: rate)
      #expect(abs(value - expected) / expected < 1e-9, "seed \(seed)")
    }

    @Test func emptyCounterIsZeroAndHalvesPerHalfLife() {
      let rate = DecayRate(halfLife: 60)
      var counter = DecayedCounter()
      #expect(counter.isEmpty)
      #expect(counter.value(at: 1_000, rate: rate) == 0)
      counter.add(at: 1_000, rate: rate)
      counter.add(at: 1_000, rate: rate)
      #expect(abs(counter.value(at: 1_000, rate: rate) - 2) < 1e-9)
      #expect(abs(counter.value(at: 1_060, rate: rate) - 1) < 1e-9)
      #expect(abs(counter.value(at: 1_120, rate: rate) - 0.5) < 1e-9)
    }

    @Test func centuriesFromTheLandmarkDoNotOverflow() {
      let rate = DecayRate(halfLife: 1)
      var counter = DecayedCounter()
      let time: TimeInterval = 5_000_000_000  // year 2159, 5·10⁹ half-lives after the landmark
      counter.add(at: time, rate: rate)
      counter.add(at: time, rate: rate)
      #expect(counter.value(at: time, rate: rate).isFinite)
      #expect(abs(counter.value(at: time, rate: rate) - 2) < 1e-3)
    }

    @Test func steadyQueryHasVelocityOneAndScoresItsCount() {
      let scorer = TrendingScorer(configuration: AnalyticsConfiguration())
      // A steady rate r gives counts r·τ in each window.
      let ratePerSecond = 0.01
      let recentCount = ratePerSecond * scorer.recent.meanLifetime
      let baselineCount = ratePerSecond * scorer.baseline.meanLifetime
      let velocity = scorer.velocity(recentCount: recentCount, baselineCount: baselineCount)
      #expect(abs(velocity - 1) < 0.01)
      #expect(abs(scorer.score(recentCount: recentCount, velocity: velocity) - recentCount) < 0.1)
    }

    @Test func brandNewQueryVelocityIsBoundedByTheWindowRatio() {
      let scorer = TrendingScorer(configuration: AnalyticsConfiguration())
      let ratio = scorer.baseline.meanLifetime / scorer.recent.meanLifetime
      let one = scorer.velocity(recentCount: 1, baselineCount: 1)
      let many = scorer.velocity(recentCount: 1_000, baselineCount: 1_000)
      #expect(one < many)
      #expect(many < ratio)
      #expect(abs(ratio - 168) < 1e-9)
    }
  }
}
