import DiscoverSearch
import Foundation

/// How users, hashtags and sounds are made.
extension SyntheticCorpus {
  /// `μ` of the lognormal follower count before the popularity boost: `ln 300`.
  static let followerCountMu = log(300.0)
  /// `σ` of the lognormal follower count.
  static let followerCountSigma = 2.0
  /// The share of users verified regardless of popularity; with the 80% of the most popular
  /// 1% that are verified too, about 2% of users carry the badge.
  static let baseVerifiedRate = 0.012
  /// Hashtags used per video on average, the mean of ``hashtagCountWeights``.
  static let meanHashtagsPerVideo = 2.3

  /// How much more popular an early account (or sound) is than a typical one: `x^-exponent`
  /// for its place `x` in `(0, 1]` among all of them, capped. Mirrors ``creatorSkew``: with
  /// power 3, the density of posts at `x` grows like `x^(-2/3)`.
  static func popularityBoost(ordinal: Int, count: Int, exponent: Double, cap: Double) -> Double {
    let place = (Double(ordinal) + 0.5) / Double(Swift.max(count, 1))
    return Swift.min(cap, pow(place, -exponent))
  }

  func makeUser(ordinal: Int, using generator: inout SplitMix64, scratch: inout [UInt8]) -> User {
    let parts = usernames.parts(ofUser: ordinal)
    let start = scratch.count
    usernames.appendUsername(ofUser: ordinal, to: &scratch)
    let username = UTF8Text.string(from: scratch, startingAt: start)
    let first = usernames.capitalizedFirstWords[parts.first]
    let second = usernames.capitalizedSecondWords[parts.second]

    let style = generator.nextUnit()
    let displayName: String
    if style < 0.80 {
      displayName = first + " " + second
    } else if style < 0.88 {
      displayName =
        first + " " + second + " "
        + vocabulary[vocabulary.sampleRank(in: .emoji, using: &generator)].word
    } else if style < 0.95 {
      displayName = first
    } else {
      let script = generator.pick([WordScript.japanese, .korean, .chinese, .cyrillic, .thai])
      displayName = vocabulary[vocabulary.sampleRank(in: script, using: &generator)].word
    }
    let bio = generator.chance(0.6) ? makeBio(using: &generator, scratch: &scratch) : nil
    let boost = Self.popularityBoost(ordinal: ordinal, count: userCount, exponent: 0.67, cap: 1e4)
    let followers = clampedCount(
      boost * generator.nextLogNormal(mu: Self.followerCountMu, sigma: Self.followerCountSigma),
      limit: 1_000_000_000)
    let isTopPercent = Double(ordinal) < Double(userCount) * 0.01
    let verified =
      generator.chance(Self.baseVerifiedRate) || (isTopPercent && generator.chance(0.8))
    return User(
      id: UTF8Text.makeID(UInt8(ascii: "u"), ordinal + 1, scratch: &scratch), username: username,
      displayName: displayName, bio: bio,
      followerCount: followers, isVerified: verified)
  }

  /// A bio of 3 to 15 words, sometimes ending with an emoji.
  private func makeBio(using generator: inout SplitMix64, scratch bytes: inout [UInt8]) -> String {
    let start = bytes.count
    for index in 0..<generator.nextInt(in: 3...15) {
      if index > 0 { bytes.append(0x20) }
      let rank = vocabulary.sampleRank(using: &generator)
      vocabulary.appendWord(rank, capitalized: index == 0, to: &bytes)
    }
    if generator.chance(0.3) {
      bytes.append(0x20)
      let emoji = vocabulary.sampleRank(in: .emoji, using: &generator)
      vocabulary.appendWord(emoji, capitalized: false, to: &bytes)
    }
    return UTF8Text.string(from: bytes, startingAt: start)
  }

