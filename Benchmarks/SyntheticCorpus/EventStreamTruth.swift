import DiscoverSearch
import Foundation

/// What a ``SyntheticEventStream`` planted, so that a benchmark can judge trending lists
/// against the truth rather than against another heuristic.
package struct EventStreamTruth: Sendable, Hashable {
  /// The planted risers, by burst start: each should reach its trending list soon after its
  /// burst starts.
  package var risers: [PlantedRiser]
  /// The bot bursts, by start: their videos must never be flagged rising.
  package var bots: [PlantedBotBurst]
  /// The corpus videos that keep a constant high rate all along (the head of the popularity
  /// ranking): popular, but never rising.
  package var steadyVideoIDs: [String]

  /// Creates a record of planted content.
  package init(risers: [PlantedRiser], bots: [PlantedBotBurst], steadyVideoIDs: [String]) {
    self.risers = risers
    self.bots = bots
    self.steadyVideoIDs = steadyVideoIDs
  }
}

/// One planted riser: a video whose views jump, or a wave of new videos using one hashtag,
/// sound or effect.
package struct PlantedRiser: Sendable, Hashable {
  /// The list it should rise in.
  package var type: ContentType
  /// Its key in that list: a video's or sound's or effect's id, or a hashtag's name folded
  /// with `Analyzer.fold(_:)` (`DanceChallenge` gives `dancechallenge`).
  package var key: String
  /// For a hashtag, the id of the hashtag document of that name; `nil` for the other types.
  package var hashtagDocumentID: String?
  /// When its burst starts: a whole simulated minute, at or before its first planted event.
  package var burstStart: Date
  /// How long the burst keeps its peak rate before it decays.
  package var peakDuration: TimeInterval
  /// The peak rate of the burst, in events per simulated minute.
  package var peakEventsPerMinute: Int
  /// How many events the burst adds to the stream (views, likes, shares and, for a wave,
  /// posts).
  package var eventCount: Int

  /// Creates a planted riser.
  package init(
    type: ContentType, key: String, hashtagDocumentID: String? = nil, burstStart: Date,
    peakDuration: TimeInterval, peakEventsPerMinute: Int, eventCount: Int
  ) {
    self.type = type
    self.key = key
    self.hashtagDocumentID = hashtagDocumentID
    self.burstStart = burstStart
    self.peakDuration = peakDuration
    self.peakEventsPerMinute = peakEventsPerMinute
    self.eventCount = eventCount
  }
}

/// One planted bot burst: a few accounts viewing one video thousands of times in minutes.
package struct PlantedBotBurst: Sendable, Hashable {
  /// The id of the corpus video the bots view.
  package var videoID: String
  /// The bots' user ids (`bot1`, ...), one to three of them.
  package var botUserIDs: [String]
  /// When the burst starts: a whole simulated minute.
  package var start: Date
  /// How long it lasts.
  package var duration: TimeInterval
  /// How many views it adds.
  package var viewCount: Int

  /// Creates a planted bot burst.
  package init(
    videoID: String, botUserIDs: [String], start: Date, duration: TimeInterval, viewCount: Int
  ) {
    self.videoID = videoID
    self.botUserIDs = botUserIDs
    self.start = start
    self.duration = duration
    self.viewCount = viewCount
  }
}
