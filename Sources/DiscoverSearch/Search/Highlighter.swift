/// Finds where a query's terms occur in a result's title.
///
/// The title is analyzed the way documents are, and every token whose folded form is one of
/// the query's terms marks its source span; a `#tag` or `@name` query marks a whole hashtag
/// or username title.
struct Highlighter {
  /// The folded forms of every query term and alternative.
  let terms: Set<[UInt8]>

  init(query: ParsedQuery) {
    var terms = Set<[UInt8]>()
    for term in query.terms {
      for alternative in term.alternatives { terms.insert(alternative) }
    }
    self.terms = terms
  }

  /// The matched spans of `title`, sorted and merged.
  ///
  /// - Complexity: O(n) in the length of the title.
  func highlights(in title: String, type: SearchResultType) -> [HighlightRange] {
    guard !terms.isEmpty, !title.isEmpty else { return [] }
    var tokenizer = Tokenizer(mode: .document)
    if type == .user || type == .hashtag {
      var stream = TokenStream()
      tokenizer.tokenizeTag(title, kind: type == .user ? .mention : .hashtag, into: &stream)
      if let tag = stream.tokens.first,
        terms.contains(Array(stream.bytes[Int(tag.start)..<Int(tag.start + tag.count)]))
      {
        return [HighlightRange(utf8Offsets: 0..<title.utf8.count)]
      }
    }
    var stream = TokenStream()
    tokenizer.tokenize(title, into: &stream)
    var spans: [Range<Int>] = []
    for token in stream.tokens
    where terms.contains(Array(stream.bytes[Int(token.start)..<Int(token.start + token.count)])) {
      spans.append(Int(token.sourceStart)..<Int(token.sourceEnd))
    }
    spans.sort { $0.lowerBound < $1.lowerBound }
    var merged: [Range<Int>] = []
    for span in spans {
      if let last = merged.last, span.lowerBound <= last.upperBound {
        merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
      } else {
        merged.append(span)
      }
    }
    return merged.map { HighlightRange(utf8Offsets: $0) }
  }
}
