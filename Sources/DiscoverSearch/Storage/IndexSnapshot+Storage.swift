import Foundation

extension DiscoverIndex {
  /// Commits the live documents into `directory` (created if needed) as its next
  /// generation: one new segment file, a documents file and a new manifest naming them, each
  /// flushed to disk before the manifest is renamed into place (see the IndexFormat
  /// article). A crash at any moment leaves either the previous commit or the new one, never
  /// a mix. Files no longer named (older commits, the single `index.dsearch` of earlier
  /// versions, files of writers that were killed) are removed after.
  ///
  /// - Throws: ``SearchError/Code/indexLocked`` when another writer holds the directory
  ///   (a writer from ``makeWriter()`` in this very process too: commit through it instead),
  ///   ``SearchError/Code/io`` when the directory or a file cannot be written.
  /// - Complexity: O(n) in the index size.
  public func save(to directory: URL) throws {
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw SearchError(
        .io, "cannot create the index directory \(directory.path): \(error.localizedDescription)")
    }
    let lock = try DirectoryLock(directory: directory)
    let (manifest, committed) = try IndexDirectory.commit(
      SegmentSet(try segments.merged()), to: directory, lock: lock)
    source.withLock {
      $0 = IndexSource(
        directory: directory, generation: manifest.generation, committed: committed)
    }
  }

  /// Opens the newest commit in `directory`, or the single `index.dsearch` file that
  /// versions before manifests saved.
  ///
  /// The structure is validated in either mode (``IndexVerification``), so that no damage can
  /// make a search read out of bounds; with ``IndexVerification/full`` every section's
  /// checksum is verified as well. Sizes in the file are checked against its size before
  /// anything is allocated for them, and only a regular file is opened (a pipe in its place
  /// is refused, not waited on). A newest manifest that is torn, or names a missing file,
  /// gives way to the commit before it.
  ///
  /// - Parameters:
  ///   - directory: The index directory.
  ///   - verification: How much is checked: ``IndexVerification/standard`` for directories
  ///     this library wrote, ``IndexVerification/full`` for files from elsewhere.
  /// - Throws: ``SearchError/Code/io`` when the directory holds no index or a file cannot
  ///   be read, ``SearchError/Code/corruptIndex`` when it is damaged, truncated, of another
  ///   format, or not a regular file.
  /// - Complexity: O(n) in the file size.
  public static func open(
    at directory: URL, verification: IndexVerification = .standard
  ) throws -> DiscoverIndex {
    let (segments, source) = try loadNewest(from: directory, verification: verification)
    let index = DiscoverIndex(segments: segments)
    index.source.withLock { $0 = source }
    return index
  }

  /// Opens the directory's newest commit when it is newer than the one this index shows,
  /// and swaps it in (searches already running finish on the old one): how a reader picks up
  /// what a writer, in this process or another, committed since.
  ///
  /// - Returns: Whether a newer commit was opened; `false` for an index that was not opened
  ///   from or saved to a directory.
  /// - Throws: The errors of ``open(at:verification:)``; the index then keeps the commit it shows.
  @discardableResult
  public func refreshIfChanged() throws -> Bool {
    guard let current = source.withLock({ $0 }) else { return false }
    guard let newest = try IndexDirectory.newestCommit(in: current.directory),
      newest.generation > current.generation
    else { return false }
    // Segments whose files the newer commit names again are not opened again.
    var opened: [String: IndexSnapshot] = [:]
    for segment in segments.segments {
      if let committed = current.committed[segment.lineage],
        committed.countsVersion == segment.version
      {
        opened[committed.entry.file] = segment
      }
    }
    let (segments, source) = try Self.loadNewest(
      from: current.directory, verification: current.verification, opened: opened)
    guard source.generation > current.generation else { return false }
    publish(segments)
    self.source.withLock { $0 = source }
    return true
  }

  /// The newest commit's segments and where they come from (generation 0 for a
  /// single-file index). A file removed between reading its manifest and opening it means
  /// a newer commit landed: the directory is read again, a few times.
  ///
  /// - Parameter opened: Segments already open, by file name, as their commit left them
  ///   (counts files included): taken as they are, with the newer commit's counts set.
  private static func loadNewest(
    from directory: URL, verification: IndexVerification, opened: [String: IndexSnapshot] = [:]
  ) throws -> (SegmentSet, IndexSource) {
    var attempt = 0
    while true {
      attempt += 1
      guard let manifest = try IndexDirectory.newestCommit(in: directory) else {
        let path = directory.appendingPathComponent(IndexFile.fileName).path
        let snapshot = try IndexSnapshot.load(fromFile: path, verification: verification)
        return (
          SegmentSet(snapshot),
          IndexSource(directory: directory, generation: 0, verification: verification)
        )
      }
      do {
        let (segments, committed) = try loadCommit(
          manifest, from: directory, verification: verification, opened: opened)
        return (
          segments,
          IndexSource(
            directory: directory, generation: manifest.generation, verification: verification,
            committed: committed)
        )
      } catch let error as SearchError where error.code == .io && attempt < 10 {
        continue
      }
    }
  }

  /// The segments of `manifest`, with their deletes and counts applied, and the segments
  /// by lineage as the next commit keeps them.
  private static func loadCommit(
    _ manifest: IndexManifest, from directory: URL, verification: IndexVerification,
    opened: [String: IndexSnapshot]
  ) throws -> (SegmentSet, [UInt64: CommittedSegment]) {
    var segments: [IndexSnapshot] = []
    var deletions: [SegmentDeletions] = []
    var patches: [[CountPatch]] = []
    for entry in manifest.segments {
      let path = directory.appendingPathComponent(entry.file).path
      let snapshot =
        try opened[entry.file]
        ?? IndexSnapshot.load(fromFile: path, verification: verification)
      if let documents = entry.documents, opened[entry.file] == nil {
        snapshot.documents.value = .file(DocumentFile(documents, in: directory))
      }
      segments.append(snapshot)
      deletions.append(
        try entry.deletes.map { file in
          try SegmentDeletesFile.decode(
            try read(
              file, in: directory,
              maximumBytes: SegmentDeletesFile.maximumBytes(of: snapshot)),
            of: snapshot, name: file.file)
        } ?? .none)
      patches.append(
        try entry.counts.map { file in
          try SegmentCountsFile.decode(
            try read(
              file, in: directory,
              maximumBytes: SegmentCountsFile.maximumBytes(of: snapshot)),
            of: snapshot, name: file.file)
        } ?? [])
    }
    // One segment as it was built keeps its own documents; otherwise a writer gathers
    // them from every segment.
    var documents: DocumentSlot?
    if segments.count > 1 || deletions[0].count > 0 || !patches[0].isEmpty {
      documents = DocumentSlot()
      documents?.value = .segments
    }
    var set = SegmentSet(segments: segments, documents: documents, deletions: deletions)
    if patches.contains(where: { !$0.isEmpty }) { set = set.patchingCounts(patches) }
    var committed: [UInt64: CommittedSegment] = [:]
    for (index, segment) in set.segments.enumerated() {
      committed[segment.lineage] = CommittedSegment(
        entry: manifest.segments[index], deletedCount: set.deletions[index].count,
        countsVersion: segment.version)
    }
    return (set, committed)
  }

  /// The bytes of `file`, checked against the size and checksum its manifest gives; a file
  /// past `maximumBytes` (what its segment can need) is refused before it is read.
  private static func read(
    _ file: IndexManifest.CheckedFile, in directory: URL, maximumBytes: Int
  ) throws(SearchError) -> [UInt8] {
    let path = directory.appendingPathComponent(file.file).path
    let advice = "rebuild the index with `discover index`"
    let bytes = try RegularFile.read(
      path, maximumBytes: min(file.bytes, maximumBytes), advice: advice)
    guard bytes.count == file.bytes,
      bytes.withUnsafeBytes({ CRC32C.checksum($0) }) == file.checksum
    else {
      throw SearchError(.corruptIndex, "\(path) does not match its manifest; \(advice)")
    }
    return bytes
  }

  /// The bytes on disk of the newest commit in `directory` (or of its single-file index).
  public static func fileSize(at directory: URL) throws -> Int {
    if let manifest = try IndexDirectory.newestCommit(in: directory) {
      return manifest.files.reduce(0) { $0 + $1.bytes }
    }
    let path = directory.appendingPathComponent(IndexFile.fileName).path
    do {
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      return (attributes[.size] as? NSNumber)?.intValue ?? 0
    } catch {
      throw SearchError(.io, "cannot read \(path): \(error.localizedDescription)")
    }
  }
}

