import Foundation

/// Completions of more than a word, and names to complete toward: pairs of words that
/// titles share, users' display names, sound titles and artists.
///
/// Single words, `#hashtags` and `@usernames` come from the ``TermLexicon``; this dictionary
/// adds what the term dictionary cannot hold. Keys are folded words joined by one space, the
/// form ``SuggestInput`` gives typed text, so `dance cha` is a prefix of `dance challenge`.
final class PhraseDictionary: Sendable {
  /// What an entry completes toward.
  enum Source: UInt8, Sendable {
    /// Two words that follow each other at least ``minimumPairCount`` times in video
    /// titles.
    case titlePair
    /// A user's display name; the target is the user.
    case displayName
    /// A sound's title; the target is the sound.
    case soundTitle
    /// A sound's artist; the target is the sound.
    case soundArtist
  }

  /// A pair of title words must occur at least this many times: a pair seen once is
  /// unlikely to be typed again, and the pairs seen once are nine tenths of all pairs on the
  /// synthetic corpus (2.9 million of 3.2 million at 850,000 videos).
  static let minimumPairCount: UInt32 = 2

  let keys: SortedKeys
  /// The first characters of the keys, with their ranges (see ``TermLexicon/rootChildren``).
  let rootChildren: [(child: SortedKeys.Child, mask: ByteMask)]
  /// The weight of each key: titles for pairs, followers for display names, videos using
  /// the sound for sounds.
  let weights: RangeMaximum
  let sources: Column<UInt8>
  /// The document of each key (user or sound), or `UInt32.max` for pairs.
  let targets: Column<UInt32>
  /// The largest weight of each source, for putting them on one scale.
  let largestWeights: [UInt32]
  /// `log1p` of each of ``largestWeights``: the scale of a source's popularity.
  let largestLogarithms: [Double]

  /// Collects the entries of `snapshot`.
  ///
  /// - Complexity: O(n) in the text of titles, display names and sounds, plus sorting the
  ///   entries.
  convenience init(snapshot: IndexSnapshot) {
    var entries: [[UInt8]: (weight: UInt32, source: Source, target: UInt32)] = [:]
    func add(_ key: [UInt8], weight: UInt32, source: Source, target: UInt32) {
      guard !key.isEmpty, key.count <= 128 else { return }
      if let existing = entries[key], existing.weight >= weight { return }
      entries[key] = (weight, source, target)
    }
    let stream = TokenStream()
    var tokenizer = Tokenizer(mode: .query)
    /// Words of `text` joined by single spaces.
    func phraseKey(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
      stream.removeAll()
      tokenizer.tokenize(bytes: text, into: stream, firstPosition: 0)
      var key: [UInt8] = []
      for token in stream.tokens where token.kind != .emojiName {
        if !key.isEmpty { key.append(UInt8(ascii: " ")) }
        key += stream.bytes(of: token)
      }
      return key
    }
    func saturated(_ value: Int) -> UInt32 { UInt32(clamping: max(value, 0)) }

    let users = snapshot.users
    for user in 0..<users.displayNames.count {
      let key = phraseKey(users.displayNames.utf8(at: user))
      add(
        key, weight: saturated(users.followerCounts[user]), source: .displayName,
        target: UInt32(user))
    }
    let sounds = snapshot.partition(.sound)
    for sound in 0..<sounds.documentCount {
      let videos = saturated(snapshot.sounds.videoCounts[sound])
      add(
        phraseKey(sounds.titles.utf8(at: sound)), weight: videos, source: .soundTitle,
        target: UInt32(sound))
      add(
        phraseKey(snapshot.sounds.artists.utf8(at: sound)), weight: videos, source: .soundArtist,
        target: UInt32(sound))
    }

    for (pair, count) in Self.titlePairs(of: snapshot) {
      var key: [UInt8] = []
      snapshot.terms.withBytes(of: UInt32(pair >> 32)) { key += $0 }
      key.append(UInt8(ascii: " "))
      snapshot.terms.withBytes(of: UInt32(truncatingIfNeeded: pair)) { key += $0 }
      add(key, weight: count, source: .titlePair, target: UInt32.max)
    }

    let keyList = Array(entries.keys)
    let (keys, order) = SortedKeys.make(sorting: keyList)
    var weights: [UInt32] = []
    var sources: [UInt8] = []
    var targets: [UInt32] = []
    for index in order {
      let entry = entries[keyList[Int(index)]]!
      weights.append(entry.weight)
      sources.append(entry.source.rawValue)
      targets.append(entry.target)
    }
    self.init(keys: keys, weights: weights, sources: Column(sources), targets: Column(targets))
  }

