import Testing

@testable import DiscoverSearch

/// The writer's one- and two-word postings entries (`PackedEntry`).
@Suite struct PackedEntryTests {
  @Test func entriesOfBothFormsReadBackInOrder() {
    let limitTerm = PackedEntry.shortTermLimit
    let limitPosition = PackedEntry.shortPositionLimit
    let mask = PostingEntry.positionMask
    // (term, field, position, words it takes)
    let cases: [(UInt32, Int, UInt32, Int)] = [
      (0, 0, 0, 1),
      (limitTerm - 1, 3, limitPosition - 1, 1),
      (limitTerm, 1, 0, 2),
      (5, 2, limitPosition, 2),
      (UInt32.max - 1, 3, mask, 2),
      (9, 0, mask + 5, 2),
      (12, 1, 7, 1),
      (limitTerm + 7, 2, limitPosition + 1, 2),
    ]
    var words = UnsafeGrowableBuffer<UInt32>()
    defer { words.deallocate() }
    for (term, field, position, size) in cases {
      let before = words.count
      PackedEntry.append(term: term, field: field, position: position, to: &words)
      #expect(words.count - before == size, "term \(term) position \(position)")
    }
    var index = 0
    for (term, field, position, _) in cases {
      let entry = PackedEntry.read(words.base, at: &index)
      let expected = PostingEntry(term: term, field: field, position: position)
      #expect(entry.term == expected.term)
      #expect(entry.fieldPosition == expected.fieldPosition)
      #expect(entry.field == field)
      #expect(entry.position == min(position, mask))
    }
    #expect(index == words.count)
  }

  /// Positions past a one-word entry's reach keep their place: phrases far into a long
  /// description still match, and only where the words really are adjacent.
  @Test func phrasesPastTheShortPositionsMatch() throws {
    let filler = (0..<300).map { "filler\($0)" }
    var far = filler
    far[255] = "amber"
    far[256] = "harbor"
    far += ["midnight", "lantern"]
    var writer = IndexWriter()
    try writer.add(
      .video(
        Video(id: "far", title: "long one", description: far.joined(separator: " "))))
    try writer.add(
      .video(
        Video(
          id: "swapped", title: "short one",
          description: (filler + ["lantern", "midnight", "harbor", "amber"]).joined(
            separator: " "))))
    let index = try writer.makeIndex()
    for phrase in ["\"midnight lantern\"", "\"amber harbor\""] {
      let response = try index.search(phrase, in: .videos)
      #expect(response.results.map(\.id) == ["far"], "\(phrase)")
    }
    #expect(try index.search("midnight lantern", in: .videos).totalHits == 2)
    #expect(try index.search("\"filler299 midnight\"", in: .videos).results.map(\.id) == ["far"])
  }

  /// Hashing makes 16 bytes of room after a field's folded bytes, which can move them
  /// (fillers of 9 to 16 letters leave 1,017 to 1,024 bytes in a buffer of 1,024): a field
  /// at that boundary must still index every word as written.
  @Test func aFieldThatFillsTheTokenBufferIndexesEveryWord() throws {
    for filler in 1...24 {
      // 126 words of 8 bytes, then one of `filler` letters: 1,009 to 1,032 bytes.
      var words = (1...126).map { "word" + String(1000 + $0) }
      words.append(String(repeating: "z", count: filler))
      var writer = IndexWriter()
      try writer.add(.video(Video(id: "v", title: words.joined(separator: " "))))
      let index = try writer.makeIndex()
      for word in [words[0], words[1], words[125], words[126]] {
        #expect(
          try index.search(word, in: .videos).totalHits == 1, "\(word) with filler \(filler)")
      }
    }
  }
}
