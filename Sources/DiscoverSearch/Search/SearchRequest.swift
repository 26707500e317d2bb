import Foundation

/// Everything one search takes, as one value: what an HTTP handler decodes from a request,
/// what a result cache keys on, and what ``DiscoverIndex/search(_:)`` runs.
///
/// ```swift
/// let request = SearchRequest("dance chal", in: .videos, limit: 20, matching: .asYouType)
/// let page = try index.search(request)
/// ```
public struct SearchRequest: Sendable, Hashable {
  /// The text typed in the search bar.
  public var text: String
  /// Which result types to return; facet counts cover every type regardless.
  public var tab: SearchTab
  /// How many results per page, 1 to ``DiscoverIndex/maximumSearchLimit``.
  public var limit: Int
  /// The previous page's ``SearchResponse/nextCursor``, or `nil` for page one.
  public var cursor: SearchCursor?
  /// Prefix matching of the last word and typo correction.
  public var matching: MatchingOptions
  /// The blend of text, popularity and recency, match quality and the Top tab's policy.
  public var ranking: RankingOptions
  /// Who searches, when known: the key of rate limits and recent searches in a service.
  /// The index itself does not read it.
  public var userID: String?
  /// Whether each result carries its ``SearchResult/explanation``.
  public var explain: Bool
  /// How much work the search may do before it returns what it has (``SearchBudget``).
  public var budget: SearchBudget

  /// Creates a search request; the defaults are those of
  /// ``DiscoverIndex/search(_:in:limit:after:ranking:matching:explain:)``.
  public init(
    _ text: String, in tab: SearchTab = .top, limit: Int = 10, after cursor: SearchCursor? = nil,
    matching: MatchingOptions = MatchingOptions(), ranking: RankingOptions = RankingOptions(),
    userID: String? = nil, explain: Bool = false, budget: SearchBudget = .unlimited
  ) {
    self.text = text
    self.tab = tab
    self.limit = limit
    self.cursor = cursor
    self.matching = matching
    self.ranking = ranking
    self.userID = userID
    self.explain = explain
    self.budget = budget
  }
}

/// How much work one search may do. Past it, the search returns the best results found so
/// far and marks the response ``SearchResponse/isPartial``.
///
/// A search runs in steps: each result type of the query (videos, users, hashtags, sounds),
/// then the fallbacks (typo corrections, fewer words) when the words as typed find little.
/// Before each step the budget is checked, and the first step always runs, so a partial
/// response has results when anything matched. A step's work is counted in **postings**:
/// the document frequencies of every posting list it may read, in every segment (what
/// decoding them all would cost; bitmaps and pruning usually read far less). The time limit
/// is checked at the same points on the continuous clock, so a step that started in time
/// finishes.
///
/// The hard limits hold whatever the budget: 32 terms a query
/// (``QuerySanitizer/maximumLength`` bytes of text), 256 prefix expansions and 32 typo
/// corrections a word (``MatchingOptions``), 1,000 results a page and 10,000 results deep
/// (``SearchCursor/maximumDepth``).
public struct SearchBudget: Sendable, Hashable {
  /// The most postings a search may plan to read over its steps; `nil` for no limit.
  public var maximumPostings: Int?
  /// The time after which no further step starts; `nil` for no limit.
  public var timeLimit: Duration?

  /// Creates a budget; no limit by default.
  public init(maximumPostings: Int? = nil, timeLimit: Duration? = nil) {
    self.maximumPostings = maximumPostings
    self.timeLimit = timeLimit
  }

  /// No limit beyond the hard ones.
  public static let unlimited = SearchBudget()

  /// Whether neither limit is set.
  var isUnlimited: Bool { maximumPostings == nil && timeLimit == nil }
}

/// What a search has spent of its ``SearchBudget``, step by step.
struct BudgetMeter {
  let budget: SearchBudget
  private let start: ContinuousClock.Instant?
  /// The postings planned by the steps run so far.
  private(set) var postings = 0
  private var steps = 0
  /// Whether a step was refused: the response is partial.
  private(set) var isExhausted = false

  init(_ budget: SearchBudget) {
    self.budget = budget
    start = budget.timeLimit == nil ? nil : ContinuousClock.now
  }

  /// Whether a step that may read `planned` postings runs; the first always does. Once a
  /// step is refused, every later one is too.
  mutating func admits(postings planned: Int) -> Bool {
    guard !isExhausted else { return false }
    if steps > 0 {
      if let maximum = budget.maximumPostings, postings > maximum - min(planned, maximum) {
        isExhausted = true
      }
      if let limit = budget.timeLimit, let start, ContinuousClock.now - start >= limit {
        isExhausted = true
      }
      if isExhausted { return false }
    }
    steps += 1
    postings += min(planned, Int.max - postings)
    return true
  }
}

/// Everything a completion request takes, as one value (``DiscoverIndex/suggestions(_:analytics:)``).
public struct SuggestRequest: Sendable, Hashable {
  /// What the user has typed so far.
  public var prefix: String
  /// How many suggestions at most, 1 to 100.
  public var limit: Int
  /// Whose recent searches to include, when analytics are given.
  public var userID: String?
  /// Typo tolerance and ranking factors.
  public var options: SuggestOptions

  /// Creates a completion request.
  public init(
    _ prefix: String, limit: Int = 10, userID: String? = nil,
    options: SuggestOptions = SuggestOptions()
  ) {
    self.prefix = prefix
    self.limit = limit
    self.userID = userID
    self.options = options
  }
}

/// Everything a trending list request takes, as one value
/// (``TrendingContent/list(_:)``).
public struct TrendingRequest: Sendable, Hashable {
  /// Videos, hashtags, sounds or effects.
  public var type: ContentType
  /// Only events from this region (a code such as `US`), or `nil` for all.
  public var region: String?
  /// Items per page, 1 to ``TrendingContent/maximumListLimit``.
  public var limit: Int
  /// The previous page's ``TrendingPage/nextCursor``, or `nil` for the first.
  public var cursor: TrendingCursor?

  /// Creates a trending list request.
  public init(
    _ type: ContentType, region: String? = nil, limit: Int = 20, after cursor: TrendingCursor? = nil
  ) {
    self.type = type
    self.region = region
    self.limit = limit
    self.cursor = cursor
  }
}
