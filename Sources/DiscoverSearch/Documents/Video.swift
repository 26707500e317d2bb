import Foundation

/// A short video, the main content of the Discover page.
///
/// Field names follow the corpus format (``CorpusLoader``, and README.md). Counts are
/// non-negative; the loader rejects negative ones.
public struct Video: Sendable, Hashable, Codable {
  /// The caller's identifier, unique among all documents of every type.
  public var id: String
  /// The title shown on the video card; searchable and highlighted.
  public var title: String
  /// The longer description; searchable, not stored for display.
  public var description: String?
  /// Hashtags without the leading `#`, as the creator wrote them (`DanceChallenge`).
  public var hashtags: [String]
  /// The id of the ``User`` who posted the video.
  public var creator: String?
  /// The id of the ``Sound`` the video uses.
  public var sound: String?
  /// The id of the ``Effect`` the video uses.
  public var effect: String?
  /// How many times the video was watched.
  public var viewCount: Int
  /// How many likes the video has.
  public var likeCount: Int
  /// When the video was posted.
  public var createdAt: Date?
  /// The thumbnail image URL.
  public var thumbnailURL: String?

  /// Creates a video.
  public init(
    id: String, title: String, description: String? = nil, hashtags: [String] = [],
    creator: String? = nil, sound: String? = nil, effect: String? = nil, viewCount: Int = 0,
    likeCount: Int = 0, createdAt: Date? = nil, thumbnailURL: String? = nil
  ) {
    self.id = id
    self.title = title
    self.description = description
    self.hashtags = hashtags
    self.creator = creator
    self.sound = sound
    self.effect = effect
    self.viewCount = viewCount
    self.likeCount = likeCount
    self.createdAt = createdAt
    self.thumbnailURL = thumbnailURL
  }
}
