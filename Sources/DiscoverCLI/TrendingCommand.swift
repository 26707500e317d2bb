import DiscoverSearch
import Foundation

/// `discover trending LIST --index DIR`: the videos, hashtags, sounds or effects rising now,
/// from the index directory's trending state, or the searches rising now, from its
/// analytics file.
struct TrendingCommand {
  /// The command's settings.
  var options: TrendingOptions

  /// Writes the list asked for.
  ///
  /// - Throws: ``CommandError`` for a missing or damaged index or state file, or a cursor
  ///   that is not this list's.
  func run(console: Console) throws(CommandError) {
    guard let type = options.list.contentType else {
      try runSearches(console: console)
      return
    }
    let trending = try TrendingStateFile.open(
      indexDirectory: options.indexDirectory, now: options.now)
    let page: TrendingPage
    var explanations: [TrendingExplanation?] = []
    do {
      let cursor = try options.cursor.map { token throws(SearchError) in
        try TrendingCursor(token: token)
      }
      page = try trending.list(type, region: options.region, limit: options.limit, after: cursor)
      if options.explains {
        for item in page.items {
          explanations.append(try trending.explain(type, id: item.id, region: options.region))
        }
      }
    } catch {
      throw CommandError(
        error, context: "cannot list trending \(options.list.rawValue)",
        hints: ["Start from the first page: leave out --after."])
    }
    if options.writesJSON {
      var writer = JSONWriter(capacity: 4096)
      Self.writeJSON(page, list: options.list, explanations: explanations, to: &writer)
      writer.newline()
      console.output.write(writer.string)
    } else {
      console.output.write(humanText(page, explanations: explanations))
    }
    if trending.memoryUsage.journalEntries == 0 {
      console.note(
        "no events are recorded for this index yet (no \(TrendingStateFile.path(inIndexDirectory: options.indexDirectory))): record them with discover events EVENTS.jsonl --index \(TextFormatting.shellQuoted(options.indexDirectory))"
      )
    }
  }

  private func runSearches(console: Console) throws(CommandError) {
    try FileChecks.requireIndexDirectory(options.indexDirectory)
    let clock: @Sendable () -> Date
    if let now = options.now { clock = { now } } else { clock = { Date() } }
    let analytics = try AnalyticsFile.openIfPresent(
      indexDirectory: options.indexDirectory, clock: clock)
    let searches = analytics?.trendingSearches(limit: options.limit) ?? []
    if options.writesJSON {
      var writer = JSONWriter(capacity: 1024)
      Self.writeJSON(searches, to: &writer)
      writer.newline()
      console.output.write(writer.string)
    } else {
      console.output.write(Self.humanText(searches))
    }
    if analytics == nil {
      console.note(
        "no searches are recorded for this index yet (no \(AnalyticsFile.path(inIndexDirectory: options.indexDirectory))): searches are recorded with discover search \"QUERY\" --index \(TextFormatting.shellQuoted(options.indexDirectory)) --user ID"
      )
    }
  }

  /// Writes contract 4's `{"list":...,"items":[...],"nextCursor":...}`.
  static func writeJSON(
    _ page: TrendingPage, list: TrendingList, explanations: [TrendingExplanation?],
    to writer: inout JSONWriter
  ) {
    writer.beginObject()
    writer.field("list", list.rawValue)
    writer.key("items")
    writer.beginArray()
    for (offset, item) in page.items.enumerated() {
      writer.beginObject()
      writer.field("id", item.id)
      writer.field("type", item.type.rawValue)
      writer.field("title", item.title)
      writer.field("score", item.score)
      writer.field("rising", item.isRising)
      writer.field("viewCount", item.viewCount)
      switch item.details {
      case .video(let details):
        writer.field("thumbnailURL", item.thumbnailURL)
        writer.field("createdAt", item.createdAt.map { ISO8601.string(from: $0) })
        writer.field("creator", details.creator)
        writer.field("distinctUsers", details.distinctUsers)
      case .hashtag(let details):
        writer.field("description", details.description)
        writer.field("participants", details.participants)
        writer.field("featured", details.featuredVideoIDs)
      case .sound(let details):
        writer.field("artist", details.artist)
        writer.field("videoCount", details.videoCount)
        writer.field("growth", details.growth)
        writer.field("featured", details.featuredVideoIDs)
      case .effect(let details):
        writer.field("thumbnailURL", item.thumbnailURL)
        writer.field("videoCount", details.videoCount)
        writer.field("growth", details.growth)
        writer.field("featured", details.featuredVideoIDs)
      }
      if offset < explanations.count, let explanation = explanations[offset] {
        writer.key("explain")
        writeJSON(explanation, to: &writer)
      }
      writer.endObject()
    }
    writer.endArray()
    writer.field("nextCursor", page.nextCursor?.token)
    writer.endObject()
  }

  private static func writeJSON(_ explanation: TrendingExplanation, to writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("observed", explanation.observed)
    writer.field("expected", explanation.expected)
    writer.field("longCount", explanation.longCount)
    writer.field("z", explanation.z)
    writer.field("prior", explanation.priorCount)
    writer.field("distinctUsers", explanation.distinctUsers)
    writer.field("distinctUsersExact", explanation.distinctUsersIsExact)
    writer.field("lifetimeViews", explanation.lifetimeViews)
    writer.field("lifetimeActors", explanation.lifetimeActors)
    writer.field("shortHalfLife", explanation.shortHalfLife)
    writer.field("longHalfLife", explanation.longHalfLife)
    writer.endObject()
  }

