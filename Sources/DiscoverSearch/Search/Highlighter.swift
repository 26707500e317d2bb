/// Finds where a query's terms occur in a result's title.
///
/// The title is analyzed the way documents are, and every token whose folded form is one of
/// the query's terms marks its source span; a `#tag` or `@name` query marks a whole hashtag
/// or username title.
struct Highlighter {
  /// The folded forms of every query term and alternative (at most a few dozen).
  private let terms: [[UInt8]]
  /// Whether some term is a `#tag` or `@name`, which may match a whole title.
  private let hasTagTerms: Bool
  private let workspace: SearchWorkspace
  private var stream: TokenStream { workspace.highlightStream }

  init(query: ParsedQuery, workspace: SearchWorkspace) {
    self.workspace = workspace
    var terms: [[UInt8]] = []
    for term in query.terms {
      for alternative in term.alternatives where !terms.contains(alternative) {
        terms.append(alternative)
      }
    }
    self.terms = terms
    hasTagTerms = terms.contains { $0.first == UInt8(ascii: "#") || $0.first == UInt8(ascii: "@") }
  }

  /// Whether the folded bytes of `token` in the stream are one of the query's terms.
  private func isQueryTerm(_ token: Token) -> Bool {
    let candidate = stream.bytes(of: token)
    for term in terms where term.count == candidate.count {
      if term.withUnsafeBufferPointer({ $0.elementsEqual(candidate) }) { return true }
    }
    return false
  }

  /// The matched spans of `title`, sorted and merged.
  ///
  /// - Complexity: O(n · t) for a title of n bytes and t query terms.
  func highlights(in title: String, type: SearchResultType) -> [HighlightRange] {
    guard !terms.isEmpty, !title.isEmpty else { return [] }
    if hasTagTerms && (type == .user || type == .hashtag) {
      stream.removeAll()
      workspace.highlightTokenizer.tokenizeTag(
        title, kind: type == .user ? .mention : .hashtag, into: stream)
      if let tag = stream.tokens.first, isQueryTerm(tag) {
        return [HighlightRange(utf8Offsets: 0..<title.utf8.count)]
      }
    }
    stream.removeAll()
    workspace.highlightTokenizer.tokenize(title, into: stream)
    // Spans gather in the workspace's buffer, kept from card to card, and are merged in
    // place, so a card allocates only its result.
    var spans = workspace.highlightSpans
    workspace.highlightSpans = []
    defer {
      spans.removeAll(keepingCapacity: true)
      workspace.highlightSpans = spans
    }
    for token in stream.tokens where isQueryTerm(token) {
      spans.append(Int(token.sourceStart)..<Int(token.sourceEnd))
    }
    guard !spans.isEmpty else { return [] }
    spans.sort { $0.lowerBound < $1.lowerBound }
    var merged = 0
    for index in spans.indices {
      // `merged` never passes `index`, so the spans still to read are untouched.
      let span = spans[index]
      if merged > 0, span.lowerBound <= spans[merged - 1].upperBound {
        let last = spans[merged - 1]
        spans[merged - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
      } else {
        spans[merged] = span
        merged += 1
      }
    }
    return spans[..<merged].map { HighlightRange(utf8Offsets: $0) }
  }
}
