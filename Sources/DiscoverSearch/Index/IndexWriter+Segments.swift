import Dispatch
import Foundation

/// What a segment of some documents needs from the writer of the whole index, so that its
/// documents are analyzed as one build of everything would analyze them.
///
/// A segment is built by a writer of its documents alone, but three things of a document's
/// analysis depend on other documents: the creator field of a video holds its creator's
/// username and display name, a concatenated tag is split by the vocabulary of every
/// document (``WordSegmenter``), and a user's video count counts every video naming them.
struct SegmentContext {
  /// The whole index's terms with their word counts, the vocabulary tags split by.
  var vocabulary: TermInterner
  /// Occurrences of all words of running text in the whole index.
  var totalPlainWords: Int
  /// Per user of the segment, in the order added, how many videos of the whole index name
  /// the user.
  var userVideoCounts: [Int] = []
  /// The creator terms (``IndexWriter/userCreatorTerms``, in the segment's term ids) of users
  /// outside the segment that its videos name: user `k`'s are
  /// `externalCreatorTerms[externalCreatorStarts[k]..<externalCreatorStarts[k + 1]]`.
  var externalCreatorTerms: [UInt64] = []
  var externalCreatorStarts: [UInt32] = [0]
  /// The number `k` of each outside user, by id.
  var externalCreators: [String: UInt32] = [:]
  /// Per type, the number of the index's other documents and each field's sum of their
  /// lengths, so that the segment normalizes by the whole index's averages.
  var otherLengths: [(count: Int, sums: [Double])] = []
  /// The splits of the segment's tag terms by ``vocabulary``, as the segment's term ids
  /// (``IndexWriter/prepareSegmentSplits()``).
  var splits: [(term: UInt32, parts: [UInt32])] = []

  /// The splits as a table over `termCount` terms.
  func tagSplits(termCount: Int) -> TagSplits {
    var table = TagSplits(termCount: termCount)
    for (term, parts) in splits { table.setParts(parts, of: term) }
    return table
  }
}

extension IndexWriter {
  /// A segment of `documents`, documents this writer holds and has analyzed, which a
  /// writer of them alone analyzes again with this writer's context (``SegmentContext``):
  /// their videos' creators outside `documents`, the whole vocabulary, and every video's
  /// creator counted.
  ///
  /// - Complexity: O(n) in the text of `documents`, plus O(v) for v videos held (their
  ///   creators counted).
  ///
  /// - Parameter others: The index's other segments, whose lengths join the average lengths
  ///   the segment normalizes by.
  func makeSegment(of documents: [Document], beside others: [IndexSnapshot] = []) throws
    -> IndexSnapshot
  {
    var segment = IndexWriter(configuration: configuration)
    try segment.add(contentsOf: documents)
    var context = SegmentContext(vocabulary: terms, totalPlainWords: totalPlainWords)
    context.otherLengths = SearchResultType.allCases.map { type in
      var sums = [Double](repeating: 0, count: SearchField.fields(of: type).count)
      var count = 0
      for other in others {
        let partition = other.partition(type)
        count += partition.documentCount
        for (field, sum) in partition.fieldLengthSums.enumerated() { sums[field] += sum }
      }
      return (count, sums)
    }
    context.userVideoCounts = videoCounts(
      ofUsers: documents.compactMap { document in
        if case .user(let user) = document { user.id } else { nil }
      })
    for reference in segment.pendingReferences where reference.kind == .creator {
      guard segment.resolve(reference.id, as: .user) == nil,
        context.externalCreators[reference.id] == nil,
        let user = resolve(reference.id, as: .user)
      else { continue }
      let range =
        Int(userCreatorTermStarts[Int(user)])..<Int(userCreatorTermStarts[Int(user) + 1])
      for packed in userCreatorTerms[range] {
        let term = terms.withBytes(of: UInt32(truncatingIfNeeded: packed >> 32)) {
          segment.terms.intern($0)
        }
        context.externalCreatorTerms.append(UInt64(term) << 32 | (packed & 0xFFFF_FFFF))
      }
      context.externalCreators[reference.id] = UInt32(context.externalCreatorStarts.count - 1)
      context.externalCreatorStarts.append(UInt32(context.externalCreatorTerms.count))
    }
    segment.segmentContext = context
    segment.prepareSegmentSplits()
    let snapshot = try segment.makeSnapshot()
    snapshot.documents.value = .memory(segment.store.published())
    return snapshot
  }

  /// How many of the videos held name each user of `ids` as their creator.
  private func videoCounts(ofUsers ids: [String]) -> [Int] {
    guard !ids.isEmpty else { return [] }
    var counts = [Int](repeating: 0, count: builders[SearchResultType.user.index].documentCount)
    for creator in videoCreators where creator != UInt32.max { counts[Int(creator)] += 1 }
    for reference in pendingReferences where reference.kind == .creator {
      if let user = resolve(reference.id, as: .user) { counts[Int(user)] += 1 }
    }
    return ids.map { id in resolve(id, as: .user).map { counts[Int($0)] } ?? 0 }
  }

