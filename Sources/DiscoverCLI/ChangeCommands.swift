import DiscoverSearch
import Foundation

/// `discover add CORPUS.jsonl --index DIR`, `discover delete ID... --index DIR` and
/// `discover counts COUNTS.jsonl --index DIR`: changes to a saved index, each committed as
/// one new generation, or not at all when an input is bad.
struct ChangeCommand {
  /// What to change.
  var options: ChangeOptions

  /// Takes the index's writer, applies the changes and commits them.
  ///
  /// - Throws: ``CommandError`` when the index cannot be opened or locked, an input line is
  ///   bad (with its line number; nothing is committed), or the commit fails.
  func run(console: Console) throws(CommandError) {
    let clock = ContinuousClock()
    let start = clock.now
    let directory = options.indexDirectory
    let index = try Self.index(in: directory, creating: options.change.createsIndex)
    var writer = try Self.writer(of: index, in: directory)
    let before = writer.documentCount
    let generationBefore = index.statistics.generation
    let summary: String
    switch options.change {
    case .add(let corpusPath, let skipsBadLines, let commitEvery):
      summary = try add(
        corpusPath, skipsBadLines: skipsBadLines, commitEvery: commitEvery, to: &writer,
        directory: directory, console: console)
    case .delete(let ids):
      summary = delete(ids, from: &writer, console: console)
    case .counts(let countsPath):
      summary = try updateCounts(from: countsPath, in: &writer)
    }
    // `--commit-every` may have committed everything already.
    guard writer.hasUncommittedChanges || index.statistics.generation != generationBefore else {
      console.output.write("\(summary) in \(directory): nothing to commit\n")
      return
    }
    if writer.hasUncommittedChanges { try Self.commit(&writer, to: directory) }
    let generation = ", generation \(index.statistics.generation)"
    console.output.write(
      "\(summary) in \(directory): \(TextFormatting.counted(before, "document")) before, "
        + "\(TextFormatting.counted(writer.documentCount, "document")) now\(generation) "
        + "(\(TextFormatting.seconds(start.duration(to: clock.now))))\n")
  }

  /// Commits `writer`'s changes to the index in `directory`.
  private static func commit(_ writer: inout IndexWriter, to directory: String)
    throws(CommandError)
  {
    do {
      try writer.commit()
    } catch {
      throw CommandError.failure(
        "cannot commit to \(directory): \((error as? SearchError)?.message ?? "\(error)")",
        hints: [
          "Check that the directory is writable and the disk has room; the last commit is intact."
        ],
        code: CommandError.Code(of: error))
    }
  }

  /// The index in `directory`; with `creating`, a directory without an index gets an empty
  /// one first.
  private static func index(in directory: String, creating: Bool) throws(CommandError)
    -> DiscoverIndex
  {
    let url = URL(fileURLWithPath: directory, isDirectory: true)
    if creating, FileChecks.entry(at: directory) == .missing || !holdsIndex(url) {
      do {
        try DiscoverIndex().save(to: url)
      } catch {
        throw CommandError.failure(
          "cannot create an index in \(directory): \((error as? SearchError)?.message ?? "\(error)")",
          code: CommandError.Code(of: error))
      }
    }
    return try FileChecks.openIndex(at: directory)
  }

  /// The writer of `index`, opened from `directory`, with its lock.
  private static func writer(of index: DiscoverIndex, in directory: String) throws(CommandError)
    -> IndexWriter
  {
    do {
      return try index.makeWriter()
    } catch let error as SearchError where error.code == .indexLocked {
      throw CommandError(
        error, context: "another writer is changing \(directory)",
        hints: ["Wait for it to finish, then run this command again."])
    } catch let error as SearchError {
      throw CommandError(
        error, context: "cannot change the index in \(directory)",
        hints: [
          "Rebuild it with: discover index CORPUS.jsonl --out \(TextFormatting.shellQuoted(directory))"
        ])
    } catch {
      throw CommandError.failure("cannot change the index in \(directory): \(error)")
    }
  }