extension IndexSnapshot {
  /// The documents this snapshot was built from, read and checked: each record a document,
  /// no id twice, and as many as the snapshot holds.
  ///
  /// - Throws: The errors of ``DocumentSlot/load()``; ``SearchError/Code/corruptIndex`` when
  ///   the documents do not match the snapshot.
  func storedDocuments() throws -> DocumentStoreBuilder {
    try documents.store(holding: heldCount)
  }
}

/// Where an index was opened from or saved to, and which commit it shows.
struct IndexSource: Sendable {
  var directory: URL
  var generation: UInt64
  /// How the index was opened, for the commits ``DiscoverIndex/refreshIfChanged()`` opens.
  var verification: IndexVerification = .standard
  /// The commit's segments by lineage, whose files the next commit keeps.
  var committed: [UInt64: CommittedSegment] = [:]
}

/// How much opening an index file checks.
///
/// Either way the header, footer and section table are checked against the file's size,
/// and the structure a search relies on is validated (every posting list, column and
/// completion structure), so no damage, accidental or crafted, can make a search crash or
/// read out of bounds.
public enum IndexVerification: Sendable, Hashable {
  /// Also verifies the checksums of sections up to 64 KB, not of larger ones, and checks
  /// each posting list's blocks before the first search that reads it: for directories
  /// this library wrote. A bit flipped inside a large section that leaves its structure
  /// valid (a byte of a title, a count, a score bound) gives wrong answers until
  /// ``DiscoverIndex/verify(at:)`` or `discover check` finds it, and a damaged posting list
  /// fails the searches that need it with ``SearchError/Code/corruptIndex``; opening 1M
  /// documents skips some 270 MB of checksumming and decoding every block (Lucene likewise
  /// checks whole-file checksums in `CheckIndex` and merges, not on open).
  case standard
  /// Also verifies the checksum of every section and decodes every posting block on open:
  /// for files from elsewhere. A damaged file is refused.
  case full

