/// One document of any of the four searchable content types, or an effect.
public enum Document: Sendable, Hashable {
  /// A short video.
  case video(Video)
  /// A creator account.
  case user(User)
  /// A hashtag page.
  case hashtag(Hashtag)
  /// A sound that videos use.
  case sound(Sound)
  /// A camera effect that videos use; stored for the trending lists, never searched.
  case effect(Effect)

  /// The document's identifier.
  public var id: String {
    switch self {
    case .video(let video): video.id
    case .user(let user): user.id
    case .hashtag(let hashtag): hashtag.id
    case .sound(let sound): sound.id
    case .effect(let effect): effect.id
    }
  }

  /// The document's searchable content type, or `nil` for an ``Effect``.
  ///
  /// Effects are not searched (there is no effect tab), so no ``SearchResultType`` describes
  /// one; switch over the document itself to tell effects apart.
  public var type: SearchResultType? { kind.searchResultType }
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
