/// The Discover search segments: which kinds of results a search returns.
public enum SearchTab: String, Sendable, Hashable, Codable, CaseIterable {
  /// Every type, merged in one ranking by score.
  case top
  /// Accounts only.
  case users
  /// Videos only.
  case videos
  /// Sounds only.
  case sounds
  /// Hashtags only.
  case hashtags

  /// The result types this tab shows.
  public var resultTypes: [SearchResultType] {
    switch self {
    case .top: [.video, .user, .hashtag, .sound]
    case .users: [.user]
    case .videos: [.video]
    case .sounds: [.sound]
    case .hashtags: [.hashtag]
    }
  }
}
