/// Splits text into folded tokens on UTF-8 bytes.
///
/// One pass over the bytes, with an ASCII fast path: ASCII letters are lowercased inline,
/// other code points of the Basic Multilingual Plane fold through a precomputed table, and
/// ICU is called only for text whose folding depends on context (combining marks that stay,
/// Hangul jamo) and for dictionary word breaks (Thai, Lao, Khmer, Myanmar, Chinese, Japanese).
///
/// Folding is NFKC case folding with diacritics removed, so `Café`, `CAFE`, `cafe\u{301}` and
/// full-width `ＣＡＦＥ` all become `cafe`; Turkish `İ` and `ı` become `i`.
///
/// Documents and queries share this pipeline; ``Mode`` changes only what is emitted for
/// Chinese and Japanese runs, tags and emoji (see ``TokenKind``).
struct Tokenizer {
  typealias Mode = AnalysisMode

  /// Tokens longer than this many folded bytes are dropped: they are hashes, base64 or
  /// keyboard mashing, and would only fill the term dictionary.
  static let maximumTokenBytes = 64
  /// At most this many tokens are taken from one field; text beyond is not indexed. Longer
  /// fields are not titles or descriptions a person reads (Lucene's LimitTokenCountFilter).
  static let maximumTokensPerField = 65_536
  /// Chinese and Japanese runs are cut into pieces of at most this many characters before
  /// dictionary segmentation.
  static let maximumScriptRun = 1024

  let mode: Mode
  let table = CharacterTable.shared
  /// Scratch space reused between calls.
  var runOffsets: [Int] = []
  var runSources: [Int] = []
  var scratch: [UInt8] = []
  var parts: [(start: Int, end: Int)] = []
  /// Added to every source offset: set while tokenizing a slice of a larger text.
  var sourceBase = 0

  init(mode: Mode) {
    self.mode = mode
  }

  /// Tokenizes `text`, appending to `stream` with positions starting at `firstPosition`.
  ///
  /// - Returns: The position after the last token.
  /// - Complexity: O(n) in the length of the text.
  @discardableResult
  mutating func tokenize(_ text: String, into stream: inout TokenStream, firstPosition: UInt32 = 0)
    -> UInt32
  {
    var text = text
    return text.withUTF8 { tokenize(bytes: $0, into: &stream, firstPosition: firstPosition) }
  }

  /// Tokenizes UTF-8 bytes; see ``tokenize(_:into:firstPosition:)``.
  @discardableResult
  mutating func tokenize(
    bytes text: UnsafeBufferPointer<UInt8>, into stream: inout TokenStream, firstPosition: UInt32
  ) -> UInt32 {
    var position = firstPosition
    var index = 0
    let end = text.count
    let tokenLimit = stream.tokens.count + Tokenizer.maximumTokensPerField
    var previousIsWord = false
    while index < end, stream.tokens.count < tokenLimit {
      let byte = text[index]
      if byte < 0x80 {
        let kind = ASCII.kind[Int(byte)]
        if kind & ASCII.alphanumeric != 0 {
          if let urlEnd = URLScanner.urlEnd(in: text, at: index) {
            scanURL(text, from: index, to: urlEnd, into: &stream, position: &position)
            index = urlEnd
            previousIsWord = false
            continue
          }
          index = scanWord(text, from: index, into: &stream, position: &position)
          previousIsWord = true
          continue
        }
        if (byte == UInt8(ascii: "#") || byte == UInt8(ascii: "@")) && !previousIsWord,
          let bodyStart = Optional(index + 1), startsTagBody(text, at: bodyStart)
        {
          let kind: TokenKind = byte == UInt8(ascii: "#") ? .hashtag : .mention
          index = scanTag(text, marker: index, bodyStart: bodyStart, kind: kind, into: &stream, position: &position)
          previousIsWord = true
          continue
        }
        previousIsWord = false
        index += 1
        continue
      }
      let (codePoint, width) = UTF8Encoding.decode(text, at: index)
      let flags = table.flags(codePoint)
      let before = index
      defer {
        // Every scanner consumes what it starts on; this keeps the scan moving regardless.
        if index <= before { index = before + max(width, 1) }
      }
      if flags.contains(.cjScript) {
        index = scanCJRun(text, from: index, into: &stream, position: &position)
        previousIsWord = true
      } else if flags.contains(.dictionaryScript) {
        index = scanDictionaryRun(text, from: index, into: &stream, position: &position)
        previousIsWord = true
      } else if !flags.isDisjoint(with: .wordCharacter) {
        index = scanWord(text, from: index, into: &stream, position: &position)
        previousIsWord = true
      } else if flags.contains(.pictographic) || Emoji.isRegionalIndicator(codePoint) {
        index = scanEmoji(text, from: index, into: &stream, position: &position)
        previousIsWord = false
      } else if (codePoint == 0xFF03 || codePoint == 0xFF20) && !previousIsWord
        && startsTagBody(text, at: index + width)
      {
        // Full-width ＃ and ＠, as typed on Japanese and Chinese keyboards.
        let kind: TokenKind = codePoint == 0xFF03 ? .hashtag : .mention
        index = scanTag(text, marker: index, bodyStart: index + width, kind: kind, into: &stream, position: &position)
        previousIsWord = true
      } else {
        index += width
        previousIsWord = false
      }
    }
    return position
  }

