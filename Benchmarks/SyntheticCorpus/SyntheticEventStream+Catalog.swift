import DiscoverSearch
import Foundation

/// What events are drawn from: the corpus ranked by popularity, the stream's own effects and
/// sounds, and the pool of users who watch.
extension SyntheticEventStream {
  static let minutesPerDay = 1_440
  /// Zipf exponent of video popularity: 1, the classic rank-frequency law of view counts.
  static let videoExponent = 1.0
  /// Zipf exponent of user activity. Milder than 1: with 1, the most active of 500,000 users
  /// would make 7% of all events, a bot in all but name.
  static let userExponent = 0.6
  /// Zipf exponents of the hashtags, sounds and effects that posts use.
  static let hashtagExponent = 1.0
  static let soundExponent = 1.0
  static let effectExponent = 1.0
  /// How many effects the stream invents, and how many sounds when the corpus has none.
  static let effectCount = 200
  static let inventedSoundCount = 200

  /// The regions events carry, by code; index 0 is "no region".
  static let regions: [String?] = [nil, "US", "BR", "IN", "ID", "JP", "GB", "DE", "MX"]
  /// The share of users in each of ``regions``: 30% carry none, and the rest lean to the
  /// largest markets of short-video apps.
  static let regionWeights: [Double] = [0.30, 0.22, 0.12, 0.12, 0.07, 0.06, 0.05, 0.03, 0.03]

  /// Two word lists whose pairs name the invented effects (`Neon Glow`): 256 pairs for 200.
  static let effectWords: ([String], [String]) = (
    [
      "Neon", "Retro", "Golden", "Glitch", "Dreamy", "Cosmic", "Pastel", "Vintage", "Sparkle",
      "Frosted", "Rainbow", "Shadow", "Velvet", "Electric", "Mirror", "Cyber",
    ],
    [
      "Glow", "Blur", "Zoom", "Wave", "Lens", "Filter", "Bloom", "Flash", "Haze", "Frame",
      "Trail", "Sketch", "Prism", "Tint", "Pop", "Warp",
    ]
  )

  /// Two word lists whose pairs name invented sounds (`Midnight Drive`).
  static let soundWords: ([String], [String]) = (
    [
      "Midnight", "Summer", "Lost", "Electric", "Golden", "Broken", "Wild", "Lazy", "Neon",
      "Silver", "Sunday", "Ocean", "Paper", "Velvet", "Cosmic", "Sweet",
    ],
    [
      "Drive", "Dreams", "Heartbeat", "Groove", "Lights", "Echo", "Rain", "Fever", "Beat",
      "Waves", "Riot", "Sunset", "Hearts", "Motion", "Party", "Skies",
    ]
  )

  /// `count` entries with ids `prefix1`, `prefix2`, ... and distinct names made of a word of
  /// each list, in an order shuffled by `seed`.
  static func makeCatalogNames(
    count: Int, idPrefix: String, words: ([String], [String]), seed: UInt64
  ) -> [(id: String, name: String)] {
    var names: [String] = []
    for first in words.0 {
      for second in words.1 { names.append(first + " " + second) }
    }
    precondition(count <= names.count, "\(count) names asked of \(names.count) word pairs")
    var generator = Xoshiro256StarStar(seed: seed)
    // Fisher-Yates (Knuth, TAOCP vol. 2, Algorithm P) on our own generator: the standard
    // library's `shuffle` algorithm is unspecified and could change the names.
    for index in stride(from: names.count - 1, to: 0, by: -1) {
      names.swapAt(index, generator.nextInt(below: index + 1))
    }
    let ids = makeIDs(prefix: idPrefix, count: count)
    return (0..<count).map { (id: ids[$0], name: names[$0]) }
  }

  /// `prefix1` to `prefixN`, made once so that no event formats a number.
  static func makeIDs(prefix: String, count: Int) -> [String] {
    var scratch = Array(prefix.utf8)
    let prefixLength = scratch.count
    return (0..<count).map { index in
      scratch.removeLast(scratch.count - prefixLength)
      UTF8Text.appendDecimal(index + 1, to: &scratch)
      return String(decoding: scratch, as: UTF8.self)
    }
  }

  /// A fixed region (an index into ``regions``) for each of `count` users.
  static func makeUserRegions(count: Int, seed: UInt64) -> [UInt8] {
    let table = AliasTable(weights: regionWeights)
    var generator = Xoshiro256StarStar(seed: seed)
    return (0..<count).map { _ in UInt8(table.sample(using: &generator)) }
  }

  /// The next post's video id, `ev1`, `ev2`, ...
  mutating func makePostID() -> String {
    defer { nextPostNumber += 1 }
    return makeID(UInt8(ascii: "v"), nextPostNumber)
  }

  /// `e`, then `letter`, then the digits of `number`.
  private mutating func makeID(_ letter: UInt8, _ number: Int) -> String {
    idScratch.removeAll(keepingCapacity: true)
    idScratch.append(contentsOf: [UInt8(ascii: "e"), letter])
    UTF8Text.appendDecimal(number, to: &idScratch)
    return String(decoding: idScratch, as: UTF8.self)
  }

  /// `name` with its case changed as people retype tags (`dancechallenge`, `Dancechallenge`,
  /// `DANCECHALLENGE`), or as written when it is not plain ASCII, whose case rules (Turkish
  /// dotted i, German sharp s) could change what it folds to.
  static func caseVariant(of name: String, choice: Int) -> String {
    guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return name }
    switch choice % 3 {
    case 0: return name.lowercased()
    case 1: return name.prefix(1).uppercased() + name.dropFirst().lowercased()
    default: return name.uppercased()
    }
  }
}

/// A corpus ranked the way the stream draws from it: most popular first.
struct RankedCorpus: Sendable {
  /// Videos by view count, most viewed first (ties in corpus order).
  let videos: [EventStreamCorpus.VideoEntry]
  /// Their ids, in the same order.
  let videoIDs: [String]
  /// Hashtag pages by video count, most used first (ties in corpus order).
  let hashtags: [EventStreamCorpus.HashtagEntry]
  /// Sound ids by how many corpus videos use them, most used first (ties in corpus order).
  let soundIDs: [String]
  /// Who posts new videos: the corpus users, or else the corpus videos' creators.
  let creatorIDs: [String]

  init(_ corpus: EventStreamCorpus) {
    videos = corpus.videos.enumerated()
      .sorted { ($1.element.viewCount, $0.offset) < ($0.element.viewCount, $1.offset) }
      .map(\.element)
    videoIDs = videos.map(\.id)
    hashtags = corpus.hashtags.enumerated()
      .sorted { ($1.element.videoCount, $0.offset) < ($0.element.videoCount, $1.offset) }
      .map(\.element)
    var soundUses: [String: Int] = [:]
    for video in corpus.videos {
      if let sound = video.sound { soundUses[sound, default: 0] += 1 }
    }
    soundIDs = corpus.soundIDs.enumerated()
      .sorted {
        (soundUses[$1.element, default: 0], $0.offset)
          < (soundUses[$0.element, default: 0], $1.offset)
      }
      .map(\.element)
    if !corpus.userIDs.isEmpty {
      creatorIDs = corpus.userIDs
    } else {
      var seen: Set<String> = []
      creatorIDs = corpus.videos.compactMap(\.creator).filter { seen.insert($0).inserted }
    }
  }
}
