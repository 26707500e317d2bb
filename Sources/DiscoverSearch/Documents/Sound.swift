/// A sound (song or original audio) that videos use.
public struct Sound: Sendable, Hashable, Codable {
  /// The caller's identifier, unique among all documents of every type.
  public var id: String
  /// The sound's title.
  public var title: String
  /// The performer or the account that made the sound.
  public var artist: String?
  /// How many videos use the sound.
  public var videoCount: Int

  /// Creates a sound.
  public init(id: String, title: String, artist: String? = nil, videoCount: Int = 0) {
    self.id = id
    self.title = title
    self.artist = artist
    self.videoCount = videoCount
  }
}
