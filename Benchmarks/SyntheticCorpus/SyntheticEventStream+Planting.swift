import DiscoverSearch
import Foundation

/// What the stream plants, decided once when it is made: the risers, the bot bursts, the
/// steady hits, and how many events each burst adds in each simulated minute.
extension SyntheticEventStream {
  /// One planted burst: where its events go and how many fall in each minute from its start.
  struct Burst: Sendable {
    /// What the burst's events are about.
    enum Source: Sendable {
      /// Views, likes and shares of one corpus video, by many distinct users.
      case video(id: String)
      /// New videos tagged with one corpus hashtag (its name as the document writes it), by
      /// many distinct creators, and views of them.
      case hashtagWave(name: String)
      /// New videos using one sound, and views of them.
      case soundWave(id: String)
      /// New videos using one effect, and views of them.
      case effectWave(id: String)
      /// Views of one corpus video by one to three bots, each with a fixed region.
      case bots(videoID: String, userIDs: [String], regions: [String?])
    }

    var source: Source
    var startMinute: Int
    /// The rate the burst starts at, in events a minute, and how many minutes it holds it.
    var peakRate: Double
    var peakMinutes: Int
    /// Events in each minute from ``startMinute`` on.
    var minuteCounts: [Int]

    var endMinute: Int { startMinute + minuteCounts.count }
    var eventCount: Int { minuteCounts.reduce(0, +) }
  }

  /// The planted bursts, the truth about them, and how many events they add in all.
  struct Plan: Sendable {
    var bursts: [Burst]
    var truth: EventStreamTruth
    var plantedEventCount: Int
  }

  /// Makes the ``Plan`` of a stream from its own generator, apart from the events' one.
  struct Planner {
    /// From this much traffic on, in events a minute, the full mix is planted; below it,
    /// proportionally fewer. It is the rate whose least peak share (3%) reaches the least
    /// peak (8 a minute): below it the least peak would take a growing share of the stream
    /// and change its composition. Over three days, 1.15 million events.
    static let fullPlantingRate = minimumPeakRate / peakShares.lowerBound
    /// The full mix of risers: 20 videos, 8 hashtag waves, 6 sound waves, 6 effect waves.
    static let riserMix: [(type: ContentType, count: Int)] = [
      (.video, 20), (.hashtag, 8), (.sound, 6), (.effect, 6),
    ]
    /// The full number of bot bursts.
    static let botBurstCount = 10
    /// The head of the popularity ranking recorded as steady hits.
    static let steadyVideoCount = 20
    /// Risers are drawn from video ranks at or past this, and hashtag and sound waves from
    /// ranks past ``leastWaveRank``, so none is popular to begin with.
    static let leastRiserRank = 200
    static let leastWaveRank = 50
    /// Effect waves use effects past the head of the effect ranking.
    static let leastEffectWaveRank = 20
    /// How long a burst holds its peak, in minutes; then it decays as `exp(-t / 10 min)` for
    /// 40 minutes (four time constants, down to 2% of the peak).
    static let peakMinutes = 30...120
    static let decayTimeConstant = 10.0
    static let decayMinutes = 40
    /// A video riser's rate jumps this many times its background rate...
    static let jumpFactors = 30.0...100.0
    /// ...or to this share of all traffic, whichever is more (an obscure video's 100 times
    /// nothing is still nothing), capped at ``maximumPeakShare``. Waves take the share alone.
    static let peakShares = 0.03...0.06
    static let maximumPeakShare = 0.15
    /// The least peak, in events a minute: 40 events in the first five minutes, tens of
    /// distinct users, even in a small stream.
    static let minimumPeakRate = 8.0
    /// Planted bursts never take more than this share of the stream: small streams plant less.
    static let plantedShareLimit = 0.25
    /// A bot burst lasts this many minutes, with this many bots.
    static let botMinutes = 2...5
    static let botsPerBurst = 1...3

    let ranked: RankedCorpus
    let soundIDs: [String]
    let effectIDs: [String]
    let eventCount: Int
    let totalMinutes: Int
    let startSeconds: TimeInterval
    /// The sum of the Zipf weights of all video ranks, which turns a weight into a share.
    let videoWeightTotal: Double
    var generator: Xoshiro256StarStar
    var usedVideoRanks: Set<Int> = []

    init(
      ranked: RankedCorpus, soundIDs: [String], effectIDs: [String], eventCount: Int,
      totalMinutes: Int, startSeconds: TimeInterval, seed: UInt64
    ) {
      self.ranked = ranked
      self.soundIDs = soundIDs
      self.effectIDs = effectIDs
      self.eventCount = eventCount
      self.totalMinutes = totalMinutes
      self.startSeconds = startSeconds
      self.generator = Xoshiro256StarStar(seed: SplitMix64.mix(seed ^ 0x91A27))
      self.videoWeightTotal = (0..<ranked.videos.count).reduce(0) {
        $0 + AliasTable.zipfWeight(rank: $1, exponent: SyntheticEventStream.videoExponent)
      }
    }

    /// All traffic, in events per simulated minute.
    var totalRate: Double { Double(eventCount) / Double(totalMinutes) }
    /// The steady head: up to 20 videos, and never more than a fifth of a small corpus.
    var steadyCount: Int { Swift.min(Self.steadyVideoCount, ranked.videos.count / 5) }
    /// The first video rank a riser or bot target may have.
    var leastRiserRank: Int {
      Swift.max(steadyCount, Swift.min(Self.leastRiserRank, ranked.videos.count / 5))
    }
    /// Bursts start after the first day (after half the span of a one-day stream), so a
    /// baseline exists, and at least 30 minutes before the end.
    var burstWindow: ClosedRange<Int> {
      let first =
        totalMinutes >= 2 * SyntheticEventStream.minutesPerDay
        ? SyntheticEventStream.minutesPerDay : totalMinutes / 2
      return first...Swift.max(first, totalMinutes - 30)
    }