  /// The dictionary of several segments, whose targets are numbered across the segments
  /// as ``SegmentSet`` numbers them: segment `s`'s users start at `userStarts[s]`, its
  /// sounds at `soundStarts[s]`. Keys are merged in order (a k-way merge); a key's title
  /// pair counts add up, and otherwise the entry with the largest weight stays, the one
  /// that came first on a tie (display names before sounds before pairs), as one
  /// dictionary of every document keeps it. A pair counted fewer than
  /// ``minimumPairCount`` times within each segment is missing until the segments merge.
  ///
  /// - Complexity: O(k · s) for k keys in all and s dictionaries, plus the range-maximum
  ///   tables.
  convenience init(
    merging dictionaries: [PhraseDictionary], userStarts: [UInt32], soundStarts: [UInt32]
  ) {
    var weights: [UInt32] = []
    var sources: [UInt8] = []
    var targets: [UInt32] = []
    func ranksFirst(_ lhs: (UInt32, UInt8, UInt32), _ rhs: (UInt32, UInt8, UInt32)) -> Bool {
      // Larger weight, then what a build adds first: display names, then each sound's
      // title and artist, sound by sound, then pairs.
      func addedOrder(_ entry: (UInt32, UInt8, UInt32)) -> (Int, UInt32, UInt8) {
        switch Source(rawValue: entry.1) ?? .titlePair {
        case .displayName: (0, entry.2, 0)
        case .soundTitle, .soundArtist: (1, entry.2, entry.1)
        case .titlePair: (2, 0, 0)
        }
      }
      if lhs.0 != rhs.0 { return lhs.0 > rhs.0 }
      return addedOrder(lhs) < addedOrder(rhs)
    }
    let keys = SortedKeys.merging(dictionaries.map(\.keys)) { _, holders in
      var pairCount: UInt64 = 0
      var best: (UInt32, UInt8, UInt32)?
      for (index, position) in holders {
        let dictionary = dictionaries[index]
        let weight = dictionary.weights.weights[position]
        var target = dictionary.targets[position]
        switch dictionary.source(at: position) {
        case .titlePair:
          pairCount += UInt64(weight)
          continue
        case .displayName: target += userStarts[index]
        case .soundTitle, .soundArtist: target += soundStarts[index]
        }
        let entry = (weight, dictionary.sources[position], target)
        if best.map({ ranksFirst(entry, $0) }) ?? true { best = entry }
      }
      // Every key has a holder, so a key without a name or sound entry is a pair.
      let pair = (UInt32(clamping: pairCount), Source.titlePair.rawValue, UInt32.max)
      if best.map({ pairCount > 0 && ranksFirst(pair, $0) }) ?? true { best = pair }
      weights.append(best!.0)
      sources.append(best!.1)
      targets.append(best!.2)
    }
    self.init(keys: keys, weights: weights, sources: Column(sources), targets: Column(targets))
  }

  /// The fewest titles worth a second thread (starting one costs tens of microseconds).
  static let parallelTitleMinimum = 1_024

