import Foundation

/// The published segments of an index, searched as one: what a search reads.
///
/// Each segment is an ``IndexSnapshot`` built from some of the documents. A type's documents
/// are numbered across segments, segment after segment (Lucene's `docBase`), so hits,
/// cursors and facet counts of the whole index read like those of one segment. Scores use
/// index-wide statistics (``SegmentStatistics``): with no deletes, a document scores the same
/// however the documents are split into segments, up to float rounding of the popularity
/// pivot.
final class SegmentSet: Sendable {
  /// The segments, oldest first.
  let segments: [IndexSnapshot]
  /// Per type (`SearchResultType.index`), segment `s`'s documents are
  /// `starts[type][s]..<starts[type][s + 1]`.
  let starts: [[UInt32]]
  /// Segment `s`'s effects are `effectStarts[s]..<effectStarts[s + 1]` of the catalog.
  let effectStarts: [UInt32]
  /// Per type, the index-wide statistics BM25F reads.
  let statistics: [SegmentStatistics]
  /// Per segment and type, the normalization by index-wide average lengths; `nil` where the
  /// segment's own averages are the index-wide ones (always so with one segment).
  let normalizations: [[SegmentNormalization?]]
  /// Each type's index-wide default popularity pivot, computed on first use.
  private let pivots = Lock<[SearchResultType: Double]>([:])
  /// Every segment's static factors for the settings and origins searched lately, so that a
  /// search looks its settings up once per type, not once per segment.
  private let factorSets = Lock<[(key: StaticFactorCache.Key, factors: [StaticFactors?])]>([])
  /// The lexicon of every segment's terms, merged on first use (with one segment, that
  /// segment's own).
  private let mergedLexicon = Lock<TermLexicon?>(nil)
  /// The phrase dictionary of every segment, merged on first use.
  private let mergedPhrases = Lock<PhraseDictionary?>(nil)

  /// The documents of every segment, which a writer of the index starts from.
  let documents: DocumentSlot
  /// Per segment, its documents deleted since it was built (by a delete, or an update
  /// whose new version is in a later segment). Statistics still count them, as Lucene's
  /// do until a merge leaves them behind; hits, counts, completions, cards and trending
  /// lists do not.
  let deletions: [SegmentDeletions]
  /// The number of deleted documents in all segments, effects included.
  let deletedCount: Int
  /// Per segment and type with deleted documents, each posting list's deleted documents,
  /// found on first use.
  let deletedMatchCaches: [[DeletedMatchCache?]]

  /// The set of `segments`, oldest first, whose documents are in `documents` (by default,
  /// the last segment's), with the documents of `deletions` deleted (by default, none).
  ///
  /// - Precondition: at least one segment, and no more deletions than segments; fewer
  ///   than 2^32 documents of a type in all.
  init(
    segments: [IndexSnapshot], documents: DocumentSlot? = nil,
    deletions: [SegmentDeletions] = []
  ) {
    precondition(!segments.isEmpty, "a segment set has a segment")
    precondition(deletions.count <= segments.count, "deletions of a segment not in the set")
    self.segments = segments
    self.deletions =
      deletions + Array(repeating: .none, count: segments.count - deletions.count)
    deletedCount = deletions.reduce(0) { $0 + $1.count }
    deletedMatchCaches = self.deletions.map { deletions in
      SearchResultType.allCases.map { deletions.of($0) == nil ? nil : DeletedMatchCache() }
    }
    self.documents = documents ?? segments[segments.count - 1].documents
    starts = SearchResultType.allCases.map { type in
      var starts: [UInt32] = [0]
      for segment in segments {
        starts.append(starts.last! + UInt32(segment.partition(type).documentCount))
      }
      return starts
    }
    var effectStarts: [UInt32] = [0]
    for segment in segments {
      effectStarts.append(effectStarts.last! + UInt32(segment.effects.count))
    }
    self.effectStarts = effectStarts
    let statistics = SearchResultType.allCases.map { type in
      SegmentStatistics(partitions: segments.map { $0.partition(type) })
    }
    self.statistics = statistics
    normalizations = segments.map { segment in
      SearchResultType.allCases.map { type in
        SegmentNormalization(
          partition: segment.partition(type), statistics: statistics[type.index],
          configuration: segment.configuration)
      }
    }
  }

  /// The set of one segment.
  convenience init(_ snapshot: IndexSnapshot) {
    self.init(segments: [snapshot])
  }

