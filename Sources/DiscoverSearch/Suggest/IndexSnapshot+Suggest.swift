import Foundation

extension DiscoverIndex {
  /// Suggestions for text being typed in the search bar.
  ///
  /// Earlier words must match whole (after typo correction) and the last word is matched
  /// as a prefix: `dance cha` suggests `dance challenge`. A text ending in a space asks for
  /// the next word. `#danc` suggests only hashtags and `@danc` only users. When the exact
  /// prefix finds fewer than ``SuggestOptions/typoThreshold`` suggestions, words within the
  /// typo budget are tried (`dnace cha`). The order follows the policy documented on
  /// ``SuggestOptions``.
  ///
  /// - Parameters:
  ///   - text: The text typed so far.
  ///   - limit: How many suggestions at most, 1 to 100.
  ///   - userID: Whose recent searches to include, with `analytics`.
  ///   - analytics: Where past, trending and recent searches come from; `nil` for
  ///     suggestions from the index alone.
  ///   - options: Typo tolerance and ranking factors.
  /// - Returns: Suggestions, best first; empty for text with nothing searchable.
  /// - Throws: ``SearchError/Code/invalidArgument`` when `limit` is outside 1...100.
  /// - Complexity: O(log t + k log k) for t terms and k suggestions, plus an automaton walk
  ///   when typo correction runs (a Levenshtein automaton). The first call on a snapshot
  ///   built in memory sorts its terms (see ``prepareSuggestions()``); an index opened from
  ///   a file has them sorted already.
  public func suggestions(
    forPrefix text: String, limit: Int = 10, userID: String? = nil,
    analytics: QueryAnalytics? = nil, options: SuggestOptions = SuggestOptions()
  ) throws -> [Suggestion] {
    guard limit > 0 && limit <= 100 else {
      throw SearchError(.invalidArgument, "suggestion limit must be 1...100, got \(limit)")
    }
    let segments = self.segments
    return workspaces.withWorkspace { workspace in
      segments.suggestions(
        forPrefix: text, limit: limit, userID: userID, analytics: analytics, options: options,
        workspace: workspace)
    }
  }

  /// Completions for a request: ``suggestions(forPrefix:limit:userID:analytics:options:)``
  /// with its parameters in one value.
  ///
  /// - Throws: ``SearchError/Code/invalidArgument`` when the request's limit is outside
  ///   1...100.
  public func suggestions(
    _ request: SuggestRequest, analytics: QueryAnalytics? = nil
  ) throws -> [Suggestion] {
    try suggestions(
      forPrefix: request.prefix, limit: request.limit, userID: request.userID,
      analytics: analytics, options: request.options)
  }

  /// Builds what suggestions and searches otherwise build on the first call that needs them,
  /// if the current snapshot does not have it yet: the sorted term dictionary and phrase
  /// dictionary (suggestions, prefix search, typo correction) and the exact name filters
  /// (the Top tab's cards and one-term queries).
  ///
  /// Call this after a commit to keep that cost out of a user's request: at 1,000,000
  /// synthetic documents, about 2 seconds for the dictionaries and 0.1 for the filters. An
  /// index opened with ``open(at:verification:)`` read its dictionaries with it (index format 9), so
  /// only the filters are left to build.
  public func prepareSuggestions() {
    let segments = self.segments
    _ = segments.suggestionStructures()
    for segment in segments.segments { segment.exactNames.prepare(segment) }
  }
}

/// Typed text, folded into words.
struct SuggestInput {
  /// The folded words; a `#` or `@` marker stays on its word.
  var words: [[UInt8]]
  /// Whether the text ends in a space: every word is whole and the next is wanted.
  var endsWithSpace: Bool
  /// Whether the last word overlaps the one before it in the text: two bigrams of one run
  /// of Chinese or Japanese (`火影` and `影忍` of `火影忍`), pieces of what was typed as one
  /// word rather than two words.
  var lastWordOverlapsPrevious = false

  init(_ text: String, workspace: SearchWorkspace) {
    let sanitized = QuerySanitizer.sanitize(text)
    endsWithSpace =
      text.unicodeScalars.last.map {
        // ASCII answered without the Unicode property tables.
        $0.isASCII ? $0 == " " || (0x09...0x0D).contains($0.value) : $0.properties.isWhitespace
      } ?? false
    let stream = workspace.queryStream
    stream.removeAll()
    workspace.queryTokenizer.tokenize(sanitized, into: stream)
    words = []
    var previousEnd: UInt32?
    for token in stream.tokens where token.kind != .emojiName {
      guard words.count < QueryParser.maximumTerms else { break }
      words.append(Array(stream.bytes(of: token)))
      lastWordOverlapsPrevious = previousEnd.map { token.sourceStart < $0 } ?? false
      previousEnd = token.sourceEnd
    }
  }

