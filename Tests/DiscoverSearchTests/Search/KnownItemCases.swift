import DiscoverSearch

/// What a known-item case tests: the kinds of input people type into a short-video search
/// box, looking for one video they have in mind.
enum KnownItemKind: String, CaseIterable, Sendable, Hashable {
  /// As-you-type input with a misspelt word and the last word cut short (`dacne chal`).
  case typoPrefix
  /// Two title words typed as one (`tomcruise`), or a tag typed as words (`kapuso abroad`).
  case joined
  /// A title word typed in the other number (`friend karting` for "Friends Karting").
  case plural
  /// Control: title words, a name or a creator typed exactly, whose video ranks first.
  case exact
}

/// One known-item case: a query, and the video the user means by it.
struct KnownItemCase: Sendable, Hashable {
  let kind: KnownItemKind
  /// How the case was made within its kind (`swap`, `#tag split`, `accented`, …).
  let variant: String
  /// The text typed.
  let query: String
  /// Whether the query is as-you-type input (its last word a prefix).
  let isPrefix: Bool
  /// The id of the video meant.
  let target: String
  /// The words typed correctly and in full: a case whose target this query does not find
  /// (or, for ``KnownItemKind/exact``, does not rank first) is not solvable and is dropped.
  let exactQuery: String
  /// The as-you-type query without its typo, to tell a typo's failure from a prefix's.
  var withoutTypo: String? = nil
  /// The query without the word the case changed (misspelt, joined or flipped), or `nil`
  /// when nothing is left or the case changed nothing: a case is hard when this does not
  /// find the target, so that only handling the changed word can.
  var withoutChangedWord: String? = nil
}

/// The corpus as the generator sees it: each video's title words, names and popularity.
struct KnownItemCorpus {
  struct VideoEntry {
    let id: String
    let title: String
    let viewCount: Int
    /// The title's words in runs (``KnownItemText/runs(of:)``).
    let runs: [[String]]
    /// The title's words, lowercased.
    let words: Set<String>
    let isLatin: Bool
    /// The hashtags, and the creator's username when the creator is in the corpus.
    let hashtags: [String]
    let creatorUsername: String?

    /// Every window of two or three consecutive words of one run.
    var windows: [[String]] {
      runs.flatMap { run in
        [2, 3].flatMap { length in
          run.count < length ? [] : (0...(run.count - length)).map { Array(run[$0..<$0 + length]) }
        }
      }
    }
  }

  let videos: [VideoEntry]
  /// For each lowercased title word, how many titles have it.
  let titleFrequency: [String: Int]
  /// The words written all in lowercase somewhere in a title or description: ordinary
  /// words, rather than only names (`friends` is here, `Mars` is not).
  let lowercaseWords: Set<String>

  init(documents: [Document]) {
    var usernames: [String: String] = [:]
    for case .user(let user) in documents { usernames[user.id] = user.username }
    var videos: [VideoEntry] = []
    var titleFrequency: [String: Int] = [:]
    var lowercaseWords: Set<String> = []
    for case .video(let video) in documents {
      let runs = KnownItemText.runs(of: video.title)
      let words = Set(runs.joined().map { $0.lowercased() })
      for word in words { titleFrequency[word, default: 0] += 1 }
      for text in [video.title, video.description ?? ""] {
        for chunk in text.split(whereSeparator: \.isWhitespace) {
          let word = KnownItemText.trimmed(chunk)
          if KnownItemText.isASCIILetters(word) { lowercaseWords.insert(word) }
        }
      }
      videos.append(
        VideoEntry(
          id: video.id, title: video.title, viewCount: video.viewCount, runs: runs,
          words: words, isLatin: KnownItemText.isLatin(video.title), hashtags: video.hashtags,
          creatorUsername: video.creator.flatMap { usernames[$0] }))
    }
    self.videos = videos
    self.titleFrequency = titleFrequency
    self.lowercaseWords = lowercaseWords
  }
}

