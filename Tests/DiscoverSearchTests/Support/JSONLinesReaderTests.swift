import Foundation
import Testing

@testable import DiscoverCLI
@testable import DiscoverSearch

/// Lines longer than the limit: every reader of JSON Lines fails at once, under either
/// policy, even on a source that never ends and has no line feed (`discover index /dev/zero`
/// used to read forever).
@Suite struct JSONLinesReaderTests {
  /// What the reader handed over, in words (its lines view a buffer that does not outlive
  /// the call).
  static func describe(_ line: JSONLinesLine) -> String {
    switch line {
    case .blank: "blank"
    case .text(let bytes): "text \(String(decoding: bytes, as: UTF8.self))"
    case .tooLong(let byteCount): "tooLong \(byteCount)"
    }
  }

  @Test(arguments: [1, 7, 64, 4096])
  func stopsAtOnceOnASourceWithoutLineFeeds(_ chunkSize: Int) throws {
    var bytesRead = 0
    var lines: [String] = []
    // An endless stream of one byte and no line feed, as /dev/zero is.
    let endless = { (buffer: UnsafeMutableBufferPointer<UInt8>) -> Int in
      buffer.initialize(repeating: UInt8(ascii: "x"))
      bytesRead += buffer.count
      return buffer.count
    }
    try JSONLinesReader.forEachLine(
      chunkSize: chunkSize, maximumLineLength: 1_000, readingWith: endless,
      { number, line in lines.append("\(number) \(Self.describe(line))") })
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("1 tooLong ") == true)
    let reported = Int(lines.first?.split(separator: " ").last ?? "") ?? 0
    #expect(reported > 1_000)
    #expect(reported == bytesRead)
    // The buffer, grown by doubling, ends within twice the limit and a chunk: nothing is
    // read past that.
    #expect(bytesRead <= 2 * (1_000 + chunkSize))
  }

  @Test func handsOverTheLinesBeforeAnOverlongOneAndNoneAfter() throws {
    let text = "{\"a\":1}\n\n" + String(repeating: "y", count: 300) + "\n{\"b\":2}\n"
    var lines: [String] = []
    try JSONLinesReader.forEachLine(in: Array(text.utf8), chunkSize: 16, maximumLineLength: 100) {
      number, line in lines.append("\(number) \(Self.describe(line))")
    }
    #expect(lines.count == 3)
    #expect(lines.prefix(2) == ["1 text {\"a\":1}", "2 blank"])
    #expect(lines.last?.hasPrefix("3 tooLong ") == true)
  }

  static let devZero = URL(fileURLWithPath: "/dev/zero")

  @Test(arguments: [CorpusErrorPolicy.stop, .skip])
  func corpusLoaderFailsAtOnceOnDevZero(_ policy: CorpusErrorPolicy) {
    let error = #expect(throws: SearchError.self) {
      try CorpusLoader.forEachDocument(at: Self.devZero, policy: policy) { _ in }
    }
    #expect(error?.code == .invalidDocument)
    #expect(
      error?.message.hasPrefix("/dev/zero, line 1: line longer than the limit of 16 MiB") == true)
    #expect(error?.message.contains("either policy") == true)
  }

  @Test(arguments: [CorpusErrorPolicy.stop, .skip])
  func corpusFileWithoutLineFeedFailsUnderEitherPolicy(_ policy: CorpusErrorPolicy) throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("discover-long-line-\(UUID().uuidString).jsonl")
    let first = #"{"type":"hashtag","id":"h1","name":"dance"}"#
    try Data((first + "\n" + String(repeating: "z", count: 5_000)).utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    var ids: [String] = []
    let error = #expect(throws: SearchError.self) {
      try CorpusLoader.forEachDocument(
        at: url, policy: policy, chunkSize: 64, maximumLineLength: 1_000
      ) { ids.append($0.id) }
    }
    #expect(error?.code == .invalidDocument)
    #expect(error?.message.hasPrefix("\(url.path), line 2: line longer than the limit") == true)
    #expect(ids == ["h1"])
  }

  @Test(arguments: [CorpusErrorPolicy.stop, .skip])
  func eventLoaderFailsAtOnceOnDevZero(_ policy: CorpusErrorPolicy) {
    let error = #expect(throws: SearchError.self) {
      try ContentEventLoader.forEachEvent(at: Self.devZero, policy: policy) { _ in }
    }
    #expect(error?.code == .invalidArgument)
    #expect(
      error?.message.hasPrefix("/dev/zero, line 1: the line is longer than the limit") == true)
  }

  @Test func countsAndQueryFilesFailAtOnceOnDevZero() {
    let counts = #expect(throws: SearchError.self) {
      try CountUpdate.forEachUpdate(inFileAt: Self.devZero) { _, _ in }
    }
    #expect(counts?.code == .invalidArgument)
    #expect(counts?.message.contains("line 1") == true)
    let queries = #expect(throws: SearchError.self) {
      try QueryFile.load(at: Self.devZero)
    }
    #expect(queries?.code == .invalidQuery)
    #expect(queries?.message.contains("line 1") == true)
  }

  @Test(arguments: [[], ["--skip-bad-lines"]])
  func indexCommandFailsAtOnceOnDevZero(_ flags: [String]) throws {
    try CLITestSupport.withTemporaryDirectory { directory in
      let output = directory.appendingPathComponent("index").path
      let run = CLITestSupport.run(["index", "/dev/zero", "--out", output] + flags)
      #expect(run.status == 1)
      #expect(
        run.errors.hasPrefix("error: /dev/zero, line 1: line longer than the limit of 16 MiB"))
      #expect(run.errors.contains("--skip-bad-lines does not skip a line this long"))
    }
  }
}