  /// This set with `inputs` (all of them in it, or their versions with new counts)
  /// replaced by `merged`, where the first of them was; `nil` when one of `inputs` is not
  /// in the set. What changed in the inputs since the merge started is carried over to
  /// `merged` by id: the documents deleted since `deletedAtStart` (the inputs' deletions
  /// then, in their order) are deleted there, and counts changed since are set there.
  func replacing(
    _ inputs: [IndexSnapshot], with merged: IndexSnapshot, deletedAtStart: [SegmentDeletions]
  ) -> SegmentSet? {
    let positions = inputs.map { input in segments.firstIndex { $0.lineage == input.lineage } }
    guard positions.allSatisfy({ $0 != nil }), let first = positions.compactMap({ $0 }).min()
    else { return nil }
    var mergedDeletions = SegmentDeletions.none
    var countPatches: [CountPatch] = []
    for (offset, input) in inputs.enumerated() {
      let position = positions[offset]!
      let now = deletions[position]
      let before = offset < deletedAtStart.count ? deletedAtStart[offset] : .none
      if now != before {
        for (id, kind) in input.ids(deletedIn: now, notIn: before) {
          if let found = merged.find(id, of: kind) {
            mergedDeletions.insert(found, of: kind, in: merged)
          }
        }
      }
      let current = segments[position]
      if current !== input {
        countPatches += Self.carry(current.countChanges(since: input), from: input, to: merged)
      }
    }
    var kept = zip(segments, deletions).map { ($0, $1) }
    for position in positions.compactMap({ $0 }).sorted(by: >) { kept.remove(at: position) }
    kept.insert((merged.patchingCounts(countPatches), mergedDeletions), at: first)
    return SegmentSet(
      segments: kept.map(\.0), documents: documents, deletions: kept.map(\.1))
  }

  /// `patches` of segment `source`'s documents, as patches of the same documents (by id) in
  /// `target`.
  private static func carry(
    _ patches: [CountPatch], from source: IndexSnapshot, to target: IndexSnapshot
  ) -> [CountPatch] {
    patches.compactMap { patch in
      guard let kind = CountKinds.columns.first(where: { $0.column == patch.column })?.kind,
        let found = target.find(
          source.ids(of: kind).string(at: Int(patch.document)), of: kind)
      else { return nil }
      return CountPatch(column: patch.column, document: found, value: patch.value)
    }
  }

  /// This set with each segment's counts of `patches` (one list per segment) set.
  ///
  /// - Precondition: one list per segment.
  func patchingCounts(_ patches: [[CountPatch]]) -> SegmentSet {
    precondition(patches.count == segments.count, "count patches of each segment")
    return SegmentSet(
      segments: zip(segments, patches).map { $0.patchingCounts($1) }, documents: documents,
      deletions: deletions)
  }

  /// This set with `segment` added last, and without the segments that hold no live
  /// document (a new index's empty one, or one whose documents were all deleted).
  func appending(_ segment: IndexSnapshot) -> SegmentSet {
    var kept = zip(segments, deletions).filter { $0.heldCount > $1.count }
    kept.append((segment, .none))
    return SegmentSet(
      segments: kept.map(\.0), documents: documents, deletions: kept.map(\.1))
  }

  /// Each segment's live documents, effects included: the sizes a merge policy weighs.
  var liveSizes: [Int] { zip(segments, deletions).map { $0.heldCount - $1.count } }

  /// Each segment's deleted documents.
  var deletedSizes: [Int] { deletions.map(\.count) }

  /// This set with the published documents of `ids` (each with its kind) deleted,
  /// wherever they are; ids of no live document here are left out.
  ///
  /// - Complexity: O(d · s) for d ids and s segments, after each segment's id table of a
  ///   kind is built on first use (O(n) in its ids).
  func deleting(_ ids: [(id: String, kind: DocumentKind)], documents: DocumentSlot)
    -> SegmentSet
  {
    var deletions = self.deletions
    for (id, kind) in ids {
      for (index, document) in liveLocations(of: id, as: kind) {
        deletions[index].insert(document, of: kind, in: segments[index])
      }
    }
    return SegmentSet(segments: segments, documents: documents, deletions: deletions)
  }

  /// The segments holding a live document of `kind` with `id`, by index, with its number
  /// there: at most one, unless a delete since the last publish is still to be applied.
  ///
  /// - Complexity: O(s) expected for s segments, after each segment's id table of `kind`
  ///   is built on first use (O(n) in its ids).
  func liveLocations(of id: String, as kind: DocumentKind) -> [(segment: Int, document: UInt32)] {
    segments.indices.compactMap { index in
      guard let found = segments[index].find(id, of: kind),
        !deletions[index].contains(found, of: kind)
      else { return nil }
      return (index, found)
    }
  }

