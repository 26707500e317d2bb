import DiscoverSearch

extension IndexStatistics {
  /// The documents of each type, in the order of the corpus format, effects last: the type
  /// as a corpus line names it (`video`, `user`, `hashtag`, `sound`, `effect`) and its count.
  var countsByType: [(type: String, count: Int)] {
    SearchResultType.allCases.map { ($0.rawValue, documents[$0] ?? 0) } + [("effect", effects)]
  }

  /// Every document of the commit, effects included: the corpus lines it holds.
  var documentTotal: Int {
    countsByType.reduce(0) { $0 + $1.count }
  }

  /// Writes the members of `discover stats --json` into the object `writer` has open, as
  /// contract 4 names them: `documents` (the live total, effects included), `byType`
  /// (`{"video":...,"user":...,"hashtag":...,"sound":...,"effect":...}`), then `deleted`,
  /// `segments`, `generation` and `diskBytes`.
  func writeJSONMembers(to writer: inout JSONWriter) {
    writer.field("documents", documentTotal)
    writer.key("byType")
    writer.beginObject()
    for (type, count) in countsByType { writer.field(type, count) }
    writer.endObject()
    writer.field("deleted", deletedDocuments)
    writer.field("segments", segments)
    // The writer takes an `Int`. A generation past `Int.max` takes 2^63 commits, so only a
    // forged manifest holds one; it is clamped rather than trap on data from outside.
    writer.field("generation", Int(clamping: generation))
    writer.field("diskBytes", diskBytes)
  }

  /// The statistics as an aligned table for a person, one row a line: the documents of each
  /// type, then deleted documents, segments, generation and size on disk, each value
  /// right-aligned as in the summary of `discover index`.
  var table: String {
    let rows =
      countsByType.map { ("\($0.type)s", TextFormatting.grouped($0.count)) } + [
        ("deleted documents", TextFormatting.grouped(deletedDocuments)),
        ("segments", TextFormatting.grouped(segments)),
        ("generation", String(generation)),
        ("size on disk", TextFormatting.bytes(diskBytes)),
      ]
    let labelWidth = rows.map(\.0.count).max() ?? 0
    let valueWidth = rows.map(\.1.count).max() ?? 0
    return rows.map { label, value in
      "  \(label.padding(to: labelWidth))  \(value.leftPadding(to: valueWidth))\n"
    }.joined()
  }
}
