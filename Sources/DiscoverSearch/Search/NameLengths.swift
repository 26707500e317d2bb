/// What an exact match of the query looks like in each name field.
///
/// - Text names (video and sound titles, display names): the length the field would have
///   if it held exactly the query. The query is analyzed the way the writer analyzes the
///   field, so derived tokens (Chinese and Japanese bigrams, emoji names) count the same on
///   both sides; the field is exact when it has that length and contains every query term.
/// - Tag names (usernames, hashtag names): the query's letters and digits, lowercased, with
///   markers, spaces, `_` and `.` removed (``tagKey``), compared with the stored name
///   reduced the same way. `@MrBeast`, `mr beast` and `mrbeast` all match the username
///   `MrBeast`, which counting tokens cannot do: the name's camelCase parts are not in a
///   lowercase query.
struct NameLengths: Sendable {
  /// Per type, per field slot: the expected length, or -1 for fields that are not text
  /// names.
  private var lengths: [SIMD4<Int32>]
  /// The query reduced to a tag name's letters and digits; empty when there is none.
  let tagKey: [UInt8]

  static let none = NameLengths(
    lengths: Array(repeating: SIMD4(repeating: -1), count: 4), tagKey: [])

  private init(lengths: [SIMD4<Int32>], tagKey: [UInt8]) {
    self.lengths = lengths
    self.tagKey = tagKey
  }

  /// A name's letters and digits, lowercased; `_`, `.`, `#`, `@` and spaces removed. Text
  /// outside ASCII is folded first (``Analyzer/fold(_:)``).
  static func tagKey(of name: String) -> [UInt8] {
    var key: [UInt8] = []
    key.reserveCapacity(name.utf8.count)
    for byte in name.utf8 {
      if byte >= 0x80 {
        let folded = Analyzer.fold(name)
        return folded.utf8.filter { $0 >= 0x80 || ASCII.isAlphanumeric($0) }
      }
      if ASCII.isAlphanumeric(byte) { key.append(byte | (byte >= 65 && byte <= 90 ? 0x20 : 0)) }
    }
    return key
  }

  /// Analyzes `query` (sanitized; quotes are ignored) for every type's name fields.
  init(query: String, workspace: SearchWorkspace) {
    let text = String(
      query.unicodeScalars.filter {
        !"\"\u{201C}\u{201D}\u{201E}\u{FF02}".unicodeScalars.contains($0)
      })
    let stream = workspace.fieldStream
    func textLength() -> Int32 {
      stream.removeAll()
      return Int32(clamping: workspace.fieldTokenizer.tokenize(text, into: stream))
    }
    let asText = textLength()
    var lengths = Array(repeating: SIMD4<Int32>(repeating: -1), count: 4)
    for type in SearchResultType.allCases {
      if let slot = NameLengths.textNameSlot(of: type) { lengths[type.index][slot] = asText }
    }
    self.lengths = lengths
    tagKey = NameLengths.tagKey(of: text)
  }

  /// The field slot of a type's text name: video and sound titles, display names.
  static func textNameSlot(of type: SearchResultType) -> Int? {
    switch type {
    case .video, .sound: 0
    case .user: 1
    case .hashtag: nil
    }
  }

  /// Whether a type's stored titles are tag names (usernames, hashtag names).
  static func hasTagNames(_ type: SearchResultType) -> Bool {
    type == .user || type == .hashtag
  }

  /// The expected lengths of a type's fields, by slot.
  func lengths(of type: SearchResultType) -> SIMD4<Int32> { lengths[type.index] }
}
