import DiscoverSearch

/// The grammar and help text of each subcommand.
extension CommandSpec {
  /// `discover index CORPUS.jsonl --out DIR [--skip-bad-lines]`.
  static let index = CommandSpec(
    name: "index",
    summary: "Build an index from a corpus file and save it to a directory.",
    usage: ["index CORPUS.jsonl --out DIR [--skip-bad-lines]"],
    discussion: """
      CORPUS.jsonl holds one JSON object per line, a video, user, hashtag or sound:
        {"type":"video","id":"v1","title":"...","hashtags":["dance"],"creator":"u1","viewCount":12}
        {"type":"user","id":"u1","username":"dance_queen","displayName":"Dance Queen"}
        {"type":"hashtag","id":"h1","name":"dancechallenge","viewCount":9,"videoCount":3}
        {"type":"sound","id":"s1","title":"Original sound","artist":"Dance Queen"}
      Only type, id and a title (videos, sounds), username (users) or name (hashtags) are
      required; counts are non-negative integers, createdAt an ISO 8601 time with a zone,
      unknown fields are ignored. README.md, "Corpus format", lists every field.

      By default the first bad line stops the build with its line number and what is wrong
      with it; with --skip-bad-lines bad lines are skipped, counted and the first few listed
      on standard error. The index is committed to DIR as a new segment file and manifest:
      a failed or killed run leaves any previous index in place, and another writer at work
      in DIR makes it stop (indexLocked). Progress is shown on standard error when it is a
      terminal.
      """,
    options: [
      .value("--out", "DIR", "The directory to save the index in (created if needed)."),
      .flag("--skip-bad-lines", "Skip and count bad corpus lines instead of stopping."),
    ])

  /// `discover search ...`, one query or a query file.
  static let search = CommandSpec(
    name: "search",
    summary: "Search an index: one query, or every query of a query file.",
    usage: [
      "search \"QUERY\" --index DIR [--tab TAB] [--limit N] [--cursor TOKEN] [--prefix] [--user ID] [--json] [--explain]",
      "search --index DIR --queries FILE [--prefix] [--json] [--explain]",
    ],
    discussion: """
      Every word of QUERY is required; #tag matches hashtags and tagged videos, @name matches
      users and their videos, "quoted words" must appear together. When the words as typed
      find few results, misspelled words are corrected and the corrected query is printed
      as "Did you mean" (in JSON, as "didYouMean").
      TAB is one of: \(validTabs) (default top).
      N is 1 to \(DiscoverIndex.maximumSearchLimit) (default 10); page on with the --cursor printed after a page.

      With --prefix the last word also matches the words it begins, as a search bar does
      while the user types: "dance cha" finds "dance challenge".

      With --user ID the search is recorded, with its result count, in DIR/\(AnalyticsFile.fileName)
      (created if needed): it becomes one of the user's recent searches and counts toward
      trending searches (discover trending searches) and completions (discover suggest).
      Pages after the first are not recorded again.

      With --queries, FILE holds one JSON object per line, such as
      {"kind":"search","q":"dance challenge","tab":"top","limit":10}; a line with "prefix":true
      (or every line, with --prefix) is searched as typed so far. With --json each search
      writes one line {"q":...,"tab":...,"results":[{"id":...,"type":...,"score":...}],"micros":...},
      micros being the search's time in this process; without it, a summary line per query.
      Suggest lines are skipped: run them with discover suggest --queries FILE.

      With --explain each result carries the breakdown of its score: in text, under the result
      (with --queries, every result is listed under its query's summary line); in JSON, as its
      "explanation". The timings then include the time spent explaining.
      """,
    options: [
      .value("--index", "DIR", "The index directory, as written by discover index."),
      .value("--tab", "TAB", "The tab to search: \(validTabs)."),
      .value(
        "--limit", "N", "Results per page, 1 to \(DiscoverIndex.maximumSearchLimit) (default 10)."),
      .value("--cursor", "TOKEN", "Continue after the page that printed this cursor."),
      .flag("--prefix", "Search as you type: the last word may be the start of a word."),
      .value("--user", "ID", "Record the search as this user's, for recent and trending searches."),
      .value("--queries", "FILE", "Run every search of a query file (JSON Lines)."),
      .flag("--json", "Write JSON instead of text."),
      .flag(
        "--explain",
        "Explain each result's score: BM25F per term and field, popularity, recency, exactness and proximity."
      ),
    ])