  /// Splits the tag terms of a segment's writer by the whole index's vocabulary
  /// (``SegmentContext/vocabulary``) and adds the parts to its terms, as
  /// ``makeTagSplits()`` splits them by a writer's own.
  mutating func prepareSegmentSplits() {
    guard var context = segmentContext, context.totalPlainWords > 0 else { return }
    let vocabulary = context.vocabulary
    // As in `makeTagSplits`: in a large corpus a word seen once makes bad splits.
    let minimumFrequency: UInt32 = context.totalPlainWords >= 100_000 ? 2 : 1
    let segmenter = WordSegmenter(
      frequency: { vocabulary.wordCount(of: $0) },
      totalFrequency: Double(context.totalPlainWords), minimumFrequency: minimumFrequency)
    let lowercase = UInt8(ascii: "a")...UInt8(ascii: "z")
    for term in 0..<UInt32(terms.count) {
      let body: [UInt8]? = terms.withBytes(of: term) { bytes in
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "#") || bytes[0] == UInt8(ascii: "@"),
          bytes.dropFirst().allSatisfy(lowercase.contains)
        else { return nil }
        return Array(bytes.dropFirst())
      }
      guard let body,
        let ranges = body.withUnsafeBytes({ segmenter.split($0) })
      else { continue }
      let parts = ranges.map { range in
        body[range].withUnsafeBytes { terms.intern($0) }
      }
      context.splits.append((term, parts))
    }
    segmentContext = context
  }
}

extension IndexWriter {
  /// What ``publish()`` swaps in: the index's segments with the documents deleted or
  /// replaced since the last publish marked deleted, a new segment of the documents added
  /// since, and the counts changed since set in the segments holding them, when the index
  /// still shows that publish (merges aside); otherwise one segment of everything, or the
  /// last build with new count columns when only counts changed since it.
  mutating func makeSegmentSet(publishingTo target: DiscoverIndex) throws -> SegmentSet {
    if let documents = documentsToPublish(), analysisIsCurrent,
      !(hasCountChangesSincePublish && countBase != nil)
    {
      store.applyCountUpdates()
      let slot = DocumentSlot()
      slot.value = .memory(store.published())
      var set = target.segments.deleting(tombstones, documents: slot)
      if set.liveCount + documents.count == store.count {
        if !documents.isEmpty {
          set = set.appending(try makeSegment(of: documents, beside: set.segments))
        }
        if hasCountChangesSincePublish { set = set.patchingCounts(countPatches(in: set)) }
        // Back-pressure: merges fell behind.
        while set.segments.count > mergePolicy.maximumSegments,
          let job = MergeJob(writer: self, set: set)
        {
          set =
            set.replacing(job.inputs, with: try job.merged(), deletedAtStart: job.deletedAtStart)
            ?? set
        }
        forgetPublishedChanges()
        return set
      }
    }
    let set = SegmentSet(try makeSnapshotWithDocuments())
    forgetPublishedChanges()
    return set
  }

  /// Forgets what the next publish was to apply, once a publish applied it.
  private mutating func forgetPublishedChanges() {
    unpublished = []
    tombstones = []
    touchedUnpublished = []
    changedCounts = []
    countChangedIDs = []
  }

  /// Per segment of `set`, the counts of the documents whose counts changed since the last
  /// publish, as the store holds them now, where the segment holds them live.
  ///
  /// - Complexity: O(c · s) for c documents changed and s segments.
  private mutating func countPatches(in set: SegmentSet) -> [[CountPatch]] {
    var patches = [[CountPatch]](repeating: [], count: set.segments.count)
    for id in Set(countChangedIDs) {
      guard let document = store.document(id: id) else { continue }
      let kind = document.kind
      let values = CountKinds.values(of: document)
      guard !values.isEmpty else { continue }
      for (index, found) in set.liveLocations(of: id, as: kind) {
        for (column, value) in values {
          patches[index].append(CountPatch(column: column, document: found, value: value))
        }
      }
    }
    return patches
  }

  /// The documents added since the last publish and still held, each id's latest version
  /// once, in the order added; `nil` when the next publish builds everything.
  private func documentsToPublish() -> [Document]? {
    guard let unpublished else { return nil }
    guard !touchedUnpublished.isEmpty else { return unpublished }
    var seen: Set<String> = []
    var kept: [Document] = []
    for document in unpublished.reversed() {
      let id = document.id
      guard touchedUnpublished.contains(id) else {
        kept.append(document)
        continue
      }
      if seen.insert(id).inserted && store.contains(id: id) { kept.append(document) }
    }
    return kept.reversed()
  }

  /// The documents held of every segment of `segments` but those `deletions` (one per
  /// segment) marks deleted.
  func heldDocuments(of segments: [IndexSnapshot], deletions: [SegmentDeletions]) -> [Document] {
    var store = self.store
    var documents: [Document] = []
    for (segment, deleted) in zip(segments, deletions) {
      for kind in DocumentKind.allCases {
        let ids = segment.ids(of: kind)
        for index in 0..<ids.count where !deleted.contains(UInt32(index), of: kind) {
          if let document = store.document(id: ids.string(at: index)) { documents.append(document) }
        }
      }
    }
    return documents
  }