  /// Sections up to this size have their checksums verified in ``standard`` mode too.
  static let smallSectionBytes = 64 << 10
}

extension IndexSnapshot {
  func write(to writer: inout IndexFileWriter) throws {
    try writer.append(partitions.map { UInt64($0.documentCount) } + [UInt64(effects.count)])
    try writer.append(SearchField.allCases.map { configuration.b(for: $0) })
    try writer.append(terms.arena)
    try writer.append(terms.starts)
    try writer.append(terms.slots)
    for partition in partitions {
      let postings = partition.postings
      try writer.append(postings.termPresence)
      try writer.append(postings.termRanks)
      try writer.append(postings.lists)
      try writer.append(postings.listFieldMaxima)
      try writer.append(postings.blockLastDocuments)
      try writer.append(postings.blockDataOffsets)
      try writer.append(postings.blockPositionOffsets)
      try writer.append(postings.blockFieldMaxima)
      try writer.append(postings.bytes)
      try writer.append(postings.positions)
      try writer.append(postings.bitmaps)
      try writer.append(postings.bitmapLists)
      try writer.append(postings.rankDirectory)
      try writer.append(postings.impactLists)
      try writer.append(postings.impactStarts)
      try writer.append(postings.impactDocuments)
      try writer.append(postings.impactValues)
      try writer.append((0..<4).map { postings.impactWeights[$0] })
      try writer.append(partition.norms)
      try writer.append(partition.averageFieldLengths)
      try writer.append(partition.ids)
      try writer.append(partition.titles)
    }
    try writer.append(videos.viewCounts)
    try writer.append(videos.likeCounts)
    try writer.append([videos.createdAt.base])
    try writer.append(videos.createdAt.offsets)
    try writer.append(videos.creators)
    try writer.append(videos.sounds)
    try writer.append(videos.thumbnails)
    try writer.append(videos.hashtags.lists)
    try writer.append(videos.effects)
    try writer.append(videos.unresolvedReferences.map(\.video))
    try writer.append(videos.unresolvedReferences.map(\.kind.rawValue))
    var unresolvedIDs = StringColumnBuilder()
    for reference in videos.unresolvedReferences { unresolvedIDs.append(reference.id) }
    try writer.append(unresolvedIDs.build())
    try writer.append(users.followerCounts)
    try writer.append(users.videoCounts)
    try writer.append(users.isVerified)
    try writer.append(users.displayNames)
    try writer.append(hashtags.viewCounts)
    try writer.append(hashtags.videoCounts)
    try writer.append(hashtags.descriptions)
    try writer.append(sounds.videoCounts)
    try writer.append(sounds.artists)
    try writer.append(effects.ids)
    try writer.append(effects.names)
    try writer.append(effects.thumbnails)
    try writer.append(effects.useCounts)
    try writeSuggestions(to: &writer)
    try writeExactNameFilters(to: &writer)
    try writeDerivedTables(to: &writer)
  }