  /// `discover suggest ...`, one prefix or a query file.
  static let suggest = CommandSpec(
    name: "suggest",
    summary: "Complete a prefix as the user types: one prefix, or every suggest line of a file.",
    usage: [
      "suggest \"PREFIX\" --index DIR [--limit N] [--user ID] [--no-typos] [--json]",
      "suggest --index DIR --queries FILE [--no-typos] [--json]",
    ],
    discussion: """
      Completes the last word of PREFIX after the words before it ("dance cha" suggests
      "dance challenge"), from the index's words, #hashtags, @usernames, title phrases,
      display names and sounds, correcting typos when the prefix as typed finds few.
      A PREFIX that starts with # suggests only hashtags, one with @ only users.
      N is 1 to \(SuggestCommandOptions.maximumLimit) (default 10).

      With --user ID the searches recorded in DIR/\(AnalyticsFile.fileName) by discover search
      --user take part: the user's recent searches that match come first, and past searches
      of at least \(AnalyticsConfiguration().minimumDistinctUsers) different users are suggested, trending ones boosted. Without
      --user, or without that file, completions come from the index alone.

      Text output numbers the suggestions: [kind] text with the matched part in **, then
      "trending", "recent" and the typo count when they apply. With --json the output is one
      line {"q":...,"suggestions":[{"text":...,"kind":...,"matchedRange":[start,end],
      "isTrending":...,"isRecent":...,"typos":...,"score":...}],"micros":...}, kind being one
      of \(Suggestion.Kind.allCases.map(\.rawValue).joined(separator: ", ")). matchedRange gives UTF-8 byte offsets into
      text and is left out when nothing is to be highlighted; micros is the time of the
      completion itself in this process.

      With --queries, FILE holds one JSON object per line, such as
      {"kind":"suggest","q":"danc","limit":10}, completed from the index alone. With --json
      each suggest line writes one line of the shape above; without it, a summary line per
      query and the latency percentiles. Search lines are skipped: run them with discover
      search --queries FILE.
      """,
    options: [
      .value("--index", "DIR", "The index directory, as written by discover index."),
      .value(
        "--limit", "N",
        "Completions to return, 1 to \(SuggestCommandOptions.maximumLimit) (default 10)."),
      .value("--user", "ID", "Put this user's recent searches first; use recorded searches."),
      .value("--queries", "FILE", "Run every suggest line of a query file (JSON Lines)."),
      .flag("--no-typos", "Complete the text as typed, without typo tolerance."),
      .flag("--json", "Write JSON instead of text."),
    ])

  /// `discover events EVENTS.jsonl --index DIR`.
  static let events = CommandSpec(
    name: "events",
    summary: "Record view, like, share and post events for trending content.",
    usage: ["events EVENTS.jsonl --index DIR [--skip-bad-lines] [--now ISO8601] [--json]"],
    discussion: """
      Reads EVENTS.jsonl, one event per line (see README.md, "Event format"):
      {"kind":"view","video":"v1","user":"u9","at":"2026-12-01T10:00:00Z","region":"US"}
      with kind one of view, like, share, post; a post may name "hashtags", "sound" and
      "effect". The events are added to the trending state saved in
      DIR/\(TrendingContent.stateFileName) (created if missing), which discover trending reads.
      A bad line stops the command with its line number and nothing is saved; with
      --skip-bad-lines bad lines are counted and listed, and every valid line is recorded.
      An event dated after --now (default: the current time) is recorded at --now. With
      --json the summary is one line {"events":...,"counted":...,"duplicates":...,
      "tooOld":...,"badLines":...}.
      """,
    options: [
      .value("--index", "DIR", "The index directory, as written by discover index."),
      .flag("--skip-bad-lines", "Skip and count bad lines instead of stopping at the first."),
      .value("--now", "ISO8601", "The current time, which caps event times (default: now)."),
      .flag("--json", "Write the summary as JSON."),
    ])

