/// The five kinds of document: the four that searches return, and effects, which only the
/// trending lists name.
///
/// Internal: the public API names searchable types with ``SearchResultType`` and effects
/// with ``Effect``. The raw value is the corpus format's `type`.
enum DocumentKind: String, Sendable, Hashable, CaseIterable {
  case video, user, hashtag, sound, effect

  /// The kind of documents of a searchable type.
  init(_ type: SearchResultType) {
    switch type {
    case .video: self = .video
    case .user: self = .user
    case .hashtag: self = .hashtag
    case .sound: self = .sound
    }
  }

  /// The searchable type of this kind; `nil` for effects.
  var searchResultType: SearchResultType? {
    switch self {
    case .video: .video
    case .user: .user
    case .hashtag: .hashtag
    case .sound: .sound
    case .effect: nil
    }
  }

  /// The kind's name after an indefinite article, for messages: `a video`, `an effect`.
  var nameWithArticle: String {
    self == .effect ? "an effect" : "a \(rawValue)"
  }

  /// A dense index (0 to 4) for per-kind arrays: a searchable type's
  /// ``SearchResultType/index``, then 4 for effects.
  var index: Int {
    switch self {
    case .video: 0
    case .user: 1
    case .hashtag: 2
    case .sound: 3
    case .effect: 4
    }
  }
}

extension Document {
  /// The document's kind, effects included.
  var kind: DocumentKind {
    switch self {
    case .video: .video
    case .user: .user
    case .hashtag: .hashtag
    case .sound: .sound
    case .effect: .effect
    }
  }
}
