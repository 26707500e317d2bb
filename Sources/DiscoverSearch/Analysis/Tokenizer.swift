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
  /// Whether document mode adds ICU's dictionary words to Chinese and Japanese bigrams.
  /// Highlighting turns this off: bigrams already mark every matched span.
  var addsDictionaryWords = true
  let table = CharacterTable.shared
  /// Scratch space reused between calls.
  let space = TokenizerScratch()
  /// Added to every source offset: set while tokenizing a slice of a larger text.
  var sourceBase = 0
  /// Dictionary segmentations already computed, replayed for repeated runs.
  var segmentations = SegmentationCache()

  init(mode: Mode) {
    self.mode = mode
  }

  /// Tokenizes `text`, appending to `stream` with positions starting at `firstPosition`.
  ///
  /// - Returns: The position after the last token.
  /// - Complexity: O(n) in the length of the text.
  @discardableResult
  mutating func tokenize(_ text: String, into stream: TokenStream, firstPosition: UInt32 = 0)
    -> UInt32
  {
    var text = text
    return text.withUTF8 { tokenize(bytes: $0, into: stream, firstPosition: firstPosition) }
  }

  /// Tokenizes UTF-8 bytes; see ``tokenize(_:into:firstPosition:)``.
  @discardableResult
  mutating func tokenize(
    bytes text: UnsafeBufferPointer<UInt8>, into stream: TokenStream, firstPosition: UInt32
  ) -> UInt32 {
    var position = firstPosition
    var index = 0
    let end = text.count
    let tokenLimit = stream.tokens.count + Tokenizer.maximumTokensPerField
    var previousIsWord = false
    while index < end, stream.tokens.count < tokenLimit {
      let byte = text[index]
      if byte < 0x80 {
        if ASCII.isAlphanumeric(byte) {
          if let urlEnd = URLScanner.urlEnd(in: text, at: index) {
            scanURL(text, from: index, to: urlEnd, into: stream, position: &position)
            index = urlEnd
            previousIsWord = false
            continue
          }
          index = scanWord(text, from: index, into: stream, position: &position)
          previousIsWord = true
          continue
        }
        if (byte == UInt8(ascii: "#") || byte == UInt8(ascii: "@")) && !previousIsWord,
          let bodyStart = Optional(index + 1), startsTagBody(text, at: bodyStart)
        {
          let kind: TokenKind = byte == UInt8(ascii: "#") ? .hashtag : .mention
          index = scanTag(
            text, marker: index, bodyStart: bodyStart, kind: kind, into: stream, position: &position
          )
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
        index = scanCJRun(text, from: index, into: stream, position: &position)
        previousIsWord = true
      } else if flags.contains(.dictionaryScript) {
        index = scanDictionaryRun(text, from: index, into: stream, position: &position)
        previousIsWord = true
      } else if !flags.isDisjoint(with: .wordCharacter) {
        index = scanWord(text, from: index, into: stream, position: &position)
        previousIsWord = true
      } else if flags.contains(.pictographic) || Emoji.isRegionalIndicator(codePoint) {
        index = scanEmoji(text, from: index, into: stream, position: &position)
        previousIsWord = false
      } else if (codePoint == 0xFF03 || codePoint == 0xFF20) && !previousIsWord
        && startsTagBody(text, at: index + width)
      {
        // Full-width ＃ and ＠, as typed on Japanese and Chinese keyboards.
        let kind: TokenKind = codePoint == 0xFF03 ? .hashtag : .mention
        index = scanTag(
          text, marker: index, bodyStart: index + width, kind: kind, into: stream,
          position: &position)
        previousIsWord = true
      } else {
        index += width
        previousIsWord = false
      }
    }
    // One scan can add several tokens (a Chinese run, an emoji's names, a tag's parts);
    // keep the documented cap exactly.
    if stream.tokens.count > tokenLimit { stream.tokens.truncate(to: tokenLimit) }
    return position
  }

  /// Tokenizes a tag given without its marker (a hashtag name from a video's `hashtags`, a
  /// username), as if it had been written `#name` or `@name` in text.
  ///
  /// Characters a tag cannot hold (spaces, hyphens) are removed, so `k-pop` is `#kpop`.
  @discardableResult
  mutating func tokenizeTag(
    _ name: String, kind: TokenKind, into stream: TokenStream, firstPosition: UInt32 = 0
  ) -> UInt32 {
    precondition(kind == .hashtag || kind == .mention, "tokenizeTag takes .hashtag or .mention")
    let space = self.space
    space.tag.removeAll()
    space.tag.append(kind == .hashtag ? UInt8(ascii: "#") : UInt8(ascii: "@"))
    var name = name
    name.withUTF8 { name in
      for byte in name {
        if byte < 0x80 {
          if ASCII.isAlphanumeric(byte) || byte == UInt8(ascii: "_")
            || (byte == UInt8(ascii: ".") && kind == .mention)
          {
            space.tag.append(byte)
          }
        } else {
          space.tag.append(byte)
        }
      }
    }
    let filtered = space.tag
    guard filtered.count > 1 else { return firstPosition }
    var position = firstPosition
    let text = UnsafeBufferPointer(start: filtered.base, count: filtered.count)
    if startsTagBody(text, at: 1) {
      _ = scanTag(text, marker: 0, bodyStart: 1, kind: kind, into: stream, position: &position)
    }
    return position
  }

  // MARK: - Words

  /// Scans a word of a script written with spaces (Latin, Cyrillic, Greek, Hangul, Indic,
  /// Arabic...), folding it. Apostrophes inside a word are dropped (`don't` is `dont`).
  mutating func scanWord(
    _ text: UnsafeBufferPointer<UInt8>, from start: Int, into stream: TokenStream,
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
        if ASCII.isAlphanumeric(byte) {
          // The whole run of ASCII letters and digits in one append: appending byte by
          // byte stores and reloads the buffer's count for each.
          index = stream.bytes.appendLowercasedAlphanumericRun(of: text, from: index)
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
      stream.bytes.truncate(to: outputStart)
      foldInContext(text, start..<index, removingApostrophes: hasApostrophe, into: &stream.bytes)
    }
    emit(.word, from: outputStart, source: start..<index, position: position, into: stream)
    position &+= 1
    return index
  }

  /// Whether the code point at `index` continues a word after an apostrophe.
  private func isWordContinuation(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
    guard index < text.count else { return false }
    let byte = text[index]
    if byte < 0x80 { return ASCII.isAlphanumeric(byte) }
    let flags = table.flags(UTF8Encoding.decode(text, at: index).0)
    return flags.contains(.letter)
  }

  /// Folds a source range with ICU and appends the result.
  func foldInContext(
    _ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, removingApostrophes: Bool,
    into output: inout UnsafeGrowableBuffer<UInt8>
  ) {
    let start = output.count
    let source = UnsafeBufferPointer(rebasing: text[range])
    if !ContextualFolding.appendFold(of: source, to: &output) {
      // ICU refused the text (it cannot happen for valid UTF-8); keep it lowercased.
      for byte in source { output.append(ASCII.lowercase(byte)) }
    }
    if removingApostrophes {
      // Rare (an apostrophe inside a word that needs contextual folding): a copy is fine.
      let folded = Array(output.buffer[start...])
      output.truncate(to: start)
      var index = 0
      while index < folded.count {
        if folded[index] == UInt8(ascii: "'") {
          index += 1
        } else if folded[index] == 0xE2, index + 2 < folded.count, folded[index + 1] == 0x80,
          folded[index + 2] == 0x99
        {
          index += 3
        } else {
          output.append(folded[index])
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
    into stream: TokenStream
  ) {
    let count = stream.bytes.count - outputStart
    guard count > 0, count <= Tokenizer.maximumTokenBytes else {
      stream.bytes.truncate(to: outputStart)
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
    into stream: TokenStream
  ) {
    let outputStart = stream.bytes.count
    for offset in range { stream.bytes.append(stream.bytes[offset]) }
    emit(kind, from: outputStart, source: source, position: position, into: stream)
  }
}

/// Byte classes and lowercase mapping for ASCII, computed with comparisons (no table
/// lookups, which cost a lazy-global check and a bounds check per byte).
enum ASCII {
  @inline(__always)
  static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10
  }

  @inline(__always)
  static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

  @inline(__always)
  static func isUppercase(_ byte: UInt8) -> Bool { byte &- 0x41 < 26 }

  @inline(__always)
  static func isLowercase(_ byte: UInt8) -> Bool { byte &- 0x61 < 26 }

  @inline(__always)
  static func lowercase(_ byte: UInt8) -> UInt8 {
    byte &- 0x41 < 26 ? byte | 0x20 : byte
  }

  /// The high bit of each byte of a word.
  static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// The high bit set in each byte of `word` (little-endian) that lies in `low...high`;
  /// bytes of 0x80 and above are never in range. Each byte of the sums stays below 0x100
  /// for bytes under 0x80, so no carry crosses into the next.
  @inline(__always)
  private static func bytes(of word: UInt64, in low: UInt8, _ high: UInt8) -> UInt64 {
    let ascii = word & ~highBits
    let atLeastLow = ascii &+ UInt64(0x80 &- low) &* 0x0101_0101_0101_0101
    let aboveHigh = ascii &+ UInt64(0x7F &- high) &* 0x0101_0101_0101_0101
    return atLeastLow & ~aboveHigh & ~word & highBits
  }

  /// How many bytes of a word, from its first (little-endian), have their high bit set in
  /// `marks`, before the first that has not.
  @inline(__always)
  static func leadingMarkedBytes(_ marks: UInt64) -> Int {
    (~marks & highBits).trailingZeroBitCount &>> 3
  }

  /// Where the run of bytes in `low...high` that starts at `start` ends, eight bytes at a
  /// time while eight remain.
  @inline(__always)
  static func runEnd(
    in text: UnsafeBufferPointer<UInt8>, from start: Int, _ low: UInt8, _ high: UInt8
  ) -> Int {
    let end = text.count
    var index = start
    if index &+ 8 <= end {
      let source = UnsafeRawPointer(text.baseAddress!)
      repeat {
        let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        let inRange = bytes(of: word, in: low, high)
        guard inRange == highBits else { return index &+ leadingMarkedBytes(inRange) }
        index &+= 8
      } while index &+ 8 <= end
    }
    while index < end && text[index] &- low <= high &- low { index &+= 1 }
    return index
  }

  /// ``isAlphanumeric(_:)`` of each byte of `word`, as its high bit.
  @inline(__always)
  static func alphanumericBytes(_ word: UInt64) -> UInt64 {
    bytes(of: word | 0x2020_2020_2020_2020, in: 0x61, 0x7A) | bytes(of: word, in: 0x30, 0x39)
  }

  /// ``lowercase(_:)`` of each byte of `word`.
  @inline(__always)
  static func lowercased(_ word: UInt64) -> UInt64 {
    word | bytes(of: word, in: 0x41, 0x5A) &>> 2
  }
}

/// The output bytes `start..<end` of one part of a tag.
struct TagPart: BitwiseCopyable {
  var start: Int
  var end: Int
  var range: Range<Int> { start..<end }
}

/// Scratch buffers a tokenizer reuses between calls, freed with it.
final class TokenizerScratch {
  // Allocated on first use: a query tokenizer usually needs none of them.
  private let runCell = UnsafeBufferCell<UInt8>(capacity: 0)
  private let runOffsetCell = UnsafeBufferCell<Int>(capacity: 0)
  private let runSourceCell = UnsafeBufferCell<Int>(capacity: 0)
  private let wordBoundCell = UnsafeBufferCell<Int32>(capacity: 0)
  private let tagCell = UnsafeBufferCell<UInt8>(capacity: 0)
  private let tagPartCell = UnsafeBufferCell<TagPart>(capacity: 0)

  /// The folded bytes of a Chinese or Japanese run.
  var run: UnsafeGrowableBuffer<UInt8> {
    @inline(__always) get { runCell.value }
    @inline(__always) _modify { yield &runCell.value }
  }
  /// Where each character of the run starts in ``run`` and in the source text.
  var runOffsets: UnsafeGrowableBuffer<Int> {
    @inline(__always) get { runOffsetCell.value }
    @inline(__always) _modify { yield &runOffsetCell.value }
  }
  var runSources: UnsafeGrowableBuffer<Int> {
    @inline(__always) get { runSourceCell.value }
    @inline(__always) _modify { yield &runSourceCell.value }
  }
  /// Word boundaries of one run (start, end pairs).
  var wordBounds: UnsafeGrowableBuffer<Int32> {
    @inline(__always) get { wordBoundCell.value }
    @inline(__always) _modify { yield &wordBoundCell.value }
  }
  /// A tag being normalized.
  var tag: UnsafeGrowableBuffer<UInt8> {
    @inline(__always) get { tagCell.value }
    @inline(__always) _modify { yield &tagCell.value }
  }
  /// The output ranges of the camelCase, snake_case or dotted parts of the tag being
  /// scanned.
  var tagParts: UnsafeGrowableBuffer<TagPart> {
    @inline(__always) get { tagPartCell.value }
    @inline(__always) _modify { yield &tagPartCell.value }
  }

  deinit {
    runCell.deallocate()
    runOffsetCell.deallocate()
    runSourceCell.deallocate()
    wordBoundCell.deallocate()
    tagCell.deallocate()
    tagPartCell.deallocate()
  }
}
