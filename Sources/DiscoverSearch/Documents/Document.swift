/// One document of any of the four content types.
public enum Document: Sendable, Hashable {
  /// A short video.
  case video(Video)
  /// A creator account.
  case user(User)
  /// A hashtag page.
  case hashtag(Hashtag)
  /// A sound that videos use.
  case sound(Sound)

  /// The document's identifier.
  public var id: String {
    switch self {
    case .video(let video): video.id
    case .user(let user): user.id
    case .hashtag(let hashtag): hashtag.id
    case .sound(let sound): sound.id
    }
  }

  /// The document's content type.
  public var type: SearchResultType {
    switch self {
    case .video: .video
    case .user: .user
    case .hashtag: .hashtag
    case .sound: .sound
    }
  }
}

/// The four content types a search can return; the app's `SearchResultType`.
public enum SearchResultType: String, Sendable, Hashable, Codable, CaseIterable {
  /// A ``Video``.
  case video
  /// A ``User``.
  case user
  /// A ``Hashtag``.
  case hashtag
  /// A ``Sound``.
  case sound

  /// A dense index (0 to 3) for per-type arrays.
  @inlinable
  public var index: Int {
    switch self {
    case .video: 0
    case .user: 1
    case .hashtag: 2
    case .sound: 3
    }
  }
}
