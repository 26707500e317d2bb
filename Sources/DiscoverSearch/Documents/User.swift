/// A creator account.
public struct User: Sendable, Hashable, Codable {
  /// The caller's identifier, unique among all documents of every type.
  public var id: String
  /// The handle, searchable as `@username`.
  public var username: String
  /// The name shown on the profile.
  public var displayName: String?
  /// The profile text; searchable, not stored for display.
  public var bio: String?
  /// How many accounts follow this one.
  public var followerCount: Int
  /// Whether the account carries a verified badge.
  public var isVerified: Bool

  /// Creates a user.
  public init(
    id: String, username: String, displayName: String? = nil, bio: String? = nil,
    followerCount: Int = 0, isVerified: Bool = false
  ) {
    self.id = id
    self.username = username
    self.displayName = displayName
    self.bio = bio
    self.followerCount = followerCount
    self.isVerified = isVerified
  }
}