  /// `discover trending ...`.
  static let trending = CommandSpec(
    name: "trending",
    summary: "List the videos, hashtags, sounds, effects or searches rising now.",
    usage: [
      "trending videos|hashtags|sounds|effects --index DIR [--now ISO8601] [--region R] [--limit N] [--after CURSOR] [--json] [--explain]",
      "trending searches --index DIR [--now ISO8601] [--limit N] [--json]",
    ],
    discussion: """
      videos, hashtags, sounds and effects come from the events recorded with discover events.
      An item is listed once at least \(TrendingConfiguration().minimumDistinctUsers) different users engaged with it (viewers of a
      video; creators posting with a hashtag, sound or effect) and about that many did so in
      its short window (1 hour for videos, 6 hours for the others); each user counts once
      per window. Items are ordered by their score z = (O - E) / sqrt(E + 4), the surprise
      of the short-window count O against the count E the item's own long window (24 hours
      for videos, 7 days for the others) predicts; "rising" marks z of 3 or more with O at
      least twice E. Items the index does not hold are counted but not listed. With
      --region only events of that region count. --after takes the cursor printed after a
      page. --explain adds O, E, z and the counts behind each item.
      With --json: {"list":"hashtags","items":[{"id":...,"type":"hashtag","title":...,
      "score":...,"rising":...,"viewCount":...,"participants":...,"featured":[...]}],
      "nextCursor":...}; videos carry viewCount, thumbnailURL and createdAt; sounds and
      effects videoCount, growth and featured.

      trending searches lists the queries searched more now than usual, from the searches
      recorded in DIR/\(AnalyticsFile.fileName) by discover search --user. A query is listed once
      at least \(AnalyticsConfiguration().minimumDistinctUsers) different users searched it, its latest search found results, and
      it was searched within about the last hour; its score is its recent count times
      log2(1 + velocity). With --json: {"list":"searches","items":[{"query":...,"score":...,
      "recentCount":...,"baselineCount":...,"velocity":...,"distinctUsers":...}]}.
      N is 1 to \(TrendingOptions.maximumLimit) (default 10). --now sets the clock (default: the current time).
      """,
    options: [
      .value("--index", "DIR", "The index directory, as written by discover index."),
      .value("--now", "ISO8601", "The current time (default: now)."),
      .value("--region", "R", "Only events of this region, such as US."),
      .value(
        "--limit", "N", "Items to list, 1 to \(TrendingOptions.maximumLimit) (default 10)."),
      .value("--after", "CURSOR", "The next page: the cursor printed after the previous one."),
      .flag("--explain", "Show how each item's score is computed."),
      .flag("--json", "Write JSON instead of text."),
    ])

  /// `discover stats --index DIR`.
  static let stats = CommandSpec(
    name: "stats",
    summary: "Show what an index holds: documents per type, its commit and its size on disk.",
    usage: ["stats --index DIR [--json]"],
    discussion: """
      Opens the newest commit in DIR and lists its documents of each type (videos, users,
      hashtags, sounds, and effects, which are not searched but named by discover trending
      effects), its deleted documents (0 in this version: a commit rebuilds the index from
      the documents it keeps), its segments, its generation (1 after the first discover index into DIR, one
      more after each) and its size on disk. With --json the output is one line
      {"documents":...,"byType":{"video":...,"user":...,"hashtag":...,"sound":...,
      "effect":...},"deleted":...,"segments":...,"generation":...,"diskBytes":...}, documents
      the live total and diskBytes in bytes. To check every byte of the index, run discover check.
      """,
    options: [
      .value("--index", "DIR", "The index directory, as written by discover index."),
      .flag("--json", "Write JSON instead of text."),
    ])

  /// `discover check --index DIR`.
  static let check = CommandSpec(
    name: "check",
    summary: "Verify an index: every checksum and structure, and what it holds.",
    usage: ["check --index DIR [--json]"],
    discussion: """
      Reads the newest commit in DIR with every check there is: each section's checksum,
      the structure of the postings and columns, and the documents file (its checksum, each
      line a document, as many as the segment holds). A sound index prints one line, "OK:"
      with its documents, generation, segments and size on disk; with --json, the object
      discover stats --json writes with "ok":true first. A missing, damaged or unreadable
      index fails with exit status 1 and says what is wrong (with --json, as
      {"error":{"code":"corruptIndex","message":...,"hints":[...]}} for a damaged one).
      """,
    options: [
      .value("--index", "DIR", "The index directory, as written by discover index."),
      .flag("--json", "Write JSON instead of text."),
    ])

