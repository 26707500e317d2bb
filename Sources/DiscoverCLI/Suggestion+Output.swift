import DiscoverSearch

extension Suggestion {
  /// Writes the suggestion as a JSON object: `text`, `kind`, `matchedRange` as
  /// `[start, end]` UTF-8 offsets into `text` (left out when nothing is to be highlighted),
  /// `isTrending`, `isRecent`, `typos` and `score`.
  func writeJSON(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("text", text)
    writer.field("kind", kind.rawValue)
    if let matchedRange {
      writer.key("matchedRange")
      writer.beginArray()
      writer.value(matchedRange.utf8Offsets.lowerBound)
      writer.value(matchedRange.utf8Offsets.upperBound)
      writer.endArray()
    }
    writer.field("isTrending", isTrending)
    writer.field("isRecent", isRecent)
    writer.field("typos", typos)
    writer.field("score", score)
    writer.endObject()
  }

  /// The suggestion on one line for a person: `[query] **bru**no mars · trending · recent ·
  /// 1 typo`, the matched part in `**` and each flag only when it applies.
  var humanLine: String {
    let spans = matchedRange.map { [$0.utf8Offsets] } ?? []
    var parts = [
      "[\(kind.rawValue)] \(TextFormatting.singleLine(TextFormatting.markingHighlights(in: text, spans: spans)))"
    ]
    if isTrending { parts.append("trending") }
    if isRecent { parts.append("recent") }
    if typos > 0 { parts.append(TextFormatting.counted(typos, "typo")) }
    return parts.joined(separator: " · ")
  }
}

extension Array where Element == Suggestion {
  /// Writes the line of `discover suggest --json` for completions:
  /// `{"q":"...","suggestions":[...],"micros":42}`, each suggestion as
  /// ``Suggestion/writeJSON(to:)`` writes it.
  ///
  /// - Parameters:
  ///   - prefix: the text completed, as given.
  ///   - microseconds: the time of the library call.
  ///   - writer: where to write.
  func writeJSON(prefix: String, microseconds: Int, to writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("q", prefix)
    writer.key("suggestions")
    writer.beginArray()
    for suggestion in self { suggestion.writeJSON(to: &writer) }
    writer.endArray()
    writer.field("micros", microseconds)
    writer.endObject()
  }

  /// The completions for a person: a header line, `"bru": 3 suggestions`, then after a
  /// blank line the numbered suggestions (``Suggestion/humanLine``), or `No suggestions.`.
  func humanText(prefix: String) -> String {
    var text =
      "\(TextFormatting.quoted(prefix)): \(TextFormatting.counted(count, "suggestion"))\n\n"
    guard !isEmpty else { return text + "No suggestions.\n" }
    let numberWidth = String(count).count
    for (offset, suggestion) in enumerated() {
      text += "\("\(offset + 1).".leftPadding(to: numberWidth + 1)) \(suggestion.humanLine)\n"
    }
    return text
  }
}
