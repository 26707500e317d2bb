import DiscoverSearch
import Foundation
import Testing

@testable import DiscoverCLI

@Suite("discover index")
struct CLIIndexCommandTests {
  @Test func indexesCorpusAndSummarizesDocumentsPerType() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let corpus = try CLITestSupport.write(
        CLITestSupport.corpusLines, named: "c.jsonl", in: directory)
      let out = directory.appendingPathComponent("nested/index").path
      let result = CLITestSupport.run(["index", corpus.path, "--out", out])
      #expect(result.status == 0)
      #expect(result.errors.isEmpty, "a clean corpus off a terminal writes nothing on stderr")
      #expect(result.output.contains("Indexed 7 documents from \(corpus.path) into \(out)"))
      for row in ["videos", "users", "hashtags", "sounds"] {
        #expect(result.output.contains("  \(row)"), "missing the \(row) row")
      }
      #expect(result.output.contains("Time: "))
      #expect(result.output.contains("on disk"))
      #expect(try DiscoverIndex.open(at: URL(fileURLWithPath: out)).documentCount > 0)
    }
  }

  @Test func stopsAtTheFirstBadLineNamingFileAndLine() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      var lines = CLITestSupport.corpusLines
      lines.insert(#"{"type":"clip","id":"x1"}"#, at: 2)
      lines.insert("not json", at: 4)
      let corpus = try CLITestSupport.write(lines, named: "bad.jsonl", in: directory)
      let out = directory.appendingPathComponent("index").path
      let result = CLITestSupport.run(["index", corpus.path, "--out", out])
      #expect(result.status == 1)
      #expect(result.output.isEmpty)
      #expect(result.errors.contains("\(corpus.path), line 3: unknown type \"clip\""))
      #expect(!result.errors.contains("line 5"), "stops at the first bad line")
      #expect(result.errors.contains("--skip-bad-lines"))
      #expect((try? DiscoverIndex.open(at: URL(fileURLWithPath: out))) == nil)
    }
  }

  @Test func skipBadLinesIndexesTheRestAndReportsTheIssues() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      var lines = CLITestSupport.corpusLines
      lines.insert(#"{"type":"clip","id":"x1"}"#, at: 2)
      lines.insert("not json", at: 4)
      let corpus = try CLITestSupport.write(lines, named: "bad.jsonl", in: directory)
      let out = directory.appendingPathComponent("index").path
      let result = CLITestSupport.run(["index", corpus.path, "--out", out, "--skip-bad-lines"])
      #expect(result.status == 0)
      #expect(result.output.contains("Indexed 7 documents"))
      #expect(result.errors.contains("warning: skipped 2 bad lines of \(corpus.path)"))
      #expect(result.errors.contains("line 3: unknown type"))
      #expect(result.errors.contains("line 5: invalid JSON"))
      #expect(try DiscoverIndex.open(at: URL(fileURLWithPath: out)).documentCount > 0)
    }
  }

  @Test func listsOnlyTheFirstFewSkippedLines() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let lines = CLITestSupport.corpusLines + Array(repeating: "[]", count: 8)
      let corpus = try CLITestSupport.write(lines, named: "bad.jsonl", in: directory)
      let out = directory.appendingPathComponent("index").path
      let result = CLITestSupport.run(["index", corpus.path, "--out", out, "--skip-bad-lines"])
      #expect(result.status == 0)
      #expect(result.errors.contains("skipped 8 bad lines"))
      #expect(result.errors.contains("... and 3 more"))
    }
  }

  @Test func missingCorpusFileFailsWithItsPath() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let missing = directory.appendingPathComponent("nope.jsonl").path
      let result = CLITestSupport.run(["index", missing, "--out", directory.path + "/i"])
      #expect(result.status == 1)
      #expect(result.errors.contains("corpus file not found: \(missing)"))
      let folder = CLITestSupport.run(["index", directory.path, "--out", directory.path + "/i"])
      #expect(folder.status == 1)
      #expect(folder.errors.contains("is a directory"))
    }
  }

  @Test func outputPathThatIsAFileFails() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let corpus = try CLITestSupport.write(
        CLITestSupport.corpusLines, named: "c.jsonl", in: directory)
      let result = CLITestSupport.run(["index", corpus.path, "--out", corpus.path])
      #expect(result.status == 1)
      #expect(result.errors.contains("--out takes a directory"))
    }
  }

  @Test func emptyCorpusBuildsAnEmptyIndexWithAWarning() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let corpus = try CLITestSupport.write([], named: "empty.jsonl", in: directory)
      let out = directory.appendingPathComponent("index").path
      let result = CLITestSupport.run(["index", corpus.path, "--out", out])
      #expect(result.status == 0)
      #expect(result.errors.contains("holds no documents"))
      #expect(result.output.contains("Indexed 0 documents"))
    }
  }

  @Test func progressAppearsOnATerminalOnly() throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let corpus = try CLITestSupport.write(
        CLITestSupport.corpusLines, named: "c.jsonl", in: directory)
      let options = IndexOptions(corpusPath: corpus.path, outputDirectory: directory.path + "/i")
      let command = IndexCommand(options: options, progressInterval: 2)

      let terminal = TextBuffer(isTerminal: true)
      try command.run(console: Console(output: TextBuffer(), errorOutput: terminal))
      #expect(terminal.text.contains("\r\u{1B}[KReading \(corpus.path): 6 documents..."))
      #expect(terminal.text.hasSuffix("\r\u{1B}[K"), "the progress line is erased at the end")

      let pipe = TextBuffer(isTerminal: false)
      try command.run(console: Console(output: TextBuffer(), errorOutput: pipe))
      #expect(pipe.text.isEmpty)
    }
  }
}
