#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Splits a concatenated tag (`dancechallenge`) into the words it is most likely made of,
/// using how often each word occurs in the corpus's running text.
///
/// The most probable segmentation under a unigram model, found by dynamic programming
/// (Peter Norvig, "Natural Language Corpus Data", in *Beautiful Data*, O'Reilly 2009): every
/// part must be a known word, the score of a split is the sum of its parts' log
/// probabilities, and the tag stays whole when it is itself a word more probable than any
/// split (`together` is not `to get her`).
struct WordSegmenter {
  /// Parts shorter than this are not words for splitting (`a`, `i` would split anything).
  static let minimumPartLength = 2
  /// Parts longer than this are not tried (no common word is longer).
  static let maximumPartLength = 20
  /// Tags longer than this are not split.
  static let maximumLength = 48

  /// Occurrences of a word in running text (0 if unknown).
  let frequency: (UnsafeRawBufferPointer) -> UInt32
  /// Occurrences of all words in running text.
  let totalFrequency: Double
  /// Words seen fewer times than this are not trusted as parts (typos, names).
  let minimumFrequency: UInt32

  /// The byte ranges of the parts of `word` (lowercase ASCII letters), or `nil` to keep it
  /// whole.
  ///
  /// - Complexity: O(n · m) dictionary lookups for a word of n bytes and parts of at most
  ///   m = ``maximumPartLength`` bytes.
  func split(_ word: UnsafeRawBufferPointer) -> [Range<Int>]? {
    let length = word.count
    guard length >= 2 * WordSegmenter.minimumPartLength, length <= WordSegmenter.maximumLength,
      totalFrequency > 0
    else { return nil }
    let logTotal = log(totalFrequency)
    // best[i]: the best score of a segmentation of word[0..<i]; from[i]: where its last part
    // starts; parts[i]: how many parts. On the stack: words are at most 48 bytes.
    return withUnsafeTemporaryAllocation(of: Double.self, capacity: length + 1) { best in
      withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * (length + 1)) { scratch in
        let from = scratch.baseAddress!
        let parts = from + (length + 1)
        for index in 0...length {
          best[index] = -Double.infinity
          from[index] = -1
          parts[index] = 0
        }
        best[0] = 0
        for end in WordSegmenter.minimumPartLength...length {
          let earliest = max(0, end - WordSegmenter.maximumPartLength)
          var start = end - WordSegmenter.minimumPartLength
          while start >= earliest {
            if best[start] > -Double.infinity {
              let count = frequency(UnsafeRawBufferPointer(rebasing: word[start..<end]))
              if count >= minimumFrequency && count > 0 {
                let score = best[start] + log(Double(count)) - logTotal
                if score > best[end] {
                  best[end] = score
                  from[end] = start
                  parts[end] = parts[start] + 1
                }
              }
            }
            start -= 1
          }
        }
        guard best[length] > -Double.infinity, parts[length] >= 2 else { return nil }
        let whole = frequency(word)
        if whole >= minimumFrequency && whole > 0 && log(Double(whole)) - logTotal >= best[length] {
          return nil
        }
        var ranges: [Range<Int>] = []
        var end = length
        while end > 0 {
          let start = from[end]
          ranges.append(start..<end)
          end = start
        }
        return ranges.reversed()
      }
    }
  }
}
