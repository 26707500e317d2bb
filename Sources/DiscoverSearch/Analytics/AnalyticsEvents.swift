import Foundation

/// A search a user ran, as ``QueryAnalytics`` records it.
///
/// The query is kept as typed; analytics sanitizes it with ``QuerySanitizer`` for display and
/// folds it with ``Analyzer`` to group searches that differ only in case, accents, width or
/// spacing (`Café  Dance` and `cafe dance` are one query).
public struct SearchEvent: Sendable, Hashable {
  /// The raw query text as typed.
  public var query: String
  /// The user who searched, or `nil` for an anonymous search. Anonymous searches count as
  /// one user together toward ``AnalyticsConfiguration/minimumDistinctUsers``.
  public var userID: String?
  /// When the search ran. A time after the analytics clock's "now" is recorded as "now".
  public var time: Date
  /// How many results the search returned; `0` keeps the query out of trending searches and
  /// popular queries until it is searched again with results.
  public var resultCount: Int

  /// Creates a search event.
  ///
  /// - Parameters:
  ///   - query: The raw query text as typed.
  ///   - userID: The user who searched, or `nil` for an anonymous search.
  ///   - time: When the search ran; now by default.
  ///   - resultCount: How many results the search returned; must not be negative.
  public init(query: String, userID: String? = nil, time: Date = Date(), resultCount: Int) {
    self.query = query
    self.userID = userID
    self.time = time
    self.resultCount = resultCount
  }
}

/// A click on one result of a search, as ``QueryAnalytics`` records it.
public struct ClickEvent: Sendable, Hashable {
  /// The raw text of the query whose result was clicked.
  public var query: String
  /// The user who clicked, or `nil` for an anonymous click.
  public var userID: String?
  /// The id of the clicked result (a video, user, hashtag or sound id).
  public var resultID: String
  /// When the click happened. A time after the analytics clock's "now" is recorded as "now".
  public var time: Date

  /// Creates a click event.
  ///
  /// - Parameters:
  ///   - query: The raw text of the query whose result was clicked.
  ///   - userID: The user who clicked, or `nil` for an anonymous click.
  ///   - resultID: The id of the clicked result; must not be empty.
  ///   - time: When the click happened; now by default.
  public init(query: String, userID: String? = nil, resultID: String, time: Date = Date()) {
    self.query = query
    self.userID = userID
    self.resultID = resultID
    self.time = time
  }
}
