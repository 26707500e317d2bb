/// A deterministic vocabulary of hashtag names, Zipf-distributed, unique ignoring case.
///
/// Ranks `0..<head` are the real tags of ``Lexicon/hashtagHead`` (`fyp`, `DanceChallenge`,
/// `CatsOfTikTok`, `foodtok`). Later ranks are built from popular Latin words (Zipf-distributed
/// over the ``compoundWordCount`` most frequent for compounds, ``singleWordCount`` for single
/// words, function words left out) in the shapes creators use, with these shares:
/// - 25% a single word: `dance`;
/// - 35% a camel-case compound of two or three words: `DanceChallenge`, `CookingHacksDaily`;
/// - 25% a lower-case concatenation of two words: `catvideos`;
/// - 10% a word with a platform suffix: `foodtok`, `DanceChallenge`, `CatsOfTikTok`;
/// - 5% a non-Latin word: `ダンス`, `먹방`.
///
/// The hashtag document `h(k+1)` is named by rank `k`, so the most used tags have pages.
/// Videos draw their tags with the Zipf exponent ``zipfExponent``.
final class HashtagVocabulary: Sendable {
  /// The smallest vocabulary built, whatever the corpus size.
  static let minimumSize = 50_000

  /// The Zipf exponent `s` of hashtag use.
  static let zipfExponent = 1.0

  /// How many of the most frequent Latin words make compound tags: compounds of rare words
  /// (`dadrindwinterdaidroupeel`) look like no tag anyone writes.
  static let compoundWordCount = 3_000

  /// How many of the most frequent Latin words can be single-word tags.
  static let singleWordCount = 30_000

  /// Suffixes that make platform-style tags, as (camel-case, lower-case) pairs.
  static let suffixes: [(String, String)] = [
    ("Tok", "tok"), ("Challenge", "challenge"), ("OfTikTok", "oftiktok"), ("Life", "life"),
    ("Lover", "lover"), ("Vibes", "vibes"), ("Time", "time"), ("Hacks", "hacks"),
  ]

  /// Tag names as creators write them, most used first.
  let names: [String]
  /// Each name lower-cased (a creator may type `dancechallenge` for `DanceChallenge`).
  let lowercasedNames: [String]
  private let sampler: ZipfSampler

  /// The number of distinct tags.
  var count: Int { names.count }

  /// Builds `size` distinct tags from the words of `vocabulary`.
  ///
  /// - Complexity: O(size).
  init(size: Int, vocabulary: Vocabulary, seed: UInt64) {
    var generator = Xoshiro256StarStar(seed: seed ^ 0x6861_7368_7461_6773)  // "hashtags"
    var names: [String] = []
    var seen = Set<String>(minimumCapacity: size)
    names.reserveCapacity(size)
    for name in Lexicon.hashtagHead where names.count < size {
      if seen.insert(name.lowercased()).inserted { names.append(name) }
    }
    let latin = vocabulary.ranksByScript[Int(WordScript.latin.rawValue)].filter {
      !Lexicon.functionWords.contains(vocabulary[Int($0)].word)
    }
    let words = WordChooser(
      latinRanks: latin,
      compound: ZipfSampler(
        count: Swift.min(Self.compoundWordCount, latin.count), exponent: Self.zipfExponent),
      single: ZipfSampler(
        count: Swift.min(Self.singleWordCount, latin.count), exponent: Self.zipfExponent))
    while names.count < size {
      let name = Self.makeName(vocabulary: vocabulary, words: words, using: &generator)
      if seen.insert(name.lowercased()).inserted { names.append(name) }
    }
    self.names = names
    self.lowercasedNames = names.map { $0.lowercased() }
    self.sampler = ZipfSampler(count: names.count, exponent: Self.zipfExponent)
  }

  /// Draws a tag rank from the Zipf distribution.
  func sampleRank<G: RandomNumberGenerator>(using generator: inout G) -> Int {
    sampler.sample(using: &generator)
  }

  /// Draws Latin word ranks for tags: popular ones for compounds, a wider set for single words.
  private struct WordChooser {
    let latinRanks: [Int32]
    let compound: ZipfSampler
    let single: ZipfSampler

    func compoundRank<G: RandomNumberGenerator>(using generator: inout G) -> Int {
      Int(latinRanks[compound.sample(using: &generator)])
    }

    func singleRank<G: RandomNumberGenerator>(using generator: inout G) -> Int {
      Int(latinRanks[single.sample(using: &generator)])
    }
  }

  private static func makeName<G: RandomNumberGenerator>(
    vocabulary: Vocabulary, words: WordChooser, using generator: inout G
  ) -> String {
    func part() -> Int { words.compoundRank(using: &generator) }
    let roll = generator.nextUnit()
    if roll < 0.25 {
      return vocabulary[words.singleRank(using: &generator)].word
    } else if roll < 0.60 {
      let parts = generator.chance(0.75) ? 2 : 3
      return (0..<parts).map { _ in vocabulary[part()].capitalized }.joined()
    } else if roll < 0.85 {
      return vocabulary[part()].word + vocabulary[part()].word
    } else if roll < 0.95 {
      let suffix = generator.pick(suffixes)
      return generator.chance(0.5)
        ? vocabulary[part()].capitalized + suffix.0
        : vocabulary[part()].word + suffix.1
    } else {
      let scripts: [WordScript] = [.japanese, .chinese, .korean, .thai, .cyrillic]
      let script = generator.pick(scripts)
      return vocabulary[vocabulary.sampleRank(in: script, using: &generator)].word
    }
  }
}
