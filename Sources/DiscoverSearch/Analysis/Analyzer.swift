/// Whether text is analyzed as a document field or as a query.
public enum AnalysisMode: Sendable, Hashable {
  /// Emit every form a query might look for: tags with their words and parts, emoji with
  /// their names, Chinese and Japanese bigrams with dictionary words.
  case document
  /// Emit what a query means: a tag as the tag, a Chinese or Japanese run as its bigrams (so
  /// matching never depends on two dictionary splits agreeing, meilisearch#2091).
  case query
}

/// One token of analyzed text, for inspection and tests.
public struct AnalyzedToken: Sendable, Hashable, CustomStringConvertible {
  /// The folded term as it is indexed (`#dancechallenge`, `cafe`, `🔥`).
  public var text: String
  /// What the token stands for.
  public var kind: TokenKind
  /// Its position in the text; alternatives (emoji names, tag words) share one.
  public var position: Int
  /// The UTF-8 byte offsets of the source text it came from.
  public var sourceRange: Range<Int>

  public var description: String { "\(text)@\(position)" }
}

/// The analysis pipeline that documents and queries share: normalization (NFKC case
/// folding, diacritics and width folded), segmentation (spaces, or dictionaries for Thai,
/// Lao, Khmer, Myanmar, Chinese and Japanese), hashtags, mentions, emoji and URLs.
public enum Analyzer {
  /// Analyzes text the way the index does.
  ///
  /// - Parameters:
  ///   - text: Any text; empty and whitespace-only text give no tokens.
  ///   - mode: Document fields and queries differ for tags, emoji and Chinese/Japanese runs.
  /// - Returns: The tokens in text order.
  /// - Complexity: O(n) in the length of `text`.
  public static func tokens(of text: String, as mode: AnalysisMode = .document) -> [AnalyzedToken] {
    var tokenizer = Tokenizer(mode: mode)
    let stream = TokenStream()
    tokenizer.tokenize(text, into: stream)
    return stream.tokens.map {
      AnalyzedToken(
        text: stream.text(of: $0), kind: $0.kind, position: Int($0.position),
        sourceRange: Int($0.sourceStart)..<Int($0.sourceEnd))
    }
  }

  /// Builds the character and emoji tables analysis uses, if they are not built yet.
  ///
  /// They are built on first use anyway; indexes call this when they are created or
  /// opened, so no search pays for it.
  static func prepare() {
    _ = CharacterTable.shared
    _ = EmojiNames.wordCount(of: 0x1F525)
  }

  /// The folded form of text, the way terms are compared: `Café` and `CAFE` give `cafe`.
  ///
  /// - Complexity: O(n) in the length of `text`.
  public static func fold(_ text: String) -> String {
    tokens(of: text, as: .query).map(\.text).joined(separator: " ")
  }
}