  /// The words joined by one space.
  static func joined(_ words: some Sequence<[UInt8]>) -> [UInt8] {
    var key: [UInt8] = []
    for word in words {
      if !key.isEmpty { key.append(UInt8(ascii: " ")) }
      key += word
    }
    return key
  }
}

extension SegmentSet {
  func suggestions(
    forPrefix text: String, limit: Int, userID: String?, analytics: QueryAnalytics?,
    options: SuggestOptions, workspace: SearchWorkspace
  ) -> [Suggestion] {
    let input = SuggestInput(text, workspace: workspace)
    guard var last = input.words.last else { return [] }
    var earlier = Array(input.words.dropLast())
    if input.endsWithSpace {
      earlier.append(last)
      last = []
    }
    // With deleted documents, the dictionaries still hold their words: collect more, and
    // keep those that still lead to a live document.
    let wanted = limit
    let limit = deletedCount > 0 ? min(limit * 2, 100) : limit
    var collector = SuggestionCollector(
      texts: PhraseTexts(segments: self), structures: suggestionStructures(), limit: limit,
      wordCount: input.words.count, typedKey: SuggestInput.joined(earlier + [last]),
      continuesARun: input.lastWordOverlapsPrevious && !input.endsWithSpace,
      tolerance: options.typoTolerance, workspace: workspace)
    let tolerance = options.typoTolerance
    let budget = tolerance.budget(for: last.withUnsafeBufferPointer { UTF8Scalar.scalars(of: $0) })

    collector.collect(head: earlier, last: last, headTypos: 0, isFuzzy: false)
    if let analytics {
      collector.addPastSearches(
        analytics: analytics, userID: userID, maximumRecent: max(options.maximumRecent, 0))
    }
    if collector.count < min(limit, options.typoThreshold) && budget > 0 {
      collector.collect(head: earlier, last: last, headTypos: 0, isFuzzy: true, budget: budget)
    }
    // The earlier words as typed lead to no phrase or past search: try them corrected.
    if !earlier.isEmpty && collector.attested == 0 && tolerance.isEnabled {
      let (corrected, typos) = collector.corrected(earlier)
      if typos > 0 {
        collector.collect(head: corrected, last: last, headTypos: typos, isFuzzy: false)
        if collector.attested < limit && budget > 0 {
          collector.collect(
            head: corrected, last: last, headTypos: typos, isFuzzy: true, budget: budget)
        }
      }
    }
    let ranked = collector.ranked(options: options)
    collector.releaseBuffers()
    guard deletedCount > 0 else { return ranked }
    return Array(
      ranked.lazy.filter { self.leadsToLiveDocuments($0, workspace: workspace) }.prefix(wanted))
  }

  /// Whether searching `suggestion` exactly finds a document that is not deleted; a
  /// user's own recent search is kept whatever it finds.
  private func leadsToLiveDocuments(_ suggestion: Suggestion, workspace: SearchWorkspace)
    -> Bool
  {
    guard !suggestion.isRecent else { return true }
    let response = try? search(
      suggestion.text, in: .top, limit: 1, after: nil, ranking: RankingOptions(),
      matching: .exact, workspace: workspace)
    return (response?.totalHits ?? 0) > 0
  }
}

extension IndexSnapshot {

  /// The UTF-8 range of `text` from its first word to the end of its `words`-th word.
  static func matchedRange(in text: String, words: Int, workspace: SearchWorkspace)
    -> HighlightRange?
  {
    plainWordsRange(in: text, words: words)
      ?? tokenizedRange(in: text, words: words, workspace: workspace)
  }

  /// ``matchedRange(in:words:workspace:)`` by the query tokenizer.
  static func tokenizedRange(in text: String, words: Int, workspace: SearchWorkspace)
    -> HighlightRange?
  {
    let stream = workspace.queryStream
    stream.removeAll()
    workspace.queryTokenizer.tokenize(text, into: stream)
    var start: Int?
    var end = 0
    var counted = 0
    for token in stream.tokens where token.kind != .emojiName && counted < max(words, 1) {
      start = start ?? Int(token.sourceStart)
      end = Int(token.sourceEnd)
      counted += 1
    }
    return start.map { HighlightRange(utf8Offsets: $0..<max($0, end)) }
  }

