import Foundation
import Testing

@testable import SyntheticCorpus

@Suite("Seeded random sampling")
struct RandomSamplingTests {
  @Test func splitMix64MatchesTheReferenceImplementation() {
    // Outputs of Vigna's splitmix64.c for the seed 1234567.
    var generator = SplitMix64(seed: 1_234_567)
    let outputs = (0..<5).map { _ in generator.next() }
    #expect(
      outputs == [
        6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
        4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
      ])
  }

  @Test func xoshiro256StarStarMatchesTheReferenceImplementation() {
    // Outputs of Vigna's xoshiro256starstar.c with its state filled by splitmix64 from 42.
    var generator = Xoshiro256StarStar(seed: 42)
    let outputs = (0..<5).map { _ in generator.next() }
    #expect(
      outputs == [
        1_546_998_764_402_558_742, 6_990_951_692_964_543_102, 12_544_586_762_248_559_009,
        17_057_574_109_182_124_193, 18_295_552_978_065_317_476,
      ])
  }

  @Test func boundedIntegersAndUnitDoublesStayInRange() {
    var generator = Xoshiro256StarStar(seed: 1)
    for bound in [1, 2, 3, 10, 1_000_003] {
      for _ in 0..<1_000 { #expect((0..<bound).contains(generator.nextInt(below: bound))) }
    }
    for _ in 0..<10_000 {
      let unit = generator.nextUnit()
      #expect(unit >= 0 && unit < 1)
    }
  }

  @Test func aliasTableDrawsInProportionToWeights() {
    let table = AliasTable(weights: [1, 2, 3, 4, 0])
    var generator = Xoshiro256StarStar(seed: 9)
    var counts = [Int](repeating: 0, count: 5)
    let draws = 200_000
    for _ in 0..<draws { counts[table.sample(using: &generator)] += 1 }
    for (outcome, weight) in [1.0, 2, 3, 4, 0].enumerated() {
      #expect(
        abs(Double(counts[outcome]) / Double(draws) - weight / 10) < 0.005, "outcome \(outcome)")
    }
  }

  @Test(arguments: [1.0, 1.2, 0.8])
  func zipfSamplerMatchesZipfsLawInHeadAndTail(exponent: Double) {
    let count = 200_000
    let sampler = ZipfSampler(count: count, exponent: exponent)
    var generator = Xoshiro256StarStar(seed: 21)
    let weights = (0..<count).map { AliasTable.zipfWeight(rank: $0, exponent: exponent) }
    let total = weights.reduce(0, +)
    func expected(_ ranks: Range<Int>) -> Double { weights[ranks].reduce(0, +) / total }
    let draws = 400_000
    var ranks = [Int](repeating: 0, count: draws)
    for index in 0..<draws { ranks[index] = sampler.sample(using: &generator) }
    #expect(ranks.allSatisfy { (0..<count).contains($0) })
    let head = ZipfSampler.maximumHeadCount
    for range in [
      0..<1, 1..<2, 2..<10, head..<(head + 1), head..<(2 * head), (2 * head)..<count,
      (count / 2)..<count,
    ] {
      let observed = Double(ranks.filter { range.contains($0) }.count) / Double(draws)
      let wanted = expected(range)
      // Five standard deviations of a binomial proportion, plus a little slack.
      let tolerance = 5 * (wanted * (1 - wanted) / Double(draws)).squareRoot() + 1e-4
      #expect(abs(observed - wanted) < tolerance, "ranks \(range): \(observed) vs \(wanted)")
    }
  }

  @Test func reservoirKeepsAUniformSample() {
    var sample = ReservoirSample<Int>(capacity: 1_000, seed: 4)
    for value in 0..<100_000 { sample.add(value) }
    #expect(sample.elements.count == 1_000 && sample.seenCount == 100_000)
    let mean = Double(sample.elements.reduce(0, +)) / 1_000
    // The mean of 1,000 draws from 0..<100,000 has a standard deviation of about 910.
    #expect(abs(mean - 49_999.5) < 4_000, "mean \(mean)")
    #expect(sample.elements.filter { $0 >= 50_000 }.count > 400)
  }

  @Test func apportionmentIsExact() {
    #expect(apportion(100, shares: [0.85, 0.08, 0.05, 0.02]) == [85, 8, 5, 2])
    #expect(apportion(7, shares: [0.5, 0.5]).reduce(0, +) == 7)
    #expect(apportion(0, shares: [0.3, 0.7]) == [0, 0])
    let counts = apportion(1_001, shares: [0.2, 0.15, 0.1, 0.15, 0.1, 0.1, 0.1, 0.05, 0.05])
    #expect(counts.reduce(0, +) == 1_001)
  }
}
