import Foundation

/// One hit, shaped for a result card in the app's Discover screen.
public struct SearchResult: Sendable, Hashable, Identifiable {
  /// The document's id.
  public var id: String
  /// What the hit is.
  public var type: SearchResultType
  /// The card's title: a video title, a username, a hashtag name or a sound title.
  public var title: String
  /// The line under the title: a video's creator, a user's display name, a sound's artist.
  public var subtitle: String?
  /// The image to show, when the document has one.
  public var thumbnailURL: String?
  /// The numbers and references of the hit, by type.
  public var metadata: SearchResultMetadata
  /// Where the query matched in ``title``.
  public var highlights: [HighlightRange]
  /// The ranking score (comparable among results of one type in one response).
  public var score: Double
  /// Why the hit scored ``score``, when the search was asked to explain.
  public var explanation: ScoreExplanation?

  /// Creates a result (for previews and tests; searches make their own).
  public init(
    id: String, type: SearchResultType, title: String, subtitle: String? = nil,
    thumbnailURL: String? = nil, metadata: SearchResultMetadata,
    highlights: [HighlightRange] = [], score: Double = 0
  ) {
    self.id = id
    self.type = type
    self.title = title
    self.subtitle = subtitle
    self.thumbnailURL = thumbnailURL
    self.metadata = metadata
    self.highlights = highlights
    self.score = score
  }
}

/// Typed details of a ``SearchResult``, replacing the app's untyped `[String: Any]`.
public enum SearchResultMetadata: Sendable, Hashable {
  /// Details of a video.
  case video(VideoMetadata)
  /// Details of a user.
  case user(UserMetadata)
  /// Details of a hashtag.
  case hashtag(HashtagMetadata)
  /// Details of a sound.
  case sound(SoundMetadata)
}

/// Details of a video hit.
public struct VideoMetadata: Sendable, Hashable {
  /// How many times the video was watched.
  public var viewCount: Int
  /// How many likes it has.
  public var likeCount: Int
  /// When it was posted, to the second.
  public var createdAt: Date?
  /// The creator's id.
  public var creatorID: String?
  /// The creator's username, when the creator is in the index.
  public var creatorUsername: String?
  /// The sound's id.
  public var soundID: String?
  /// The sound's title, when the sound is in the index.
  public var soundTitle: String?

  /// Creates video details.
  public init(
    viewCount: Int = 0, likeCount: Int = 0, createdAt: Date? = nil, creatorID: String? = nil,
    creatorUsername: String? = nil, soundID: String? = nil, soundTitle: String? = nil
  ) {
    self.viewCount = viewCount
    self.likeCount = likeCount
    self.createdAt = createdAt
    self.creatorID = creatorID
    self.creatorUsername = creatorUsername
    self.soundID = soundID
    self.soundTitle = soundTitle
  }
}

/// Details of a user hit.
public struct UserMetadata: Sendable, Hashable {
  /// The name shown on the profile.
  public var displayName: String?
  /// How many accounts follow this one.
  public var followerCount: Int
  /// How many of the user's videos the index holds.
  public var videoCount: Int
  /// Whether the account is verified.
  public var isVerified: Bool

  /// Creates user details.
  public init(
    displayName: String? = nil, followerCount: Int = 0, videoCount: Int = 0,
    isVerified: Bool = false
  ) {
    self.displayName = displayName
    self.followerCount = followerCount
    self.videoCount = videoCount
    self.isVerified = isVerified
  }
}

/// Details of a hashtag hit.
public struct HashtagMetadata: Sendable, Hashable {
  /// Total views of the videos using the tag.
  public var viewCount: Int
  /// How many videos use the tag.
  public var videoCount: Int

  /// Creates hashtag details.
  public init(viewCount: Int = 0, videoCount: Int = 0) {
    self.viewCount = viewCount
    self.videoCount = videoCount
  }
}