  /// Whether `directory` holds an index of any version.
  private static func holdsIndex(_ directory: URL) -> Bool {
    (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.contains {
      $0.hasPrefix("manifest-") || $0 == "index.dsearch"
    } ?? false
  }

  /// Adds or replaces the corpus's documents, committing after each `commitEvery` of them
  /// when given.
  private func add(
    _ corpusPath: String, skipsBadLines: Bool, commitEvery: Int?, to writer: inout IndexWriter,
    directory: String, console: Console
  ) throws(CommandError) -> String {
    try FileChecks.requireFile(corpusPath, role: "corpus file")
    var added = 0
    var replaced = 0
    let report: CorpusLoadReport
    do {
      report = try CorpusLoader.forEachDocument(
        at: URL(fileURLWithPath: corpusPath), policy: skipsBadLines ? .skip : .stop
      ) { document in
        if try writer.update(document) { replaced += 1 } else { added += 1 }
        if let commitEvery, (added + replaced) % commitEvery == 0 {
          try Self.commit(&writer, to: directory)
        }
      }
    } catch let error as CommandError {
      throw error
    } catch let error as SearchError where error.code == .invalidDocument {
      let committed =
        commitEvery.map { (added + replaced) / $0 * $0 }.flatMap { $0 > 0 ? $0 : nil }
      throw CommandError.failure(
        TextFormatting.removingAdvice(
          " Fix the line, or load with the skip policy", from: error.message
        ).trimmingCharacters(in: CharacterSet(charactersIn: ". "))
          + (committed.map {
            "; the first \(TextFormatting.counted($0, "document")) were committed"
          }
            ?? "; nothing was changed"),
        hints: [
          CommandError.badLineHint(
            error.message,
            otherwise: "Fix the line, or add --skip-bad-lines to skip bad lines and add the rest.")
        ],
        code: CommandError.Code(error.code))
    } catch let error as SearchError {
      throw CommandError(error, context: "cannot read the corpus")
    } catch {
      throw CommandError.failure("cannot read the corpus \(corpusPath): \(error)")
    }
    if report.issueCount > 0 {
      var text =
        "warning: skipped \(TextFormatting.counted(report.issueCount, "bad line")) of \(corpusPath):\n"
      for issue in report.issues.prefix(IndexCommand.listedIssueCount) {
        text += "  \(TextFormatting.singleLine(issue.description))\n"
      }
      console.warnRaw(text)
    }
    return
      "Added \(TextFormatting.counted(added, "document")) and replaced \(TextFormatting.grouped(replaced))"
  }

  /// Deletes the documents with `ids`; ids the index does not hold are named in a warning.
  private func delete(_ ids: [String], from writer: inout IndexWriter, console: Console) -> String {
    var missing: [String] = []
    var deleted = 0
    for id in ids {
      if writer.delete(id: id) { deleted += 1 } else { missing.append(id) }
    }
    if !missing.isEmpty {
      let listed = missing.prefix(10).map { "'\(TextFormatting.singleLine($0))'" }.joined(
        separator: ", ")
      let more = missing.count > 10 ? " and \(missing.count - 10) more" : ""
      console.warn("no document has the id \(listed)\(more); nothing to delete for it")
    }
    return "Deleted \(TextFormatting.counted(deleted, "document"))"
  }

  /// Applies the count updates of a counts file, stopping at the first bad line.
  private func updateCounts(from path: String, in writer: inout IndexWriter) throws(CommandError)
    -> String
  {
    try FileChecks.requireFile(
      path, role: "counts file", hints: [#"Give JSON Lines such as {"id":"v1","viewCount":10}."#])
    var updated = 0
    do {
      try CountUpdate.forEachUpdate(inFileAt: URL(fileURLWithPath: path)) { line, update in
        do {
          try writer.updateCounts(update)
        } catch let error as SearchError {
          throw SearchError(error.code, "\(path), line \(line): \(error.message)")
        }
        updated += 1
      }
    } catch let error as SearchError {
      throw CommandError.failure(
        error.message + "; nothing was changed",
        hints: [
          #"Each line is {"id":...} with any of viewCount, likeCount, followerCount, videoCount."#
        ],
        code: CommandError.Code(error.code))
    } catch {
      throw CommandError.failure("cannot read \(path): \(error)")
    }
    return "Updated the counts of \(TextFormatting.counted(updated, "document"))"
  }
}

/// `discover add`, `delete` and `counts` settings.
struct ChangeOptions: Equatable, Sendable {
  enum Change: Equatable, Sendable {
    case add(corpusPath: String, skipsBadLines: Bool, commitEvery: Int? = nil)
    case delete(ids: [String])
    case counts(countsPath: String)

    /// Whether a directory without an index gets an empty one to add to.
    var createsIndex: Bool {
      if case .add = self { return true }
      return false
    }
  }

  var change: Change
  /// The index directory.
  var indexDirectory: String

  init(change: Change, indexDirectory: String) {
    self.change = change
    self.indexDirectory = indexDirectory
  }

  /// Reads the settings of `discover add`, `delete` or `counts`.
  ///
  /// - Throws: ``CommandError`` of kind ``CommandError/Kind/usage`` saying what to fix.
  init(_ reader: inout ArgumentReader) throws(CommandError) {
    switch reader.command {
    case "add":
      let path = try reader.positional(named: "CORPUS.jsonl", purpose: "the documents to add")
      try reader.rejectExtraPositionals()
      change = .add(
        corpusPath: path, skipsBadLines: reader.parsed.contains("--skip-bad-lines"),
        commitEvery: try Self.commitEvery(reader))
    case "delete":
      let ids = reader.parsed.positionals
      guard !ids.isEmpty else {
        throw CommandError.usage(
          "missing ID: the ids of the documents to delete", command: "delete")
      }
      if let empty = ids.firstIndex(where: \.isEmpty) {
        throw CommandError.usage("ID \(empty + 1) is empty; give document ids", command: "delete")
      }
      change = .delete(ids: ids)
    default:
      let path = try reader.positional(named: "COUNTS.jsonl", purpose: "the count updates")
      try reader.rejectExtraPositionals()
      change = .counts(countsPath: path)
    }
    indexDirectory = try reader.requiredPath("--index", purpose: "the index directory")
  }

  /// The `--commit-every` value of `discover add`, if given: a whole number from 1 up.
  private static func commitEvery(_ reader: ArgumentReader) throws(CommandError) -> Int? {
    guard let text = reader.parsed.values["--commit-every"] else { return nil }
    guard let count = Int(text), count >= 1 else {
      throw CommandError.usage(
        "--commit-every must be a whole number of documents from 1 up, got '\(text)'",
        command: reader.command)
    }
    return count
  }
}
