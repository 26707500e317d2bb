import Testing

@testable import DiscoverSearch

/// Splitting concatenated tags by word frequencies, and the filter that spares it most
/// dictionary lookups without changing any split.
@Suite struct WordSegmenterTests {
  static let frequencies: [String: UInt32] = [
    "dance": 50, "challenge": 20, "to": 400, "get": 90, "her": 80, "together": 30,
    "sid": 2, "harth": 1, "music": 40, "summer": 25, "vibes": 12, "cat": 33, "cats": 9,
    "of": 300, "tiktok": 60, "x": 5,
  ]

  static func segmenter(filtered: Bool) -> WordSegmenter {
    var segmenter = WordSegmenter(
      frequency: { key in frequencies[String(decoding: key, as: UTF8.self)] ?? 0 },
      totalFrequency: Double(frequencies.values.reduce(0, +)), minimumFrequency: 2)
    if filtered {
      var filter = WordFilter(capacity: frequencies.count)
      for (word, count) in frequencies where count >= 2 {
        var word = word
        word.withUTF8 { filter.insert(UnsafeRawBufferPointer($0)) }
      }
      segmenter.filter = filter
    }
    return segmenter
  }

  static func split(_ tag: String, filtered: Bool) -> [String]? {
    var tag = tag
    return tag.withUTF8 { bytes in
      segmenter(filtered: filtered).split(UnsafeRawBufferPointer(bytes)).map { ranges in
        ranges.map { String(decoding: bytes[$0], as: UTF8.self) }
      }
    }
  }

  @Test func splitsByTheMostProbableWords() {
    #expect(Self.split("dancechallenge", filtered: false) == ["dance", "challenge"])
    #expect(Self.split("summervibes", filtered: false) == ["summer", "vibes"])
    // Kept whole: a word more probable than its split.
    #expect(Self.split("together", filtered: false) == nil)
    // "harth" is seen once, below the minimum frequency.
    #expect(Self.split("sidharth", filtered: false) == nil)
  }

  @Test func theFilterChangesNoSplit() {
    let tags = [
      "dancechallenge", "summervibes", "together", "sidharthmusic", "catsofttiktok",
      "catsoftiktok", "tiktokdance", "xx", "musicmusicmusic", "togetherdancechallenge",
      "zzzzzz", "dancex", "getherto",
    ]
    for tag in tags {
      #expect(Self.split(tag, filtered: true) == Self.split(tag, filtered: false), "\(tag)")
    }
  }

  @Test func theFilterHasNoFalseNegatives() {
    var filter = WordFilter(capacity: 10_000)
    var words: [String] = []
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<10_000 {
      let length = Int.random(in: 2...20, using: &generator)
      words.append(
        String(
          (0..<length).map { _ in
            Character(UnicodeScalar(UInt8.random(in: 97...122, using: &generator)))
          }))
    }
    for var word in words { word.withUTF8 { filter.insert(UnsafeRawBufferPointer($0)) } }
    var rejected = 0
    for word in words {
      var hash = WordFilter.seed
      for byte in word.utf8.reversed() { hash = WordFilter.step(hash, byte) }
      if !filter.mayContain(hash: hash) { rejected += 1 }
    }
    #expect(rejected == 0)
    // And it rules most other strings out.
    var admitted = 0
    for _ in 0..<10_000 {
      var hash = WordFilter.seed
      for _ in 0..<12 {
        hash = WordFilter.step(hash, UInt8.random(in: 97...122, using: &generator))
      }
      if filter.mayContain(hash: hash) { admitted += 1 }
    }
    #expect(admitted < 1_000)
  }
}