  /// Each type's exact name filter (format 10), built now if no search has built it: an
  /// opened index then reads it instead of analyzing its names on the first search.
  private func writeExactNameFilters(to writer: inout IndexFileWriter) throws {
    for filter in exactNames.filters(of: self) {
      try writer.append(filter.tagKeys)
      try writer.append(filter.nameTerms)
      try writer.append(filter.lengthCounts)
      try writer.append([Int64(filter.textSlot ?? -1), Int64(filter.indexedLength)])
    }
  }

  /// Reads what ``writeExactNameFilters(to:)`` wrote, checking each filter.
  private static func readExactNameFilters(
    _ reader: inout IndexFileReader, partitions: [TypePartition], path: String
  ) throws -> [ExactNameFilter] {
    try partitions.map { partition in
      let tagKeys = try reader.column(UInt64.self)
      let nameTerms = try reader.column(UInt64.self)
      let lengthCounts = try reader.array(Int32.self)
      let settings = try reader.array(Int64.self)
      guard settings.count == 2, let textSlot = Int(exactly: settings[0]),
        let indexedLength = Int(exactly: settings[1]),
        let filter = ExactNameFilter(
          tagKeys: tagKeys, nameTerms: nameTerms, lengthCounts: lengthCounts,
          textSlot: textSlot, indexedLength: indexedLength, fieldCount: partition.fieldCount)
      else {
        throw SearchError(
          .corruptIndex, "\(path): an exact name filter is damaged; rebuild the index")
      }
      return filter
    }
  }

  /// The completion structures (format 9), built now if no call has built them: sorted,
  /// they take seconds to make at a million documents, and read back they are ready at
  /// once. The tables derived from them (trie tables, range maxima, the root's children)
  /// follow (format 11), so that opening checks them instead of rebuilding them.
  private func writeSuggestions(to writer: inout IndexFileWriter) throws {
    let (lexicon, phrases) = suggestionCache.structures(of: self)
    try writer.append(lexicon.keys.bytes)
    try writer.append(lexicon.keys.starts)
    try writer.append(lexicon.frequencies.weights)
    try writer.append(phrases.keys.bytes)
    try writer.append(phrases.keys.starts)
    try writer.append(phrases.weights.weights)
    try writer.append(phrases.sources)
    try writer.append(phrases.targets)
  }

  /// What opening would otherwise derive from the other sections (format 11): the tables of
  /// the completion structures (trie tables, range maxima, the root's children), checked
  /// on open instead of rebuilt, and the default popularity pivots, which the first search
  /// would otherwise compute from every count.
  private func writeDerivedTables(to writer: inout IndexFileWriter) throws {
    let (lexicon, phrases) = suggestionCache.structures(of: self)
    try Self.write(lexicon.keys.tables, lexicon.frequencies.tables, to: &writer)
    try writer.append(SortedKeys.encode(lexicon.rootChildren))
    for marker in TermLexicon.markers {
      try writer.append(SortedKeys.encode(lexicon.markedTerms[marker]?.children ?? []))
    }
    try Self.write(phrases.keys.tables, phrases.weights.tables, to: &writer)
    try writer.append(SortedKeys.encode(phrases.rootChildren))
    try writer.append(phrases.largestWeights)
    try writer.append(
      SearchResultType.allCases.map { staticFactors.defaultPivot(snapshot: self, type: $0) })
  }

  private static func write(
    _ keys: SortedKeys.Tables, _ maxima: RangeMaximum.Tables, to writer: inout IndexFileWriter
  ) throws {
    try writer.append(keys.heads)
    try writer.append(keys.coarseHeads)
    try writer.append(keys.buckets)
    try writer.append(keys.thirdBytePairs)
    try writer.append(keys.thirdByteStarts)
    try writer.append(maxima.levels)
    try writer.append(maxima.cachedKeys)
    try writer.append(maxima.cachedPositions)
  }

  private static func readTables(_ reader: inout IndexFileReader) throws -> (
    SortedKeys.Tables, RangeMaximum.Tables
  ) {
    (
      SortedKeys.Tables(
        heads: try reader.column(), coarseHeads: try reader.column(),
        buckets: try reader.column(), thirdBytePairs: try reader.column(),
        thirdByteStarts: try reader.column()),
      RangeMaximum.Tables(
        levels: try reader.column(), cachedKeys: try reader.column(),
        cachedPositions: try reader.column())
    )
  }