  /// The list for a person: a header, then one numbered line per item with its score, and
  /// the cursor of the next page.
  func humanText(_ page: TrendingPage, explanations: [TrendingExplanation?]) -> String {
    let region = options.region.map { " in \($0.uppercased())" } ?? ""
    var text =
      "Trending \(options.list.rawValue)\(region): \(TextFormatting.grouped(page.items.count))\n\n"
    guard !page.items.isEmpty else {
      let users = TrendingConfiguration().minimumDistinctUsers
      return text
        + "Nothing is trending: an item is listed once \(users) different users engaged with it recently and the index holds it.\n"
    }
    let numberWidth = String(page.items.count).count
    for (offset, item) in page.items.enumerated() {
      let number = "\(offset + 1).".leftPadding(to: numberWidth + 1)
      text +=
        "\(number) \(TextFormatting.singleLine(item.title)) (\(TextFormatting.singleLine(item.id)))"
      text += " · score \(TextFormatting.fixed(item.score, 2))\(item.isRising ? " · rising" : "")"
      text += " · \(TextFormatting.counted(item.viewCount, "view"))"
      switch item.details {
      case .video(let details):
        text += " · \(TextFormatting.counted(details.distinctUsers, "user"))"
      case .hashtag(let details):
        text += " · \(TextFormatting.counted(details.participants, "participant"))"
      case .sound(let details):
        text +=
          " · \(TextFormatting.counted(details.videoCount, "video")) (growth \(TextFormatting.fixed(details.growth, 1)))"
      case .effect(let details):
        text +=
          " · \(TextFormatting.counted(details.videoCount, "video")) (growth \(TextFormatting.fixed(details.growth, 1)))"
      }
      text += "\n"
      if !item.featuredVideoIDs.isEmpty {
        text +=
          "   featured: \(item.featuredVideoIDs.map(TextFormatting.singleLine).joined(separator: ", "))\n"
      }
      if offset < explanations.count, let explanation = explanations[offset] {
        text +=
          "   O \(TextFormatting.fixed(explanation.observed, 2)) observed in the short window, E \(TextFormatting.fixed(explanation.expected, 2)) expected from the long one (L \(TextFormatting.fixed(explanation.longCount, 2)))"
        text +=
          ", z = (O - E) / sqrt(E + \(TextFormatting.fixed(explanation.priorCount, 0))) = \(TextFormatting.fixed(explanation.z, 2))"
        text +=
          ", \(explanation.distinctUsersIsExact ? "" : "about ")\(TextFormatting.counted(explanation.distinctUsers, "distinct user"))\n"
      }
    }
    if let cursor = page.nextCursor {
      text += "\nNext page: --after \(cursor.token)\n"
    }
    return text
  }

  /// Writes `{"list":"searches","items":[{"query":...,"score":...,"recentCount":...,
  /// "baselineCount":...,"velocity":...,"distinctUsers":...}]}`.
  static func writeJSON(_ searches: [TrendingSearch], to writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("list", TrendingList.searches.rawValue)
    writer.key("items")
    writer.beginArray()
    for search in searches {
      writer.beginObject()
      writer.field("query", search.query)
      writer.field("score", search.score)
      writer.field("recentCount", search.recentCount)
      writer.field("baselineCount", search.baselineCount)
      writer.field("velocity", search.velocity)
      writer.field("distinctUsers", search.distinctUsers)
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
  }

  /// The list for a person: `Trending searches: 2`, a blank line, then one numbered line per
  /// query, `1. "dance challenge" · score 4.76 · 3.0 recent searches · velocity 2,019.3 ·
  /// 3 users`; or a line saying when a query starts to trend.
  static func humanText(_ searches: [TrendingSearch]) -> String {
    var text = "Trending searches: \(TextFormatting.grouped(searches.count))\n\n"
    guard !searches.isEmpty else {
      let users = AnalyticsConfiguration().minimumDistinctUsers
      return text
        + "No trending searches: a query trends once \(users) different users searched it in about the last hour and it found results.\n"
    }
    let numberWidth = String(searches.count).count
    for (offset, search) in searches.enumerated() {
      let number = "\(offset + 1).".leftPadding(to: numberWidth + 1)
      text += "\(number) \(TextFormatting.quoted(search.query))"
      text += " · score \(TextFormatting.fixed(search.score, 2))"
      text += " · \(TextFormatting.fixed(search.recentCount, 1)) recent searches"
      text += " · velocity \(grouped(search.velocity))"
      text += " · \(TextFormatting.counted(search.distinctUsers, "user"))\n"
    }
    return text
  }

  /// `value` with one decimal and thousands grouped: `2,019.3`. A velocity of a query new
  /// this hour is large (its usual rate is the smoothing prior's), so grouping keeps it
  /// readable.
  private static func grouped(_ value: Double) -> String {
    guard value.isFinite, value.magnitude < 1e15 else { return TextFormatting.fixed(value, 1) }
    let tenths = Int((value * 10).rounded())
    let whole = TextFormatting.grouped(tenths / 10)
    let sign = tenths < 0 && tenths / 10 == 0 ? "-" : ""
    return "\(sign)\(whole).\(abs(tenths % 10))"
  }
}
