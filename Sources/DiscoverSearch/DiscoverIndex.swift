import Synchronization

/// A search index of videos, users, hashtags and sounds: the library's entry point.
///
/// Build one with a writer:
/// ```swift
/// let index = DiscoverIndex()
/// var writer = index.makeWriter()
/// try writer.add(video)
/// try writer.commit()
/// let response = try index.search("dance challenge", in: .videos, limit: 20)
/// ```
/// or open a saved one with ``open(at:)``. An index is safe to search from any number of
/// tasks at once while one writer commits: each search runs on the snapshot that was
/// current when it started.
public final class DiscoverIndex: Sendable {
  private let current: Lock<IndexSnapshot>
  /// The directory this index was opened from or last saved to, and its commit.
  let source = Lock<IndexSource?>(nil)
  /// Reusable search buffers, shared by every snapshot of this index.
  let workspaces = WorkspacePool()

  /// Creates an empty index.
  public convenience init(configuration: IndexConfiguration = IndexConfiguration()) {
    self.init(snapshot: IndexSnapshot.makeEmpty(configuration: configuration))
  }

  init(snapshot: IndexSnapshot) {
    current = Lock(snapshot)
    // Build the analysis tables now (a few milliseconds, once per process) rather than in
    // the first search.
    Analyzer.prepare()
  }

  /// Builds an index of `documents`.
  ///
  /// - Throws: ``SearchError/Code/invalidDocument`` for the first document that cannot be
  ///   added (empty or duplicate id, negative count).
  /// - Complexity: O(n) in the total length of the documents' text.
  public static func build(
    from documents: some Sequence<Document>,
    configuration: IndexConfiguration = IndexConfiguration()
  ) throws -> DiscoverIndex {
    var writer = IndexWriter(configuration: configuration)
    try writer.add(contentsOf: documents)
    return try writer.makeIndex()
  }

  /// A writer whose ``IndexWriter/commit()`` publishes to this index.
  ///
  /// The writer starts empty: a commit replaces the index's documents with the writer's.
  public func makeWriter() -> IndexWriter {
    IndexWriter(target: self, configuration: snapshot.configuration)
  }

  /// The current snapshot.
  var snapshot: IndexSnapshot {
    current.withLock { $0 }
  }

  /// Swaps in a new snapshot; searches already running keep the old one.
  func publish(_ snapshot: IndexSnapshot) {
    current.withLock { $0 = snapshot }
  }

  /// The number of documents of every type.
  public var documentCount: Int { snapshot.documentCount }

  /// The number of documents of one type.
  public func documentCount(of type: SearchResultType) -> Int {
    snapshot.partition(type).documentCount
  }

  /// The bytes the index holds in memory: postings, term dictionary, numeric columns and
  /// stored display fields (not the text it was built from).
  public var memoryBytes: Int { snapshot.memoryBytes }
}
