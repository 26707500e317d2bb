/// A camera effect (a filter, a green screen, a face lens) that videos use.
///
/// Effects are not searched: there is no effect tab, and an effect's name gets no postings.
/// They name the items of the trending effects list, and a ``Video`` names the one it uses in
/// ``Video/effect``. Field names follow the corpus format (``CorpusLoader``, and README.md).
public struct Effect: Sendable, Hashable, Codable {
  /// The caller's identifier, unique among all documents of every type.
  public var id: String
  /// The name shown on the effect's card (`Green Screen`).
  public var name: String
  /// The effect's icon or preview image URL.
  public var thumbnailURL: String?
  /// How many times the effect was used, as the caller counts it.
  public var useCount: Int

  /// Creates an effect.
  public init(id: String, name: String, thumbnailURL: String? = nil, useCount: Int = 0) {
    self.id = id
    self.name = name
    self.thumbnailURL = thumbnailURL
    self.useCount = useCount
  }
}
