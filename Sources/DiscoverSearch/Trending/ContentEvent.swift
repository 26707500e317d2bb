import Foundation

/// One thing a user did to a video, as ``TrendingContent`` records it: the input of every
/// trending content list.
///
/// The time is part of the event, never read from a clock: events may arrive late and out
/// of order and still get their exact weight (see ``TrendingContent``).
public struct ContentEvent: Sendable, Hashable {
  /// What happened.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The user watched the video.
    case view
    /// The user liked the video.
    case like
    /// The user shared the video.
    case share
    /// The user, its creator, posted the video; ``hashtags``, ``sound`` and ``effect`` say
    /// what it uses.
    case post
  }

  /// What happened.
  public var kind: Kind
  /// The video's id.
  public var videoID: String
  /// The user who watched, liked or shared it; for a ``Kind/post``, its creator.
  public var userID: String
  /// When it happened.
  public var time: Date
  /// The region it happened in (a country code such as `US`), or `nil`.
  public var region: String?
  /// For a post, the hashtags the video uses, as written (`DanceChallenge`); empty for the
  /// other kinds, or for a post of a video the index already holds.
  public var hashtags: [String]
  /// For a post, the id of the sound the video uses.
  public var sound: String?
  /// For a post, the id of the effect the video uses.
  public var effect: String?

  /// Creates an event.
  ///
  /// - Parameters:
  ///   - kind: What happened.
  ///   - videoID: The video's id.
  ///   - userID: The viewer, liker or sharer; for a post, the creator.
  ///   - time: When it happened.
  ///   - region: The region, or `nil`.
  ///   - hashtags: For a post, the hashtags the video uses.
  ///   - sound: For a post, the sound's id.
  ///   - effect: For a post, the effect's id.
  public init(
    _ kind: Kind, video videoID: String, user userID: String, at time: Date,
    region: String? = nil, hashtags: [String] = [], sound: String? = nil,
    effect: String? = nil
  ) {
    self.kind = kind
    self.videoID = videoID
    self.userID = userID
    self.time = time
    self.region = region
    self.hashtags = hashtags
    self.sound = sound
    self.effect = effect
  }
}