  /// The hashtag page of rank `ordinal`. Its video count follows the tag's Zipf share of all
  /// tag uses, `videos * 2.3 * (1 / (k + 1)) / H(n)` with `H(n)` the n-th harmonic number,
  /// times lognormal noise; its views are its videos times a lognormal mean of views per video.
  func makeHashtag(
    ordinal: Int, using generator: inout SplitMix64, scratch: inout [UInt8]
  ) -> Hashtag {
    let tagCount = hashtagVocabulary.count
    // H(n) ≈ ln n + γ + 1/(2n), Euler-Maclaurin; γ = 0.5772 is the Euler-Mascheroni constant.
    let harmonic = log(Double(tagCount)) + 0.5772 + 1 / (2 * Double(tagCount))
    let share =
      AliasTable.zipfWeight(rank: ordinal, exponent: HashtagVocabulary.zipfExponent) / harmonic
    let expected = Double(Swift.max(videoCount, 1)) * Self.meanHashtagsPerVideo * share
    let videos = Swift.max(1, clampedCount(expected * generator.nextLogNormal(mu: 0, sigma: 0.3)))
    let views = clampedCount(
      Double(videos) * generator.nextLogNormal(mu: log(20_000.0), sigma: 1.0))
    let description: String?
    if generator.chance(0.4) {
      var text = generator.pick(["Show us your", "Share your", "Post your", "The best"])
      for _ in 0..<generator.nextInt(in: 2...12) {
        text += " " + vocabulary[vocabulary.sampleRank(using: &generator)].word
      }
      description = text
    } else {
      description = nil
    }
    return Hashtag(
      id: UTF8Text.makeID(UInt8(ascii: "h"), ordinal + 1, scratch: &scratch),
      name: hashtagVocabulary.names[ordinal],
      description: description, viewCount: views, videoCount: videos)
  }

  /// A sound: 55% an "original sound - username" of an earlier user, 45% a song-like title
  /// (Title Case words, 10% in a non-Latin script, sometimes with "(Remix)", "(Sped Up)" or
  /// "(feat. Name)") by a generated artist name.
  func makeSound(
    ordinal: Int, position: Int, using generator: inout SplitMix64, scratch: inout [UInt8]
  ) -> Sound {
    let title: String
    let artist: String
    if generator.chance(0.55) {
      let users = layout.count(ofType: 1, before: position)
      let creator = generator.nextSkewedIndex(below: users, power: Self.creatorSkew)
      artist = usernames.username(ofUser: creator)
      title = "original sound - " + artist
    } else {
      artist = makeArtistName(using: &generator)
      var song = ""
      if generator.chance(0.1) {
        let script = generator.pick([WordScript.japanese, .korean, .chinese, .thai])
        song = vocabulary[vocabulary.sampleRank(in: script, using: &generator)].word
      } else {
        for index in 0..<generator.nextInt(in: 1...4) {
          if index > 0 { song += " " }
          song += vocabulary[vocabulary.sampleRank(in: .latin, using: &generator)].capitalized
        }
      }
      let extra = generator.nextUnit()
      if extra < 0.06 {
        song += " (Remix)"
      } else if extra < 0.10 {
        song += " (Sped Up)"
      } else if extra < 0.16 {
        song += " (feat. " + makeArtistName(using: &generator) + ")"
      }
      title = song
    }
    let boost = Self.popularityBoost(ordinal: ordinal, count: soundCount, exponent: 0.75, cap: 1e5)
    let videos = clampedCount(boost * generator.nextLogNormal(mu: log(20.0), sigma: 1.5))
    return Sound(
      id: UTF8Text.makeID(UInt8(ascii: "s"), ordinal + 1, scratch: &scratch), title: title,
      artist: artist, videoCount: videos)
  }

  /// An artist name of one or two capitalized tail words (`Kavo Mirel`): tail words, not the
  /// real-word head, so that they read as names.
  private func makeArtistName(using generator: inout SplitMix64) -> String {
    let latin = vocabulary.ranksByScript[Int(WordScript.latin.rawValue)]
    let headCount = Swift.min(Lexicon.latinHead.count, latin.count - 1)
    var name = ""
    for index in 0..<(generator.chance(0.7) ? 2 : 1) {
      if index > 0 { name += " " }
      let rank = latin[generator.nextInt(in: headCount...(latin.count - 1))]
      name += vocabulary[Int(rank)].capitalized
    }
    return name
  }
}