/// Makes the known-item cases from the corpus, deterministically from ``seed``.
///
/// Every case targets one video, and no video is the target of two cases of one variant.
/// Videos are visited in an order shuffled by a generator of their own per variant, seeded
/// by ``seed`` and the variant's place in ``quotas`` (so a change to one variant moves no
/// other), and each visited video gives at most one case,
/// a window or name picked at random among those that fit. The candidates depend on the
/// corpus alone, never on the engine; ``KnownItemEvaluation`` then drops the unsolvable
/// ones. Targets have Latin-script titles, but for the Chinese, Japanese and Korean
/// controls. A window is two or three consecutive title words
/// (``KnownItemCorpus/VideoEntry/windows``) that ``KnownItemText/isWorthTyping(_:)``: not
/// starting or ending with a stop word, and with a word of three letters or more. Queries
/// are typed in lowercase, but the exact controls, typed as written. How each kind is made:
///
/// - ``KnownItemKind/typoPrefix``: a window; one word before the last (five ASCII letters
///   or more, not a stop word) gets one typo (``KnownItemText/Typo``: two adjacent letters
///   swapped, a letter replaced by a keyboard neighbour, deleted or doubled; never the
///   first letter); the last word (four letters or more) is cut to its first three or
///   four letters, always fewer than it has.
/// - ``KnownItemKind/joined``, `pair`: a window of which two adjacent words (three letters
///   or more each, no stop word) are typed without the space, unless the joined word is
///   one of the video's hashtags or its creator's name (a literal match).
/// - ``KnownItemKind/joined``, `#tag split` / `@user split`: a hashtag of the video or its
///   creator's username, six ASCII letters or more and never written as a word of its own
///   in the corpus (`promotion` is one word, not `pro motion`), typed as two words at the
///   split point whose halves are title words of other videos (three-letter halves in
///   three titles or more, longer ones in two or more) and more frequent than the whole
///   as a title word; of several splits, the one whose rarer half is commonest. Splits
///   into two words both in the target's title are left out (a literal match).
/// - ``KnownItemKind/plural``: a window of an English-looking title
///   (``KnownItemText/isEnglishLooking(_:)``), one of whose words (four ASCII letters or
///   more, not a stop word) is flipped between singular and plural
///   (``KnownItemText/numberFlipped(_:)``); both forms must be written in lowercase
///   somewhere in the corpus (an ordinary word, not a name), and the flipped form not be a
///   word of the target's title.
/// - ``KnownItemKind/exact``: `plain` (a window as written), `accented` (a window with a
///   non-ASCII letter), `cjk` (a run of two or more Chinese, Japanese or Korean characters
///   of a title, longer ones cut to two to five characters at random) and `username` (a
///   creator's name as written, for that creator's most-watched video).
struct KnownItemGenerator {
  /// The seed of every case: "KNOWNITM" in ASCII.
  static let seed: UInt64 = 0x4B4E_4F57_4E49_544D

  /// How many candidates each variant makes: about 300 per kind, so that 150 to 300 are
  /// left once the unsolvable ones are dropped.
  static let quotas: [(kind: KnownItemKind, variant: String, count: Int)] = [
    (.typoPrefix, "typo", 320),
    (.joined, "pair", 200), (.joined, "split", 140),
    (.plural, "flip", 320),
    (.exact, "plain", 200), (.exact, "accented", 40), (.exact, "cjk", 40),
    (.exact, "username", 40),
  ]

  let corpus: KnownItemCorpus

  /// Every candidate, in the order of ``quotas``.
  func candidates() -> [KnownItemCase] {
    var cases: [KnownItemCase] = []
    for (stream, quota) in Self.quotas.enumerated() {
      var generator = SplitMix64(seed: Self.seed ^ (UInt64(stream + 1) &* 0x9E37_79B9_7F4A_7C15))
      var videos = quota.variant == "username" ? mostWatchedPerCreator() : corpus.videos
      generator.shuffle(&videos)
      var made = 0
      for video in videos where made < quota.count {
        guard let candidate = make(quota.kind, quota.variant, for: video, using: &generator)
        else { continue }
        cases.append(candidate)
        made += 1
      }
    }
    return cases
  }

  private func make(
    _ kind: KnownItemKind, _ variant: String, for video: KnownItemCorpus.VideoEntry,
    using generator: inout SplitMix64
  ) -> KnownItemCase? {
    if variant == "cjk" { return cjkCase(for: video, using: &generator) }
    guard video.isLatin || variant == "username" else { return nil }
    switch (kind, variant) {
    case (.typoPrefix, _): return typoPrefixCase(for: video, using: &generator)
    case (.joined, "pair"): return joinedPairCase(for: video, using: &generator)
    case (.joined, _): return splitNameCase(for: video, using: &generator)
    case (.plural, _): return pluralCase(for: video, using: &generator)
    case (.exact, "username"): return usernameCase(for: video)
    case (.exact, _):
      return exactWindowCase(for: video, accented: variant == "accented", using: &generator)
    }
  }