  /// The range of the first `words` words of `text` when it starts with that many runs of
  /// ASCII letters, each followed by one space or the end: the words the tokenizer would
  /// find there, without running it (most display names and sound titles); otherwise `nil`.
  static func plainWordsRange(in text: String, words: Int) -> HighlightRange? {
    var text = text
    return text.withUTF8 { bytes in
      var offset = 0
      for word in 0..<max(words, 1) {
        let start = offset
        while offset < bytes.count, offset - start < 32,
          (bytes[offset] | 0x20) >= UInt8(ascii: "a") && (bytes[offset] | 0x20) <= UInt8(ascii: "z")
        {
          offset += 1
        }
        guard offset > start else { return nil }
        if offset == bytes.count {
          return word == max(words, 1) - 1 ? HighlightRange(utf8Offsets: 0..<offset) : nil
        }
        guard bytes[offset] == UInt8(ascii: " ") else { return nil }
        if word < max(words, 1) - 1 { offset += 1 }
      }
      return HighlightRange(utf8Offsets: 0..<offset)
    }
  }
}

/// A suggestion before ranking, its text in the collector's buffer.
struct SuggestionCandidate {
  var kind: Suggestion.Kind
  /// Where the text's bytes are in the collector's text buffer.
  var text: Range<Int>
  /// The hash of the text's bytes (64-bit FNV-1a).
  var hash: UInt64
  /// For a display name, its folded words joined by spaces, in
  /// the collector's text buffer after the name: how a plain word would spell it.
  var foldedName: Range<Int>? = nil
  /// 0...1, see ``SuggestOptions``.
  var popularity: Double
  /// Whether this is a last word completed alone after earlier words, which no phrase or
  /// past search attests: ranked after the others, by ``SuggestOptions/wordCompletionFactor``.
  var isWordCompletion = false
  var typos = 0
  var isTrending = false
  /// The position in the user's recent searches, most recent 0.
  var recentRank: Int?
  var isExact = false
  /// `nil` for a name whose matched words are found only if it is returned (`ranked`).
  var matchedRange: HighlightRange?
}

/// Gathers suggestion candidates from every source and ranks them (``SuggestOptions``).
///
/// Candidates keep their text as bytes in one buffer, found again by a hash of those bytes;
/// strings are made only for the suggestions returned.
private struct SuggestionCollector {
  typealias Candidate = SuggestionCandidate
  /// A ranked candidate: its score, its kind's ``Suggestion/Kind/tieOrder``, its index in
  /// ``candidates``.
  typealias Entry = (score: Double, kindOrder: Int, candidate: Int)

  /// Its tokenizer finds the words of display names and sound titles.
  let workspace: SearchWorkspace
  let tolerance: TypoTolerance
  let lexicon: TermLexicon
  let phrases: PhraseDictionary
  /// The texts phrases complete toward.
  let texts: PhraseTexts
  let limit: Int
  /// How many words were typed.
  let wordCount: Int
  /// The typed words, folded and joined by spaces.
  let typedKey: [UInt8]
  /// Whether a completion of the last word alone continues the run of the word before it
  /// (``SuggestInput/lastWordOverlapsPrevious``): its last two words overlap rather than
  /// merely share documents, so it ranks with the phrases (by its factor).
  let continuesARun: Bool
  /// The candidates' texts, back to back.
  private var text: [UInt8] = []
  /// One entry per distinct kind and text: the same text of the same kind from two sources
  /// is one candidate.
  private var candidates: [Candidate] = []
  /// Candidates known to follow the earlier words: all of them for one word, phrases and
  /// past searches for more.
  private(set) var attested = 0
  /// A hash table of ``candidates`` by kind and text: each holds a candidate's index + 1,
  /// or 0 when free; a power of two, at most half full.
  private var slots: [Int32] = []

  /// Doubles ``slots`` and places the candidates again.
  private mutating func growSlots() {
    slots = [Int32](repeating: 0, count: slots.count * 2)
    let mask = slots.count - 1
    for (index, candidate) in candidates.enumerated() {
      var slot = Int(truncatingIfNeeded: candidate.hash) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = Int32(index + 1)
    }
  }

