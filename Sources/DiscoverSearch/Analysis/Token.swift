/// What a token stands for; the same pipeline analyzes documents and queries.
public enum TokenKind: UInt8, Sendable, Hashable, CaseIterable, BitwiseCopyable {
  /// A word of text (letters and digits of a script written with spaces, or a dictionary
  /// word of Thai, Lao, Khmer or Myanmar).
  case word
  /// A whole hashtag, stored with its `#`: `#dancechallenge`.
  case hashtag
  /// A whole mention, stored with its `@`: `@dance_queen`.
  case mention
  /// The concatenated body of a hashtag or mention as a plain word (`dancechallenge`), so a
  /// query without `#` still finds the tag.
  case tagWord
  /// One part of a camelCase, snake_case or dotted tag (`dance`, `challenge`).
  case tagPart
  /// An emoji or emoji sequence, skin tones and variation selectors removed.
  case emoji
  /// A word of an emoji's Unicode name (`fire` for 🔥), at the emoji's position.
  case emojiName
  /// Two adjacent Chinese or Japanese characters. Indexing every overlapping pair makes any
  /// run of two or more characters findable whatever a dictionary would have split.
  case cjBigram
  /// A Chinese or Japanese dictionary word of one or of three or more characters (words of
  /// two are already bigrams), or a lone character.
  case cjWord
  /// A word from the host name of a URL (`instagram` in `https://www.instagram.com/x`).
  case urlPart
}

/// One token in a ``TokenStream``: where its folded bytes are, its position, and the bytes
/// of the source text it came from (for highlighting).
struct Token: Sendable, Hashable, BitwiseCopyable {
  /// Offset of the folded bytes in ``TokenStream/bytes``.
  var start: UInt32
  /// Number of folded bytes.
  var count: UInt32
  /// Position within the field, for phrases; alternatives share a position.
  var position: UInt32
  /// Byte range of the source text the token came from.
  var sourceStart: UInt32
  var sourceEnd: UInt32
  var kind: TokenKind
}

/// Tokens of one text, their folded bytes in one contiguous buffer.
///
/// Reused across documents: ``removeAll()`` keeps the memory, so steady-state indexing
/// allocates nothing per document. A class owning raw buffers, so that the tokenizer's
/// appends are a capacity check and a store (see ``UnsafeGrowableBuffer``).
final class TokenStream {
  private let byteCell = UnsafeBufferCell<UInt8>(capacity: 1024)
  private let tokenCell = UnsafeBufferCell<Token>(capacity: 128)

  /// The folded bytes of every token, back to back.
  var bytes: UnsafeGrowableBuffer<UInt8> {
    @inline(__always) get { byteCell.value }
    @inline(__always) _modify { yield &byteCell.value }
  }

  /// The tokens in text order (alternatives follow the token they belong to).
  var tokens: UnsafeGrowableBuffer<Token> {
    @inline(__always) get { tokenCell.value }
    @inline(__always) _modify { yield &tokenCell.value }
  }

  init() {}

  deinit {
    byteCell.deallocate()
    tokenCell.deallocate()
  }

  /// Forgets every token, keeping the buffers.
  @inline(__always)
  func removeAll() {
    bytes.removeAll()
    tokens.removeAll()
  }

  /// The folded bytes of a token.
  @inline(__always)
  func bytes(of token: Token) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: bytes.base + Int(token.start), count: Int(token.count))
  }

  /// The folded text of a token, for tests and diagnostics.
  func text(of token: Token) -> String {
    String(decoding: bytes(of: token), as: UTF8.self)
  }
}