  /// Whether the document of `kind` at `position` of the set's numbering (effects are
  /// numbered as ``effectStarts`` says) is deleted.
  func isDeleted(_ position: Int, of kind: DocumentKind) -> Bool {
    guard deletedCount > 0 else { return false }
    let (index, local) =
      kind.searchResultType.map { self.position(of: UInt32(position), of: $0) }
      ?? effectPosition(of: position)
    return deletions[index].contains(local, of: kind)
  }

  /// Whether document `document` of `type`, in the set's numbering, is deleted.
  @inline(__always)
  func isDeleted(_ document: UInt32, of type: SearchResultType) -> Bool {
    isDeleted(Int(document), of: DocumentKind(type))
  }

  /// The index of the segment holding effect `position` of the set's numbering, and the
  /// effect's number there.
  func effectPosition(of position: Int) -> (segment: Int, document: UInt32) {
    guard segments.count > 1 else { return (0, UInt32(position)) }
    let segment = effectStarts.lastIndex { $0 <= position } ?? 0
    return (segment, UInt32(position) - effectStarts[segment])
  }

  /// The segments merged into one, built from their documents: what a save writes.
  ///
  /// - Throws: The errors of ``storedDocuments()`` and of a build.
  /// - Complexity: O(n) in the text of the documents, with more than one segment.
  func merged() throws -> IndexSnapshot {
    guard segments.count > 1 else { return segments[0] }
    var writer = IndexWriter(configuration: configuration)
    writer.store = try storedDocuments()
    writer.analysisIsCurrent = false
    return try writer.makeSnapshotWithDocuments()
  }

  /// The documents of every searchable type and the effects, deleted ones included.
  var heldCount: Int { documentCount + Int(effectStarts.last!) }

  /// The documents of every searchable type and the effects that are not deleted.
  var liveCount: Int { heldCount - deletedCount }

  /// The documents of the segments, for a writer.
  ///
  /// - Throws: The errors of ``DocumentSlot/load()``; ``SearchError/Code/corruptIndex`` when
  ///   the documents do not match the segments.
  func storedDocuments() throws -> DocumentStoreBuilder {
    guard case .segments = documents.value else { return try documents.store(holding: liveCount) }
    var store = try DocumentStoreBuilder(parts: try segments.map { try $0.documents.load() }) {
      part, document in
      guard deletions[part].count > 0 else { return true }
      guard let found = segments[part].find(document.id, of: document.kind) else {
        throw SearchError(
          .corruptIndex,
          "the documents of segment \(part + 1) name \"\(document.id)\", which the segment does not hold; rebuild the index with `discover index`"
        )
      }
      return !deletions[part].contains(found, of: document.kind)
    }
    for (segment, deleted) in zip(segments, deletions) {
      for update in segment.changedCountUpdates(skipping: deleted) {
        try store.updateCounts(update)
      }
    }
    store.applyCountUpdates()
    guard store.count == liveCount else {
      throw SearchError(
        .corruptIndex,
        "the index's documents files hold \(store.count) live documents and its segments \(liveCount); rebuild the index with `discover index`"
      )
    }
    return store
  }

  var configuration: IndexConfiguration { segments[0].configuration }

  /// The number of documents of `type` in every segment, deleted ones included: the
  /// numbering's length.
  func documentCount(of type: SearchResultType) -> Int {
    Int(starts[type.index].last!)
  }

  /// The number of documents of `type` not deleted.
  func liveDocumentCount(of type: SearchResultType) -> Int {
    documentCount(of: type) - deletions.reduce(0) { $0 + ($1.of(type)?.count ?? 0) }
  }

  /// The number of documents of every searchable type.
  var documentCount: Int {
    SearchResultType.allCases.reduce(0) { $0 + documentCount(of: $1) }
  }

  /// The bytes the segments hold in memory (``IndexSnapshot/memoryBytes``), and the
  /// merged suggestion structures once built.
  var memoryBytes: Int {
    segments.reduce(0) { $0 + $1.memoryBytes }
      + (mergedLexicon.withLock { $0?.byteCount } ?? 0)
      + (mergedPhrases.withLock { $0?.byteCount } ?? 0)
  }

  /// The segment holding document `document` of `type` (in the set's numbering), and the
  /// document's number there.
  @inline(__always)
  func locate(_ document: UInt32, of type: SearchResultType) -> (
    segment: IndexSnapshot, document: UInt32
  ) {
    let (index, local) = position(of: document, of: type)
    return (segments[index], local)
  }

