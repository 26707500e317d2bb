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
  /// The words `frequency` can count at least ``minimumFrequency``, when the caller has
  /// them: pieces the filter rules out are not looked up. Most pieces of a tag are not
  /// words, and each lookup in a dictionary of millions of terms is a cache miss.
  var filter: WordFilter? = nil

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
          // The filter's hash of word[start..<end], from the last byte back.
          var hash = WordFilter.seed
          var index = end - 1
          while index > end - WordSegmenter.minimumPartLength {
            hash = WordFilter.step(hash, word[index])
            index -= 1
          }
          var start = end - WordSegmenter.minimumPartLength
          while start >= earliest {
            hash = WordFilter.step(hash, word[start])
            if best[start] > -Double.infinity, filter?.mayContain(hash: hash) ?? true {
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

/// A set of words that answers "maybe" for every word in it and "no" for most others: a
/// Bloom filter (Bloom, "Space/time trade-offs in hash coding with allowable errors", CACM
/// 1970) in the blocked form, where both of a word's bits lie in one 64-bit word (Putze,
/// Sanders and Singler, "Cache-, hash- and space-efficient Bloom filters", WEA 2007), so a
/// test reads one word. Sixteen bits per word keep false positives to a few percent.
///
/// A word is hashed from its last byte to its first (FNV-1a, Fowler, Noll and Vo), so that
/// ``WordSegmenter`` extends the hash of `word[start..<end]` to `word[start - 1..<end]` with
/// one step.
struct WordFilter {
  private var words: [UInt64]
  private let shift: UInt64

  static let seed: UInt64 = 0xCBF2_9CE4_8422_2325

  @inline(__always)
  static func step(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
    (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
  }

  /// An empty filter with room for `capacity` words.
  init(capacity: Int) {
    var wordCount = 16
    while wordCount * 4 < capacity { wordCount *= 2 }
    words = [UInt64](repeating: 0, count: wordCount)
    shift = UInt64(64 - wordCount.trailingZeroBitCount)
  }

  mutating func insert(_ word: UnsafeRawBufferPointer) {
    var hash = WordFilter.seed
    for byte in word.reversed() { hash = WordFilter.step(hash, byte) }
    let (index, bits) = slot(hash)
    words[index] |= bits
  }

  /// Whether the word with hash `hash` may be in the set.
  @inline(__always)
  func mayContain(hash: UInt64) -> Bool {
    let (index, bits) = slot(hash)
    return words[index] & bits == bits
  }

  /// The 64-bit word and the two bits in it of a hash: Fibonacci hashing (Knuth, *The Art
  /// of Computer Programming* vol. 3, 6.4) spreads FNV's weak high bits.
  @inline(__always)
  private func slot(_ hash: UInt64) -> (Int, UInt64) {
    let mixed = hash &* 0x9E37_79B9_7F4A_7C15
    let index = Int(truncatingIfNeeded: mixed &>> shift)
    let bits = UInt64(1) &<< (mixed & 63) | UInt64(1) &<< (mixed &>> 6 & 63)
    return (index, bits)
  }
}