  init(
    texts: PhraseTexts, structures: (lexicon: TermLexicon, phrases: PhraseDictionary),
    limit: Int, wordCount: Int, typedKey: [UInt8], continuesARun: Bool,
    tolerance: TypoTolerance, workspace: SearchWorkspace
  ) {
    self.texts = texts
    self.workspace = workspace
    self.tolerance = tolerance
    lexicon = structures.lexicon
    phrases = structures.phrases
    self.limit = limit
    self.wordCount = wordCount
    self.typedKey = typedKey
    self.continuesARun = continuesARun
    // The buffers of the workspace's previous request, emptied.
    swap(&text, &workspace.suggestionText)
    swap(&candidates, &workspace.suggestionCandidates)
    swap(&slots, &workspace.suggestionSlots)
    text.removeAll(keepingCapacity: true)
    candidates.removeAll(keepingCapacity: true)
    if slots.count < 128 {
      slots = [Int32](repeating: 0, count: 128)
    } else {
      slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }
  }

  /// Gives the buffers back to the workspace for its next request.
  mutating func releaseBuffers() {
    swap(&text, &workspace.suggestionText)
    swap(&candidates, &workspace.suggestionCandidates)
    swap(&slots, &workspace.suggestionSlots)
  }

  var count: Int { candidates.count }

  /// The FNV-1a hash of `bytes` (without their spaces if `skipsSpaces`): a few candidates'
  /// texts are compared, so a simple hash that needs no seed will do.
  private static func hash(_ bytes: ArraySlice<UInt8>, skipsSpaces: Bool = false) -> UInt64 {
    bytes.withUnsafeBufferPointer {
      FNV1a.hash($0, skipping: skipsSpaces ? UInt8(ascii: " ") : nil)
    }
  }

  /// Whether the bytes of `first` and `second` in ``text`` are equal once their spaces are
  /// left out.
  private func spacelessEquals(_ first: Range<Int>, _ second: Range<Int>) -> Bool {
    let space = UInt8(ascii: " ")
    return text[first].lazy.filter { $0 != space }.elementsEqual(
      text[second].lazy.filter { $0 != space })
  }

  /// Whether the bytes of `first` and `second` in ``text`` are equal.
  private func textEquals(_ first: Range<Int>, _ second: Range<Int>) -> Bool {
    first.count == second.count && text[first].elementsEqual(text[second])
  }

  /// Whether the bytes of `range` in ``text`` equal `bytes`.
  private func text(_ range: Range<Int>, equals bytes: some Collection<UInt8>) -> Bool {
    range.count == bytes.count && text[range].elementsEqual(bytes)
  }

