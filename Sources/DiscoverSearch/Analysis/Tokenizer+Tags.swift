extension Tokenizer {
  /// Letter-case classes for splitting camelCase tags.
  private enum CaseClass {
    case none, lower, upper, digit, caseless
  }

  /// Whether a tag body (letters or digits) starts at `index`.
  func startsTagBody(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
    guard index < text.count else { return false }
    let byte = text[index]
    if byte < 0x80 { return ASCII.isAlphanumeric(byte) }
    let flags = table.flags(UTF8Encoding.decode(text, at: index).0)
    return !flags.isDisjoint(with: [.letter, .number])
  }

  /// Scans `#tag` or `@name` starting at `marker`.
  ///
  /// The whole tag is one term with its marker (`#dancechallenge`). In document mode the
  /// tag's words follow: the concatenated body (`dancechallenge`), then its parts when the
  /// body is camelCase, snake_case or dotted (`#DanceChallenge` gives `dance` and
  /// `challenge` at consecutive positions, so the phrase "dance challenge" finds it). Tags
  /// written in Chinese, Japanese or Thai are tokenized as text after the tag term. In query
  /// mode only the tag term is emitted: `#dance` means the tag, not the word.
  mutating func scanTag(
    _ text: UnsafeBufferPointer<UInt8>, marker: Int, bodyStart: Int, kind: TokenKind,
    into stream: TokenStream, position: inout UInt32
  ) -> Int {
    let outputStart = stream.bytes.count
    stream.bytes.append(kind == .hashtag ? UInt8(ascii: "#") : UInt8(ascii: "@"))
    let bodyOutputStart = stream.bytes.count
    // A scratch buffer, not an array: emptying an array with `removeAll(keepingCapacity:)`
    // cost about 90 instructions a tag.
    let space = self.space
    space.tagParts.removeAll()
    var partStart = bodyOutputStart
    var previous = CaseClass.none
    var beforePrevious = CaseClass.none
    var previousCharacterStart = bodyOutputStart
    var needsContext = false
    var hasScriptRun = false
    var index = bodyStart
    let end = text.count

    func closePart(at offset: Int) {
      if offset > partStart { space.tagParts.append(TagPart(start: partStart, end: offset)) }
      partStart = offset
    }

    while index < end {
      let byte = text[index]
      var current: CaseClass
      var width = 1
      var codePoint = UInt32(byte)
      var flags = CharacterTable.Flags()
      if byte < 0x80 {
        if (previous == .lower && ASCII.isLowercase(byte))
          || (previous == .digit && ASCII.isDigit(byte))
        {
          // A run continuing the class before it has no boundary inside: append it whole,
          // leaving the state as the loop below would after its last character.
          let runEnd =
            previous == .digit
            ? ASCII.runEnd(in: text, from: index &+ 1, 0x30, 0x39)
            : ASCII.runEnd(in: text, from: index &+ 1, 0x61, 0x7A)
          // Lowercase letters and digits are their own folding.
          stream.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[index..<runEnd]))
          beforePrevious = previous
          previousCharacterStart = stream.bytes.count &- 1
          index = runEnd
          continue
        }
        if ASCII.isAlphanumeric(byte) {
          current = ASCII.isDigit(byte) ? .digit : (ASCII.isUppercase(byte) ? .upper : .lower)
        } else if byte == UInt8(ascii: "_")
          || (byte == UInt8(ascii: ".") && kind == .mention && startsTagBody(text, at: index + 1))
        {
          closePart(at: stream.bytes.count)
          stream.bytes.append(byte)
          partStart = stream.bytes.count
          previous = .none
          beforePrevious = .none
          index += 1
          continue
        } else {
          break
        }
      } else {
        (codePoint, width) = UTF8Encoding.decode(text, at: index)
        flags = table.flags(codePoint)
        guard !flags.isDisjoint(with: .wordCharacter) else { break }
        if flags.contains(.cjScript) || flags.contains(.dictionaryScript) { hasScriptRun = true }
        if flags.contains(.mark) {
          // A combining mark belongs to the character before it: no boundary here.
          if !(flags.contains(.contextFree) && codePoint < 0x10000) { needsContext = true }
          if !needsContext { table.appendFold(of: codePoint, to: &stream.bytes) }
          index += width
          continue
        }
        if flags.contains(.number) {
          current = .digit
        } else if flags.contains(.uppercase) {
          current = .upper
        } else if flags.contains(.cjScript) || flags.contains(.dictionaryScript)
          || flags.contains(.hangul)
        {
          current = .caseless
        } else {
          current = .lower
        }
      }

      // camelCase boundaries: "danceChallenge", "top10", "HTMLParser" (before the last
      // capital of a run of capitals followed by a lowercase letter).
      let characterStart = stream.bytes.count
      switch (previous, current) {
      case (.lower, .upper):
        closePart(at: characterStart)
      case (.digit, .lower), (.digit, .upper), (.digit, .caseless),
        (.lower, .digit), (.upper, .digit), (.caseless, .digit):
        closePart(at: characterStart)
      case (.upper, .lower) where beforePrevious == .upper:
        closePart(at: previousCharacterStart)
      default:
        break
      }
      beforePrevious = previous
      previous = current
      previousCharacterStart = characterStart

      if byte < 0x80 {
        stream.bytes.append(ASCII.lowercase(byte))
      } else if flags.contains(.contextFree) && codePoint < 0x10000 {
        table.appendFold(of: codePoint, to: &stream.bytes)
      } else {
        needsContext = true
      }
      index += width
    }

    if needsContext {
      // Fold the whole body in context; parts then come from separators only.
      stream.bytes.truncate(to: bodyOutputStart)
      foldInContext(text, bodyStart..<index, removingApostrophes: false, into: &stream.bytes)
      space.tagParts.removeAll()
      partStart = bodyOutputStart
      var offset = bodyOutputStart
      while offset < stream.bytes.count {
        let byte = stream.bytes[offset]
        if byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") {
          closePart(at: offset)
          partStart = offset + 1
        }
        offset += 1
      }
    }
    closePart(at: stream.bytes.count)

    let bodyOutputEnd = stream.bytes.count
    let source = marker..<index
    emit(kind, from: outputStart, source: source, position: position, into: stream)
    guard mode == .document else {
      position &+= 1
      return index
    }

    if hasScriptRun {
      // Tags in scripts without camelCase: their words as in running text.
      let savedBase = sourceBase
      sourceBase += bodyStart
      let body = UnsafeBufferPointer(rebasing: text[bodyStart..<index])
      let next = tokenize(bytes: body, into: stream, firstPosition: position)
      sourceBase = savedBase
      position = max(next, position &+ 1)
      return index
    }

    guard bodyOutputEnd <= stream.bytes.count, bodyOutputEnd > bodyOutputStart else {
      position &+= 1
      return index
    }
    let parts = space.tagParts.buffer
    if parts.count >= 2 {
      // The concatenation without separators, then each part.
      let wordStart = stream.bytes.count
      for part in parts {
        for offset in part.range { stream.bytes.append(stream.bytes[offset]) }
      }
      emit(.tagWord, from: wordStart, source: source, position: position, into: stream)
      for (offset, part) in parts.enumerated() {
        emitCopy(
          .tagPart, of: part.range, source: source, position: position &+ UInt32(offset),
          into: stream)
      }
      position &+= UInt32(parts.count)
    } else if let part = parts.first {
      emitCopy(.tagWord, of: part.range, source: source, position: position, into: stream)
      position &+= 1
    } else {
      position &+= 1
    }
    return index
  }
}