  /// A writer sharing only what ``makeSegment(of:beside:)`` and ``heldDocuments(of:deletions:)`` read
  /// of this one: the documents, terms, ids and creators, not the postings entries and
  /// columns. A merge holds it while it runs, and this writer copies what the two share
  /// before changing it (copy on write): the less they share, the less it copies.
  func contextCopy() -> IndexWriter {
    var copy = IndexWriter(configuration: configuration)
    copy.store = store
    copy.terms = terms
    copy.totalPlainWords = totalPlainWords
    copy.documentIDs = documentIDs
    copy.documentLocations = documentLocations
    copy.videoCreators = videoCreators
    copy.pendingReferences = pendingReferences
    copy.userCreatorTerms = userCreatorTerms
    copy.userCreatorTermStarts = userCreatorTermStarts
    let user = SearchResultType.user.index
    copy.builders[user].entryStarts = builders[user].entryStarts
    copy.analysisIsCurrent = analysisIsCurrent
    copy.mergePolicy = mergePolicy
    return copy
  }

  /// `segments` but `inputs`.
  static func segments(_ segments: [IndexSnapshot], without inputs: [IndexSnapshot])
    -> [IndexSnapshot]
  {
    segments.filter { segment in !inputs.contains { $0 === segment } }
  }

  /// Waits until the merges running on a task of their own are done and the policy picks
  /// no other: the index's segments are then within its budget. (A publish starts at most
  /// one merge; this goes on merging until none is due.)
  public func waitForMerges() {
    guard let target else { return }
    var previous: [ObjectIdentifier] = []
    while true {
      target.merges.wait()
      // Stop when the policy is content, or when the last merge changed nothing (it failed,
      // or a publish rebuilt the index under it).
      let set = target.segments
      let current = set.segments.map(ObjectIdentifier.init)
      guard analysisIsCurrent, current != previous,
        mergePolicy.merge(sizes: set.liveSizes, deleted: set.deletedSizes) != nil
      else { return }
      previous = current
      startMerges(in: target)
    }
  }

  /// Starts the merge the policy picks for `target`'s segments, on a task of its own (or
  /// here, when ``MergePolicy/mergesInBackground`` is off), unless one is running. The
  /// merged segment replaces its inputs if they are all still published when it is done.
  func startMerges(in target: DiscoverIndex) {
    guard analysisIsCurrent else { return }
    let policy = mergePolicy
    guard policy.mergesInBackground else {
      while let job = MergeJob(writer: self, set: target.segments) {
        guard job.run(into: target) else { return }
      }
      return
    }
    guard target.merges.begin() else { return }
    guard
      let job = MergeJob(
        writer: contextCopy(), set: target.segments, directory: directoryLock?.directory)
    else {
      target.merges.end()
      return
    }
    DispatchQueue.global(qos: .utility).async {
      defer { target.merges.end() }
      job.run(into: target)
    }
  }
}

/// A merge: the writer as it was when the merge started, and the segments to merge with
/// their deleted documents then. One runs on a task of its own, or within a publish when
/// merges fall behind.
private struct MergeJob: @unchecked Sendable {
  // SAFETY: `writer` is a copy the job only reads (`IndexWriter.contextCopy()`). Its
  // arrays and tables are copy-on-write (the term and id tables too), so the writer that
  // goes on adding copies them before changing them and never writes what this copy reads;
  // its scratch buffers are its own, and `makeSegment(of:beside:)` analyzes with a writer
  // of its own.
  let writer: IndexWriter
  let inputs: [IndexSnapshot]
  /// The inputs' deleted documents when the merge started.
  let deletedAtStart: [SegmentDeletions]
  /// The segments published beside the inputs when the merge started.
  let others: [IndexSnapshot]
  /// The index's directory, where a merge on a task of its own writes its segment for the
  /// next commit (``MergedSegmentFiles``); `nil` for a merge within a publish.
  let directory: URL?

  /// The merge `writer`'s policy picks for `set`; `nil` when none is due.
  init?(writer: IndexWriter, set: SegmentSet, directory: URL? = nil) {
    guard
      let merge = writer.mergePolicy.merge(sizes: set.liveSizes, deleted: set.deletedSizes)
    else { return nil }
    self.writer = writer
    self.directory = directory
    inputs = merge.map { set.segments[$0] }
    deletedAtStart = merge.map { set.deletions[$0] }
    others = IndexWriter.segments(set.segments, without: inputs)
  }

  /// The merged segment of the inputs' documents still held.
  func merged() throws -> IndexSnapshot {
    try writer.makeSegment(
      of: writer.heldDocuments(of: inputs, deletions: deletedAtStart), beside: others)
  }

  /// Merges, and replaces the inputs in `target` if they are still published; returns
  /// whether it did.
  @discardableResult
  func run(into target: DiscoverIndex) -> Bool {
    guard let merged = try? merged() else { return false }
    if let directory { target.mergedFiles.write(merged, into: directory) }
    return target.replaceSegments(inputs, with: merged, deletedAtStart: deletedAtStart)
  }
}