  /// Tokenizes a tag given without its marker (a hashtag name from a video's `hashtags`, a
  /// username), as if it had been written `#name` or `@name` in text.
  ///
  /// Characters a tag cannot hold (spaces, hyphens) are removed, so `k-pop` is `#kpop`.
  @discardableResult
  mutating func tokenizeTag(
    _ name: String, kind: TokenKind, into stream: inout TokenStream, firstPosition: UInt32 = 0
  ) -> UInt32 {
    precondition(kind == .hashtag || kind == .mention, "tokenizeTag takes .hashtag or .mention")
    var filtered: [UInt8] = [kind == .hashtag ? UInt8(ascii: "#") : UInt8(ascii: "@")]
    for byte in name.utf8 {
      if byte < 0x80 {
        let isKept =
          ASCII.kind[Int(byte)] & ASCII.alphanumeric != 0 || byte == UInt8(ascii: "_")
          || (byte == UInt8(ascii: ".") && kind == .mention)
        if isKept { filtered.append(byte) }
      } else {
        filtered.append(byte)
      }
    }
    guard filtered.count > 1 else { return firstPosition }
    var position = firstPosition
    filtered.withUnsafeBufferPointer { text in
      if startsTagBody(text, at: 1) {
        _ = scanTag(text, marker: 0, bodyStart: 1, kind: kind, into: &stream, position: &position)
      }
    }
    return position
  }

  // MARK: - Words

  /// Scans a word of a script written with spaces (Latin, Cyrillic, Greek, Hangul, Indic,
  /// Arabic...), folding it. Apostrophes inside a word are dropped (`don't` is `dont`).
  mutating func scanWord(
    _ text: UnsafeBufferPointer<UInt8>, from start: Int, into stream: inout TokenStream,
    position: inout UInt32
  ) -> Int {
    let outputStart = stream.bytes.count
    var index = start
    var needsContext = false
    var hasApostrophe = false
    let end = text.count
    while index < end {
      let byte = text[index]
      if byte < 0x80 {
        let kind = ASCII.kind[Int(byte)]
        if kind & ASCII.alphanumeric != 0 {
          stream.bytes.append(ASCII.lowercase[Int(byte)])
          index += 1
          continue
        }
        if byte == UInt8(ascii: "'"), isWordContinuation(text, at: index + 1) {
          hasApostrophe = true
          index += 1
          continue
        }
        break
      }
      let (codePoint, width) = UTF8Encoding.decode(text, at: index)
      if codePoint == 0x2019, isWordContinuation(text, at: index + width) {
        hasApostrophe = true
        index += width
        continue
      }
      let flags = table.flags(codePoint)
      guard !flags.isDisjoint(with: .wordCharacter),
        !flags.contains(.cjScript), !flags.contains(.dictionaryScript)
      else { break }
      if flags.contains(.contextFree) && codePoint < 0x10000 {
        table.appendFold(of: codePoint, to: &stream.bytes)
      } else {
        needsContext = true
      }
      index += width
    }
    if needsContext {
      stream.bytes.removeSubrange(outputStart...)
      foldInContext(text, start..<index, removingApostrophes: hasApostrophe, into: &stream.bytes)
    }
    emit(.word, from: outputStart, source: start..<index, position: position, into: &stream)
    position &+= 1
    return index
  }

