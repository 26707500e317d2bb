import DiscoverSearch
import Foundation

/// How videos are made. Every number below is a modelling choice, named and explained once.
extension SyntheticCorpus {
  /// `μ` of the lognormal view count: `ln 5,000`, so the median video has 5,000 views.
  static let viewCountMu = log(5_000.0)
  /// `σ` of the lognormal view count. With 2.2 the top video of a million has about 170 million
  /// views (z ≈ 4.75), and of ten million about 600 million: a heavy tail, as on real apps.
  static let viewCountSigma = 2.2
  /// `μ` of the lognormal like rate (likes per view): `ln 0.04`, a median of 4%.
  static let likeRateMu = log(0.04)
  /// `σ` of the lognormal like rate; rates are capped at 60%.
  static let likeRateSigma = 0.7
  /// Creator skew: `nextSkewedIndex(power: 3)`; the first 1% of users post 22% of videos.
  static let creatorSkew = 3.0
  /// Sound skew: `nextSkewedIndex(power: 4)`; the first 1% of sounds back 32% of videos.
  static let soundSkew = 4.0
  /// The share of videos that use a sound.
  static let soundUseRate = 0.8
  /// Hashtags per video: 0, 1, 2, 3, 4, 5 with these weights (mean 2.3).
  static let hashtagCountWeights: [Double] = [0.15, 0.20, 0.20, 0.20, 0.15, 0.10]
  /// Single-script titles: scripts and shares of all videos whose whole title is written in one
  /// non-Latin script (8% in all), as real Japanese, Chinese, Korean or Thai titles are.
  static let singleScriptTitles: [(WordScript, Double)] = [
    (.japanese, 0.03), (.chinese, 0.015), (.korean, 0.015), (.thai, 0.01), (.cyrillic, 0.01),
  ]

  func makeVideo(
    ordinal: Int, position: Int, using generator: inout SplitMix64, scratch: inout [UInt8]
  ) -> Video {
    let id = UTF8Text.makeID(UInt8(ascii: "v"), ordinal + 1, scratch: &scratch)
    let usersBefore = layout.count(ofType: 1, before: position)
    let soundsBefore = layout.count(ofType: 3, before: position)
    let creator = generator.nextSkewedIndex(below: usersBefore, power: Self.creatorSkew)

    var script: WordScript? = nil
    var roll = generator.nextUnit()
    for (candidate, share) in Self.singleScriptTitles {
      if roll < share {
        script = candidate
        break
      }
      roll -= share
    }

    let hashtags = makeVideoHashtags(using: &generator)
    let title = makeTitle(
      script: script, hashtags: hashtags, users: usersBefore, using: &generator,
      scratch: &scratch)
    let description =
      generator.chance(0.3)
      ? nil
      : makeDescription(script: script, users: usersBefore, using: &generator, scratch: &scratch)
    var sound: String? = nil
    if generator.chance(Self.soundUseRate) {
      let soundOrdinal = generator.nextSkewedIndex(below: soundsBefore, power: Self.soundSkew)
      sound = UTF8Text.makeID(UInt8(ascii: "s"), soundOrdinal + 1, scratch: &scratch)
    }
    let views = clampedCount(
      generator.nextLogNormal(mu: Self.viewCountMu, sigma: Self.viewCountSigma))
    let likeRate = Swift.min(
      0.6, generator.nextLogNormal(mu: Self.likeRateMu, sigma: Self.likeRateSigma))
    // Dates: `age = span * u^1.5` for uniform `u`, so recent days hold more videos (the newest
    // tenth of the year holds about 22% of them) and all fall in the year before the reference.
    let unit = generator.nextUnit()
    let age = Int(Double(Self.dateSpanSeconds) * unit * unit.squareRoot())
    let start = scratch.count
    scratch.append(contentsOf: "https://cdn.example.com/t/".utf8)
    scratch.append(contentsOf: id.utf8)
    scratch.append(contentsOf: ".jpg".utf8)
    let thumbnailURL = UTF8Text.string(from: scratch, startingAt: start)
    return Video(
      id: id, title: title, description: description, hashtags: hashtags,
      creator: UTF8Text.makeID(UInt8(ascii: "u"), creator + 1, scratch: &scratch), sound: sound,
      viewCount: views, likeCount: clampedCount(Double(views) * likeRate),
      createdAt: Date(timeIntervalSince1970: Double(Self.referenceSeconds - age)),
      thumbnailURL: thumbnailURL)
  }

  /// 0 to 5 distinct tags, Zipf-distributed; a quarter of camel-case tags are typed lower-case.
  private func makeVideoHashtags(using generator: inout SplitMix64) -> [String] {
    var roll = generator.nextUnit()
    var count = Self.hashtagCountWeights.count - 1
    for (index, weight) in Self.hashtagCountWeights.enumerated() {
      if roll < weight {
        count = index
        break
      }
      roll -= weight
    }
    guard count > 0 else { return [] }
    var ranks: [Int] = []
    ranks.reserveCapacity(count)
    var attempts = 0
    while ranks.count < count && attempts < 20 {
      attempts += 1
      let rank = hashtagVocabulary.sampleRank(using: &generator)
      if !ranks.contains(rank) { ranks.append(rank) }
    }
    return ranks.map { rank in
      generator.chance(0.25)
        ? hashtagVocabulary.lowercasedNames[rank] : hashtagVocabulary.names[rank]
    }
  }