  /// Adds a candidate whose text (and folded name) are the last bytes of ``text``, or merges
  /// it into the candidate of the same kind and text.
  private mutating func add(_ candidate: Candidate, isAttested: Bool) {
    var candidate = candidate
    candidate.hash = Self.hash(text[candidate.text])
    if candidates.count * 2 >= slots.count { growSlots() }
    // Open addressing with linear probing (Knuth, TAOCP vol. 3, 6.4, algorithm L).
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: candidate.hash) & mask
    var found: Int?
    while slots[slot] != 0 {
      let index = Int(slots[slot]) - 1
      let existing = candidates[index]
      if existing.hash == candidate.hash && existing.kind == candidate.kind
        && textEquals(existing.text, candidate.text)
      {
        found = index
        break
      }
      slot = (slot + 1) & mask
    }
    guard let index = found else {
      slots[slot] = Int32(candidates.count + 1)
      candidates.append(candidate)
      if isAttested { attested += 1 }
      return
    }
    text.removeSubrange(candidate.text.lowerBound...)
    var existing = candidates[index]
    // A phrase that spells a last word completed alone (added first, unattested) attests it:
    // `squid game` is a title pair, so `squid` is taken as typed, not corrected.
    if isAttested && existing.isWordCompletion { attested += 1 }
    existing.popularity = max(existing.popularity, candidate.popularity)
    existing.isWordCompletion = existing.isWordCompletion && candidate.isWordCompletion
    existing.typos = min(existing.typos, candidate.typos)
    existing.isTrending = existing.isTrending || candidate.isTrending
    existing.isExact = existing.isExact || candidate.isExact
    if let rank = candidate.recentRank {
      existing.recentRank = min(existing.recentRank ?? rank, rank)
    }
    candidates[index] = existing
  }

  /// `log1p` of the weights most entries have, computed once: dozens of candidates a
  /// keystroke each took a logarithm.
  private static let smallLogarithms = (0..<4_096).map { log1p(Double($0)) }

  @inline(__always)
  private static func logarithm(_ value: UInt32) -> Double {
    value < 4_096 ? smallLogarithms[Int(value)] : log1p(Double(value))
  }

  /// A weight on its source's scale: 1 for the source's largest weight.
  private func popularity(_ weight: UInt32, largestLogarithm: Double) -> Double {
    Self.logarithm(weight) / largestLogarithm
  }

  /// The range of a text of `length` bytes that starts with the typed key.
  private func prefixRange(length: Int) -> HighlightRange {
    HighlightRange(utf8Offsets: 0..<min(typedKey.count, length))
  }

  /// Each earlier word replaced by its best correction when that is more frequent, with
  /// the typos corrected.
  func corrected(_ words: [[UInt8]]) -> ([[UInt8]], Int) {
    var result = words
    var typos = 0
    for (index, word) in words.enumerated() {
      guard let best = lexicon.oneTypoCorrection(of: word, tolerance: tolerance) else {
        continue
      }
      result[index] = Array(lexicon.keys.key(best.position))
      typos += best.distance
    }
    return (result, typos)
  }

  /// Adds completions of `last` after the words of `head`: words, hashtags and usernames
  /// of the lexicon, and phrases; within the typo budget when `isFuzzy`.
  mutating func collect(
    head: [[UInt8]], last: [UInt8], headTypos: Int, isFuzzy: Bool, budget: Int = 0
  ) {
    let headKey = head.isEmpty ? [] : SuggestInput.joined(head) + [UInt8(ascii: " ")]
    let marker = head.isEmpty ? TermLexicon.kind(firstByte: last.first ?? 0) : .query

    // Words, hashtags and usernames; after earlier words only if the index has them all
    // (a completion after an unknown word leads nowhere).
    let lexicon = self.lexicon
    if !last.isEmpty && head.allSatisfy({ lexicon.position(of: $0) != nil }) {
      let kind = TermLexicon.kind(firstByte: last[0])
      if isFuzzy {
        for (position, distance) in lexicon.corrections(
          of: last, maximumDistance: budget, isPrefix: true, count: limit,
          tolerance: tolerance, accepts: { lexicon.kind(at: $0) == kind })
        {
          addTerm(at: position, typos: distance + headTypos, headKey: headKey, last: last)
        }
      } else {
        let (exact, best) = lexicon.completions(
          of: last, count: limit, accepts: { head.isEmpty || lexicon.kind(at: $0) == kind })
        // The word as typed first: a cap on candidates must not hide it (typesense#1277).
        if let exact { addTerm(at: exact, typos: headTypos, headKey: headKey, last: last) }
        for position in best {
          addTerm(at: position, typos: headTypos, headKey: headKey, last: last)
        }
        if head.isEmpty && marker == .query {
          // Hashtags and usernames that continue the word.
          var marked = [UInt8(ascii: "#")] + last
          for marker in [UInt8(ascii: "#"), UInt8(ascii: "@")] {
            marked[0] = marker
            for position in lexicon.completions(of: marked, count: limit).best {
              addTerm(at: position, typos: 0, headKey: headKey, last: last)
            }
          }
        }
      }
    }

    // Phrases: title word pairs, display names and sounds.
    guard marker == .query else { return }
    if isFuzzy {
      let range = headKey.withUnsafeBufferPointer { phrases.keys.range(withPrefix: $0) }
      let matches = phrases.keys.typoMatches(
        of: last.withUnsafeBufferPointer { UTF8Scalar.scalars(of: $0) }, budget: budget,
        isPrefix: true, tolerance: tolerance, range: range, depth: headKey.count,
        children: head.isEmpty ? phrases.rootChildren : nil)
      addPhrases(
        TermLexicon.best(
          of: matches, count: limit, maxima: phrases.weights, accepts: { _ in true }),
        textPrefix: [], headTypos: headTypos)
    } else {
      let whole = (headKey + last).withUnsafeBufferPointer { phrases.keys.range(withPrefix: $0) }
      addPhrases(
        phrases.weights.best(in: whole, count: limit).map { ($0, 0) }, textPrefix: [],
        headTypos: headTypos)
    }
    if head.count >= 2 {
      // The last pair of words, after the words before it.
      let pairHead = head[head.count - 1] + [UInt8(ascii: " ")]
      let textPrefix = SuggestInput.joined(head.dropLast())
      let range = pairHead.withUnsafeBufferPointer { phrases.keys.range(withPrefix: $0) }
      let isPair: (Int) -> Bool = { phrases.source(at: $0) == .titlePair }
      if isFuzzy {
        let matches = phrases.keys.typoMatches(
          of: last.withUnsafeBufferPointer { UTF8Scalar.scalars(of: $0) }, budget: budget,
          isPrefix: true, tolerance: tolerance, range: range, depth: pairHead.count,
          children: nil)
        addPhrases(
          TermLexicon.best(of: matches, count: limit, maxima: phrases.weights, accepts: isPair),
          textPrefix: textPrefix, headTypos: headTypos)
      } else {
        let pair = (pairHead + last).withUnsafeBufferPointer {
          phrases.keys.range(withPrefix: $0, in: range)
        }
        addPhrases(
          phrases.weights.best(in: pair, count: limit, accepts: isPair).map { ($0, 0) },
          textPrefix: textPrefix, headTypos: headTypos)
      }
    }
  }

  /// Adds the term at `position` of the lexicon as the completion of `last` after
  /// `headKey` (the earlier words and a space, or nothing).
  private mutating func addTerm(at position: Int, typos: Int, headKey: [UInt8], last: [UInt8]) {
    let kind = lexicon.kind(at: position)
    let word = lexicon.keys.key(position)
    let start = text.count
    text += headKey
    text += word
    // A `#` or `@` the lexicon's term has but the typed text had not.
    let markerOffset = headKey.isEmpty && kind != .query && last.first != word.first ? 1 : 0
    let end = min(markerOffset + typedKey.count, text.count - start)
    add(
      Candidate(
        kind: kind, text: start..<text.count, hash: 0,
        popularity: popularity(
          lexicon.frequencies.weights[position],
          largestLogarithm: lexicon.largestLogarithm(of: kind)),
        isWordCompletion: !headKey.isEmpty, typos: typos,
        isExact: headKey.isEmpty && typos == 0 && word.count == typedKey.count
          && word.elementsEqual(typedKey),
        matchedRange: HighlightRange(utf8Offsets: min(markerOffset, end)..<end)),
      isAttested: headKey.isEmpty)
  }

  /// Adds the phrases at `positions`; a title pair's text follows `textPrefix` (words
  /// joined by spaces) when that is not empty.
  private mutating func addPhrases(
    _ positions: [(position: Int, distance: Int)], textPrefix: [UInt8], headTypos: Int
  ) {
    for (position, distance) in positions {
      let source = phrases.source(at: position)
      let target = Int(phrases.targets[position])
      let key = phrases.keys.key(position)
      let start = text.count
      let kind: Suggestion.Kind
      var foldedName: Range<Int>?
      switch source {
      case .titlePair:
        if !textPrefix.isEmpty {
          text += textPrefix
          text.append(UInt8(ascii: " "))
        }
        text += key
        kind = .query
      case .displayName:
        text += texts.displayName(ofUser: target)
        kind = .user
        foldedName = text.count..<(text.count + key.count)
        text += key
      case .soundTitle:
        text += texts.title(ofSound: target)
        kind = .sound
      case .soundArtist:
        text += texts.artist(ofSound: target)
        kind = .sound
      }
      let range = start..<(foldedName?.lowerBound ?? text.count)
      let typos = distance + headTypos
      add(
        Candidate(
          kind: kind, text: range, hash: 0, foldedName: foldedName,
          popularity: popularity(
            phrases.weights.weights[position],
            largestLogarithm: phrases.largestLogarithms[Int(source.rawValue)]),
          typos: typos,
          isExact: typos == 0
            && (textPrefix.isEmpty ? key.elementsEqual(typedKey) : text(range, equals: typedKey)),
          // A name's words are found only if it makes the final list (`ranked`).
          matchedRange: source == .titlePair ? prefixRange(length: range.count) : nil),
        isAttested: true)
    }
  }

  /// Adds a past or recent search.
  private mutating func addQuery(
    _ query: String, popularity: Double, isTrending: Bool = false, recentRank: Int? = nil
  ) {
    let start = text.count
    text += query.utf8
    add(
      Candidate(
        kind: .query, text: start..<text.count, hash: 0, popularity: popularity,
        isTrending: isTrending, recentRank: recentRank,
        isExact: text(start..<text.count, equals: typedKey),
        matchedRange: prefixRange(length: text.count - start)),
      isAttested: true)
  }

  /// Adds the past searches of everyone that start with the typed text, and the user's
  /// recent ones.
  mutating func addPastSearches(analytics: QueryAnalytics, userID: String?, maximumRecent: Int) {
    let typedText = String(decoding: typedKey, as: UTF8.self)
    for query in analytics.popularQueries(withPrefix: typedText, limit: limit) {
      // Searches are counted on another scale than documents: 100 decayed searches or
      // more count as fully popular.
      addQuery(
        query.normalizedQuery, popularity: min(1, log1p(query.count) / log1p(100)),
        isTrending: analytics.isTrending(normalizedQuery: query.normalizedQuery))
    }
    guard let userID, maximumRecent > 0 else { return }
    var rank = 0
    for recent in analytics.recentSearches(for: userID)
    where rank < maximumRecent && recent.normalizedQuery.hasPrefix(typedText) {
      addQuery(recent.normalizedQuery, popularity: 1, recentRank: rank)
      rank += 1
    }
  }

  /// The bytes of a hashtag or user candidate as a plain word would spell them: a tag
  /// without its `#` or `@`, a display name folded (its words joined by spaces).
  private func nameAsWord(_ candidate: Candidate) -> Range<Int> {
    if let folded = candidate.foldedName { return folded }
    let hasMarker =
      candidate.text.first.map { text[$0] == UInt8(ascii: "#") || text[$0] == UInt8(ascii: "@") }
      ?? false
    return (candidate.text.lowerBound + (hasMarker ? 1 : 0))..<candidate.text.upperBound
  }

  /// The candidates in the order of ``SuggestOptions``, at most `limit`.
  func ranked(options: SuggestOptions) -> [Suggestion] {
    // A word or phrase that spells a hashtag or username without its marker, or a display
    // name folded, adds nothing. Spaces are left out of the comparison: a name's words are
    // split by the tokenizer (Chinese and Japanese by a dictionary), a typed phrase by the
    // user.
    var names: [(hash: UInt64, word: Range<Int>)] = []
    for candidate in candidates where candidate.kind == .hashtag || candidate.kind == .user {
      let word = nameAsWord(candidate)
      names.append((Self.hash(text[word], skipsSpaces: true), word))
    }
    let typoPenalty = Double(options.typoTolerance.factor(forDistance: 1))
    // At most 100, so that popularity stays below the exact and recent tiers.
    let trendingBoost =
      options.trendingBoost.isFinite ? min(max(options.trendingBoost, 0), 100) : 2
    let wordFactor =
      options.wordCompletionFactor.isFinite ? min(max(options.wordCompletionFactor, 0), 1) : 0.5
    /// The policy's order; ties by kind, then by the text's bytes.
    func isBefore(_ first: Entry, _ second: Entry) -> Bool {
      if first.score != second.score { return first.score > second.score }
      if first.kindOrder != second.kindOrder { return first.kindOrder < second.kindOrder }
      return text.withUnsafeBufferPointer { text in
        SortedKeys.compare(
          UnsafeBufferPointer(rebasing: text[candidates[first.candidate].text]),
          UnsafeBufferPointer(rebasing: text[candidates[second.candidate].text])) < 0
      }
    }
    // The best `limit`, in order, by insertion into a short sorted list.
    var top: [Entry] = []
    top.reserveCapacity(limit)
    // Completions of the last word alone after earlier words: ranked apart, after the rest.
    var wordCompletions: [Entry] = []
    for (index, candidate) in candidates.enumerated() {
      if candidate.kind == .query && candidate.recentRank == nil && !candidate.isExact
        && !names.isEmpty
      {
        let hash = Self.hash(text[candidate.text], skipsSpaces: true)
        if names.contains(where: { $0.hash == hash && spacelessEquals(candidate.text, $0.word) }) {
          continue
        }
      }
      var score = candidate.popularity
      if candidate.isWordCompletion { score *= wordFactor }
      if candidate.isTrending { score *= trendingBoost }
      for _ in 0..<min(candidate.typos, 8) { score *= typoPenalty }
      // Tiers above any popularity (which is at most `trendingBoost`): recent searches,
      // then the exact text.
      if candidate.isExact { score += 1_000 }
      if let rank = candidate.recentRank { score += 1_000_000 - Double(rank) * 1_000 }
      let entry = (score, candidate.kind.tieOrder, index)
      if candidate.isWordCompletion && !continuesARun {
        wordCompletions.append(entry)
        continue
      }
      if top.count == limit && !isBefore(entry, top[limit - 1]) { continue }
      var slot = top.count
      if slot < limit { top.append(entry) } else { slot -= 1 }
      while slot > 0 && isBefore(entry, top[slot - 1]) {
        top[slot] = top[slot - 1]
        slot -= 1
      }
      top[slot] = entry
    }
    appendAfterPhrases(wordCompletions, to: &top, isBefore: isBefore)
    return top.map { score, _, index in
      let candidate = candidates[index]
      let suggestionText = String(decoding: text[candidate.text], as: UTF8.self)
      // Display names and sound titles: the typed words' span, by tokenizing the name
      // (which can take tens of microseconds for a script with dictionary word breaks).
      let matchedRange =
        candidate.matchedRange
        ?? IndexSnapshot.matchedRange(in: suggestionText, words: wordCount, workspace: workspace)
      return Suggestion(
        text: suggestionText, kind: candidate.kind, matchedRange: matchedRange,
        isTrending: candidate.isTrending, isRecent: candidate.recentRank != nil,
        typos: candidate.typos, score: score)
    }
  }
}

