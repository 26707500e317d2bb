import DiscoverSearch

/// What ``SyntheticEventStream`` needs to know of a corpus: its videos, hashtag pages, sounds
/// and users, without their text.
///
/// The stream ranks what it reads here by popularity (videos by view count, hashtags by video
/// count, sounds by how many videos use them) and draws from those rankings, so a real corpus
/// and a synthetic one give streams of the same shape.
package struct EventStreamCorpus: Sendable, Hashable {
  /// One video: its id, its popularity and what it uses.
  package struct VideoEntry: Sendable, Hashable {
    /// The video's id.
    package var id: String
    /// Its all-time views, which rank it for the stream's background traffic.
    package var viewCount: Int
    /// Its hashtags, as written.
    package var hashtags: [String]
    /// The id of its sound, or `nil`.
    package var sound: String?
    /// The id of its creator, or `nil`.
    package var creator: String?

    /// Creates a video entry.
    package init(
      id: String, viewCount: Int = 0, hashtags: [String] = [], sound: String? = nil,
      creator: String? = nil
    ) {
      self.id = id
      self.viewCount = viewCount
      self.hashtags = hashtags
      self.sound = sound
      self.creator = creator
    }
  }

  /// One hashtag page: its id, its name as the document writes it, and its popularity.
  package struct HashtagEntry: Sendable, Hashable {
    /// The hashtag document's id.
    package var id: String
    /// The name as the document has it (`dancechallenge` or `DanceChallenge`).
    package var name: String
    /// How many videos use it, which ranks it for the hashtags posts carry.
    package var videoCount: Int

    /// Creates a hashtag entry.
    package init(id: String, name: String, videoCount: Int = 0) {
      self.id = id
      self.name = name
      self.videoCount = videoCount
    }
  }

  /// The videos, in corpus order.
  package var videos: [VideoEntry]
  /// The hashtag pages, in corpus order.
  package var hashtags: [HashtagEntry]
  /// The ids of the sound documents, in corpus order.
  package var soundIDs: [String]
  /// The ids of the user documents, in corpus order: the creators of posted videos.
  package var userIDs: [String]

  /// Creates a corpus description from its parts.
  package init(
    videos: [VideoEntry], hashtags: [HashtagEntry] = [], soundIDs: [String] = [],
    userIDs: [String] = []
  ) {
    self.videos = videos
    self.hashtags = hashtags
    self.soundIDs = soundIDs
    self.userIDs = userIDs
  }

  /// Describes the videos, hashtags, sounds and users of `documents`; other kinds of document
  /// are skipped.
  ///
  /// - Complexity: O(n) for n documents.
  package init(documents: [Document]) {
    self.init(videos: [])
    for document in documents {
      // `if case` rather than a `switch`: Document gains cases (effects) that this type does
      // not need, and an exhaustive `switch` would need a `default:` that warns until then.
      if case .video(let video) = document {
        videos.append(
          VideoEntry(
            id: video.id, viewCount: video.viewCount, hashtags: video.hashtags,
            sound: video.sound, creator: video.creator))
      } else if case .hashtag(let hashtag) = document {
        hashtags.append(
          HashtagEntry(id: hashtag.id, name: hashtag.name, videoCount: hashtag.videoCount))
      } else if case .sound(let sound) = document {
        soundIDs.append(sound.id)
      } else if case .user(let user) = document {
        userIDs.append(user.id)
      }
    }
  }
}
