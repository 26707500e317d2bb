import DiscoverSearch
import Foundation

/// The embedded real corpus (`corpus/youtube_trending.jsonl`), loaded and indexed once for
/// every suite that needs it: a debug build takes seconds to index it.
enum RealCorpus {
  struct Loaded: Sendable {
    let documents: [Document]
    let report: CorpusLoadReport
    let index: DiscoverIndex
  }

  /// The package root, found from this file's path.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Search
    .deletingLastPathComponent()  // DiscoverSearchTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

  static let url = packageRoot.appendingPathComponent("corpus/youtube_trending.jsonl")

  /// Built on first use; a static is initialized once, even when tests run in parallel.
  private static let loaded = Result { () throws -> Loaded in
    let (documents, report) = try CorpusLoader.loadDocuments(at: url, policy: .skip)
    return Loaded(
      documents: documents, report: report, index: try DiscoverIndex.build(from: documents))
  }

  static func load() throws -> Loaded {
    try loaded.get()
  }
}