  /// The completion sections (format 9) as read, checked but not yet made into structures.
  struct SuggestionColumns {
    var lexiconBytes: Column<UInt8>
    var lexiconStarts: Column<UInt32>
    var frequencies: Column<UInt32>
    var phraseBytes: Column<UInt8>
    var phraseStarts: Column<UInt32>
    var weights: Column<UInt32>
    var sources: Column<UInt8>
    var targets: Column<UInt32>
  }

  /// Reads what ``writeSuggestions(to:)`` wrote, checking that the columns agree with their
  /// keys and every target names a document of its kind, so that completions never read out
  /// of bounds (the keys are checked where they become structures).
  private static func readSuggestions(
    _ reader: inout IndexFileReader, userCount: Int, soundCount: Int
  ) throws -> SuggestionColumns {
    let corrupt = reader.damaged
    let columns = SuggestionColumns(
      lexiconBytes: try reader.column(), lexiconStarts: try reader.column(),
      frequencies: try reader.column(), phraseBytes: try reader.column(),
      phraseStarts: try reader.column(), weights: try reader.column(),
      sources: try reader.column(), targets: try reader.column())
    let (sources, targets) = (columns.sources, columns.targets)
    guard columns.weights.count + 1 == columns.phraseStarts.count,
      sources.count == columns.weights.count, targets.count == columns.weights.count,
      columns.frequencies.count + 1 == columns.lexiconStarts.count
    else { throw corrupt("the completion columns do not match their keys") }
    for position in 0..<sources.count {
      let target = targets[position]
      let isValid =
        switch PhraseDictionary.Source(rawValue: sources[position]) {
        case .titlePair: target == UInt32.max
        case .displayName: Int(target) < userCount
        case .soundTitle, .soundArtist: Int(target) < soundCount
        case nil: false
        }
      guard isValid else { throw corrupt("a phrase names no document of its kind") }
    }
    return columns
  }

  /// The completion structures of `columns`: with the tables read from the file and
  /// checked (format 11), or built now from the keys (formats 9 and 10).
  private static func makeSuggestions(
    _ columns: SuggestionColumns, reader: inout IndexFileReader
  ) throws -> (TermLexicon, PhraseDictionary) {
    let corrupt = reader.damaged
    guard reader.formatVersion >= 11 else {
      guard
        let lexiconKeys = SortedKeys(
          validatingBytes: columns.lexiconBytes, starts: columns.lexiconStarts)
      else { throw corrupt("the sorted terms are damaged") }
      guard
        let phraseKeys = SortedKeys(
          validatingBytes: columns.phraseBytes, starts: columns.phraseStarts)
      else { throw corrupt("the sorted phrases are damaged") }
      return (
        TermLexicon(keys: lexiconKeys, weights: columns.frequencies.array),
        PhraseDictionary(
          keys: phraseKeys, weights: columns.weights.array, sources: columns.sources,
          targets: columns.targets)
      )
    }
    return (
      try readLexicon(
        &reader, bytes: columns.lexiconBytes, starts: columns.lexiconStarts,
        weights: columns.frequencies),
      try readPhrases(
        &reader, bytes: columns.phraseBytes, starts: columns.phraseStarts,
        weights: columns.weights, sources: columns.sources, targets: columns.targets)
    )
  }

  /// Reads the tables of one sorted key list and its weights (format 11) and the children of
  /// its root, checking them against the keys; `what` names the keys and `weighed` their
  /// weights in errors.
  private static func readKeysAndMaxima(
    _ reader: inout IndexFileReader, bytes: Column<UInt8>, starts: Column<UInt32>,
    weights: Column<UInt32>, what: String, weighed: String
  ) throws -> (SortedKeys, RangeMaximum, [(child: SortedKeys.Child, mask: ByteMask)]) {
    let corrupt = reader.damaged
    let (keyTables, maximumTables) = try readTables(&reader)
    guard let keys = SortedKeys(validatingBytes: bytes, starts: starts, tables: keyTables) else {
      throw corrupt("the sorted \(what) are damaged")
    }
    guard let maxima = RangeMaximum(weights: weights, validating: maximumTables) else {
      throw corrupt("the \(weighed) tables are damaged")
    }
    guard let rootChildren = keys.decodeChildren(try reader.column(), of: 0..<keys.count, depth: 0)
    else { throw corrupt("the first characters of the \(what) are damaged") }
    return (keys, maxima, rootChildren)
  }

