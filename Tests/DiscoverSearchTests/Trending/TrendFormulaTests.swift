import SyntheticCorpus
import Testing

@testable import DiscoverSearch

@Suite("TrendFormula")
struct TrendFormulaTests {
  private static func candidate(
    short: UInt64, long: UInt64, users: UInt32, position: Int32
  ) -> CandidateList.Candidate {
    var counters = CandidateList.Counters(ItemCounters())
    counters.short = short
    counters.long = long
    counters.distinctUsers = users
    let key = ContentKey(rawValue: ContentKey.mix(short &+ 31 &* long) | 1)
    return CandidateList.Candidate(
      counter: key, item: key, counters: counters, position: position)
  }

  /// The test without a square root keeps every candidate whose exact gated score reaches
  /// the floor (a refresh would otherwise drop a listed item), for floors below, at and
  /// above zero, `-infinity`, and floors set exactly at a candidate's own score; and it
  /// turns away nearly all of those scoring clearly below.
  @Test func mayClearKeepsEveryCandidateReachingTheFloor() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(seed: seed)
    let configuration = TrendingConfiguration()
    var extras = 0
    var below = 0
    for _ in 0..<20_000 {
      let formula = TrendFormula(
        shortFactor: Double(random.next() % 1_000 + 1) / 4_096,
        longFactor: Double(random.next() % 1_000 + 1) / 65_536,
        expectedPerLong: Double(random.next() % 100 + 1) / 400, configuration: configuration)
      let candidate = Self.candidate(
        short: random.next() % (1 << 20), long: random.next() % (1 << 24),
        users: UInt32(random.next() % 12), position: Int32(random.next() % 4) - 1)
      let score = formula.gatedScore(of: candidate)
      let floors = [
        -Double.infinity, 0, score, Double(Int(random.next() % 200) - 100) / 10,
        score.isFinite ? score.nextUp : 1, score.isFinite ? score.nextDown : -1,
      ]
      for floor in floors {
        let lowest = max(floor, -Double.greatestFiniteMagnitude)
        let clears = formula.mayClear(candidate, TrendFormula.FloorBound(lowest))
        if score >= lowest {
          #expect(clears, "seed \(seed): z \(score) reaches floor \(floor) but was turned away")
        } else if score < lowest - 1e-3 * max(1, abs(lowest)) {
          below += 1
          extras += clears ? 1 : 0
        }
      }
    }
    #expect(below > 10_000)
    #expect(extras == 0, "seed \(seed): \(extras) of \(below) clearly below the floor kept")
  }

  /// Membership agrees with a set, for numbers in and out of it whose filter bits collide.
  @Test func smallNumberSetAgreesWithASet() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(seed: seed)
    for size in [0, 1, 3, 50, 200] {
      let numbers = (0..<size).map { _ in Int32(random.next() % 1_000_000) }
      let set = SmallNumberSet(numbers)
      let reference = Set(numbers)
      for number in numbers { #expect(set.contains(number), "seed \(seed)") }
      for _ in 0..<5_000 {
        // Every other probe shares its filter bit with a member.
        let base = numbers.randomElement(using: &random) ?? 0
        let probe =
          random.next() % 2 == 0
          ? Int32(random.next() % 1_000_000) : base &+ 4_096 &* Int32(random.next() % 100 + 1)
        #expect(set.contains(probe) == reference.contains(probe), "seed \(seed): \(probe)")
      }
    }
  }
}
