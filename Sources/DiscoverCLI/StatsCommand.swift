import DiscoverSearch

/// `discover stats --index DIR`: what an index holds, the commit it shows and its size on
/// disk.
struct StatsCommand {
  /// The command's settings.
  var options: IndexInspectionOptions

  /// Opens the index and writes its statistics on standard output: a heading and a table,
  /// or one JSON line.
  ///
  /// - Throws: ``CommandError`` when the directory is missing, holds no index, or holds a
  ///   damaged one.
  func run(console: Console) throws(CommandError) {
    let statistics = try FileChecks.openIndex(at: options.indexDirectory).statistics
    if options.writesJSON {
      var writer = JSONWriter(capacity: 256)
      writer.beginObject()
      statistics.writeJSONMembers(to: &writer)
      writer.endObject()
      writer.newline()
      console.output.write(writer.string)
      return
    }
    let heading =
      "Index in \(TextFormatting.singleLine(options.indexDirectory)): "
      + "\(TextFormatting.counted(statistics.documentTotal, "document"))\n"
    console.output.write(heading + statistics.table)
  }
}