  // MARK: - Typos and prefixes

  private func typoPrefixCase(
    for video: KnownItemCorpus.VideoEntry, using generator: inout SplitMix64
  ) -> KnownItemCase? {
    var options: [(words: [String], typoAt: Int)] = []
    for window in video.windows where KnownItemText.isWorthTyping(window) {
      let words = window.map { $0.lowercased() }
      guard words.last!.count >= 4, words.last!.allSatisfy(\.isLetter) else { continue }
      for position in 0..<(words.count - 1)
      where words[position].count >= 5 && KnownItemText.isASCIILetters(words[position])
        && !KnownItemText.isStopWord(words[position])
      {
        options.append((words, position))
      }
    }
    guard let (words, position) = generator.element(of: options) else { return nil }
    let typo = KnownItemText.Typo.allCases[generator.index(below: 4)]
    guard let typed = KnownItemText.misspelled(words[position], typo, using: &generator) else {
      return nil
    }
    let last = words[words.count - 1]
    let cut = min(3 + generator.index(below: 2), last.count - 1)
    var correct = words
    correct[words.count - 1] = String(last.prefix(cut))
    var query = correct
    query[position] = typed
    var rest = correct
    rest.remove(at: position)
    return KnownItemCase(
      kind: .typoPrefix, variant: typo.rawValue, query: query.joined(separator: " "),
      isPrefix: true, target: video.id, exactQuery: words.joined(separator: " "),
      withoutTypo: correct.joined(separator: " "), withoutChangedWord: rest.joined(separator: " "))
  }

  // MARK: - Joined and split words

  private func joinedPairCase(
    for video: KnownItemCorpus.VideoEntry, using generator: inout SplitMix64
  ) -> KnownItemCase? {
    let names = Set(
      (video.hashtags + [video.creatorUsername ?? ""]).map {
        $0.lowercased().filter { !$0.isWhitespace }
      })
    func joinable(_ word: String) -> Bool {
      word.count >= 3 && word.allSatisfy(\.isLetter) && !KnownItemText.isStopWord(word)
    }
    var options: [(words: [String], at: Int)] = []
    for window in video.windows where KnownItemText.isWorthTyping(window) {
      let words = window.map { $0.lowercased() }
      for position in 0..<(words.count - 1)
      where joinable(words[position]) && joinable(words[position + 1])
        && !names.contains(words[position] + words[position + 1])
      {
        options.append((words, position))
      }
    }
    guard let (words, position) = generator.element(of: options) else { return nil }
    var query = words
    query[position] += query.remove(at: position + 1)
    var rest = query
    rest.remove(at: position)
    return KnownItemCase(
      kind: .joined, variant: "pair", query: query.joined(separator: " "), isPrefix: false,
      target: video.id, exactQuery: words.joined(separator: " "),
      withoutChangedWord: rest.isEmpty ? nil : rest.joined(separator: " "))
  }

  private func splitNameCase(
    for video: KnownItemCorpus.VideoEntry, using generator: inout SplitMix64
  ) -> KnownItemCase? {
    var options: [(name: String, split: String, variant: String)] = []
    for (name, variant) in video.hashtags.map({ ($0, "#tag split") })
      + [(video.creatorUsername ?? "", "@user split")]
    {
      let lowered = name.lowercased()
      guard let split = bestSplit(of: lowered, in: video) else { continue }
      options.append((lowered, split, variant))
    }
    guard let option = generator.element(of: options) else { return nil }
    return KnownItemCase(
      kind: .joined, variant: option.variant, query: option.split, isPrefix: false,
      target: video.id, exactQuery: option.name)
  }

