import Testing

@testable import DiscoverSearch

@Suite struct DocumentOrderTests {
  /// The reference: a comparison sort on the counts, ties by the order documents came in.
  private func referenceOrder(_ counts: [Int]) -> [UInt32] {
    (0..<UInt32(counts.count)).sorted {
      counts[Int($0)] != counts[Int($1)] ? counts[Int($0)] > counts[Int($1)] : $0 < $1
    }
  }

  private func check(_ counts: [Int]) {
    let order = DocumentOrder(counts: counts)
    #expect(order.order == referenceOrder(counts))
    for (new, old) in order.order.enumerated() { #expect(order.rank[Int(old)] == UInt32(new)) }
  }

  @Test func packedKeysOrderLikeTheComparisonSort() {
    var generator = SystemRandomNumberGenerator()
    for size in [0, 1, 2, 3, 1000, 4097] {
      // Few distinct values, so that ties are common.
      check((0..<size).map { _ in Int.random(in: 0...20, using: &generator) })
      check((0..<size).map { _ in Int.random(in: 0...(1 << 40), using: &generator) })
    }
  }

  /// Keys whose digits are all alike in some passes (skipped), that use the top bit, or
  /// that repeat, in lists shorter and longer than the comparison-sort cutoff.
  @Test func radixSortMatchesTheStandardSort() {
    var generator = SystemRandomNumberGenerator()
    let shapes: [(Int) -> UInt64] = [
      { _ in UInt64.random(in: 0...UInt64.max, using: &generator) },
      { _ in UInt64.random(in: 0...3, using: &generator) << 40 | 0x7FF },
      { number in UInt64(number % 5) },
      { _ in 42 },
      { number in UInt64.max - UInt64(number) },
    ]
    for size in [0, 1, 64, 65, 3000, 70_000] {
      for shape in shapes {
        var keys = (0..<size).map(shape)
        let expected = keys.sorted()
        keys.radixSort()
        #expect(keys == expected, "size \(size)")
      }
    }
  }

  @Test func countsTooLargeToPackUseTheComparisonSort() {
    // With 1,000 documents (10 bits), counts of 2^54 and more do not fit one key.
    var counts = (0..<1000).map { $0 * 7919 % 1000 }
    counts[17] = Int.max
    counts[400] = Int.max
    counts[999] = 1 << 60
    check(counts)
  }
}

/// Document ids go through the writer's `TermInterner`, whose slots hold a key's first
/// sixteen bytes and its length up to 127: ids that share those must still be told apart.
@Suite struct DocumentIDTests {
  @Test func idsSharingPrefixesAndLengthBitsAreDistinct() throws {
    var writer = IndexWriter()
    let ids = [
      "abcdefgh", "abcdefghi", String(repeating: "a", count: 16),
      String(repeating: "a", count: 17), String(repeating: "a", count: 16) + "b",
      "abcdefgh" + String(repeating: "x", count: 128),
      "abcdefgh" + String(repeating: "x", count: 120) + "y",
      String(repeating: "z", count: 127), String(repeating: "z", count: 255),
    ]
    for id in ids { try writer.add(Hashtag(id: id, name: "tag")) }
    #expect(writer.documentCount == ids.count)
    for id in ids {
      #expect {
        try writer.add(Hashtag(id: id, name: "again"))
      } throws: { error in
        (error as? SearchError)?.code == .invalidDocument
      }
    }
    #expect(writer.documentCount == ids.count)
    // References resolve by the whole id.
    try writer.add(User(id: String(repeating: "a", count: 17) + "u", username: "someone"))
    try writer.add(
      Video(id: "v", title: "clip", creator: String(repeating: "a", count: 17) + "u"))
    let index = try writer.makeIndex()
    let result = try index.search("clip", in: .videos).results.first
    guard case .video(let metadata) = result?.metadata else {
      Issue.record("no video")
      return
    }
    #expect(metadata.creatorUsername == "someone")
  }
}
