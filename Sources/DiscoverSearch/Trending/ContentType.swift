/// The four kinds of content that trend; the app's `ContentType`.
///
/// Apart from ``SearchResultType``: effects trend but are not searched, and users are
/// searched but do not trend.
public enum ContentType: String, Sendable, Hashable, Codable, CaseIterable {
  /// A ``Video``, keyed by its id.
  case video
  /// A hashtag, keyed by its folded name (`DanceChallenge` and `dancechallenge` are one);
  /// listed under the id of the ``Hashtag`` document of that name.
  case hashtag
  /// A ``Sound``, keyed by its id.
  case sound
  /// An ``Effect``, keyed by its id.
  case effect

  /// A dense index (0 to 3) for per-type arrays.
  var index: Int {
    switch self {
    case .video: 0
    case .hashtag: 1
    case .sound: 2
    case .effect: 3
    }
  }
}
