import DiscoverSearch

/// `discover trending LIST --index DIR`: the searches rising now, from the index directory's
/// analytics file; the other lists are not in this build yet.
struct TrendingCommand {
  /// The command's settings.
  var options: TrendingOptions

  /// Writes the list asked for.
  ///
  /// Trending searches come from ``AnalyticsFile``: without that file no search was ever
  /// recorded, so the list is empty and a note on standard error says how searches get
  /// recorded.
  ///
  /// - Throws: ``CommandError`` for a list not in this build (videos, hashtags, sounds),
  ///   a missing index directory, or a damaged analytics file.
  func run(console: Console) throws(CommandError) {
    guard options.list == .searches else {
      throw CommandError.failure(
        "discover trending \(options.list.rawValue) is not available in this build yet: trending videos, hashtags and sounds come with a later release",
        hints: [
          "Trending searches are: discover trending searches --index \(TextFormatting.shellQuoted(options.indexDirectory))"
        ], code: .unsupported)
    }
    try FileChecks.requireIndexDirectory(options.indexDirectory)
    let analytics = try AnalyticsFile.openIfPresent(indexDirectory: options.indexDirectory)
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
