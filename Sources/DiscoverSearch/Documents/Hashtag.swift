/// A hashtag page (a "challenge" when it is featured).
public struct Hashtag: Sendable, Hashable, Codable {
  /// The caller's identifier, unique among all documents of every type.
  public var id: String
  /// The tag without its `#` (`dancechallenge` or `DanceChallenge`).
  public var name: String
  /// The challenge description; searchable, not stored for display.
  public var description: String?
  /// Total views of the videos using the tag.
  public var viewCount: Int
  /// How many videos use the tag.
  public var videoCount: Int

  /// Creates a hashtag.
  public init(
    id: String, name: String, description: String? = nil, viewCount: Int = 0, videoCount: Int = 0
  ) {
    self.id = id
    self.name = name
    self.description = description
    self.viewCount = viewCount
    self.videoCount = videoCount
  }
}