  /// Reads the term lexicon's tables (format 11) and checks them against its keys.
  private static func readLexicon(
    _ reader: inout IndexFileReader, bytes: Column<UInt8>, starts: Column<UInt32>,
    weights: Column<UInt32>
  ) throws -> TermLexicon {
    let (keys, frequencies, rootChildren) = try readKeysAndMaxima(
      &reader, bytes: bytes, starts: starts, weights: weights, what: "terms",
      weighed: "term frequency")
    var markedChildren: [[(child: SortedKeys.Child, mask: ByteMask)]] = []
    for marker in TermLexicon.markers {
      guard
        let children = keys.decodeChildren(
          try reader.column(), of: TermLexicon.range(of: marker, in: keys), depth: 1)
      else { throw reader.damaged("the first characters of the tags are damaged") }
      markedChildren.append(children)
    }
    return TermLexicon(
      keys: keys, frequencies: frequencies, rootChildren: rootChildren,
      markedChildren: markedChildren)
  }

  /// Reads the phrase dictionary's tables (format 11) and checks them against its keys.
  private static func readPhrases(
    _ reader: inout IndexFileReader, bytes: Column<UInt8>, starts: Column<UInt32>,
    weights: Column<UInt32>, sources: Column<UInt8>, targets: Column<UInt32>
  ) throws -> PhraseDictionary {
    let (keys, maxima, rootChildren) = try readKeysAndMaxima(
      &reader, bytes: bytes, starts: starts, weights: weights, what: "phrases",
      weighed: "phrase weight")
    let largest = try reader.array(UInt32.self)
    guard largest.count == 4, largest.allSatisfy({ $0 >= 1 }) else {
      throw reader.damaged("the largest phrase weights are damaged")
    }
    return PhraseDictionary(
      keys: keys, weights: maxima, sources: sources, targets: targets,
      rootChildren: rootChildren, largestWeights: largest)
  }