/// Details of a sound hit.
public struct SoundMetadata: Sendable, Hashable {
  /// The performer or the account that made the sound.
  public var artist: String?
  /// How many videos use the sound.
  public var videoCount: Int

  /// Creates sound details.
  public init(artist: String? = nil, videoCount: Int = 0) {
    self.artist = artist
    self.videoCount = videoCount
  }
}

/// A matched span of a result's title, in UTF-8 byte offsets.
public struct HighlightRange: Sendable, Hashable {
  /// The span's UTF-8 offsets in the title.
  public var utf8Offsets: Range<Int>

  /// Creates a span from UTF-8 offsets.
  public init(utf8Offsets: Range<Int>) {
    self.utf8Offsets = utf8Offsets
  }

  /// The span as a range of `title`'s indices (the title the range was computed for).
  public func range(in title: String) -> Range<String.Index>? {
    let utf8 = title.utf8
    guard utf8Offsets.lowerBound >= 0, utf8Offsets.upperBound <= utf8.count else { return nil }
    let lower = utf8.index(utf8.startIndex, offsetBy: utf8Offsets.lowerBound)
    let upper = utf8.index(utf8.startIndex, offsetBy: utf8Offsets.upperBound)
    return lower..<upper
  }
}

/// How many documents of each type match, for the tab badges.
public struct FacetCounts: Sendable, Hashable {
  /// Matching videos.
  public var videos: Int
  /// Matching users.
  public var users: Int
  /// Matching hashtags.
  public var hashtags: Int
  /// Matching sounds.
  public var sounds: Int

  /// Creates counts.
  public init(videos: Int = 0, users: Int = 0, hashtags: Int = 0, sounds: Int = 0) {
    self.videos = videos
    self.users = users
    self.hashtags = hashtags
    self.sounds = sounds
  }

  /// The count of one type.
  public subscript(type: SearchResultType) -> Int {
    get {
      switch type {
      case .video: videos
      case .user: users
      case .hashtag: hashtags
      case .sound: sounds
      }
    }
    set {
      switch type {
      case .video: videos = newValue
      case .user: users = newValue
      case .hashtag: hashtags = newValue
      case .sound: sounds = newValue
      }
    }
  }

  /// The sum over the types a tab shows.
  public func total(for tab: SearchTab) -> Int {
    tab.resultTypes.reduce(0) { $0 + self[$1] }
  }
}

/// The answer to a search: one page of results, facet counts and the next page's cursor.
public struct SearchResponse: Sendable, Hashable {
  /// The query after sanitizing (what was searched).
  public var query: String
  /// The tab searched.
  public var tab: SearchTab
  /// This page's hits, best first.
  public var results: [SearchResult]
  /// Matching documents per type, whatever the tab.
  public var facets: FacetCounts
  /// Matching documents of the tab's types.
  public var totalHits: Int
  /// Pass to the next search to get the next page; `nil` on the last page.
  public var nextCursor: SearchCursor?
  /// `false` when no document matched every word and the results match only some of them;
  /// `true` otherwise, and when nothing matched at all.
  public var matchedAllTerms: Bool
  /// The query with its misspelled words corrected, when the words as typed found fewer
  /// than ``TypoTolerance/didYouMeanThreshold`` hits: each word that has a correction found
  /// in more documents than the word itself is replaced by the best one (fewest typos, then
  /// most documents); within its typo budget when nothing matched, within one typo and only
  /// for a word itself in fewer documents than the threshold when a few hits matched.
  /// `nil` when no word changes.
  public var didYouMean: String? = nil
  /// Whether the search's ``SearchBudget`` ran out before every step ran: the results are
  /// the best of what was searched, and the facet counts of the types left out are 0.
  public var isPartial = false

  /// A response with no results.
  public static func empty(query: String, tab: SearchTab) -> SearchResponse {
    SearchResponse(
      query: query, tab: tab, results: [], facets: FacetCounts(), totalHits: 0,
      nextCursor: nil, matchedAllTerms: true)
  }
}
