/// Remembers ICU's dictionary segmentation of runs of Thai, Chinese or Japanese text.
///
/// Dictionary segmentation costs thousands of instructions per run, and the same runs come
/// back again and again in a collection (words, names, common phrases). The cache keys runs
/// by their bytes and replays their word boundaries; it stops growing at
/// ``maximumEntries`` runs so memory stays bounded.
struct SegmentationCache {
  /// Runs remembered at most.
  static let maximumEntries = 1 << 17
  /// Longer runs are segmented every time: they rarely repeat.
  static let maximumRunBytes = 192

  private var runs = ByteStringTable(capacity: 0)
  /// Word boundaries of every remembered run, back to back: for run `r`,
  /// `bounds[boundStarts[r]..<boundStarts[r + 1]]` holds start, end, start, end, ...
  private var bounds: [Int32] = []
  private var boundStarts: [UInt32] = [0]

  /// Writes the word boundaries of `run` (start, end pairs of byte offsets) into `output`.
  ///
  /// - Complexity: O(n) in the run's length; ICU's segmentation only on a miss.
  mutating func segment(
    _ run: UnsafeBufferPointer<UInt8>, into output: inout UnsafeGrowableBuffer<Int32>
  ) {
    output.removeAll()
    let key = UnsafeRawBufferPointer(run)
    let isCacheable = run.count <= SegmentationCache.maximumRunBytes
    if isCacheable, let id = runs.find(key) {
      let start = Int(boundStarts[Int(id)])
      let end = Int(boundStarts[Int(id) + 1])
      for index in start..<end { output.append(bounds[index]) }
      return
    }
    DictionaryWordBreaker.forEachWord(in: run) { wordStart, wordEnd in
      output.append(Int32(wordStart))
      output.append(Int32(wordEnd))
    }
    if isCacheable && runs.count < SegmentationCache.maximumEntries {
      _ = runs.intern(key)
      bounds.append(contentsOf: output.buffer)
      boundStarts.append(UInt32(bounds.count))
    }
  }
}
