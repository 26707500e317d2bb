import SyntheticCorpus
import Testing

@testable import DiscoverSearch

/// The small structures the search paths lean on, against plain Swift collections.
@Suite struct SearchStructureTests {
  /// The set of documents already scored answers like a `Set`, in its table form and after
  /// it turns into a bitmap (past ``DocumentSet/bitmapThreshold`` entries), including
  /// documents larger than any seen when the bitmap was made; sized in advance or not, with
  /// the number of documents known or not.
  @Test(arguments: [100, DocumentSet.bitmapThreshold, 20_000], [false, true])
  func documentSetAnswersLikeASet(insertions: Int, isSized: Bool) {
    var random = SplitMix64(seed: UInt64(insertions))
    var set =
      isSized
      ? DocumentSet(expectedCount: DocumentSet.bitmapThreshold / 2, universe: 1_000_000)
      : DocumentSet()
    var reference = Set<UInt32>()
    for step in 0..<insertions {
      // Small documents first, so that the bitmap must grow for later, larger ones.
      let range = step < insertions / 2 ? 5_000 : 1_000_000
      let document = UInt32(random.next() % UInt64(range))
      #expect(set.contains(document) == reference.contains(document), "\(document)")
      let isNew = set.insert(document)
      #expect(isNew == reference.insert(document).inserted, "\(document)")
      #expect(set.contains(document))
    }
    for document in reference.prefix(200) {
      let isNew = set.insert(document)
      #expect(!isNew, "\(document) was inserted twice")
    }
    // Documents never inserted, including ones past every bitmap word.
    for document in [UInt32(999_999), 5_000_001, UInt32.max - 1] where !reference.contains(document)
    {
      #expect(!set.contains(document), "\(document)")
    }
  }

  /// The AND of ORs of bitmaps, chunk by chunk, against the same computed word by word:
  /// groups of one and of three bitmaps, and bitmaps whose length is not a whole number of
  /// chunks.
  @Test(arguments: [1, 64, 200, 15_625])
  func bitmapConjunctionMatchesWordByWord(wordCount: Int) {
    var random = SplitMix64(seed: UInt64(wordCount))
    let shapes = [[1], [1, 1], [3, 1], [2, 3, 1]]
    for shape in shapes {
      let storage = shape.map { members in
        (0..<members).map { _ in
          // Sparse and dense words both.
          (0..<wordCount).map { _ in random.next() & random.next() & random.next() }
        }
      }
      var expected: [UInt64] = []
      for word in 0..<wordCount {
        var bits = UInt64.max
        for group in storage { bits &= group.reduce(0) { $0 | $1[word] } }
        expected.append(bits)
      }
      let pointers = storage.map { group in
        group.map { words in
          let pointer = UnsafeMutablePointer<UInt64>.allocate(capacity: wordCount)
          pointer.initialize(from: words, count: wordCount)
          return UnsafePointer(pointer)
        }
      }
      defer { for group in pointers { for pointer in group { pointer.deallocate() } } }
      let conjunction = BitmapConjunction(groups: pointers, wordCount: wordCount)
      #expect(conjunction.count() == expected.reduce(0) { $0 + $1.nonzeroBitCount }, "\(shape)")
      let chunk = UnsafeMutablePointer<UInt64>.allocate(capacity: BitmapConjunction.chunkWords)
      defer { chunk.deallocate() }
      var start = 0
      while start < wordCount {
        let count = min(BitmapConjunction.chunkWords, wordCount - start)
        let bits = conjunction.fill(from: start, count: count, into: chunk)
        let words = Array(UnsafeBufferPointer(start: chunk, count: count))
        #expect(words == Array(expected[start..<(start + count)]), "\(shape) at \(start)")
        #expect(bits == words.reduce(0) { $0 + $1.nonzeroBitCount })
        start += count
      }
    }
  }

  /// The lead-sorted search visits matches from the best bound down, ties by index: the
  /// order a stable sort gives, popped lazily from a heap.
  @Test func visitOrderPopsLikeASort() {
    var random = SplitMix64(seed: 7)
    // Few distinct bounds, so that ties are common.
    let bounds = (0..<3_000).map { _ in Float(random.next() % 40) / 4 }
    var order = VisitOrder(count: bounds.count) { bounds[$0] }
    let expected = bounds.indices.sorted {
      bounds[$0] != bounds[$1] ? bounds[$0] > bounds[$1] : $0 < $1
    }
    var popped: [Int] = []
    while let bound = order.peekBound {
      let index = order.pop()
      let poppedBound = index.map { bounds[$0] }
      #expect(poppedBound == bound)
      if let index { popped.append(index) }
    }
    #expect(popped == expected)
    #expect(order.pop() == nil)
  }

  /// Result cards come out the same whether or not their fields were brought into the cache
  /// first, and touching a page of every type reads within bounds.
  @Test func touchingResultFieldsChangesNoCard() throws {
    let index = ThresholdSearchTests.fixture.index
    let response = try index.search("the", in: .top, limit: 40, ranking: .pinned)
    #expect(!response.results.isEmpty)
    let snapshot = index.snapshot
    var page: [(type: SearchResultType, document: UInt32)] = []
    for type in SearchResultType.allCases {
      let count = snapshot.partition(type).documentCount
      for document in [0, count / 2, count - 1] where document >= 0 {
        page.append((type, UInt32(document)))
      }
    }
    _ = snapshot.touchResultFields(page)
    let again = try index.search("the", in: .top, limit: 40, ranking: .pinned)
    #expect(again.results.map(\.id) == response.results.map(\.id))
    #expect(again.results.map(\.title) == response.results.map(\.title))
    #expect(again.results.map(\.subtitle) == response.results.map(\.subtitle))
    #expect(again.results.map(\.thumbnailURL) == response.results.map(\.thumbnailURL))
  }
}