  /// The two-word split of `name` described for ``KnownItemKind/joined``, or `nil`.
  private func bestSplit(of name: String, in video: KnownItemCorpus.VideoEntry) -> String? {
    guard name.count >= 6, KnownItemText.isASCIILetters(name) else { return nil }
    /// How many titles other than the target's have `word`.
    func elsewhere(_ word: String) -> Int {
      (corpus.titleFrequency[word] ?? 0) - (video.words.contains(word) ? 1 : 0)
    }
    func isWord(_ word: String, _ count: Int) -> Bool {
      count >= 2 && (word.count >= 4 || count >= 3)
    }
    guard !corpus.lowercaseWords.contains(name) else { return nil }
    let whole = corpus.titleFrequency[name] ?? 0
    var best: (score: Int, split: String)?
    for cut in 3...(name.count - 3) {
      let head = String(name.prefix(cut))
      let tail = String(name.dropFirst(cut))
      let (headCount, tailCount) = (elsewhere(head), elsewhere(tail))
      guard isWord(head, headCount), isWord(tail, tailCount),
        whole < min(headCount, tailCount),
        !(video.words.contains(head) && video.words.contains(tail))
      else { continue }
      if min(headCount, tailCount) > best?.score ?? 0 {
        best = (min(headCount, tailCount), head + " " + tail)
      }
    }
    return best?.split
  }

  // MARK: - Singular and plural

  private func pluralCase(
    for video: KnownItemCorpus.VideoEntry, using generator: inout SplitMix64
  ) -> KnownItemCase? {
    guard KnownItemText.isEnglishLooking(video.title) else { return nil }
    var options: [(words: [String], at: Int, flipped: String)] = []
    for window in video.windows where KnownItemText.isWorthTyping(window) {
      let words = window.map { $0.lowercased() }
      for (position, word) in words.enumerated() where !KnownItemText.isStopWord(word) {
        guard let flipped = KnownItemText.numberFlipped(word),
          corpus.lowercaseWords.contains(word), corpus.lowercaseWords.contains(flipped),
          !video.words.contains(flipped), !KnownItemText.isStopWord(flipped)
        else { continue }
        options.append((words, position, flipped))
      }
    }
    guard let option = generator.element(of: options) else { return nil }
    var query = option.words
    query[option.at] = option.flipped
    var rest = option.words
    rest.remove(at: option.at)
    let variant = option.flipped.count > option.words[option.at].count ? "to plural" : "to singular"
    return KnownItemCase(
      kind: .plural, variant: variant, query: query.joined(separator: " "), isPrefix: false,
      target: video.id, exactQuery: option.words.joined(separator: " "),
      withoutChangedWord: rest.joined(separator: " "))
  }

  // MARK: - Exact controls

  private func exactWindowCase(
    for video: KnownItemCorpus.VideoEntry, accented: Bool, using generator: inout SplitMix64
  ) -> KnownItemCase? {
    let windows = video.windows.filter { window in
      KnownItemText.isWorthTyping(window)
        && (!accented || window.contains { $0.unicodeScalars.contains { !$0.isASCII } })
    }
    guard let window = generator.element(of: windows) else { return nil }
    let query = window.joined(separator: " ")
    return KnownItemCase(
      kind: .exact, variant: accented ? "accented" : "plain", query: query, isPrefix: false,
      target: video.id, exactQuery: query)
  }

  private func cjkCase(
    for video: KnownItemCorpus.VideoEntry, using generator: inout SplitMix64
  ) -> KnownItemCase? {
    let chunks = video.title.split(whereSeparator: \.isWhitespace).map(KnownItemText.trimmed)
      .filter { $0.count >= 2 && $0.allSatisfy(KnownItemText.isCJK) }
    guard var chunk = generator.element(of: chunks) else { return nil }
    if chunk.count > 6 {
      let length = 2 + generator.index(below: 4)
      let start = generator.index(below: chunk.count - length + 1)
      chunk = String(chunk.dropFirst(start).prefix(length))
    }
    return KnownItemCase(
      kind: .exact, variant: "cjk", query: chunk, isPrefix: false, target: video.id,
      exactQuery: chunk)
  }

  private func usernameCase(for video: KnownItemCorpus.VideoEntry) -> KnownItemCase? {
    guard let name = video.creatorUsername, KnownItemText.isLatin(name),
      KnownItemText.hasContentWord(name.split(separator: " ").map(String.init))
    else { return nil }
    return KnownItemCase(
      kind: .exact, variant: "username", query: name, isPrefix: false, target: video.id,
      exactQuery: name)
  }

  /// Each creator's most-watched video (the first in the corpus of equals).
  private func mostWatchedPerCreator() -> [KnownItemCorpus.VideoEntry] {
    var best: [String: KnownItemCorpus.VideoEntry] = [:]
    for video in corpus.videos {
      guard let name = video.creatorUsername else { continue }
      if let current = best[name], current.viewCount >= video.viewCount { continue }
      best[name] = video
    }
    return best.values.sorted { $0.id < $1.id }
  }
}
