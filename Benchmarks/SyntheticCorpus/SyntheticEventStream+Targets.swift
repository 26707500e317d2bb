import DiscoverSearch
import Foundation

/// What the planted bursts target, when they start and how strong they are.
extension SyntheticEventStream.Planner {
  /// `count` distinct video ranks for risers, log-uniform over the ranks past
  /// ``leastRiserRank``: mid and low popularity, with each decade of rank equally likely.
  mutating func pickRiserVideoRanks(count: Int) -> [Int] {
    (0..<count).compactMap { _ in
      pickUnusedVideoRank(in: leastRiserRank..<ranked.videos.count, logUniform: true)
    }
  }

  /// An unused video rank of `ranks`, marked used; `nil` when a few dozen draws found none
  /// (the range is then nearly used up).
  mutating func pickUnusedVideoRank(in ranks: Range<Int>, logUniform: Bool) -> Int? {
    guard !ranks.isEmpty else { return nil }
    let low = log(Double(ranks.lowerBound + 1))
    let high = log(Double(ranks.upperBound + 1))
    for _ in 0..<64 {
      let rank =
        logUniform
        ? Swift.min(
          ranks.upperBound - 1,
          Swift.max(
            ranks.lowerBound, Int(exp(low + generator.nextUnit() * (high - low))) - 1))
        : ranks.lowerBound + generator.nextInt(below: ranks.count)
      if usedVideoRanks.insert(rank).inserted { return rank }
    }
    return nil
  }

  /// `count` hashtag names for waves: past the head of the ranking, unused by the steady hits
  /// (whose constant views would blur the wave), and plain ASCII words whose lowercase no other
  /// hashtag shares, so that the wave's key (the folded name) names one hashtag document
  /// however a post writes its case.
  mutating func pickWaveHashtags(count: Int) -> [String] {
    guard count > 0 else { return [] }
    var lowercaseUses: [String: Int] = [:]
    for hashtag in ranked.hashtags { lowercaseUses[hashtag.name.lowercased(), default: 0] += 1 }
    let steadyTags = Set(
      ranked.videos.prefix(steadyCount).flatMap(\.hashtags).map { $0.lowercased() })
    let least = Swift.min(Self.leastWaveRank, ranked.hashtags.count / 5)
    let candidates = ranked.hashtags.dropFirst(least).map(\.name).filter { name in
      let lowercase = name.lowercased()
      return Self.isPlainWord(name) && lowercaseUses[lowercase] == 1
        && !steadyTags.contains(lowercase)
    }
    // Folding is checked on the chosen names only: it runs the analyzer.
    return pickDistinct(count, from: candidates) { Analyzer.fold($0) == $0.lowercased() }
  }

  /// `count` sound ids for waves: past the head of the ranking and unused by the steady hits.
  mutating func pickWaveSounds(count: Int) -> [String] {
    let steadySounds = Set(ranked.videos.prefix(steadyCount).compactMap(\.sound))
    let least = Swift.min(Self.leastWaveRank, soundIDs.count / 5)
    let candidates = soundIDs.dropFirst(least).filter { !steadySounds.contains($0) }
    return pickDistinct(count, from: Array(candidates))
  }

  /// Up to `count` distinct elements of `candidates` that pass `isAccepted`, in random order:
  /// a partial Fisher-Yates shuffle (Knuth, TAOCP vol. 2, Algorithm P).
  mutating func pickDistinct<Element>(
    _ count: Int, from candidates: [Element], where isAccepted: (Element) -> Bool = { _ in true }
  ) -> [Element] {
    var pool = candidates
    var picked: [Element] = []
    var index = 0
    while picked.count < count && index < pool.count {
      pool.swapAt(index, index + generator.nextInt(below: pool.count - index))
      if isAccepted(pool[index]) { picked.append(pool[index]) }
      index += 1
    }
    return picked
  }

  /// A hashtag name of 3 to 30 ASCII letters and digits with at least one letter: the names
  /// whose case can change without changing their folded form.
  static func isPlainWord(_ name: String) -> Bool {
    let bytes = name.utf8
    guard (3...30).contains(bytes.count) else { return false }
    var hasLetter = false
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
        hasLetter = true
      case UInt8(ascii: "0")...UInt8(ascii: "9"): continue
      default: return false
      }
    }
    return hasLetter
  }

  /// A video riser's peak, in events a minute: its background rate times 30 to 100, or a
  /// share of all traffic when that is more, never above ``maximumPeakShare``.
  mutating func videoPeakRate(rank: Int) -> Double {
    let weight = AliasTable.zipfWeight(rank: rank, exponent: SyntheticEventStream.videoExponent)
    // Views are 90% of the background, and the background nearly all of the traffic.
    let backgroundRate = totalRate * 0.9 * weight / videoWeightTotal
    let jump =
      Self.jumpFactors.lowerBound
      + generator.nextUnit() * (Self.jumpFactors.upperBound - Self.jumpFactors.lowerBound)
    let jumped = Swift.min(backgroundRate * jump, totalRate * Self.maximumPeakShare)
    return Swift.max(jumped, wavePeakRate())
  }

  /// A wave's peak (and a video riser's least), in events a minute: 3% to 6% of all traffic,
  /// and never below ``minimumPeakRate``.
  mutating func wavePeakRate() -> Double {
    let share =
      Self.peakShares.lowerBound
      + generator.nextUnit() * (Self.peakShares.upperBound - Self.peakShares.lowerBound)
    return Swift.max(Self.minimumPeakRate, totalRate * share)
  }

  /// `count` burst starts in minutes, one in each of `count` equal strata of ``burstWindow``,
  /// in increasing order.
  mutating func makeStratifiedStarts(count: Int) -> [Int] {
    let window = burstWindow
    let width = Double(window.count) / Double(Swift.max(1, count))
    return (0..<count).map { stratum in
      let offset = Int((Double(stratum) + generator.nextUnit()) * width)
      return Swift.min(window.upperBound, window.lowerBound + offset)
    }
  }

  /// Events in each minute of a burst starting at `startMinute`: `peak` for `peakMinutes`,
  /// then `peak * exp(-t / 10 min)` for ``decayMinutes``, cut at the end of the stream.
  ///
  /// Counts are the differences of the rounded running total, so they sum to the rounded
  /// integral of the rate and no minute's rounding is lost.
  func makeProfile(peak: Double, peakMinutes: Int, startMinute: Int) -> [Int] {
    let length = Swift.min(peakMinutes + Self.decayMinutes, totalMinutes - startMinute)
    var total = 0.0
    var counted = 0
    return (0..<Swift.max(0, length)).map { minute in
      let rate =
        minute < peakMinutes
        ? peak : peak * exp(-(Double(minute - peakMinutes) + 0.5) / Self.decayTimeConstant)
      total += rate
      let count = Int(total.rounded()) - counted
      counted += count
      return count
    }
  }
}
