import Foundation

/// What the trending lists need to know about one video of an index: its card, and what it
/// uses (the hashtags, sound and effect its views count toward).
package struct CatalogVideo: Sendable, Hashable {
  package var id: String
  package var title: String
  package var thumbnailURL: String?
  package var createdAt: Date?
  package var viewCount: Int
  package var creator: String?
  /// The video's hashtags folded with ``Analyzer/fold(_:)`` (`DanceChallenge` gives
  /// `dancechallenge`), without `#`, duplicates removed, in the video's order.
  package var hashtags: [String]
  package var sound: String?
  package var effect: String?

  package init(
    id: String, title: String, thumbnailURL: String?, createdAt: Date?, viewCount: Int,
    creator: String?, hashtags: [String], sound: String?, effect: String?
  ) {
    self.id = id
    self.title = title
    self.thumbnailURL = thumbnailURL
    self.createdAt = createdAt
    self.viewCount = viewCount
    self.creator = creator
    self.hashtags = hashtags
    self.sound = sound
    self.effect = effect
  }
}

/// A hashtag document of an index, for the hashtag challenges list.
package struct CatalogHashtag: Sendable, Hashable {
  package var id: String
  /// The name as the document has it (`dancechallenge` or `DanceChallenge`).
  package var name: String
  package var description: String?
  package var viewCount: Int
  package var videoCount: Int

  package init(id: String, name: String, description: String?, viewCount: Int, videoCount: Int) {
    self.id = id
    self.name = name
    self.description = description
    self.viewCount = viewCount
    self.videoCount = videoCount
  }
}

/// A sound document of an index, for the trending sounds list.
package struct CatalogSound: Sendable, Hashable {
  package var id: String
  package var title: String
  package var artist: String?
  package var videoCount: Int

  package init(id: String, title: String, artist: String?, videoCount: Int) {
    self.id = id
    self.title = title
    self.artist = artist
    self.videoCount = videoCount
  }
}

/// An effect of an index, for the trending effects list.
package struct CatalogEffect: Sendable, Hashable {
  package var id: String
  package var name: String
  package var thumbnailURL: String?
  package var useCount: Int

  package init(id: String, name: String, thumbnailURL: String?, useCount: Int) {
    self.id = id
    self.name = name
    self.thumbnailURL = thumbnailURL
    self.useCount = useCount
  }
}
