import DiscoverSearch

extension ScoreExplanation {
  /// Writes the breakdown as a JSON object with the same parts and names as the type:
  /// `score`, `textScore`, `k1`, `staticFactor`, `qualityFactor`, `typoPenalty`,
  /// `isExactMatch`, `adjacency`, `isReranked`, `popularity`, `recency` (its `ageSeconds`
  /// `null` without a date), and `terms`, each with its `typos`, `penalty` and `fields`.
  ///
  /// - Complexity: O(*t* + *f*) for *t* terms matched in *f* fields in all.
  func writeJSON(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("score", score)
    writer.field("textScore", textScore)
    writer.field("k1", k1)
    writer.field("staticFactor", staticFactor)
    writer.field("qualityFactor", qualityFactor)
    writer.field("typoPenalty", typoPenalty)
    writer.field("isExactMatch", isExactMatch)
    writer.field("adjacency", adjacency)
    writer.field("isReranked", isReranked)
    writer.key("popularity")
    writer.beginObject()
    writer.field("count", popularity.count)
    writer.field("pivot", popularity.pivot)
    writer.field("signal", popularity.signal)
    writer.field("weight", popularity.weight)
    writer.endObject()
    writer.key("recency")
    writer.beginObject()
    writer.key("ageSeconds")
    if let ageSeconds = recency.ageSeconds { writer.value(ageSeconds) } else { writer.nullValue() }
    writer.field("signal", recency.signal)
    writer.field("weight", recency.weight)
    writer.endObject()
    writer.key("terms")
    writer.beginArray()
    for term in terms {
      writer.beginObject()
      writer.field("term", term.term)
      writer.field("matchedForm", term.matchedForm)
      writer.field("origin", term.origin.rawValue)
      if let whole = term.splitFrom { writer.field("splitFrom", whole) }
      writer.field("idf", term.idf)
      writer.field("weightedFrequency", term.weightedFrequency)
      writer.field("typos", term.typos)
      writer.field("penalty", term.penalty)
      writer.field("score", term.score)
      writer.key("fields")
      writer.beginArray()
      for field in term.fields {
        writer.beginObject()
        writer.field("field", field.field.rawValue)
        writer.field("termFrequency", field.termFrequency)
        writer.field("fieldLength", field.fieldLength)
        writer.field("averageFieldLength", field.averageFieldLength)
        writer.field("weight", field.weight)
        writer.field("contribution", field.contribution)
        writer.endObject()
      }
      writer.endArray()
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
  }
}
