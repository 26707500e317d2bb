/// A query after sanitizing and analysis: required terms, each with alternatives, and
/// phrase constraints.
struct ParsedQuery: Sendable {
  /// One required term: a document matches it when it contains any alternative.
  struct Term: Sendable {
    /// The folded alternatives (an emoji and its name word): the first is what was typed.
    var alternatives: [[UInt8]]
    /// What the typed token was.
    var kind: TokenKind
    /// The typed form, folded, for explanations and "did you mean".
    var displayText: String
    /// The word typed when this term is a piece of words typed without a space
    /// (``WordForms/bestSplit(of:minimumPiece:maximumPieces:documentCount:frequency:)``).
    var splitFrom: String? = nil
  }

  /// Terms that must appear at consecutive positions of one field (a quoted phrase).
  struct Phrase: Sendable {
    /// Indexes into ``terms`` with each term's offset from the phrase's first position.
    var members: [(term: Int, offset: UInt32)]
  }

  /// The sanitized query text.
  var text: String
  var terms: [Term]
  var phrases: [Phrase]

  /// Whether nothing searchable is left.
  var isEmpty: Bool { terms.isEmpty }
}

/// Turns query text into a ``ParsedQuery``.
enum QueryParser {
  /// At most this many terms are kept (the first ones typed): an AND of more words finds
  /// nothing useful, and a hostile query with thousands of terms must stay cheap.
  static let maximumTerms = 32

  /// Parses sanitized query text.
  ///
  /// `"quoted text"` (straight or curly quotes) is a phrase; an unmatched quote is ignored.
  /// Repeated terms count once.
  ///
  /// - Complexity: O(n) in the length of `text`.
  static func parse(_ text: String) -> ParsedQuery {
    parse(text, using: SearchWorkspace())
  }

  /// Parses sanitized query text with a workspace's tokenizer.
  static func parse(_ text: String, using workspace: SearchWorkspace) -> ParsedQuery {
    var query = ParsedQuery(text: text, terms: [], phrases: [])
    let stream = workspace.queryStream
    for (segment, isPhrase) in segments(of: text) {
      stream.removeAll()
      workspace.queryTokenizer.tokenize(segment, into: stream)
      var members: [(term: Int, offset: UInt32)] = []
      var firstPosition: UInt32?
      for token in stream.tokens {
        let bytes = Array(stream.bytes(of: token))
        if token.kind == .emojiName, var last = query.terms.last, last.kind == .emoji {
          if !last.alternatives.contains(bytes) { last.alternatives.append(bytes) }
          query.terms[query.terms.count - 1] = last
          continue
        }
        var termIndex = query.terms.firstIndex { $0.alternatives[0] == bytes }
        if termIndex == nil {
          guard query.terms.count < maximumTerms else { break }
          query.terms.append(
            ParsedQuery.Term(
              alternatives: [bytes], kind: token.kind,
              displayText: String(decoding: bytes, as: UTF8.self)))
          termIndex = query.terms.count - 1
        }
        if isPhrase, let termIndex {
          let first = firstPosition ?? token.position
          firstPosition = first
          members.append((termIndex, token.position - first))
        }
      }
      if members.count >= 2 {
        query.phrases.append(ParsedQuery.Phrase(members: members))
      }
    }
    return query
  }

  /// Splits text into plain and quoted segments.
  private static func segments(of text: String) -> [(String, Bool)] {
    // Straight and curly double quotes, and the full-width one, found on bytes first: most
    // queries have none.
    let hasQuote =
      text.utf8.contains(UInt8(ascii: "\"")) || text.utf8.contains(0xE2) || text.utf8.contains(0xEF)
    guard hasQuote else { return [(text, false)] }
    let quotes: Set<Character> = ["\"", "\u{201C}", "\u{201D}", "\u{201E}", "\u{FF02}"]
    guard text.contains(where: { quotes.contains($0) }) else { return [(text, false)] }
    var result: [(String, Bool)] = []
    var current = ""
    var isInQuote = false
    for character in text {
      if quotes.contains(character) {
        if isInQuote {
          result.append((current, true))
          current = ""
          isInQuote = false
        } else {
          result.append((current, false))
          current = ""
          isInQuote = true
        }
        continue
      }
      current.append(character)
    }
    // An unmatched quote: its text is ordinary query text.
    result.append((current, false))
    return result.filter { !$0.0.isEmpty }
  }
}
