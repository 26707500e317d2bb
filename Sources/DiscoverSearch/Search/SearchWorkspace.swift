import Synchronization

/// Buffers a search needs (tokenizers, token streams), reused from one search to the next
/// so that a search allocates little beyond its results.
final class SearchWorkspace: @unchecked Sendable {
  // Invariant that makes this Sendable: a workspace is used by one search at a time; the
  // pool hands it out and takes it back under a lock.
  var queryTokenizer = Tokenizer(mode: .query)
  let queryStream = TokenStream()
  var highlightTokenizer: Tokenizer = {
    var tokenizer = Tokenizer(mode: .document)
    tokenizer.addsDictionaryWords = false
    return tokenizer
  }()
  let highlightStream = TokenStream()
  /// The matched spans of the card being highlighted.
  var highlightSpans: [Range<Int>] = []
  /// Analyzes the query as a name field would be, for exact matches.
  var fieldTokenizer = Tokenizer(mode: .document)
  let fieldStream = TokenStream()
  /// The buffers of a suggestion request, kept for the next one.
  var suggestionText: [UInt8] = []
  var suggestionCandidates: [SuggestionCandidate] = []
  var suggestionSlots: [Int32] = []
  /// What ``IndexSnapshot/touchResultFields(_:)`` read, kept so its loads stay.
  var touched: UInt32 = 0
}

/// A stack of idle ``SearchWorkspace``s.
final class WorkspacePool: Sendable {
  /// Idle workspaces kept at most; more concurrent searches make their own.
  static let capacity = 16

  private let idle = Lock<[SearchWorkspace]>([])

  /// Runs `body` with a workspace no other search is using.
  func withWorkspace<Result>(_ body: (SearchWorkspace) throws -> Result) rethrows -> Result {
    let workspace = idle.withLock { $0.popLast() } ?? SearchWorkspace()
    defer {
      idle.withLock { workspaces in
        if workspaces.count < WorkspacePool.capacity { workspaces.append(workspace) }
      }
    }
    return try body(workspace)
  }
}