  /// A title of 3 to 10 words: sentence case (60%), lower case (20%), Title Case (12%) or with
  /// one word shouted in capitals (8%); sometimes a ` | ` or ` - ` break, closing punctuation,
  /// a trailing emoji, an `@mention` or a `#tag`. Words of a spaceless script (Japanese,
  /// Chinese, Thai) run together 70% of the time, as in real titles.
  ///
  /// Text is built as UTF-8 bytes from the vocabulary's byte arena into `scratch` and turned
  /// into a `String` once (see ``UTF8Text``).
  private func makeTitle(
    script: WordScript?, hashtags: [String], users: Int, using generator: inout SplitMix64,
    scratch bytes: inout [UInt8]
  ) -> String {
    let start = bytes.count
    let wordCount = generator.nextInt(in: 3...10)
    let style = generator.nextUnit()
    let breakAt = generator.chance(0.08) ? generator.nextInt(in: 1...(wordCount - 1)) : -1
    let shoutAt = style >= 0.92 ? generator.nextInt(below: wordCount) : -1
    var previousSpaceless = false
    for index in 0..<wordCount {
      let rank = sampleWordRank(script: script, using: &generator)
      let wordScript = vocabulary.spans[rank].script
      if index == breakAt {
        bytes.append(contentsOf: generator.chance(0.5) ? " | ".utf8 : " - ".utf8)
      } else if index > 0
        && !(previousSpaceless && wordScript.isSpaceless && generator.chance(0.7))
      {
        bytes.append(0x20)
      }
      previousSpaceless = wordScript.isSpaceless
      if index == shoutAt && wordScript == .latin {
        bytes.append(contentsOf: vocabulary[rank].word.uppercased().utf8)
      } else {
        let capitalized = (index == 0 && style < 0.6) || (style >= 0.8 && style < 0.92)
        vocabulary.appendWord(rank, capitalized: capitalized, to: &bytes)
      }
    }
    let ending = generator.nextUnit()
    if ending < 0.10 {
      bytes.append(UInt8(ascii: "!"))
    } else if ending < 0.14 {
      bytes.append(UInt8(ascii: "?"))
    } else if ending < 0.17 {
      bytes.append(contentsOf: "...".utf8)
    }
    if generator.chance(0.12) {
      bytes.append(0x20)
      let emoji = vocabulary.sampleRank(in: .emoji, using: &generator)
      vocabulary.appendWord(emoji, capitalized: false, to: &bytes)
    }
    if generator.chance(0.05) {
      let mentioned = generator.nextSkewedIndex(below: users, power: Self.creatorSkew)
      bytes.append(contentsOf: generator.chance(0.5) ? " with @".utf8 : " ft. @".utf8)
      usernames.appendUsername(ofUser: mentioned, to: &bytes)
    }
    if generator.chance(0.10) {
      let tag =
        hashtags.first ?? hashtagVocabulary.names[hashtagVocabulary.sampleRank(using: &generator)]
      bytes.append(contentsOf: " #".utf8)
      bytes.append(contentsOf: tag.utf8)
    }
    return UTF8Text.string(from: bytes, startingAt: start)
  }

  /// A description of 1 to 25 words in sentences, with occasional `#tags` (3% of words),
  /// `@mentions` (1.5%), numbers (2%) and, for one description in ten, a closing URL.
  private func makeDescription(
    script: WordScript?, users: Int, using generator: inout SplitMix64,
    scratch bytes: inout [UInt8]
  ) -> String {
    let wordCount = generator.nextInt(in: 1...25)
    let start = bytes.count
    var startsSentence = true
    var previousSpaceless = false
    for index in 0..<wordCount {
      let roll = generator.nextUnit()
      var spaceless = false
      if roll < 0.03 {
        if index > 0 { bytes.append(0x20) }
        bytes.append(UInt8(ascii: "#"))
        let tag = hashtagVocabulary.sampleRank(using: &generator)
        bytes.append(contentsOf: hashtagVocabulary.names[tag].utf8)
      } else if roll < 0.045 {
        if index > 0 { bytes.append(0x20) }
        let mentioned = generator.nextSkewedIndex(below: users, power: Self.creatorSkew)
        bytes.append(UInt8(ascii: "@"))
        usernames.appendUsername(ofUser: mentioned, to: &bytes)
      } else if roll < 0.065 {
        if index > 0 { bytes.append(0x20) }
        UTF8Text.appendDecimal(generator.nextSkewedIndex(below: 2_027, power: 2), to: &bytes)
      } else {
        let rank = sampleWordRank(script: script, using: &generator)
        spaceless = vocabulary.spans[rank].script.isSpaceless
        // Two words of a spaceless script run together 70% of the time.
        if index > 0 && !(spaceless && previousSpaceless && generator.chance(0.7)) {
          bytes.append(0x20)
        }
        vocabulary.appendWord(rank, capitalized: startsSentence, to: &bytes)
      }
      previousSpaceless = spaceless
      startsSentence = false
      if index < wordCount - 1 && generator.chance(0.1) {
        bytes.append(generator.chance(0.7) ? UInt8(ascii: ".") : UInt8(ascii: "!"))
        startsSentence = true
        previousSpaceless = false
      }
    }
    if generator.chance(0.1) {
      bytes.append(contentsOf: " https://example.com/".utf8)
      vocabulary.appendWord(
        vocabulary.sampleRank(in: .latin, using: &generator), capitalized: false, to: &bytes)
    }
    return UTF8Text.string(from: bytes, startingAt: start)
  }

  /// A word rank from the whole vocabulary, or from one script for single-script text.
  func sampleWordRank(script: WordScript?, using generator: inout SplitMix64) -> Int {
    if let script { return vocabulary.sampleRank(in: script, using: &generator) }
    return vocabulary.sampleRank(using: &generator)
  }
}
