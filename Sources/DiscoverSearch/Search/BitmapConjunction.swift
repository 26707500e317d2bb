/// The AND over groups of the OR of each group's bitmaps (a query's terms and their
/// alternatives), computed a chunk of words at a time.
///
/// A chunk is built with one pass per bitmap over contiguous words: loops the compiler
/// vectorizes, instead of a load per bitmap per word through arrays of arrays. Counting a
/// conjunction of two frequent terms over 1,000,000 documents reads 15,625 words per
/// bitmap either way; this way it costs a few microseconds.
struct BitmapConjunction {
  /// Words per chunk: a chunk and the scratch of one group stay in L1.
  static let chunkWords = 64

  /// Every alternative's bitmap, group by group.
  private let bitmaps: [UnsafePointer<UInt64>]
  /// Group `g`'s bitmaps are `bitmaps[groupStarts[g]..<groupStarts[g + 1]]`.
  private let groupStarts: [Int]
  /// Words per bitmap.
  let wordCount: Int

  /// A conjunction of `groups`, each a non-empty list of bitmaps of `wordCount` words.
  init(groups: [[UnsafePointer<UInt64>]], wordCount: Int) {
    precondition(groups.allSatisfy { !$0.isEmpty }, "a group without bitmaps matches nothing")
    bitmaps = groups.flatMap { $0 }
    var starts = [0]
    for group in groups { starts.append(starts[starts.count - 1] + group.count) }
    groupStarts = starts
    self.wordCount = wordCount
  }

  /// Writes words `start..<start + count` of the conjunction into `output` (which holds
  /// `count` words, at most ``chunkWords``) and returns how many bits they set.
  func fill(from start: Int, count: Int, into output: UnsafeMutablePointer<UInt64>) -> Int {
    guard !bitmaps.isEmpty else {
      output.initialize(repeating: 0, count: count)
      return 0
    }
    return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Self.chunkWords) {
      scratch in
      let union = scratch.baseAddress!
      for group in 0..<(groupStarts.count - 1) {
        let members = groupStarts[group]..<groupStarts[group + 1]
        // The group's OR: into the output for the first group, else into the scratch.
        let target = group == 0 ? output : union
        let first = bitmaps[members.lowerBound] + start
        for index in 0..<count { target[index] = first[index] }
        for member in (members.lowerBound + 1)..<members.upperBound {
          let words = bitmaps[member] + start
          for index in 0..<count { target[index] |= words[index] }
        }
        if group > 0 {
          for index in 0..<count { output[index] &= union[index] }
        }
      }
      var total = 0
      for index in 0..<count { total &+= output[index].nonzeroBitCount }
      return total
    }
  }

  /// Word `index` of the conjunction alone, for sampling it.
  func word(at index: Int) -> UInt64 {
    var bits = UInt64.max
    for group in 0..<(groupStarts.count - 1) {
      var any: UInt64 = 0
      for member in groupStarts[group]..<groupStarts[group + 1] { any |= bitmaps[member][index] }
      bits &= any
    }
    return bitmaps.isEmpty ? 0 : bits
  }

  /// The number of documents in every group: the popcount of the whole conjunction.
  func count() -> Int {
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Self.chunkWords) { chunk in
      var total = 0
      var start = 0
      while start < wordCount {
        let count = min(Self.chunkWords, wordCount - start)
        total &+= fill(from: start, count: count, into: chunk.baseAddress!)
        start += count
      }
      return total
    }
  }
}