  private static func readWeights(_ reader: inout IndexFileReader, path: String) throws -> SIMD4<
    Float
  > {
    let values = try reader.array(Float.self)
    guard values.count == 4, values.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
      throw SearchError(.corruptIndex, "\(path): bad impact weights; rebuild the index")
    }
    return SIMD4(values[0], values[1], values[2], values[3])
  }

  static func load(fromFile path: String, verification: IndexVerification = .full) throws
    -> IndexSnapshot
  {
    var reader = try IndexFileReader(path: path, verification: verification)
    func corrupt(_ what: String) -> SearchError {
      SearchError(.corruptIndex, "\(path): \(what); rebuild the index")
    }
    // Video, user, hashtag and sound (by `SearchResultType.index`), then effect.
    let counts = try reader.array(UInt64.self)
    guard counts.count == 5, counts.allSatisfy({ $0 < 1 << 30 }) else {
      throw corrupt("bad document counts")
    }
    let bValues = try reader.array(Float.self)
    guard bValues.count == SearchField.allCases.count else { throw corrupt("bad configuration") }
    var lengthNormalization: [SearchField: Float] = [:]
    for (field, b) in zip(SearchField.allCases, bValues) { lengthNormalization[field] = b }
    let configuration = IndexConfiguration(lengthNormalization: lengthNormalization)
    guard
      let terms = ByteStringTable(
        arena: try reader.array(), starts: try reader.array(), slots: try reader.array())
    else { throw corrupt("the term dictionary is damaged") }
    var partitions: [TypePartition] = []
    for type in SearchResultType.allCases {
      let documentCount = Int(counts[type.index])
      let fieldCount = SearchField.fields(of: type).count
      let termPresence: Column<UInt64> = try reader.column()
      let termRanks: Column<UInt32> = try reader.column()
      let lists: Column<PostingListInfo> = try reader.column()
      // In full mode every list is checked below, before any search.
      let listChecks =
        verification == .full ? nil : PostingListChecks(listCount: lists.count, path: path)
      let postings = TypePostings(
        fieldCount: fieldCount, documentCount: documentCount,
        termPresence: termPresence, termRanks: termRanks,
        lists: lists, listFieldMaxima: try reader.column(),
        blockLastDocuments: try reader.column(), blockDataOffsets: try reader.column(),
        blockPositionOffsets: try reader.column(), blockFieldMaxima: try reader.column(),
        bytes: try reader.column(), positions: try reader.column(), bitmaps: try reader.column(),
        bitmapLists: try reader.column(), rankDirectory: try reader.column(),
        impactLists: try reader.column(), impactStarts: try reader.column(),
        impactDocuments: try reader.column(), impactValues: try reader.column(),
        impactWeights: try Self.readWeights(&reader, path: path), listChecks: listChecks)
      let norms = try reader.column(UInt8.self)
      let averages = try reader.array(Float.self)
      let ids = try reader.strings()
      let titles = try reader.strings()
      guard norms.count == documentCount * fieldCount, averages.count == fieldCount,
        ids.count == documentCount, titles.count == documentCount
      else { throw corrupt("the \(type.rawValue) columns do not match the document count") }
      let validator = PostingsValidator(postings: postings, path: path)
      if verification == .full {
        try validator.validate(termCount: terms.count)
      } else {
        try validator.validateTables(termCount: terms.count)
      }
      partitions.append(
        TypePartition(
          type: type, documentCount: documentCount, postings: postings, norms: norms,
          averageFieldLengths: averages, ids: ids, titles: titles, configuration: configuration))
    }

    let videoCount = Int(counts[0])
    let userCount = Int(counts[1])
    let hashtagCount = Int(counts[2])
    let soundCount = Int(counts[3])
    let effectCount = Int(counts[4])
    let viewCounts = try reader.integers()
    let likeCounts = try reader.integers()
    let createdAtBase = try reader.array(Int64.self)
    guard createdAtBase.count == 1 else { throw corrupt("the video dates are damaged") }
    guard
      let createdAt = DateColumn(validatingBase: createdAtBase[0], offsets: try reader.integers())
    else { throw corrupt("the video dates are out of range") }
    let creators = try reader.column(UInt32.self)
    let sounds = try reader.column(UInt32.self)
    let thumbnails = try reader.urls(count: videoCount)
    guard let videoHashtags = StringListColumn(validating: try reader.strings()) else {
      throw corrupt("the video hashtags are damaged")
    }
    let effects = try reader.integers()
    let unresolvedVideos = try reader.array(UInt32.self)
    let unresolvedKinds = try reader.array(UInt8.self)
    let unresolvedIDs = try reader.strings()
    guard viewCounts.count == videoCount, likeCounts.count == videoCount,
      createdAt.count == videoCount, creators.count == videoCount, sounds.count == videoCount,
      videoHashtags.count == videoCount, effects.count == videoCount || effects.count == 0,
      unresolvedKinds.count == unresolvedVideos.count,
      unresolvedIDs.count == unresolvedVideos.count
    else { throw corrupt("the video columns do not match the video count") }
    for creator in creators.buffer where creator != UInt32.max && Int(creator) >= userCount {
      throw corrupt("a video's creator points past the users")
    }
    for sound in sounds.buffer where sound != UInt32.max && Int(sound) >= soundCount {
      throw corrupt("a video's sound points past the sounds")
    }
    for video in 0..<effects.count where !(0...effectCount).contains(effects[video]) {
      throw corrupt("a video's effect points past the effects")
    }
    var unresolved: [UnresolvedReference] = []
    for index in 0..<unresolvedVideos.count {
      guard Int(unresolvedVideos[index]) < videoCount,
        index == 0 || unresolvedVideos[index] >= unresolvedVideos[index - 1]
      else {
        throw corrupt("a reference points past the videos or is out of order")
      }
      guard let kind = UnresolvedReference.Kind(rawValue: unresolvedKinds[index]) else {
        throw corrupt("a reference is of an unknown kind")
      }
      unresolved.append(
        UnresolvedReference(
          video: unresolvedVideos[index], kind: kind, id: unresolvedIDs.string(at: index)))
    }
    let videos = VideoColumns(
      viewCounts: viewCounts, likeCounts: likeCounts, createdAt: createdAt, creators: creators,
      sounds: sounds, thumbnails: thumbnails, hashtags: videoHashtags, effects: effects,
      unresolvedReferences: unresolved)
    let users = UserColumns(
      followerCounts: try reader.integers(), videoCounts: try reader.integers(),
      isVerified: try reader.column(), displayNames: try reader.strings())
    guard users.followerCounts.count == userCount, users.videoCounts.count == userCount,
      users.isVerified.count == userCount, users.displayNames.count == userCount
    else { throw corrupt("the user columns do not match the user count") }
    let hashtags = HashtagColumns(
      viewCounts: try reader.integers(), videoCounts: try reader.integers(),
      descriptions: try reader.strings())
    guard hashtags.viewCounts.count == hashtagCount, hashtags.videoCounts.count == hashtagCount,
      hashtags.descriptions.count == hashtagCount
    else { throw corrupt("the hashtag columns do not match the hashtag count") }
    let soundColumns = SoundColumns(
      videoCounts: try reader.integers(), artists: try reader.strings())
    guard soundColumns.videoCounts.count == soundCount, soundColumns.artists.count == soundCount
    else { throw corrupt("the sound columns do not match the sound count") }
    let effectColumns = EffectColumns(
      ids: try reader.strings(), names: try reader.strings(),
      thumbnails: try reader.urls(count: effectCount), useCounts: try reader.integers())
    guard effectColumns.ids.count == effectCount, effectColumns.names.count == effectCount,
      effectColumns.useCounts.count == effectCount
    else { throw corrupt("the effect columns do not match the effect count") }
    let suggestions =
      reader.formatVersion >= 9
      ? try readSuggestions(&reader, userCount: userCount, soundCount: soundCount)
      : nil
    let nameFilters =
      reader.formatVersion >= 10
      ? try readExactNameFilters(&reader, partitions: partitions, path: path) : nil
    let structures = try suggestions.map { try makeSuggestions($0, reader: &reader) }
    let defaultPivots = reader.formatVersion >= 11 ? try reader.array(Double.self) : nil
    if let defaultPivots {
      // A geometric mean of counts plus one: finite and at least 1 (any such value is safe).
      guard defaultPivots.count == SearchResultType.allCases.count,
        defaultPivots.allSatisfy({ $0.isFinite && $0 >= 1 })
      else { throw corrupt("the popularity pivots are damaged") }
    }
    guard reader.isAtEnd else { throw corrupt("the file has sections this build does not know") }
    let snapshot = IndexSnapshot(
      configuration: configuration, terms: terms, partitions: partitions, videos: videos,
      users: users, hashtags: hashtags, sounds: soundColumns, effects: effectColumns)
    if let (lexicon, phrases) = structures {
      snapshot.suggestionCache.store(lexicon: lexicon, phrases: phrases)
    }
    if let nameFilters { snapshot.exactNames.store(nameFilters) }
    if let defaultPivots { snapshot.staticFactors.store(defaultPivots: defaultPivots) }
    return snapshot
  }
}

