/// A deterministic multilingual vocabulary whose word frequencies follow Zipf's law.
///
/// Ranks `0..<head` hold real short-video words (``Lexicon``): English, a few accented words and
/// about 12% non-Latin words and emoji, spread evenly. Every later rank is a generated word whose
/// script is drawn with the ``tailScriptShares`` (12% non-Latin, 5% accented), so the share of
/// non-Latin words is about 12% both among distinct words and among word occurrences.
///
/// Words are sampled with a ``ZipfSampler`` for `P(rank k) ∝ 1 / (k + 1)^s` with
/// `s = ` ``zipfExponent`` (Zipf 1949; about 1 for natural-language text).
final class Vocabulary: Sendable {
  /// The default number of distinct words, close to the vocabulary of a large social corpus.
  static let defaultSize = 200_000

  /// The Zipf exponent `s` of word frequencies.
  static let zipfExponent = 1.0

  /// The script of each generated (non-head) word, as shares that sum to 1.
  static let tailScriptShares: [(WordScript, Double)] = [
    (.latin, 0.83), (.accented, 0.05), (.cyrillic, 0.025), (.greek, 0.01), (.japanese, 0.03),
    (.chinese, 0.02), (.korean, 0.02), (.thai, 0.01), (.emoji, 0.005),
  ]

  /// One word with what generators need about it, kept together so that drawing a rare word
  /// costs one cache miss, not three.
  struct Entry: Sendable {
    /// The word as written in running text.
    var word: String
    /// The word with its first letter upper-cased (Latin scripts only; others are unchanged).
    var capitalized: String
    /// The word's script.
    var script: WordScript
  }

  /// Where a word's bytes sit in ``text``: its UTF-8 bytes at `offset`, followed at once by
  /// those of its capitalized form. Eight bytes, so the hot path touches little memory.
  struct Span: Sendable {
    /// The offset of the word's bytes in ``Vocabulary/text``.
    var offset: UInt32
    /// The length of the word in UTF-8 bytes.
    var length: UInt16
    /// The length of the capitalized form in UTF-8 bytes.
    var capitalizedLength: UInt8
    /// The word's script.
    var script: WordScript
  }

  /// The words, most frequent first.
  let entries: [Entry]
  /// The UTF-8 bytes of every word and its capitalized form, for building text without
  /// `String` appends (see ``appendWord(_:capitalized:to:)``).
  let text: [UInt8]
  /// Each word's place in ``text``, by rank.
  let spans: [Span]
  /// For each script (by raw value), the ranks of its words, most frequent first.
  let ranksByScript: [[Int32]]
  /// For each script (by raw value), a Zipf sampler over `ranksByScript`, or nil when empty.
  private let samplersByScript: [ZipfSampler?]
  private let sampler: ZipfSampler

  /// The number of distinct words.
  var count: Int { entries.count }

  /// The word of `rank`.
  subscript(rank: Int) -> Entry { entries[rank] }