extension SuggestionCollector {
  /// How far below every other candidate a completion of the last word alone scores. Its
  /// factors' product is at most 1 (it is never exact, recent or trending, and
  /// ``SuggestOptions/wordCompletionFactor`` is at most 1) and every other candidate scores
  /// at least 0, so its score minus 2 ranks it after them all, and ``Suggestion/score``
  /// still orders the whole list.
  static let wordCompletionOffset = 2.0

  /// Appends to `top`, up to `limit` entries, the completions of the last word alone
  /// (`entries`, in any order), best first.
  ///
  /// They come after every phrase, as search engines rank words that follow each other
  /// above words that merely share a document: Typesense's text match puts documents "in
  /// which the query tokens appear right next to each other" above those where they "exist
  /// but are far apart" (typesense.org/docs/guide/ranking-and-relevance.html), and
  /// Meilisearch's `proximity` rule sorts by the distance between matched words
  /// (meilisearch.com/docs/learn/relevancy/ranking_rules), each rule a bucket that the next
  /// rule only reorders within (its ranking pipeline, a bucket sort). Here adjacency is the
  /// first bucket, ahead of typos and popularity rather than after them as in those
  /// searches: a completion proposes text to search, and a phrase that titles spell out
  /// (`lady gaga`) is what users type, where words that merely share a description (`lady
  /// get`) lead to one video or none.
  ///
  /// - Complexity: O(c log c) for c completions.
  fileprivate func appendAfterPhrases(
    _ entries: [Entry], to top: inout [Entry], isBefore: (Entry, Entry) -> Bool
  ) {
    guard top.count < limit && !entries.isEmpty else { return }
    for entry in entries.sorted(by: isBefore) where top.count < limit {
      top.append((entry.score - Self.wordCompletionOffset, entry.kindOrder, entry.candidate))
    }
  }
}

extension Suggestion.Kind {
  /// The order of kinds between suggestions of equal score: by name (hashtag, query, sound,
  /// user).
  fileprivate var tieOrder: Int {
    switch self {
    case .hashtag: 0
    case .query: 1
    case .sound: 2
    case .user: 3
    }
  }
}

/// The texts phrase completions name, read from the segment holding each target (a user or
/// sound numbered across segments, as ``SegmentSet`` numbers them).
struct PhraseTexts {
  let segments: SegmentSet

  func displayName(ofUser user: Int) -> UnsafeBufferPointer<UInt8> {
    let (segment, local) = segments.locate(UInt32(user), of: .user)
    return segment.users.displayNames.utf8(at: Int(local))
  }

  func title(ofSound sound: Int) -> UnsafeBufferPointer<UInt8> {
    let (segment, local) = segments.locate(UInt32(sound), of: .sound)
    return segment.partition(.sound).titles.utf8(at: Int(local))
  }

  func artist(ofSound sound: Int) -> UnsafeBufferPointer<UInt8> {
    let (segment, local) = segments.locate(UInt32(sound), of: .sound)
    return segment.sounds.artists.utf8(at: Int(local))
  }
}
