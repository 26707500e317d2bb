import Dispatch
import Synchronization

/// A search index of videos, users, hashtags and sounds: the library's entry point.
///
/// Build one with a writer:
/// ```swift
/// let index = DiscoverIndex()
/// var writer = try index.makeWriter()
/// try writer.add(video)
/// try writer.publish()
/// let response = try index.search("dance challenge", in: .videos, limit: 20)
/// ```
/// or open a saved one with ``open(at:verification:)``. An index is safe to search from any number of
/// tasks at once while one writer commits: each search runs on the snapshot that was
/// current when it started.
public final class DiscoverIndex: Sendable {
  /// The segments searches read, and their generation.
  private let current: Lock<(segments: SegmentSet, generation: UInt64)>
  /// The directory this index was opened from or last saved to, and its commit.
  let source = Lock<IndexSource?>(nil)
  /// Reusable search buffers, shared by every snapshot of this index.
  let workspaces = WorkspacePool()
  /// The merge running on a task of its own, if any.
  let merges = MergeTracker()
  /// The segments merges wrote into the directory that no commit names yet.
  let mergedFiles = MergedSegmentFiles()

  /// Creates an empty index.
  public convenience init(configuration: IndexConfiguration = IndexConfiguration()) {
    self.init(snapshot: IndexSnapshot.makeEmpty(configuration: configuration))
  }

  convenience init(snapshot: IndexSnapshot) {
    self.init(segments: SegmentSet(snapshot))
  }

  init(segments: SegmentSet) {
    current = Lock((segments, 1))
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

  /// A writer of this index, holding its documents: its ``IndexWriter/publish()`` makes
  /// changes visible here, its ``IndexWriter/commit()`` also makes them durable.
  ///
  /// For an index opened from or saved to a directory, the writer holds the directory's lock
  /// until it is gone (one writer per directory, in any process), starts from the newest
  /// commit there (picked up first, as ``refreshIfChanged()`` does) and reads that commit's
  /// documents files, less the deleted documents and with the counts set since. Files that
  /// killed writers left in the directory are removed first.
  ///
  /// - Throws: ``SearchError/Code/indexLocked`` when another writer holds the directory;
  ///   ``SearchError/Code/invalidArgument`` for an index saved by an earlier version without
  ///   its documents; ``SearchError/Code/corruptIndex`` or ``SearchError/Code/io`` when the
  ///   documents file is damaged or cannot be read.
  /// - Complexity: O(*n*) in the documents' bytes, for a directory's index.
  public func makeWriter() throws -> IndexWriter {
    var lock: DirectoryLock?
    if let directory = source.withLock({ $0?.directory }) {
      lock = try DirectoryLock(directory: directory)
      try refreshIfChanged()
      // What killed writers left goes now, not at this writer's first commit.
      if let newest = try IndexDirectory.newestCommit(in: directory) {
        IndexDirectory.removeUnreferencedFiles(in: directory, keeping: newest) {
          self.mergedFiles.names
        }
      }
    }
    let segments = self.segments
    return IndexWriter(
      target: self, configuration: segments.configuration, store: try segments.storedDocuments(),
      lock: lock)
  }

  /// The current segments.
  var segments: SegmentSet {
    current.withLock { $0.segments }
  }

  /// The current segments and their ``generation``, read together.
  var published: (segments: SegmentSet, generation: UInt64) {
    current.withLock { $0 }
  }

  /// The number of the segments searches read now: 1 for a new or opened index, one more
  /// at every change they see (a publish, a commit, a merge swapped in, a refresh that
  /// found a newer commit). A cache keyed by it never serves an answer of older segments.
  ///
  /// It counts in this process only: two processes reading one directory number their
  /// states apart.
  public var generation: UInt64 {
    current.withLock { $0.generation }
  }

  /// The current snapshot of an index whose segments are merged into one.
  var snapshot: IndexSnapshot {
    segments.segments[0]
  }

  /// Swaps in a new snapshot, the index's one segment; searches already running keep the
  /// old segments.
  func publish(_ snapshot: IndexSnapshot) {
    publish(SegmentSet(snapshot))
  }

  /// Swaps in new segments; searches already running keep the old ones.
  func publish(_ segments: SegmentSet) {
    current.withLock { $0 = (segments, $0.generation + 1) }
  }

  /// Replaces `inputs` by `merged`, their merge, if they are all still published (a
  /// publish since may have rebuilt the index); returns whether it did. Documents of
  /// `inputs` deleted since `deletedAtStart` (their deletions when the merge started) are
  /// deleted in `merged`.
  @discardableResult
  func replaceSegments(
    _ inputs: [IndexSnapshot], with merged: IndexSnapshot,
    deletedAtStart: [SegmentDeletions] = []
  ) -> Bool {
    current.withLock { current in
      guard
        let replaced = current.segments.replacing(
          inputs, with: merged, deletedAtStart: deletedAtStart)
      else { return false }
      current = (replaced, current.generation + 1)
      return true
    }
  }

  /// The number of documents of every type, deleted ones left out.
  public var documentCount: Int {
    let segments = self.segments
    return SearchResultType.allCases.reduce(0) { $0 + segments.liveDocumentCount(of: $1) }
  }

  /// The ids of up to `limit` documents of `type`, most popular first: for the benchmark,
  /// which updates the counts of documents it did not add.
  package func documentIDs(of type: SearchResultType, limit: Int) -> [String] {
    let segments = self.segments
    return (0..<UInt32(segments.documentCount(of: type))).lazy
      .filter { !segments.isDeleted($0, of: type) }
      .prefix(limit)
      .map { position in
        let (segment, local) = segments.locate(position, of: type)
        return segment.partition(type).ids.string(at: Int(local))
      }
  }

  /// The number of documents of one type, deleted ones left out.
  public func documentCount(of type: SearchResultType) -> Int {
    segments.liveDocumentCount(of: type)
  }

  /// The bytes the index holds in memory: postings, term dictionary, numeric columns and
  /// stored display fields (not the text it was built from).
  public var memoryBytes: Int { segments.memoryBytes }
}

/// Whether a merge is running on a task of its own for an index (at most one at a time),
/// and a way to wait for it.
final class MergeTracker: Sendable {
  private let running = Lock(false)
  private let group = DispatchGroup()

  /// Marks a merge started; `false` when one is running already.
  func begin() -> Bool {
    running.withLock { running in
      guard !running else { return false }
      running = true
      group.enter()
      return true
    }
  }

  /// Marks the running merge done.
  func end() {
    running.withLock { $0 = false }
    group.leave()
  }

  /// Waits until no merge is running.
  func wait() {
    group.wait()
  }
}
