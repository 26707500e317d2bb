import DiscoverSearch

/// `discover check --index DIR`: reads an index with every check there is and says whether
/// it is sound.
struct CheckCommand {
  /// The command's settings.
  var options: IndexInspectionOptions

  /// Verifies the index and writes one line on standard output: `OK: ...` with what it holds,
  /// or the statistics as JSON with `"ok":true` first. A damaged index is an error, written
  /// as every command writes its errors.
  ///
  /// - Throws: ``CommandError`` when the directory is missing, holds no index, or holds a
  ///   damaged or unreadable one.
  /// - Complexity: O(*n*) in the bytes of the index.
  func run(console: Console) throws(CommandError) {
    let statistics = try FileChecks.verifyIndex(at: options.indexDirectory)
    if options.writesJSON {
      var writer = JSONWriter(capacity: 256)
      writer.beginObject()
      writer.field("ok", true)
      statistics.writeJSONMembers(to: &writer)
      writer.endObject()
      writer.newline()
      console.output.write(writer.string)
      return
    }
    console.output.writeLine(
      "OK: \(TextFormatting.counted(statistics.documentTotal, "document")) in generation "
        + "\(statistics.generation), \(TextFormatting.counted(statistics.segments, "segment")), "
        + "\(TextFormatting.bytes(statistics.diskBytes)) on disk; "
        + "every checksum and structure verified")
  }
}
