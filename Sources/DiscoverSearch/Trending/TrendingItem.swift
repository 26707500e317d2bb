import Foundation

/// One item of a trending list: the app's `TrendingItem`, with its score and typed details.
public struct TrendingItem: Sendable, Hashable {
  /// The document's id: a video, hashtag, sound or effect id.
  public var id: String
  /// What kind of item it is.
  public var type: ContentType
  /// The video's title, the hashtag's name, the sound's title or the effect's name.
  public var title: String
  /// Views: the index's count plus the views recorded since (in the list's region, for a
  /// video). For a hashtag, sound or effect, the index's count (if it has one) plus the
  /// recorded views of videos using it, in all regions.
  public var viewCount: Int
  /// The thumbnail image URL, when the index has one.
  public var thumbnailURL: String?
  /// When the video was posted; `nil` for the other types.
  public var createdAt: Date?
  /// The trend score `z`, the Poisson surprise of the recent count (see
  /// ``TrendingContent``); lists are ordered by it.
  public var score: Double
  /// Whether the item is rising now: `z` and the ratio of observed to expected past their
  /// thresholds.
  public var isRising: Bool
  /// What the type adds.
  public var details: Details

  /// What each type of item adds to the common fields.
  public enum Details: Sendable, Hashable {
    /// A trending video.
    case video(VideoDetails)
    /// A hashtag challenge.
    case hashtag(HashtagDetails)
    /// A trending sound.
    case sound(SoundDetails)
    /// A trending effect.
    case effect(EffectDetails)
  }

  /// What a trending video adds.
  public struct VideoDetails: Sendable, Hashable {
    /// The creator's user id, when the index knows it.
    public var creator: String?
    /// Distinct users who engaged with it (exact up to 8, then estimated).
    public var distinctUsers: Int
  }

  /// What a hashtag challenge adds.
  public struct HashtagDetails: Sendable, Hashable {
    /// The challenge's description, when the index has one.
    public var description: String?
    /// Distinct creators who posted with the tag, as recorded.
    public var participants: Int
    /// The tag's best trending videos now, best first (at most 3).
    public var featuredVideoIDs: [String]
  }

  /// What a trending sound adds.
  public struct SoundDetails: Sendable, Hashable {
    /// The performer, when the index has one.
    public var artist: String?
    /// Videos using the sound: the index's count plus new uses recorded.
    public var videoCount: Int
    /// New uses in the short window beyond what the sound's own past predicts (`O - E`).
    public var growth: Double
    /// The best trending videos using it now, best first (at most 3).
    public var featuredVideoIDs: [String]
  }

  /// What a trending effect adds.
  public struct EffectDetails: Sendable, Hashable {
    /// Videos using the effect: the index's count plus new uses recorded.
    public var videoCount: Int
    /// New uses in the short window beyond what the effect's own past predicts (`O - E`).
    public var growth: Double
    /// The best trending videos using it now, best first (at most 3).
    public var featuredVideoIDs: [String]
  }

  /// The featured videos of a hashtag, sound or effect; empty for a video.
  public var featuredVideoIDs: [String] {
    switch details {
    case .video: []
    case .hashtag(let details): details.featuredVideoIDs
    case .sound(let details): details.featuredVideoIDs
    case .effect(let details): details.featuredVideoIDs
    }
  }
}

/// One page of a trending list.
public struct TrendingPage: Sendable, Hashable {
  /// The items, best first.
  public var items: [TrendingItem]
  /// The cursor of the next page, or `nil` on the last.
  public var nextCursor: TrendingCursor?
}

/// Where a trending list's next page starts: after an item's score and id.
///
/// Keyset pagination: the next page holds the items ranked after that one in the list as
/// computed when it is asked for, so no item is shown twice while the list moves.
public struct TrendingCursor: Sendable, Hashable {
  let type: ContentType
  let region: String?
  let score: Double
  let id: String

  /// The cursor as an opaque URL-safe token.
  public var token: String {
    var bytes: [UInt8] = [1, UInt8(type.index)]
    withUnsafeBytes(of: score.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    let region = Array((region ?? "").utf8)
    bytes.append(UInt8(region.count))
    bytes.append(contentsOf: region)
    bytes.append(contentsOf: id.utf8)
    return Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  init(type: ContentType, region: String?, score: Double, id: String) {
    self.type = type
    self.region = region
    self.score = score
    self.id = id
  }

  /// Reads a token made by ``token``.
  ///
  /// - Throws: ``SearchError/Code/invalidArgument`` for text that is not such a token.
  public init(token: String) throws(SearchError) {
    let invalid = SearchError(
      .invalidArgument,
      "the trending cursor is not one this library made; pass the nextCursor of the previous page"
    )
    var base64 = token.replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    guard token.utf8.count <= 4_096, let data = Data(base64Encoded: base64) else { throw invalid }
    let bytes = [UInt8](data)
    guard bytes.count >= 11, bytes[0] == 1, bytes[1] < 4 else { throw invalid }
    let regionLength = Int(bytes[10])
    guard bytes.count >= 11 + regionLength else { throw invalid }
    var bits: UInt64 = 0
    for (offset, byte) in bytes[2..<10].enumerated() { bits |= UInt64(byte) << (8 * offset) }
    guard let region = String(validating: bytes[11..<(11 + regionLength)], as: UTF8.self),
      let id = String(validating: bytes[(11 + regionLength)...], as: UTF8.self), !id.isEmpty,
      Double(bitPattern: bits).isFinite
    else { throw invalid }
    self.init(
      type: ContentType.allCases[Int(bytes[1])], region: region.isEmpty ? nil : region,
      score: Double(bitPattern: bits), id: id)
  }
}

/// Why an item scores as it does on a trending list: the counts and the formula's terms.
public struct TrendingExplanation: Sendable, Hashable {
  /// The item's type.
  public var type: ContentType
  /// The item's id (a hashtag's name when the index has no document of it).
  public var id: String
  /// The region of the counters, or `nil` for the global ones.
  public var region: String?
  /// `O`: the short-window count now.
  public var observed: Double
  /// `E`: the short-window count the long window predicts, `L · τ_short / τ_long`.
  public var expected: Double
  /// `L`: the long-window count now.
  public var longCount: Double
  /// `z = (O - E) / sqrt(E + prior)`.
  public var z: Double
  /// The prior under the square root.
  public var priorCount: Double
  /// Distinct users (exact when ``distinctUsersIsExact``).
  public var distinctUsers: Int
  /// Whether ``distinctUsers`` is exact (up to 8 users) rather than estimated.
  public var distinctUsersIsExact: Bool
  /// Lifetime views recorded: a video's in the region explained; a hashtag's, sound's or
  /// effect's over the videos using it, in all regions.
  public var lifetimeViews: Int
  /// Lifetime participants (hashtags) or uses (sounds, effects) recorded; 0 for videos.
  public var lifetimeActors: Int
  /// The short window's half-life, in seconds.
  public var shortHalfLife: TimeInterval
  /// The long window's half-life, in seconds.
  public var longHalfLife: TimeInterval
  /// Whether it is flagged rising.
  public var isRising: Bool
  /// Whether it is on the list.
  public var isListed: Bool
  /// Why it is not on the list (empty when it is): too few users, too low a count, not in
  /// the index, or blocked.
  public var reasons: [String]
}
