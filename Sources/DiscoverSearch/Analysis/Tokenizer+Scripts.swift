extension Tokenizer {
  /// Scans a run of Chinese or Japanese characters (Han, Hiragana, Katakana).
  ///
  /// These scripts have no spaces, and a dictionary splits a short query differently from
  /// the title it came from (meilisearch#2091). So every pair of adjacent characters is a
  /// term (the bigram indexing of Lucene's CJKBigramFilter), and a query's run becomes its
  /// bigrams, all required: any run of two or more characters of a title finds the title
  /// whatever the dictionary does. Documents also get ICU's dictionary words of one or of
  /// three or more characters, so a lone character typed as a query finds its word.
  mutating func scanCJRun(
    _ text: UnsafeBufferPointer<UInt8>, from start: Int, into stream: TokenStream,
    position: inout UInt32
  ) -> Int {
    let space = self.space
    space.runOffsets.removeAll()
    space.runSources.removeAll()
    space.run.removeAll()
    let table = self.table
    var needsContext = false
    var index = start
    let end = text.count
    while index < end, space.runOffsets.count < Tokenizer.maximumScriptRun {
      if text[index] < 0x80 { break }
      let (codePoint, width) = UTF8Encoding.decode(text, at: index)
      let flags = table.flags(codePoint)
      if !flags.contains(.cjScript) {
        // A combining mark continues the character before it.
        guard flags.contains(.mark), !space.runOffsets.isEmpty else { break }
        needsContext = true
        index += width
        continue
      }
      space.runOffsets.append(space.run.count)
      space.runSources.append(index)
      if flags.contains(.contextFree) && codePoint < 0x10000 {
        table.appendFold(of: codePoint, to: &space.run)
      } else {
        needsContext = true
      }
      index += width
    }
    space.runSources.append(index)
    var sourcesAreExact = true
    if needsContext {
      // Fold in context (halfwidth katakana with voicing marks), then find the characters.
      space.run.removeAll()
      foldInContext(text, start..<index, removingApostrophes: false, into: &space.run)
      space.runOffsets.removeAll()
      var offset = 0
      while offset < space.run.count {
        space.runOffsets.append(offset)
        offset += Swift.max(UTF8Encoding.decode(space.run, at: offset).1, 1)
      }
      sourcesAreExact = false
    }
    space.runOffsets.append(space.run.count)
    let runOffsets = space.runOffsets
    let runSources = space.runSources
    let characterCount = runOffsets.count - 1
    guard characterCount > 0 else { return Swift.max(index, start + 1) }

    func source(_ first: Int, _ last: Int) -> Range<Int> {
      sourcesAreExact ? runSources[first]..<runSources[last] : start..<index
    }

    // The dictionary words come last; looking the run up in the cache starts now, so that
    // the slot's cache miss overlaps making the bigrams.
    let segmentsRun = mode == .document && addsDictionaryWords && characterCount > 1
    let runHash = segmentsRun ? segmentations.prepareLookup(space.run.buffer) : 0
    if characterCount == 1 {
      let outputStart = stream.bytes.count
      appendScratch(runOffsets[0]..<runOffsets[1], to: stream)
      emit(.cjWord, from: outputStart, source: source(0, 1), position: position, into: stream)
      position &+= 1
      return index
    }
    for first in 0..<(characterCount - 1) {
      let outputStart = stream.bytes.count
      appendScratch(runOffsets[first]..<runOffsets[first + 2], to: stream)
      emit(
        .cjBigram, from: outputStart, source: source(first, first + 2),
        position: position &+ UInt32(first), into: stream)
    }
    if segmentsRun {
      let base = position
      segmentations.segment(space.run.buffer, hash: runHash, into: &space.wordBounds)
      let wordBounds = space.wordBounds
      for pair in stride(from: 0, to: wordBounds.count, by: 2) {
        let wordStart = Int(wordBounds[pair])
        let wordEnd = Int(wordBounds[pair + 1])
        // Characters are few; find the word's first and last character by binary search.
        let first = Tokenizer.lowerBound(of: wordStart, in: runOffsets)
        let last = Tokenizer.lowerBound(of: wordEnd, in: runOffsets)
        let length = last - first
        guard length != 2, length > 0 else { continue }
        let outputStart = stream.bytes.count
        appendScratch(wordStart..<wordEnd, to: stream)
        emit(
          .cjWord, from: outputStart, source: source(first, last), position: base &+ UInt32(first),
          into: stream)
      }
    }
    position &+= UInt32(characterCount)
    return index
  }

  private func appendScratch(_ range: Range<Int>, to stream: TokenStream) {
    stream.bytes.append(
      contentsOf: UnsafeBufferPointer(start: space.run.base + range.lowerBound, count: range.count))
  }

  static func lowerBound(of value: Int, in sorted: UnsafeGrowableBuffer<Int>) -> Int {
    var low = 0
    var high = sorted.count
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Scans a run of Thai, Lao, Khmer or Myanmar text, which is written without spaces
  /// between words; ICU's dictionary break iterator finds the words.
  mutating func scanDictionaryRun(
    _ text: UnsafeBufferPointer<UInt8>, from start: Int, into stream: TokenStream,
    position: inout UInt32
  ) -> Int {
    var index = start
    let end = text.count
    while index < end, text[index] >= 0x80 {
      let (codePoint, width) = UTF8Encoding.decode(text, at: index)
      let flags = table.flags(codePoint)
      guard flags.contains(.dictionaryScript) || flags.contains(.mark) else { break }
      index += width
    }
    let run = UnsafeBufferPointer(rebasing: text[start..<index])
    segmentations.segment(
      run, hash: segmentations.prepareLookup(run), into: &space.wordBounds)
    let wordBounds = space.wordBounds
    for pair in stride(from: 0, to: wordBounds.count, by: 2) {
      let word = (start + Int(wordBounds[pair]))..<(start + Int(wordBounds[pair + 1]))
      let outputStart = stream.bytes.count
      foldInContext(text, word, removingApostrophes: false, into: &stream.bytes)
      emit(.word, from: outputStart, source: word, position: position, into: stream)
      position &+= 1
    }
    return max(index, start + 1)
  }

  /// Scans an emoji or emoji sequence.
  ///
  /// Skin tone modifiers (U+1F3FB to U+1F3FF), variation selectors, keycap marks and tag
  /// characters are dropped, so 💃🏽 is 💃; a ZWJ sequence (👩‍🍳) stays one token. Documents
  /// also get the Unicode name words of each emoji at the same position (🔥 also indexes
  /// `fire`); a query emoji whose name is one word also matches that word.
  mutating func scanEmoji(
    _ text: UnsafeBufferPointer<UInt8>, from start: Int, into stream: TokenStream,
    position: inout UInt32
  ) -> Int {
    let outputStart = stream.bytes.count
    let end = text.count
    let (first, firstWidth) = UTF8Encoding.decode(text, at: start)
    var index = start + firstWidth
    if Emoji.isRegionalIndicator(first) {
      // A flag is a pair of regional indicators; a lone one is not a token.
      guard index < end else { return index }
      let (second, secondWidth) = UTF8Encoding.decode(text, at: index)
      guard Emoji.isRegionalIndicator(second) else { return index }
      UTF8Encoding.append(first, to: &stream.bytes)
      UTF8Encoding.append(second, to: &stream.bytes)
      index += secondWidth
      emit(.emoji, from: outputStart, source: start..<index, position: position, into: stream)
      position &+= 1
      return index
    }
    // The sequence's pictographs (at most 16), in a vector rather than an array: an
    // emoji is common enough that an allocation per emoji shows in indexing profiles.
    var components = SIMD16<UInt32>()
    components[0] = first
    var componentCount = 1
    UTF8Encoding.append(first, to: &stream.bytes)
    while index < end {
      let (codePoint, width) = UTF8Encoding.decode(text, at: index)
      if Emoji.isIgnorable(codePoint) {
        index += width
        continue
      }
      if codePoint == 0x200D, index + width < end {
        let (next, nextWidth) = UTF8Encoding.decode(text, at: index + width)
        if table.flags(next).contains(.pictographic), componentCount < 16 {
          UTF8Encoding.append(0x200D, to: &stream.bytes)
          UTF8Encoding.append(next, to: &stream.bytes)
          components[componentCount] = next
          componentCount += 1
          index += width + nextWidth
          continue
        }
      }
      break
    }
    let source = start..<index
    emit(.emoji, from: outputStart, source: source, position: position, into: stream)
    switch mode {
    case .document:
      for slot in 0..<componentCount {
        let component = components[slot]
        // A pictograph that repeats in the sequence gives its names once.
        if (0..<slot).contains(where: { components[$0] == component }) { continue }
        EmojiNames.forEachWord(of: component) { word in
          let wordStart = stream.bytes.count
          stream.bytes.append(contentsOf: word)
          emit(.emojiName, from: wordStart, source: source, position: position, into: stream)
        }
      }
    case .query:
      if componentCount == 1 && EmojiNames.wordCount(of: first) == 1 {
        EmojiNames.forEachWord(of: first) { word in
          let wordStart = stream.bytes.count
          stream.bytes.append(contentsOf: word)
          emit(.emojiName, from: wordStart, source: source, position: position, into: stream)
        }
      }
    }
    position &+= 1
    return index
  }

  /// Scans a URL: only the words of its host are kept (`https://www.instagram.com/x` gives
  /// `instagram`), without `www` and the top-level domain. Paths and queries are unique per
  /// link and would only fill the term dictionary.
  mutating func scanURL(
    _ text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
    into stream: TokenStream, position: inout UInt32
  ) {
    let host = URLScanner.hostRange(in: text, start..<end)
    var labels: [Range<Int>] = []
    var labelStart = host.lowerBound
    for index in host where text[index] == UInt8(ascii: ".") {
      labels.append(labelStart..<index)
      labelStart = index + 1
    }
    labels.append(labelStart..<host.upperBound)
    labels.removeAll { $0.isEmpty }
    if labels.count >= 2 { labels.removeLast() }
    if let first = labels.first, labels.count >= 2 || first.count == 3,
      URLScanner.isWWW(text, first)
    {
      labels.removeFirst()
    }
    for label in labels {
      let slice = UnsafeBufferPointer(rebasing: text[label])
      var index = 0
      while index < slice.count {
        if startsTagBody(slice, at: index) {
          let tokenCount = stream.tokens.count
          let savedBase = sourceBase
          sourceBase += label.lowerBound
          let next = scanWord(slice, from: index, into: stream, position: &position)
          sourceBase = savedBase
          // A letter scanWord does not take (a Chinese character in an international
          // domain name) is skipped, so the scan always moves on.
          index = next > index ? next : index + max(UTF8Encoding.decode(slice, at: index).1, 1)
          if stream.tokens.count > tokenCount {
            var token = stream.tokens[tokenCount]
            token.kind = .urlPart
            stream.tokens[tokenCount] = token
          }
        } else {
          index += 1
        }
      }
    }
  }
}

/// Code point classes of emoji sequences (Unicode Technical Standard #51).
enum Emoji {
  @inline(__always)
  static func isRegionalIndicator(_ codePoint: UInt32) -> Bool {
    codePoint >= 0x1F1E6 && codePoint <= 0x1F1FF
  }

  /// Parts of an emoji sequence that do not change what it depicts for search: variation
  /// selectors, skin tone modifiers, the keycap mark and tag characters.
  @inline(__always)
  static func isIgnorable(_ codePoint: UInt32) -> Bool {
    codePoint == 0xFE0F || codePoint == 0xFE0E || codePoint == 0x20E3
      || (codePoint >= 0x1F3FB && codePoint <= 0x1F3FF)
      || (codePoint >= 0xE0020 && codePoint <= 0xE007F)
  }
}

/// Finds URLs in text, on ASCII bytes.
enum URLScanner {
  private static let prefixes: [[UInt8]] = ["http://", "https://", "www."].map { Array($0.utf8) }

  /// If a URL starts at `index`, returns the offset just past it.
  static func urlEnd(in text: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
    let first = text[index] | 0x20
    guard first == UInt8(ascii: "h") || first == UInt8(ascii: "w") else { return nil }
    var matched = false
    for prefix in prefixes where index + prefix.count < text.count {
      var isMatch = true
      for (offset, byte) in prefix.enumerated() {
        let candidate = text[index + offset]
        let folded = candidate >= 0x41 && candidate <= 0x5A ? candidate | 0x20 : candidate
        if folded != byte {
          isMatch = false
          break
        }
      }
      if isMatch {
        matched = true
        break
      }
    }
    guard matched else { return nil }
    var end = index
    while end < text.count {
      let byte = text[end]
      if byte <= 0x20 || byte == 0x22 || byte == 0x27 || byte == 0x3C || byte == 0x3E
        || byte == 0x28 || byte == 0x29 || byte == 0x5B || byte == 0x5D || byte == 0x7B
        || byte == 0x7D || byte == 0x7C || byte == 0x5C || byte == 0x5E || byte == 0x60
      {
        break
      }
      end += 1
    }
    return end
  }

  /// The host of a URL: after the scheme and any user info, before the port, path, query
  /// or fragment.
  static func hostRange(in text: UnsafeBufferPointer<UInt8>, _ url: Range<Int>) -> Range<Int> {
    var start = url.lowerBound
    var index = url.lowerBound
    while index + 2 < url.upperBound {
      if text[index] == UInt8(ascii: ":") && text[index + 1] == UInt8(ascii: "/")
        && text[index + 2] == UInt8(ascii: "/")
      {
        start = index + 3
        break
      }
      if text[index] == UInt8(ascii: "/") { break }
      index += 1
    }
    var end = start
    while end < url.upperBound {
      let byte = text[end]
      if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
        || byte == UInt8(ascii: ":")
      {
        break
      }
      if byte == UInt8(ascii: "@") { start = end + 1 }
      end += 1
    }
    return start..<max(start, end)
  }

  static func isWWW(_ text: UnsafeBufferPointer<UInt8>, _ label: Range<Int>) -> Bool {
    guard label.count == 3 else { return false }
    return label.allSatisfy { text[$0] | 0x20 == UInt8(ascii: "w") }
  }
}
