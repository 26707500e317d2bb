import Testing

@testable import DiscoverSearch

/// The title word pairs the phrase dictionary completes toward, counted on two threads by
/// sorting: the same pairs and counts as a plain count of every title, one by one.
@Suite("Suggest: phrase dictionary")
struct PhraseDictionaryTests {
  /// A plain count: every title tokenized in order, pairs counted in a hash table.
  static func referencePairs(_ snapshot: IndexSnapshot) -> [UInt64: UInt32] {
    var counts: [UInt64: UInt32] = [:]
    let stream = TokenStream()
    var tokenizer = Tokenizer(mode: .query)
    let titles = snapshot.partition(.video).titles
    for video in 0..<titles.count {
      stream.removeAll()
      tokenizer.tokenize(bytes: titles.utf8(at: video), into: stream, firstPosition: 0)
      var previous: UInt32?
      for token in stream.tokens {
        guard token.kind == .word,
          let id = snapshot.terms.find(UnsafeRawBufferPointer(stream.bytes(of: token)))
        else {
          if token.kind != .emojiName { previous = nil }
          continue
        }
        if let previous { counts[UInt64(previous) << 32 | UInt64(id), default: 0] += 1 }
        previous = id
      }
    }
    return counts.filter { $0.value >= PhraseDictionary.minimumPairCount }
  }

  /// On the real corpus (thousands of titles, so two threads count them).
  @Test func titlePairsMatchAPlainCount() throws {
    let snapshot = try RealCorpus.load().index.snapshot
    try #require(
      snapshot.partition(.video).titles.count >= PhraseDictionary.parallelTitleMinimum,
      "two threads")
    let pairs = PhraseDictionary.titlePairs(of: snapshot)
    #expect(pairs.map(\.pair) == pairs.map(\.pair).sorted())
    let reference = Self.referencePairs(snapshot)
    #expect(!reference.isEmpty)
    #expect(pairs.count == reference.count)
    for (pair, count) in pairs { #expect(reference[pair] == count, "\(pair)") }
  }

  /// A small index, counted on one thread: pairs seen once are left out, and a tag parts
  /// the words around it.
  @Test func pairsSeenOnceAreLeftOut() throws {
    let index = try DiscoverIndex.build(from: [
      .video(Video(id: "v1", title: "dance challenge")),
      .video(Video(id: "v2", title: "Dance challenge #fyp today")),
      .video(Video(id: "v3", title: "today dance")),
    ])
    let snapshot = index.snapshot
    let pairs = PhraseDictionary.titlePairs(of: snapshot)
    #expect(pairs.count == Self.referencePairs(snapshot).count)
    let texts = pairs.map { pair, _ in
      [UInt32(pair >> 32), UInt32(truncatingIfNeeded: pair)].map { id in
        snapshot.terms.withBytes(of: id) { String(decoding: $0, as: UTF8.self) }
      }.joined(separator: " ")
    }
    #expect(texts == ["dance challenge"])
    #expect(pairs.first?.count == 2)
  }
}