  /// Appends the UTF-8 bytes of the word of `rank`, or of its capitalized form, to `bytes`;
  /// returns the word's script.
  @discardableResult
  func appendWord(_ rank: Int, capitalized: Bool, to bytes: inout [UInt8]) -> WordScript {
    let span = spans[rank]
    var start = Int(span.offset)
    var length = Int(span.length)
    if capitalized {
      start += length
      length = Int(span.capitalizedLength)
    }
    text.withUnsafeBufferPointer { text in
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<(start + length)]))
    }
    return span.script
  }

  /// Generates `size` distinct words from `seed`.
  ///
  /// - Complexity: O(size).
  init(size: Int = defaultSize, seed: UInt64) {
    precondition(size >= 1_000, "Vocabulary needs at least 1,000 words, got \(size)")
    var generator = Xoshiro256StarStar(seed: seed ^ 0x766F_6361_6275_6C61)  // "vocabula"
    var words: [String] = []
    var scripts: [WordScript] = []
    var seen = Set<String>(minimumCapacity: size)
    words.reserveCapacity(size)
    scripts.reserveCapacity(size)

    for (word, script) in Self.makeHead() where words.count < size && seen.insert(word).inserted {
      words.append(word)
      scripts.append(script)
    }
    let shareTable = AliasTable(weights: Self.tailScriptShares.map(\.1))
    while words.count < size {
      var script = Self.tailScriptShares[shareTable.sample(using: &generator)].0
      var attempts = 0
      while true {
        // Small scripts (emoji) run out of fresh words; after a few collisions fall back to
        // Latin, whose space of pseudo-words is practically unbounded.
        if attempts == 20 { script = .latin }
        let word = WordBuilder.makeWord(script, using: &generator)
        attempts += 1
        if seen.insert(word).inserted {
          words.append(word)
          scripts.append(script)
          break
        }
      }
    }

    var ranksByScript = [[Int32]](repeating: [], count: WordScript.allCases.count)
    for (rank, script) in scripts.enumerated() {
      ranksByScript[Int(script.rawValue)].append(Int32(rank))
    }
    let entries = zip(words, scripts).map { word, script in
      let capitalized = script.isNonLatin ? word : word.prefix(1).uppercased() + word.dropFirst()
      return Entry(word: word, capitalized: capitalized, script: script)
    }
    self.entries = entries
    var text: [UInt8] = []
    self.spans = entries.map { entry in
      let span = Span(
        offset: UInt32(text.count), length: UInt16(entry.word.utf8.count),
        capitalizedLength: UInt8(entry.capitalized.utf8.count), script: entry.script)
      text.append(contentsOf: entry.word.utf8)
      text.append(contentsOf: entry.capitalized.utf8)
      return span
    }
    self.text = text
    self.ranksByScript = ranksByScript
    self.samplersByScript = ranksByScript.map { ranks in
      ranks.isEmpty ? nil : ZipfSampler(count: ranks.count, exponent: Self.zipfExponent)
    }
    self.sampler = ZipfSampler(count: words.count, exponent: Self.zipfExponent)
  }

  /// Draws a word rank from the Zipf distribution over the whole vocabulary.
  func sampleRank<G: RandomNumberGenerator>(using generator: inout G) -> Int {
    sampler.sample(using: &generator)
  }

  /// Draws a word rank of the given script, Zipf-distributed within that script's words.
  /// Falls back to the whole vocabulary if the script has no words.
  func sampleRank<G: RandomNumberGenerator>(
    in script: WordScript, using generator: inout G
  ) -> Int {
    let index = Int(script.rawValue)
    guard let scriptSampler = samplersByScript[index] else {
      return sampleRank(using: &generator)
    }
    return Int(ranksByScript[index][scriptSampler.sample(using: &generator)])
  }

  /// The head: the real Latin, accented and non-Latin words of ``Lexicon`` merged so that each
  /// list is spread evenly over the head (a Bresenham-style merge by proportion).
  static func makeHead() -> [(String, WordScript)] {
    var latinSeen = Set<String>()
    let latin = Lexicon.latinHead.filter { latinSeen.insert($0).inserted }.map {
      ($0, WordScript.latin)
    }
    let lists: [[(String, WordScript)]] = [
      latin, Lexicon.accentedHead.map { ($0, .accented) }, Lexicon.nonLatinHead,
    ]
    let total = lists.reduce(0) { $0 + $1.count }
    var taken = [Int](repeating: 0, count: lists.count)
    var head: [(String, WordScript)] = []
    head.reserveCapacity(total)
    for position in 1...total {
      // Take from the list furthest behind its proportional share of the first `position`.
      var best = 0
      var bestDeficit = -Double.infinity
      for (index, list) in lists.enumerated() where taken[index] < list.count {
        let deficit = Double(position * list.count) / Double(total) - Double(taken[index])
        if deficit > bestDeficit {
          bestDeficit = deficit
          best = index
        }
      }
      head.append(lists[best][taken[best]])
      taken[best] += 1
    }
    return head
  }
}
