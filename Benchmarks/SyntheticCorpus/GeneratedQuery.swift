import DiscoverSearch

/// One benchmark query: a search on a tab or a completion request, as a user would type it.
///
/// This mirrors a line of the query file format (contract 2 in the design notes):
/// `{"kind":"search","q":"dance challenge","tab":"top","limit":10}`.
public struct GeneratedQuery: Sendable, Hashable {
  /// Whether the query asks for search results or for completions.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// A full search on ``GeneratedQuery/tab``.
    case search
    /// Completions for a prefix; the tab is always ``SearchTab/top``.
    case suggest
  }

  /// Search or suggest.
  public var kind: Kind
  /// The text typed, never empty.
  public var text: String
  /// The tab searched.
  public var tab: SearchTab
  /// How many results to ask for.
  public var limit: Int

  /// Creates a query.
  public init(kind: Kind, text: String, tab: SearchTab = .top, limit: Int = 10) {
    self.kind = kind
    self.text = text
    self.tab = tab
    self.limit = limit
  }
}
