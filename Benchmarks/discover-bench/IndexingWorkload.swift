import DiscoverCLI
import DiscoverSearch
import Foundation
import SyntheticCorpus

/// Indexes the corpus, timing only the engine: documents are generated or parsed in batches
/// outside the clock, then added and committed on it.
struct IndexingWorkload {
  /// Documents per batch: large enough to amortize, small enough that a 10-million-document
  /// corpus never sits in memory whole.
  static let batchSize = 50_000

  struct Result {
    var index: DiscoverIndex
    var documentCount: Int
    var seconds: Double
    /// The part of ``seconds`` spent building the snapshot (inversion and encoding).
    var commitSeconds: Double
    var queryMix: QueryMixGenerator
    var corpusIssues: Int
  }

  let options: BenchmarkOptions
  /// Where progress is shown between batches, outside the clock.
  var progress: ProgressLine?

  func run() throws -> Result {
    var writer = IndexWriter()
    var mix = QueryMixGenerator(seed: options.seed)
    var nanoseconds: UInt64 = 0
    var corpusOutput: CorpusFileWriter?
    if let url = options.writeCorpus { corpusOutput = try CorpusFileWriter(url: url) }
    var issues = 0

    func addBatch(_ batch: [Document]) throws {
      for document in batch { mix.observe(document) }
      try corpusOutput?.write(batch)
      let start = Measurement.now()
      try writer.add(contentsOf: batch)
      nanoseconds += Measurement.now() - start
      let total = options.documentCount.map { " of \(TextFormatting.grouped($0))" } ?? ""
      progress?.update(
        "Indexing: \(TextFormatting.grouped(writer.documentCount))\(total) documents added")
    }

    let report = try Self.forEachBatch(of: options, size: Self.batchSize) { try addBatch($0) }
    if let report {
      let url = options.corpus ?? BenchmarkOptions.embeddedCorpus
      issues = report.issueCount
      for issue in report.issues.prefix(10) {
        FileHandle.standardError.write(Data("warning: \(url.lastPathComponent): \(issue)\n".utf8))
      }
    }
    try corpusOutput?.finish()
    progress?.update(
      "Indexing: committing \(TextFormatting.grouped(writer.documentCount)) documents")
    let start = Measurement.now()
    let index = try writer.makeIndex()
    let commit = Measurement.now() - start
    nanoseconds += commit
    return Result(
      index: index, documentCount: writer.documentCount, seconds: Double(nanoseconds) / 1e9,
      commitSeconds: Double(commit) / 1e9, queryMix: mix, corpusIssues: issues)
  }
}

extension IndexingWorkload {
  /// Calls `body` with the benchmark's documents in batches of `size`: the synthetic
  /// corpus of `options`, or its corpus file. Returns the file's load report (`nil` for the
  /// synthetic corpus).
  static func forEachBatch(
    of options: BenchmarkOptions, size: Int, _ body: ([Document]) throws -> Void
  ) throws -> CorpusLoadReport? {
    if let count = options.documentCount {
      let corpus = SyntheticCorpus(documentCount: count, seed: options.seed)
      try corpus.forEachBatch(size: size) { try body($0) }
      return nil
    }
    let url = options.corpus ?? BenchmarkOptions.embeddedCorpus
    guard FileManager.default.fileExists(atPath: url.path) else {
      throw SearchError(
        .invalidArgument,
        options.corpus == nil
          ? "the embedded corpus is missing at \(url.path); run from a checkout of the package or pass --corpus FILE"
          : "no corpus file at \(url.path)")
    }
    var batch: [Document] = []
    batch.reserveCapacity(size)
    let report = try CorpusLoader.forEachDocument(at: url, policy: .skip) { document in
      batch.append(document)
      if batch.count == size {
        try body(batch)
        batch.removeAll(keepingCapacity: true)
      }
    }
    try body(batch)
    return report
  }
}

/// Writes documents as a corpus file (JSON Lines, one document a line).
struct CorpusFileWriter {
  private let handle: FileHandle
  private var writer = JSONWriter(capacity: 1 << 20)

  init(url: URL) throws {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw SearchError(.io, "cannot create \(url.path)")
    }
    do {
      handle = try FileHandle(forWritingTo: url)
    } catch {
      throw SearchError(.io, "cannot open \(url.path) for writing: \(error.localizedDescription)")
    }
  }

  mutating func write(_ documents: [Document]) throws {
    for document in documents {
      document.write(to: &writer)
      writer.newline()
    }
    try flush()
  }

  private mutating func flush() throws {
    do {
      try handle.write(contentsOf: writer.bytes)
    } catch {
      throw SearchError(.io, "cannot write the corpus file: \(error.localizedDescription)")
    }
    writer.removeAll()
  }

  mutating func finish() throws {
    try flush()
    try handle.close()
  }
}