  /// Whether the code point at `index` continues a word after an apostrophe.
  private func isWordContinuation(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
    guard index < text.count else { return false }
    let byte = text[index]
    if byte < 0x80 { return ASCII.kind[Int(byte)] & ASCII.alphanumeric != 0 }
    let flags = table.flags(UTF8Encoding.decode(text, at: index).0)
    return flags.contains(.letter)
  }

  /// Folds a source range with ICU and appends the result.
  func foldInContext(
    _ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, removingApostrophes: Bool,
    into output: inout [UInt8]
  ) {
    let start = output.count
    let source = UnsafeBufferPointer(rebasing: text[range])
    if !ContextualFolding.appendFold(of: source, to: &output) {
      // ICU refused the text (it cannot happen for valid UTF-8); keep it lowercased.
      for byte in source { output.append(byte < 0x80 ? ASCII.lowercase[Int(byte)] : byte) }
    }
    if removingApostrophes {
      // Rare (an apostrophe inside a word that needs contextual folding): a copy is fine.
      let scratch = Array(output[start...])
      output.removeSubrange(start...)
      var index = 0
      while index < scratch.count {
        if scratch[index] == UInt8(ascii: "'") {
          index += 1
        } else if scratch[index] == 0xE2, index + 2 < scratch.count, scratch[index + 1] == 0x80,
          scratch[index + 2] == 0x99
        {
          index += 3
        } else {
          output.append(scratch[index])
          index += 1
        }
      }
    }
  }

  /// Records the token whose folded bytes run from `outputStart` to the end of the stream's
  /// bytes, unless it is empty or too long (then its bytes are removed).
  @inline(__always)
  func emit(
    _ kind: TokenKind, from outputStart: Int, source: Range<Int>, position: UInt32,
    into stream: inout TokenStream
  ) {
    let count = stream.bytes.count - outputStart
    guard count > 0, count <= Tokenizer.maximumTokenBytes else {
      stream.bytes.removeSubrange(outputStart...)
      return
    }
    stream.tokens.append(
      Token(
        start: UInt32(outputStart), count: UInt32(count), position: position,
        sourceStart: UInt32(sourceBase + source.lowerBound),
        sourceEnd: UInt32(sourceBase + source.upperBound), kind: kind))
  }

  /// Appends a copy of the bytes `range` of the stream's buffer as a new token.
  @inline(__always)
  func emitCopy(
    _ kind: TokenKind, of range: Range<Int>, source: Range<Int>, position: UInt32,
    into stream: inout TokenStream
  ) {
    let outputStart = stream.bytes.count
    stream.bytes.reserveCapacity(outputStart + range.count)
    for offset in range { stream.bytes.append(stream.bytes[offset]) }
    emit(kind, from: outputStart, source: source, position: position, into: &stream)
  }
}

/// Byte classes and lowercase mapping for ASCII.
enum ASCII {
  static let alphanumeric: UInt8 = 1
  static let uppercase: UInt8 = 2
  static let digit: UInt8 = 4

  static let kind: [UInt8] = (0..<128).map { byte -> UInt8 in
    switch byte {
    case 0x30...0x39: alphanumeric | digit
    case 0x41...0x5A: alphanumeric | uppercase
    case 0x61...0x7A: alphanumeric
    default: 0
    }
  }

  static let lowercase: [UInt8] = (0..<128).map { byte -> UInt8 in
    (0x41...0x5A).contains(byte) ? UInt8(byte + 0x20) : UInt8(byte)
  }
}