  /// The index of the segment holding document `document` of `type`, and the document's
  /// number there.
  func position(of document: UInt32, of type: SearchResultType) -> (
    segment: Int, document: UInt32
  ) {
    guard segments.count > 1 else { return (0, document) }
    let starts = self.starts[type.index]
    // The last segment starting at or before the document.
    var low = 0
    var high = segments.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= document { low = middle } else { high = middle - 1 }
    }
    return (low, document - starts[low])
  }

  /// The lexicon of all the segments' terms with their index-wide document frequencies.
  func lexicon() -> TermLexicon {
    guard segments.count > 1 else { return segments[0].suggestionCache.lexicon(of: segments[0]) }
    return mergedLexicon.withLock { merged in
      if let merged { return merged }
      let made = TermLexicon(
        merging: segments.map { $0.suggestionCache.lexicon(of: $0) })
      merged = made
      return made
    }
  }

  /// The lexicon and phrase dictionary of every segment (with one segment, its own).
  func suggestionStructures() -> (lexicon: TermLexicon, phrases: PhraseDictionary) {
    guard segments.count > 1 else {
      return segments[0].suggestionCache.structures(of: segments[0])
    }
    // The phrases' lock before the lexicon's, as ``SuggestionCache`` takes them.
    let phrases = mergedPhrases.withLock { merged in
      if let merged { return merged }
      let made = PhraseDictionary(
        merging: segments.map { $0.suggestionCache.structures(of: $0).phrases },
        userStarts: starts[SearchResultType.user.index],
        soundStarts: starts[SearchResultType.sound.index])
      merged = made
      return made
    }
    return (lexicon(), phrases)
  }

  /// Each type's popularity pivot where the ranking sets none, for every segment's static
  /// factors: the whole index's, so that a document's factor does not depend on its
  /// segment; `nil` with one segment, whose own default is the index's.
  func indexPivot(of type: SearchResultType) -> Double? {
    guard segments.count > 1 else { return nil }
    return defaultPivot(of: type)
  }

  /// Each segment's static factors of `type` under `ranking` at `now` (`nil` for a segment
  /// without documents of the type), from each segment's ``StaticFactorCache``.
  func staticFactors(
    of type: SearchResultType, ranking: RankingOptions, now: Date
  ) -> [StaticFactors?] {
    let key = StaticFactorCache.Key(
      type: type, options: ranking, now: now, indexPivot: indexPivot(of: type))
    if let known = factorSets.withLock({ sets in sets.first { $0.key == key }?.factors }) {
      return known
    }
    let factors = segments.map { segment in
      segment.partition(type).documentCount > 0
        ? segment.staticFactors.factors(snapshot: segment, key: key) : nil
    }
    factorSets.withLock { sets in
      sets.removeAll { $0.key == key }
      sets.append((key, factors))
      if sets.count > 8 { sets.removeFirst() }
    }
    return factors
  }

  /// Lucene `FeatureField`'s default pivot over every segment: the geometric mean of
  /// `1 + S`, from each segment's own geometric mean weighted by its document count.
  private func defaultPivot(of type: SearchResultType) -> Double {
    if let known = pivots.withLock({ $0[type] }) { return known }
    var sum = 0.0
    var count = 0
    for segment in segments {
      let documents = segment.partition(type).documentCount
      guard documents > 0 else { continue }
      sum +=
        Double(documents) * log(segment.staticFactors.defaultPivot(snapshot: segment, type: type))
      count += documents
    }
    let pivot = count > 0 ? max(exp(sum / Double(count)), 1) : 1
    pivots.withLock { $0[type] = pivot }
    return pivot
  }
}

/// The statistics BM25F reads for one type over every segment: the number of documents and
/// each field's average length.
struct SegmentStatistics: Sendable {
  let documentCount: Int
  let averageFieldLengths: [Float]

  /// The statistics of one type's partitions, one per segment. The averages are computed as
  /// a single build computes them (sums of the decoded length codes, divided once and
  /// rounded, ``FieldLength/average(sum:count:)``), so they are bit for bit the same however
  /// the documents are split.
  init(partitions: [TypePartition]) {
    if partitions.count == 1 {
      documentCount = partitions[0].documentCount
      averageFieldLengths = partitions[0].averageFieldLengths
      return
    }
    let fieldCount = partitions[0].fieldCount
    var sums = [Double](repeating: 0, count: fieldCount)
    var count = 0
    for partition in partitions {
      count += partition.documentCount
      for (field, sum) in partition.fieldLengthSums.enumerated() { sums[field] += sum }
    }
    documentCount = count
    averageFieldLengths = sums.map { FieldLength.average(sum: $0, count: count) }
  }

