import SyntheticCorpus
import Testing

@testable import DiscoverSearch

@Suite("Suggest: top-k completion over sorted keys")
struct TopCompletionTests {
  /// Random lowercase words of 1 to 6 letters from a small alphabet, so that prefixes of
  /// one and two letters cover hundreds of keys.
  static func words(count: Int, seed: UInt64) -> [[UInt8]] {
    var random = SplitMix64(seed: seed)
    var set: Set<[UInt8]> = []
    while set.count < count {
      let length = 1 + Int(random.next() % 6)
      set.insert((0..<length).map { _ in UInt8(ascii: "a") + UInt8(random.next() % 5) })
    }
    return Array(set)
  }

  /// The best `count` positions of `range` by brute force: weight descending, then
  /// position, among the first `inspectionLimit` of that order.
  static func bruteForceBest(
    _ weights: [UInt32], in range: Range<Int>, count: Int, inspectionLimit: Int = 256,
    accepts: (Int) -> Bool
  ) -> [Int] {
    let order = range.sorted {
      weights[$0] != weights[$1] ? weights[$0] > weights[$1] : $0 < $1
    }
    return Array(order.prefix(inspectionLimit).filter(accepts).prefix(count))
  }

  @Test func cachedNodesGiveTheSameBestPositionsAsTheSearch() {
    let (keys, _) = SortedKeys.make(sorting: Self.words(count: 3_000, seed: 7))
    var random = SplitMix64(seed: 11)
    // Few distinct weights, so that ties are common and their order is tested too.
    let weights = (0..<keys.count).map { _ in UInt32(random.next() % 50) }
    let nodes = keys.nodes(minimumSize: 64)
    #expect(!nodes.isEmpty)
    let cached = RangeMaximum(weights: weights, cachedRanges: nodes)
    let plain = RangeMaximum(weights: weights)
    #expect(cached.cachedRangeCount == nodes.filter { $0.count >= RangeMaximum.cachedCount }.count)
    let filters: [(Int) -> Bool] = [{ _ in true }, { $0 % 3 != 0 }, { $0 % 17 == 0 }]
    for node in nodes {
      for count in [1, 10, RangeMaximum.cachedCount, RangeMaximum.cachedCount + 5] {
        for accepts in filters {
          let expected = Self.bruteForceBest(weights, in: node, count: count, accepts: accepts)
          #expect(cached.best(in: [node], count: count, accepts: accepts) == expected)
          #expect(plain.best(in: [node], count: count, accepts: accepts) == expected)
        }
      }
    }
  }

  @Test func anyRangeGivesTheBruteForceBest() {
    var random = SplitMix64(seed: 19)
    let weights = (0..<5_000).map { _ in UInt32(random.next() % 200) }
    let maximum = RangeMaximum(weights: weights)
    let filters: [(Int) -> Bool] = [{ _ in true }, { $0 % 2 == 0 }, { $0 % 29 == 0 }]
    // Ranges read whole, ranges searched by range maxima, and the boundary between them.
    for length in [1, 2, 31, 33, 255, 256, 257, 600, 4_000] {
      let start = Int(random.next() % UInt64(weights.count - length + 1))
      let range = start..<(start + length)
      for count in [1, 10, 100] {
        for accepts in filters {
          #expect(
            maximum.best(in: [range], count: count, accepts: accepts)
              == Self.bruteForceBest(weights, in: range, count: count, accepts: accepts),
            "range \(range), count \(count)")
        }
      }
    }
  }

  @Test func nodesAreExactlyTheRangesOfTheirPrefixes() {
    let words = Self.words(count: 2_000, seed: 3)
    let (keys, _) = SortedKeys.make(sorting: words)
    for node in keys.nodes(minimumSize: 16) {
      // The node's prefix is the longest common prefix of its first and last keys.
      let first = Array(keys.key(node.lowerBound))
      let last = Array(keys.key(node.upperBound - 1))
      let common = zip(first, last).prefix { $0 == $1 }.count
      let prefix = Array(first.prefix(common))
      let found = prefix.withUnsafeBufferPointer { keys.range(withPrefix: $0) }
      #expect(found == node, "prefix \(String(decoding: prefix, as: UTF8.self))")
    }
  }

  @Test func longKeysThatShareTheirFirstEightBytesAreFoundByPrefixAndWhole() {
    // Words over a two-letter alphabet after long shared stems: many keys tie on the eight
    // bytes the sampled heads hold.
    var random = SplitMix64(seed: 23)
    var set: Set<[UInt8]> = []
    for stem in ["dancechallenge", "dancecha", "danceparty", "dance", "ダンスチャレンジ"] {
      for _ in 0..<300 {
        let tail = (0..<Int(random.next() % 5)).map { _ in
          UInt8(ascii: "a") + UInt8(random.next() % 2)
        }
        set.insert(Array(stem.utf8) + tail)
      }
    }
    let words = Array(set)
    let (keys, _) = SortedKeys.make(sorting: words)
    var prefixes: Set<[UInt8]> = []
    for word in words {
      for length in 1...word.count { prefixes.insert(Array(word.prefix(length))) }
      prefixes.insert(word + [UInt8(ascii: "b")])
    }
    for prefix in prefixes {
      let range = prefix.withUnsafeBufferPointer { keys.range(withPrefix: $0) }
      let expected = (0..<keys.count).filter { Array(keys.key($0)).starts(with: prefix) }
      #expect(Array(range) == expected, "prefix \(prefix)")
      let index = prefix.withUnsafeBufferPointer { keys.index(of: $0) }
      #expect(index.map { Array(keys.key($0)) } == (set.contains(prefix) ? prefix : nil))
    }
  }

  @Test func bucketsLargeEnoughForThirdByteTablesGiveExactRanges() {
    // About 480 keys per pair of first letters: each pair's bucket gets a table.
    let words = Self.words(count: 12_000, seed: 29)
    let (keys, _) = SortedKeys.make(sorting: words)
    let all = (0..<keys.count).map { Array(keys.key($0)) }
    let present = Set(all)
    var prefixes: [[UInt8]] = [[]]
    for length in 1...4 {
      prefixes = prefixes.flatMap { prefix in
        (UInt8(ascii: "a")...UInt8(ascii: "f")).map { prefix + [$0] }
      }
      // Four-byte prefixes: those after "ab" only.
      for prefix in prefixes where length < 4 || prefix.starts(with: Array("ab".utf8)) {
        let range = prefix.withUnsafeBufferPointer { keys.range(withPrefix: $0) }
        let expected = all.indices.filter { all[$0].starts(with: prefix) }
        #expect(Array(range) == expected, "prefix \(String(decoding: prefix, as: UTF8.self))")
        let index = prefix.withUnsafeBufferPointer { keys.index(of: $0) }
        #expect(index.map { all[$0] } == (present.contains(prefix) ? prefix : nil))
      }
    }
  }

  @Test(arguments: ["", "a", "b", "ab", "ca", "e", "ee", "abc", "ba", "z", "az"])
  func prefixRangesHoldExactlyTheKeysWithThePrefix(prefix: String) {
    let words = Self.words(count: 1_500, seed: 5)
    let (keys, _) = SortedKeys.make(sorting: words)
    let bytes = Array(prefix.utf8)
    let range = bytes.withUnsafeBufferPointer { keys.range(withPrefix: $0) }
    let expected = (0..<keys.count).filter { Array(keys.key($0)).starts(with: bytes) }
    #expect(Array(range) == expected)
  }
}