    mutating func makePlan() -> Plan {
      let scale = Swift.min(1, totalRate / Self.fullPlantingRate)
      var bursts = makeRisers(scale: scale) + makeBotBursts(scale: scale)
      bursts.sort { $0.startMinute < $1.startMinute }
      var planted = bursts.reduce(0) { $0 + $1.eventCount }
      while planted > Int(Double(eventCount) * Self.plantedShareLimit), let last = bursts.last {
        planted -= last.eventCount
        bursts.removeLast()
      }
      return Plan(bursts: bursts, truth: makeTruth(of: bursts), plantedEventCount: planted)
    }

    private mutating func makeRisers(scale: Double) -> [Burst] {
      var sources: [Burst.Source] = []
      var peaks: [Double] = []
      for (type, fullCount) in Self.riserMix {
        let count = Int((Double(fullCount) * scale).rounded())
        switch type {
        case .video:
          for rank in pickRiserVideoRanks(count: count) {
            sources.append(.video(id: ranked.videoIDs[rank]))
            peaks.append(videoPeakRate(rank: rank))
          }
        case .hashtag:
          for name in pickWaveHashtags(count: count) {
            sources.append(.hashtagWave(name: name))
            peaks.append(wavePeakRate())
          }
        case .sound:
          for id in pickWaveSounds(count: count) {
            sources.append(.soundWave(id: id))
            peaks.append(wavePeakRate())
          }
        case .effect:
          let candidates = Array(effectIDs.dropFirst(Self.leastEffectWaveRank))
          for id in pickDistinct(count, from: candidates) {
            sources.append(.effectWave(id: id))
            peaks.append(wavePeakRate())
          }
        }
      }
      // Interleave the types over time: a shuffled order, then one start per stratum of the
      // window, so that risers are spread over the days rather than clustered.
      let order = makeShuffledLabels(
        Array(sources.indices), counts: Array(repeating: 1, count: sources.count),
        using: &generator)
      let starts = makeStratifiedStarts(count: order.count)
      return zip(order, starts).map { index, start in
        let hold = generator.nextInt(in: Self.peakMinutes)
        return Burst(
          source: sources[index], startMinute: start, peakRate: peaks[index], peakMinutes: hold,
          minuteCounts: makeProfile(peak: peaks[index], peakMinutes: hold, startMinute: start))
      }
    }

    private mutating func makeBotBursts(scale: Double) -> [Burst] {
      let count = Int((Double(Self.botBurstCount) * scale).rounded())
      let videoCount = ranked.videos.count
      let least = Swift.max(leastRiserRank, videoCount / 4)
      // Thousands of views at any size: one per 2,000 events, at least 1,000 (or one per 200
      // events in a stream too small for that).
      let views = Swift.max(eventCount / 2_000, Swift.min(1_000, eventCount / 200))
      let table = AliasTable(weights: SyntheticEventStream.regionWeights)
      var nextBot = 1
      var bursts: [Burst] = []
      for start in makeStratifiedStarts(count: count) {
        guard let rank = pickUnusedVideoRank(in: least..<videoCount, logUniform: false) else {
          break
        }
        let botCount = generator.nextInt(in: Self.botsPerBurst)
        let users = (nextBot..<nextBot + botCount).map { "bot\($0)" }
        nextBot += botCount
        let regions = users.map { _ in
          SyntheticEventStream.regions[table.sample(using: &generator)]
        }
        let minutes = Swift.min(generator.nextInt(in: Self.botMinutes), totalMinutes - start)
        let counts = (0..<minutes).map { views * ($0 + 1) / minutes - views * $0 / minutes }
        bursts.append(
          Burst(
            source: .bots(videoID: ranked.videoIDs[rank], userIDs: users, regions: regions),
            startMinute: start, peakRate: Double(views) / Double(minutes), peakMinutes: minutes,
            minuteCounts: counts))
      }
      return bursts
    }

    private func makeTruth(of bursts: [Burst]) -> EventStreamTruth {
      var risers: [PlantedRiser] = []
      var bots: [PlantedBotBurst] = []
      let hashtagIDs = Dictionary(
        ranked.hashtags.map { ($0.name, $0.id) }, uniquingKeysWith: { first, _ in first })
      for burst in bursts {
        let start = Date(
          timeIntervalSinceReferenceDate: startSeconds + Double(burst.startMinute) * 60)
        func riser(_ type: ContentType, _ key: String, _ hashtagID: String? = nil) -> PlantedRiser {
          PlantedRiser(
            type: type, key: key, hashtagDocumentID: hashtagID, burstStart: start,
            peakDuration: Double(burst.peakMinutes) * 60,
            peakEventsPerMinute: Int(burst.peakRate.rounded()),
            eventCount: burst.eventCount)
        }
        switch burst.source {
        case .video(let id): risers.append(riser(.video, id))
        case .hashtagWave(let name):
          risers.append(riser(.hashtag, Analyzer.fold(name), hashtagIDs[name]))
        case .soundWave(let id): risers.append(riser(.sound, id))
        case .effectWave(let id): risers.append(riser(.effect, id))
        case .bots(let videoID, let userIDs, _):
          bots.append(
            PlantedBotBurst(
              videoID: videoID, botUserIDs: userIDs, start: start,
              duration: Double(burst.minuteCounts.count) * 60, viewCount: burst.eventCount))
        }
      }
      return EventStreamTruth(
        risers: risers, bots: bots, steadyVideoIDs: Array(ranked.videoIDs.prefix(steadyCount)))
    }
  }
}