  /// The idf of a term `documentFrequency` documents of the type hold.
  func idf(documentFrequency: Int) -> Float {
    BM25F.idf(documentFrequency: documentFrequency, documentCount: documentCount)
  }
}

/// How one segment's partition normalizes field lengths when the index-wide averages differ
/// from its own.
struct SegmentNormalization: Sendable {
  /// `FieldLength.inverseNormalization` per field for the index-wide averages, 256 a field.
  let inverseNormalization: Column<Float>
  /// Per field, how much larger a normalized frequency can be under the index-wide average
  /// than under the segment's own, with which its stored block and list bounds were
  /// computed: `len / avg` grows at most by `avgIndex / avgSegment`, so `1 − b + b·len/avg`
  /// shrinks at most by that factor (and `x` grows at most by it). Bounds are scaled by it,
  /// so they stay bounds; exact impact values are not used (``BM25F/readsImpacts(of:)``).
  let boundScale: SIMD4<Float>

  /// The normalization of `partition` under `statistics`, or `nil` when its own averages
  /// are the index-wide ones (or it has no documents to normalize).
  init?(
    partition: TypePartition, statistics: SegmentStatistics, configuration: IndexConfiguration
  ) {
    guard partition.documentCount > 0,
      statistics.averageFieldLengths != partition.averageFieldLengths
    else { return nil }
    var tables: [Float] = []
    var scale = SIMD4<Float>(repeating: 1)
    for (slot, field) in SearchField.fields(of: partition.type).enumerated() {
      let index = statistics.averageFieldLengths[slot]
      let own = partition.averageFieldLengths[slot]
      tables += FieldLength.inverseNormalization(
        b: configuration.b(for: field), averageLength: index)
      // A field empty in the segment has no frequency to bound. The margin covers the
      // rounding of the scaled product.
      if own > 0 && index > own { scale[slot] = index / own * (1 + 0x1p-16) }
    }
    inverseNormalization = Column(tables)
    boundScale = scale
  }
}

/// Finds the document a video's reference names when it is in another segment than the
/// video: documents refer to each other by id (a stable key), and a segment built without
/// the creator or sound of one of its videos keeps the id (``UnresolvedReference``).
struct ReferenceResolver {
  let segments: SegmentSet

  /// The segment holding the live document of `kind` with `id`, and its number there.
  ///
  /// - Complexity: O(s) expected for s segments, after each segment's table of that kind
  ///   is built on first use (O(n) in its ids).
  func resolve(_ id: String, as kind: UnresolvedReference.Kind) -> (IndexSnapshot, Int)? {
    segments.liveLocations(of: id, as: kind.documentKind).first.map {
      (segments.segments[$0.segment], Int($0.document))
    }
  }
}

/// One segment's tables from id to document number, per kind, built on first use.
final class IDTables: Sendable {
  private let tables = Lock<[DocumentKind: ByteStringTable]>([:])

  /// The table from id to document number of `kind`'s documents in `segment`.
  func table(of kind: DocumentKind, in segment: IndexSnapshot) -> ByteStringTable {
    tables.withLock { tables in
      if let known = tables[kind] { return known }
      let ids = segment.ids(of: kind)
      let made = ByteStringTable(arena: Array(ids.bytes.buffer), starts: Array(ids.offsets.buffer))
      tables[kind] = made
      return made
    }
  }
}

extension IndexSnapshot {
  /// The ids of the documents of `kind`, by number.
  func ids(of kind: DocumentKind) -> StringColumn {
    kind.searchResultType.map { partition($0).ids } ?? effects.ids
  }

  /// The number of documents of `kind`.
  func count(of kind: DocumentKind) -> Int {
    kind.searchResultType.map { partition($0).documentCount } ?? effects.count
  }

  /// The number of the document of `kind` with `id`, if this segment has one.
  func find(_ id: String, of kind: DocumentKind) -> UInt32? {
    guard count(of: kind) > 0 else { return nil }
    var id = id
    let table = idTables.table(of: kind, in: self)
    return id.withUTF8 { table.find(UnsafeRawBufferPointer($0)) }
  }

  /// The ids of the documents `deletions` holds and `earlier` does not, with their kinds.
  func ids(deletedIn deletions: SegmentDeletions, notIn earlier: SegmentDeletions)
    -> [(id: String, kind: DocumentKind)]
  {
    var result: [(id: String, kind: DocumentKind)] = []
    for kind in DocumentKind.allCases {
      guard let deleted = deletions.kinds[kind.index] else { continue }
      let ids = self.ids(of: kind)
      for document in deleted.documents where !earlier.contains(document, of: kind) {
        result.append((ids.string(at: Int(document)), kind))
      }
    }
    return result
  }
}
