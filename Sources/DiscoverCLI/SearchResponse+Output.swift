import DiscoverSearch
import Foundation

extension SearchResponse {
  /// Writes the response as one JSON object: `q` (the query as given), `tab`, `totalHits`,
  /// `facets`, `matchedAllTerms`, `didYouMean` when the query has a correction, `results`
  /// with every field and typed metadata, and `nextCursor` when there is a next page.
  func writeJSON(query: String, to writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("q", query)
    writer.field("tab", tab.rawValue)
    writer.field("totalHits", totalHits)
    writer.key("facets")
    writer.beginObject()
    writer.field("videos", facets.videos)
    writer.field("users", facets.users)
    writer.field("hashtags", facets.hashtags)
    writer.field("sounds", facets.sounds)
    writer.endObject()
    writer.field("matchedAllTerms", matchedAllTerms)
    if let didYouMean { writer.field("didYouMean", didYouMean) }
    writer.key("results")
    writer.beginArray()
    for result in results { result.writeJSON(to: &writer) }
    writer.endArray()
    if let nextCursor { writer.field("nextCursor", nextCursor.token) }
    writer.endObject()
  }

  /// Writes the batch line of `discover search --queries FILE --json`:
  /// `{"q":"...","tab":"top","results":[{"id":"v1","type":"video","score":1.5}],"micros":42}`,
  /// each result with its `explanation` when the search explained its scores.
  func writeBatchJSON(query: String, microseconds: Int, to writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("q", query)
    writer.field("tab", tab.rawValue)
    writer.key("results")
    writer.beginArray()
    for result in results {
      writer.beginObject()
      writer.field("id", result.id)
      writer.field("type", result.type.rawValue)
      writer.field("score", result.score)
      if let explanation = result.explanation {
        writer.key("explanation")
        explanation.writeJSON(to: &writer)
      }
      writer.endObject()
    }
    writer.endArray()
    writer.field("micros", microseconds)
    writer.endObject()
  }

  /// The response for a person: a header, the facet counts, `Did you mean: "..."?` when the
  /// query has a correction, numbered results with the
  /// matched words in `**` (each with the breakdown of its score, 4 spaces further in, when
  /// the search explained its scores), and how to get the next page.
  ///
  /// - Parameters:
  ///   - query: the query as typed.
  ///   - nextPageCommand: the command line that fetches the next page, given its cursor.
  ///   - noResultsHints: what to try instead, one line each, under `No results.`.
  func humanText(
    query: String, nextPageCommand: (SearchCursor) -> String, noResultsHints: [String] = []
  ) -> String {
    let tabName = tab.rawValue
    var text = "\(TextFormatting.quoted(query)) in \(tabName): "
    text += TextFormatting.counted(totalHits, "result")
    if !matchedAllTerms && !results.isEmpty {
      text += " (none has every word; showing those matching the most)"
    }
    text += "\n"
    text +=
      "facets: videos \(TextFormatting.grouped(facets.videos)), users \(TextFormatting.grouped(facets.users)), "
      + "hashtags \(TextFormatting.grouped(facets.hashtags)), sounds \(TextFormatting.grouped(facets.sounds))\n"
    if let didYouMean {
      text += "Did you mean: \(TextFormatting.quoted(didYouMean))?\n"
    }
    guard !results.isEmpty else {
      if self.query.isEmpty {
        text += "\nNothing to search for: the query has no letters, numbers, #tags or @names.\n"
      } else if totalHits > 0 {
        text += "\nNo more results: this was the last page.\n"
      } else {
        text += "\nNo results.\n"
        for hint in noResultsHints { text += "\(TextFormatting.singleLine(hint))\n" }
      }
      return text
    }
    let last = results.count
    let numberWidth = String(last).count
    text += "\n"
    for (offset, result) in results.enumerated() {
      let number = "\(offset + 1).".leftPadding(to: numberWidth + 1)
      let indent = String(repeating: " ", count: numberWidth + 2)
      let title = TextFormatting.markingHighlights(
        in: result.title, spans: result.highlights.map(\.utf8Offsets))
      text += "\(number) [\(result.type.rawValue)] \(TextFormatting.singleLine(title))\n"
      let details = result.detailLine
      if !details.isEmpty { text += "\(indent)\(details)\n" }
      text +=
        "\(indent)score \(TextFormatting.fixed(result.score, 3)) · id \(TextFormatting.singleLine(result.id))\n"
      if let explanation = result.explanation {
        text += TextFormatting.indented(explanation.description, by: indent.count + 4)
      }
    }
    if let nextCursor {
      text += "\nNext page: \(nextPageCommand(nextCursor))\n"
    }
    return text
  }
}

