/// A searchable field of one content type.
///
/// Each type has at most four fields; a field's ``slot`` is its place in that type's
/// per-posting term frequencies and per-document lengths.
public enum SearchField: String, Sendable, Hashable, Codable, CaseIterable {
  /// ``Video/title``.
  case videoTitle
  /// ``Video/description``.
  case videoDescription
  /// ``Video/hashtags``: each tag, its words and its parts.
  case videoHashtags
  /// The username and display name of the video's creator.
  case videoCreator
  /// ``User/username``, as a mention and its words.
  case userUsername
  /// ``User/displayName``.
  case userDisplayName
  /// ``User/bio``.
  case userBio
  /// ``Hashtag/name``, as a tag and its words.
  case hashtagName
  /// ``Hashtag/description``.
  case hashtagDescription
  /// ``Sound/title``.
  case soundTitle
  /// ``Sound/artist``.
  case soundArtist

  /// The content type the field belongs to.
  public var type: SearchResultType {
    switch self {
    case .videoTitle, .videoDescription, .videoHashtags, .videoCreator: .video
    case .userUsername, .userDisplayName, .userBio: .user
    case .hashtagName, .hashtagDescription: .hashtag
    case .soundTitle, .soundArtist: .sound
    }
  }

  /// The field's place among its type's fields.
  public var slot: Int {
    switch self {
    case .videoTitle, .userUsername, .hashtagName, .soundTitle: 0
    case .videoDescription, .userDisplayName, .hashtagDescription, .soundArtist: 1
    case .videoHashtags, .userBio: 2
    case .videoCreator: 3
    }
  }

  /// The fields of a type, in slot order.
  public static func fields(of type: SearchResultType) -> [SearchField] {
    switch type {
    case .video: [.videoTitle, .videoDescription, .videoHashtags, .videoCreator]
    case .user: [.userUsername, .userDisplayName, .userBio]
    case .hashtag: [.hashtagName, .hashtagDescription]
    case .sound: [.soundTitle, .soundArtist]
    }
  }

  /// The most fields any type has.
  static let maximumFieldsPerType = 4

  /// The default BM25F weight of the field.
  ///
  /// Names and titles are what a person types toward, so they weigh most; a video's
  /// hashtags are chosen by its creator to describe it (2); the creator's name finds their
  /// videos but should not outrank videos about the words (1.5); descriptions and bios are
  /// long and noisy. A video's title (8) and description (0.5) were chosen on the
  /// hand-judged queries of `JudgedRankingTests` (mean nDCG@10 0.794 at 3 and 1, 0.865 at
  /// 8 and 0.5): at 3 and 1, a popular video matching only in a short description
  /// (`pumpkins #shorts` for `how to make`) outranked titles holding every word.
  public var defaultWeight: Float {
    switch self {
    case .videoTitle: 8
    case .videoDescription: 0.5
    case .videoHashtags: 2
    case .videoCreator: 1.5
    case .userUsername: 3
    case .userDisplayName: 2.5
    case .userBio: 1
    case .hashtagName: 3
    case .hashtagDescription: 1
    case .soundTitle: 3
    case .soundArtist: 2
    }
  }
}

/// Settings fixed when an index is built.
public struct IndexConfiguration: Sendable, Hashable, Codable {
  /// BM25's length normalization `b` (0: none, 1: full), per field. Block score bounds are
  /// computed with it at build time, so it cannot change at query time. Default 0.75
  /// (Robertson et al., "Okapi at TREC-3", 1994).
  public var lengthNormalization: [SearchField: Float]

  /// Creates a configuration; every field not given uses `b = 0.75`.
  public init(lengthNormalization: [SearchField: Float] = [:]) {
    self.lengthNormalization = lengthNormalization
  }

  /// The `b` of a field.
  public func b(for field: SearchField) -> Float {
    min(max(lengthNormalization[field] ?? 0.75, 0), 1)
  }
}

/// Quantized field lengths (Lucene's norms idea: one byte per document and field).
///
/// Lengths up to 127 tokens are exact, which covers every title and name; longer ones are
/// stored on a geometric scale with 4% steps, up to about 19,000 tokens.
enum FieldLength {
  /// The one-byte code of a length.
  @inline(__always)
  static func code(for length: Int) -> UInt8 {
    if length < 128 { return UInt8(length) }
    // 128 * 1.04^(code - 127) <= length: the code of the largest bucket not above it.
    var code = 127
    while code < 255 && table[code + 1] <= Float(length) { code += 1 }
    return UInt8(code)
  }

  /// The length a code stands for.
  static let table: [Float] = (0..<256).map { (code: Int) -> Float in
    guard code >= 128 else { return Float(code) }
    let growth: Float = pow(1.04, Float(code - 127))
    return (128 * growth).rounded(.down)
  }

  /// The average length BM25 normalizes by, from the sum of `count` documents' decoded
  /// lengths, rounded to 1/16 of a token: a segment built beside others uses the average of
  /// the whole index, and rounded, that average stays the same value while documents come
  /// in, so the segments' stored bounds and impacts keep holding for the index's scores
  /// (``SegmentNormalization``). The rounding moves a score by under 0.4% for averages of a
  /// token or more.
  static func average(sum: Double, count: Int) -> Float {
    guard count > 0, sum > 0 else { return 0 }
    return Float(max((sum / Double(count) * 16).rounded() / 16, 1.0 / 16))
  }

  /// For every code, `1 / (1 - b + b * length / averageLength)`: BM25's length
  /// normalization, inverted so scoring multiplies. Builder and searcher share this one
  /// function, so block bounds computed at build time hold exactly at query time.
  static func inverseNormalization(b: Float, averageLength: Float) -> [Float] {
    let average = averageLength > 0 ? averageLength : 1
    return table.map { length in 1 / (1 - b + b * length / average) }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