  /// Every pair of adjacent title words that occurs at least ``minimumPairCount`` times, as
  /// `first << 32 | second` term ids with its count, in ascending order.
  ///
  /// Tokenizing every title is most of a build (a new snapshot's first completion waits for
  /// it), so the titles are split between two threads, each collecting its pairs in an
  /// array; the pairs are then radix sorted and counted by runs, where a hash table of
  /// millions of pairs, nine in ten seen once, cost more than the sort.
  ///
  /// - Complexity: O(t) in the text of the titles, plus O(p) for p pairs.
  static func titlePairs(of snapshot: IndexSnapshot) -> [(pair: UInt64, count: UInt32)] {
    let titles = snapshot.partition(.video).titles
    let parts = titles.count >= Self.parallelTitleMinimum ? 2 : 1
    let collected = Lock<[[UInt64]]>(Array(repeating: [], count: parts))
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      let range = (titles.count * part / parts)..<(titles.count * (part + 1) / parts)
      let pairs = Self.adjacentWordPairs(of: range, in: snapshot)
      collected.withLock { $0[part] = pairs }
    }
    var pairs = collected.withLock { parts in
      var all = parts[0]
      for part in parts.dropFirst() { all += part }
      return all
    }
    pairs.radixSort()
    var result: [(pair: UInt64, count: UInt32)] = []
    var start = 0
    while start < pairs.count {
      var end = start + 1
      while end < pairs.count && pairs[end] == pairs[start] { end += 1 }
      if end - start >= Int(Self.minimumPairCount) {
        result.append((pairs[start], UInt32(clamping: end - start)))
      }
      start = end
    }
    return result
  }

  /// The pairs of adjacent words of the titles of videos `videos`, as term ids, with
  /// repeats; an emoji's name between two words does not part them, anything else does.
  private static func adjacentWordPairs(of videos: Range<Int>, in snapshot: IndexSnapshot)
    -> [UInt64]
  {
    let titles = snapshot.partition(.video).titles
    let stream = TokenStream()
    var tokenizer = Tokenizer(mode: .query)
    var pairs: [UInt64] = []
    pairs.reserveCapacity(videos.count * 4)
    for video in videos {
      stream.removeAll()
      tokenizer.tokenize(bytes: titles.utf8(at: video), into: stream, firstPosition: 0)
      var previous: UInt32?
      for token in stream.tokens {
        guard token.kind == .word,
          let id = snapshot.terms.find(UnsafeRawBufferPointer(stream.bytes(of: token)))
        else {
          if token.kind != .emojiName { previous = nil }
          continue
        }
        if let previous { pairs.append(UInt64(previous) << 32 | UInt64(id)) }
        previous = id
      }
    }
    return pairs
  }

  /// The dictionary of entries already sorted by key.
  ///
  /// - Precondition: one weight, source and target per key; every source a ``Source``.
  /// - Complexity: O(n) in the entries, plus the range-maximum tables.
  convenience init(
    keys: SortedKeys, weights: [UInt32], sources: Column<UInt8>, targets: Column<UInt32>
  ) {
    precondition(weights.count == keys.count, "a phrase dictionary needs one weight per key")
    var largest = [UInt32](repeating: 1, count: 4)
    for (position, weight) in weights.enumerated() {
      let source = Int(sources[position])
      precondition(source < largest.count, "a phrase source of an unknown kind")
      largest[source] = max(largest[source], weight)
    }
    self.init(
      keys: keys,
      weights: RangeMaximum(
        weights: weights, cachedRanges: keys.nodes(minimumSize: RangeMaximum.cachedNodeSize)),
      sources: sources, targets: targets,
      rootChildren: keys.children(of: 0..<keys.count, depth: 0).map {
        ($0, ByteMask(keys: $0.keys, in: keys))
      }, largestWeights: largest)
  }

  /// The dictionary from its parts as an index file keeps them (format 11).
  ///
  /// - Precondition: one weight, source and target per key; four largest weights, each at
  ///   least 1.
  init(
    keys: SortedKeys, weights: RangeMaximum, sources: Column<UInt8>, targets: Column<UInt32>,
    rootChildren: [(child: SortedKeys.Child, mask: ByteMask)], largestWeights: [UInt32]
  ) {
    precondition(
      weights.weights.count == keys.count && sources.count == keys.count
        && targets.count == keys.count,
      "a phrase dictionary needs one weight, source and target per key")
    precondition(
      largestWeights.count == 4 && largestWeights.allSatisfy { $0 >= 1 },
      "four largest weights of at least 1")
    self.keys = keys
    self.rootChildren = rootChildren
    self.weights = weights
    self.sources = sources
    self.targets = targets
    self.largestWeights = largestWeights
    largestLogarithms = largestWeights.map { log1p(Double($0)) }
  }

  /// The same entries weighed by new counts: display names by `followers` of their users,
  /// sound titles and artists by `soundVideos` of their sounds (snapshot numbers); title
  /// word pairs keep theirs. For a publish that changed only counts (``IndexWriter``): a key
  /// that several users or sounds share keeps the one it named when the dictionary was
  /// built, where a new build takes the one with the largest count.
  ///
  /// - Complexity: O(n) in the entries, plus the range-maximum tables.
  func reweighted(followers: IntegerColumn, soundVideos: IntegerColumn) -> PhraseDictionary {
    var newWeights = Array(weights.weights.buffer)
    var largest = [UInt32](repeating: 1, count: 4)
    for position in newWeights.indices {
      let target = Int(targets[position])
      switch source(at: position) {
      case .titlePair: break
      case .displayName: newWeights[position] = UInt32(clamping: max(followers[target], 0))
      case .soundTitle, .soundArtist:
        newWeights[position] = UInt32(clamping: max(soundVideos[target], 0))
      }
      let source = Int(sources[position])
      largest[source] = max(largest[source], newWeights[position])
    }
    return PhraseDictionary(
      keys: keys, weights: RangeMaximum(weights: newWeights, cachedRanges: weights.cachedRanges),
      sources: sources, targets: targets, rootChildren: rootChildren, largestWeights: largest)
  }

  var byteCount: Int {
    keys.byteCount + weights.byteCount + sources.byteCount + targets.byteCount
      + rootChildren.count * (MemoryLayout<SortedKeys.Child>.stride + 16)
  }

  /// The source of entry `position`.
  func source(at position: Int) -> Source {
    Source(rawValue: sources[position]) ?? .titlePair
  }
}
