import Testing

@testable import DiscoverSearch

/// The cache of dictionary segmentations replays exactly what ICU says about a run: the
/// first time, after its table has grown, for runs too long to keep, and once it is full.
@Suite struct SegmentationCacheTests {
  /// ICU's word boundaries of `run`, without the cache.
  private func icuWords(_ run: [UInt8]) -> [Int32] {
    var words: [Int32] = []
    run.withUnsafeBufferPointer { run in
      DictionaryWordBreaker.forEachWord(in: run) { start, end in
        words.append(Int32(start))
        words.append(Int32(end))
      }
    }
    return words
  }

  /// The cache's boundaries of `run`.
  private func cachedWords(_ run: [UInt8], in cache: inout SegmentationCache) -> [Int32] {
    var output = UnsafeGrowableBuffer<Int32>(capacity: 16)
    defer { output.deallocate() }
    run.withUnsafeBufferPointer { run in
      cache.segment(run, hash: cache.prepareLookup(run), into: &output)
    }
    return Array(output.buffer)
  }

  /// Distinct runs of Chinese, Japanese and Thai made from a few words, some of which the
  /// dictionary knows.
  private func runs(count: Int) -> [[UInt8]] {
    let words = [
      "日本", "東京", "料理", "ダンス", "かわいい", "猫", "犬", "面白い", "跳舞", "吃饭", "天气", "ภาษาไทย",
      "อาหาร", "แมว",
    ]
    var runs: [[UInt8]] = []
    var state: UInt64 = 7
    while runs.count < count {
      var text = ""
      for _ in 0..<(2 + runs.count % 3) {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        text += words[Int(state >> 33) % words.count]
      }
      text += String(runs.count)
      runs.append(Array(text.utf8))
    }
    return runs
  }

  @Test func replaysWhatICUFoundAcrossGrowth() {
    var cache = SegmentationCache()
    // Well past the first table's 32 runs, so that it grows several times.
    let runs = runs(count: 3000)
    let expected = runs.map(icuWords)
    for (run, words) in zip(runs, expected) {
      #expect(cachedWords(run, in: &cache) == words)
    }
    // The second time every run is a hit, replayed from the cache.
    for (run, words) in zip(runs, expected) {
      #expect(cachedWords(run, in: &cache) == words, "\(String(decoding: run, as: UTF8.self))")
    }
    #expect(expected.contains { $0.count > 2 }, "some runs split into several words")
  }

  @Test func longRunsAreSegmentedEveryTime() {
    var cache = SegmentationCache()
    let long = Array(String(repeating: "日本料理", count: 40).utf8)
    #expect(long.count > SegmentationCache.maximumRunBytes)
    let words = icuWords(long)
    #expect(!words.isEmpty)
    #expect(cachedWords(long, in: &cache) == words)
    #expect(cachedWords(long, in: &cache) == words)
  }

  @Test func aFullCacheStillAnswers() {
    var cache = SegmentationCache(maximumEntries: 100)
    let runs = runs(count: 300)
    for run in runs { _ = cachedWords(run, in: &cache) }
    // Runs seen after the cache filled are segmented again, with the same answer.
    for run in runs.reversed() {
      #expect(cachedWords(run, in: &cache) == icuWords(run))
    }
  }
}