/// What an index holds and where: documents per type, its commit and its size on disk.
public struct IndexStatistics: Sendable, Equatable {
  /// Documents of each searchable type, deleted ones left out.
  public var documents: [SearchResultType: Int]
  /// Effects (stored for the trending lists, not searched), deleted ones left out.
  public var effects: Int
  /// Documents (effects included) deleted or replaced but still in a segment, until a
  /// merge leaves them behind; a commit keeps them, in deletes files.
  public var deletedDocuments: Int
  /// The segments of the commit.
  public var segments: Int
  /// The commit's generation; 0 for an index never saved, or read from the single
  /// `index.dsearch` of earlier versions.
  public var generation: UInt64
  /// The bytes on disk of the newest commit in the directory; 0 for an index never saved.
  public var diskBytes: Int
}

extension DiscoverIndex {
  /// What this index holds, and the commit it shows when it was opened from or saved to a
  /// directory.
  public var statistics: IndexStatistics {
    let segments = self.segments
    var documents: [SearchResultType: Int] = [:]
    for type in SearchResultType.allCases {
      documents[type] = segments.liveDocumentCount(of: type)
    }
    let source = self.source.withLock { $0 }
    let diskBytes = source.flatMap { try? Self.fileSize(at: $0.directory) } ?? 0
    return IndexStatistics(
      documents: documents,
      effects: segments.liveCount - documents.values.reduce(0, +),
      deletedDocuments: segments.deletedCount, segments: segments.segments.count,
      generation: source?.generation ?? 0, diskBytes: diskBytes)
  }

  /// Reads the newest commit in `directory` with every check there is: each section's
  /// checksum (``IndexVerification/full``), the structure of the postings and columns, and
  /// the documents files, which opening does not read: their sizes and checksums, each
  /// record a valid document, no live id twice, and as many live documents as the segments
  /// hold.
  ///
  /// - Returns: The statistics of the commit verified.
  /// - Throws: The errors of ``open(at:verification:)``, saying what is damaged.
  public static func verify(at directory: URL) throws -> IndexStatistics {
    let index = try open(at: directory, verification: .full)
    // A commit of an earlier version has no documents to check.
    switch index.segments.documents.value {
    case .file, .segments: _ = try index.segments.storedDocuments()
    case .memory, .unavailable: break
    }
    return index.statistics
  }
}