  /// `discover add CORPUS.jsonl --index DIR`.
  static let add = CommandSpec(
    name: "add",
    summary: "Add documents to a saved index, or replace those with the same ids.",
    usage: ["add CORPUS.jsonl --index DIR [--skip-bad-lines] [--commit-every N]"],
    discussion: """
      Reads CORPUS.jsonl (the format of discover index) and adds each document to the index
      in DIR, replacing the document that has its id, of any type; then commits the result
      as the index's next generation. DIR without an index gets a new one. A bad line stops
      the command with its line number and nothing is committed; with --skip-bad-lines bad
      lines are counted and listed, and the rest are added. With --commit-every N, a commit
      follows every N documents, each adding a segment (a bad line then stops after the
      batches before it were committed). Searches of processes that have the index open see
      the change after their next refresh. The first commit analyzes every document of the
      index again and writes them as one segment, so its time grows with the index.
      """,
    options: [
      .value("--index", "DIR", "The index directory, as written by discover index."),
      .flag("--skip-bad-lines", "Skip and count bad lines instead of stopping at the first."),
      .value("--commit-every", "N", "Commit after every N documents, not once at the end."),
    ])

  /// `discover delete ID... --index DIR`.
  static let delete = CommandSpec(
    name: "delete",
    summary: "Delete documents of a saved index by id.",
    usage: ["delete ID... --index DIR"],
    discussion: """
      Deletes the documents with the given ids, of any type, and commits the result as the
      index's next generation: they leave search results, facet counts, completions and
      trending lists. An id the index does not hold is named in a warning and changes
      nothing.
      """,
    options: [
      .value("--index", "DIR", "The index directory, as written by discover index.")
    ])

  /// `discover counts COUNTS.jsonl --index DIR`.
  static let counts = CommandSpec(
    name: "counts",
    summary: "Change view, like, follower and video counts of a saved index's documents.",
    usage: ["counts COUNTS.jsonl --index DIR"],
    discussion: """
      Reads COUNTS.jsonl, one update per line: {"id":"v1","viewCount":10} with any of
      viewCount (videos, hashtags), likeCount (videos), followerCount (users) and videoCount
      (hashtags, sounds); then commits the result as the index's next generation, ranked
      with the new counts. A bad line, an unknown id or a count the document's type does not
      have stops the command with its line number, and nothing is committed.
      """,
    options: [
      .value("--index", "DIR", "The index directory, as written by discover index.")
    ])

  /// The subcommands, in help order (`help` is handled apart).
  static let all: [CommandSpec] = [
    .index, .add, .delete, .counts, .search, .suggest, .events, .trending, .stats, .check,
  ]

  /// The subcommand called `name`.
  static func named(_ name: String) -> CommandSpec? {
    all.first { $0.name == name }
  }

  /// The valid tab names, for messages.
  static let validTabs = SearchTab.allCases.map(\.rawValue).joined(separator: ", ")
}

// MARK: - Help text

extension CommandSpec {
  /// The command's help: usage, summary, options and discussion.
  var helpText: String {
    var text = "Usage:\n"
    for line in usage { text += "  discover \(line)\n" }
    text += "\n\(summary)\n\nOptions:\n"
    let rows =
      options.map { option in
        (option.valueName.map { "\(option.name) \($0)" } ?? option.name, option.summary)
      } + [("-h, --help", "Show this help.")]
    let width = rows.map(\.0.count).max() ?? 0
    for (left, right) in rows {
      text += "  \(left.padding(to: width))  \(right)\n"
    }
    text += "\n\(discussion)\n"
    return text
  }

  /// The overview printed by `discover help`.
  static var overview: String {
    var text = """
      discover: build and search DiscoverSearch indexes.

      Usage:

      """
    for command in all {
      for line in command.usage { text += "  discover \(line)\n" }
    }
    text += "  discover help [COMMAND]\n  discover --version\n\nCommands:\n"
    let width = all.map(\.name.count).max() ?? 0
    for command in all {
      text += "  \(command.name.padding(to: width))  \(command.summary)\n"
    }
    text += "  \("help".padding(to: width))  Show this overview, or a command's help.\n"
    text += """

      Run 'discover help COMMAND' or 'discover COMMAND --help' for a command's options.
      Exit status: 0 on success, 1 when a command fails (a missing file, a damaged index, bad
      data, a feature not in this build), 2 when the command line is wrong.

      """
    return text
  }
}

extension String {
  /// The string padded with spaces on the right to `width` characters.
  func padding(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }

  /// The string padded with spaces on the left to `width` characters.
  func leftPadding(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