extension SearchResult {
  /// Writes the result as a JSON object: `id`, `type`, `title`, `subtitle` and
  /// `thumbnailURL` when present, `score`, `highlights` as `[start, end]` UTF-8 offsets,
  /// `metadata` with the fields of the result's type, and `explanation` when the search
  /// explained its scores.
  func writeJSON(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("id", id)
    writer.field("type", type.rawValue)
    writer.field("title", title)
    if let subtitle { writer.field("subtitle", subtitle) }
    if let thumbnailURL { writer.field("thumbnailURL", thumbnailURL) }
    writer.field("score", score)
    writer.key("highlights")
    writer.beginArray()
    for highlight in highlights {
      writer.beginArray()
      writer.value(highlight.utf8Offsets.lowerBound)
      writer.value(highlight.utf8Offsets.upperBound)
      writer.endArray()
    }
    writer.endArray()
    writer.key("metadata")
    metadata.writeJSON(to: &writer)
    if let explanation {
      writer.key("explanation")
      explanation.writeJSON(to: &writer)
    }
    writer.endObject()
  }

  /// The line under the title: the subtitle, then the numbers that matter for the type.
  var detailLine: String {
    var parts: [String] = []
    if let subtitle, !subtitle.isEmpty, subtitle != title {
      parts.append(TextFormatting.singleLine(subtitle))
    }
    switch metadata {
    case .video(let video):
      parts.append(TextFormatting.counted(video.viewCount, "view"))
      parts.append(TextFormatting.counted(video.likeCount, "like"))
      if let createdAt = video.createdAt { parts.append("posted \(TextFormatting.day(createdAt))") }
      if let sound = video.soundTitle { parts.append("sound: \(TextFormatting.singleLine(sound))") }
    case .user(let user):
      if user.isVerified { parts.append("verified") }
      parts.append(TextFormatting.counted(user.followerCount, "follower"))
      parts.append(TextFormatting.counted(user.videoCount, "video"))
    case .hashtag(let hashtag):
      parts.append(TextFormatting.counted(hashtag.viewCount, "view"))
      parts.append(TextFormatting.counted(hashtag.videoCount, "video"))
    case .sound(let sound):
      if subtitle == nil, let artist = sound.artist {
        parts.append(TextFormatting.singleLine(artist))
      }
      parts.append(TextFormatting.counted(sound.videoCount, "video"))
    }
    return parts.joined(separator: " · ")
  }
}

extension SearchResultMetadata {
  /// Writes the typed fields as a JSON object, named as in the corpus format; absent optional
  /// fields are left out.
  func writeJSON(to writer: inout JSONWriter) {
    writer.beginObject()
    switch self {
    case .video(let video):
      writer.field("viewCount", video.viewCount)
      writer.field("likeCount", video.likeCount)
      if let createdAt = video.createdAt {
        writer.field("createdAt", ISO8601.string(from: createdAt))
      }
      if let creatorID = video.creatorID { writer.field("creatorID", creatorID) }
      if let creatorUsername = video.creatorUsername {
        writer.field("creatorUsername", creatorUsername)
      }
      if let soundID = video.soundID { writer.field("soundID", soundID) }
      if let soundTitle = video.soundTitle { writer.field("soundTitle", soundTitle) }
    case .user(let user):
      if let displayName = user.displayName { writer.field("displayName", displayName) }
      writer.field("followerCount", user.followerCount)
      writer.field("videoCount", user.videoCount)
      writer.field("verified", user.isVerified)
    case .hashtag(let hashtag):
      writer.field("viewCount", hashtag.viewCount)
      writer.field("videoCount", hashtag.videoCount)
    case .sound(let sound):
      if let artist = sound.artist { writer.field("artist", artist) }
      writer.field("videoCount", sound.videoCount)
    }
    writer.endObject()
  }
}
