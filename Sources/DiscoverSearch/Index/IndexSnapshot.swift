import Synchronization

/// The searchable part of one content type: postings, field lengths, ids and display text.
///
/// A class, so that searches pass one reference around instead of copying its columns.
final class TypePartition: Sendable {
  let type: SearchResultType
  /// The number of documents of this type.
  let documentCount: Int
  let postings: TypePostings
  /// Field length codes (``FieldLength``), `documentCount * fieldCount`, document-major.
  let norms: Column<UInt8>
  /// Average length of each field over the type's documents (for BM25 normalization).
  let averageFieldLengths: [Float]
  /// The caller's ids.
  let ids: StringColumn
  /// The text shown as the result title: video title, username, hashtag name, sound title.
  let titles: StringColumn
  /// `FieldLength.inverseNormalization` of each field, 256 values per field: derived from
  /// `b` and the average lengths, not stored on disk.
  let inverseNormalization: Column<Float>
  /// Each field's sum of decoded lengths, computed on first use (``fieldLengthSums``).
  private let lengthSums = Lock<[Double]?>(nil)

  init(
    type: SearchResultType, documentCount: Int, postings: TypePostings, norms: Column<UInt8>,
    averageFieldLengths: [Float], ids: StringColumn, titles: StringColumn,
    configuration: IndexConfiguration
  ) {
    self.type = type
    self.documentCount = documentCount
    self.postings = postings
    self.norms = norms
    self.averageFieldLengths = averageFieldLengths
    self.ids = ids
    self.titles = titles
    var tables: [Float] = []
    for (slot, field) in SearchField.fields(of: type).enumerated() {
      tables += FieldLength.inverseNormalization(
        b: configuration.b(for: field), averageLength: averageFieldLengths[slot])
    }
    inverseNormalization = Column(tables)
  }

  var fieldCount: Int { postings.fieldCount }

  /// Each field's sum of the lengths its codes decode to, over the type's documents: what
  /// the average lengths divide, which index-wide averages add up (``SegmentStatistics``).
  ///
  /// - Complexity: O(n) in the documents on first use, then O(1).
  var fieldLengthSums: [Double] {
    if let known = lengthSums.withLock({ $0 }) { return known }
    var sums = [Double](repeating: 0, count: fieldCount)
    let codes = norms.buffer
    for document in 0..<documentCount {
      for field in 0..<sums.count {
        sums[field] += Double(FieldLength.table[Int(codes[document &* sums.count &+ field])])
      }
    }
    lengthSums.withLock { $0 = sums }
    return sums
  }

  var byteCount: Int {
    postings.byteCount + norms.byteCount + ids.byteCount + titles.byteCount
      + averageFieldLengths.count * 4
  }
}

/// Per-video values.
struct VideoColumns: Sendable {
  let viewCounts: IntegerColumn
  let likeCounts: IntegerColumn
  /// Seconds since 1970, `nil` when unknown.
  let createdAt: DateColumn
  /// The creator's user ``DocID``, or `UInt32.max` when there is none or it is unknown.
  let creators: Column<UInt32>
  /// The sound's ``DocID``, or `UInt32.max`.
  let sounds: Column<UInt32>
  let thumbnails: URLColumn
  /// The hashtags as each video's document wrote them (`DanceChallenge`), for the trending
  /// lists (``IndexSnapshot/catalogVideo(at:)`` folds them).
  let hashtags: StringListColumn
  /// Each video's effect as its number in ``EffectColumns`` plus one, 0 for none: one byte a
  /// video for up to 254 effects, two for up to 65,534. Empty when no video has an effect,
  /// as in a corpus without effects; read it with ``effect(ofVideo:)``.
  let effects: IntegerColumn
  /// Creator, sound and effect ids that name no document of their kind in the index, kept
  /// so results and the catalog still report them: the video, which reference it is, and
  /// the id. Sorted by video.
  let unresolvedReferences: [UnresolvedReference]

  /// The number in ``EffectColumns`` of the effect video `video` uses, or `nil`.
  @inline(__always)
  func effect(ofVideo video: Int) -> Int? {
    guard video < effects.count else { return nil }
    let number = effects[video]
    return number == 0 ? nil : number - 1
  }

  /// The unresolved references of `video`, found by binary search.
  func unresolvedReferences(of video: UInt32) -> ArraySlice<UnresolvedReference> {
    var low = 0
    var high = unresolvedReferences.count
    while low < high {
      let middle = (low + high) / 2
      if unresolvedReferences[middle].video < video { low = middle + 1 } else { high = middle }
    }
    var end = low
    while end < unresolvedReferences.count && unresolvedReferences[end].video == video { end += 1 }
    return unresolvedReferences[low..<end]
  }

  var byteCount: Int {
    viewCounts.byteCount + likeCounts.byteCount + createdAt.byteCount + creators.byteCount
      + sounds.byteCount + thumbnails.byteCount + hashtags.byteCount + effects.byteCount
      + unresolvedReferences.count * 24
  }
}

/// A video's creator, sound or effect id that names no document of that kind.
struct UnresolvedReference: Sendable, Hashable {
  /// Which of a video's references an ``UnresolvedReference`` is; the raw value is stored
  /// in index files.
  enum Kind: UInt8, Sendable, Hashable {
    case creator = 0
    case sound = 1
    case effect = 2

    /// The kind of document the reference names.
    var documentKind: DocumentKind {
      switch self {
      case .creator: .user
      case .sound: .sound
      case .effect: .effect
      }
    }
  }

  var video: UInt32
  var kind: Kind
  var id: String
}

/// Per-user values.
struct UserColumns: Sendable {
  let followerCounts: IntegerColumn
  /// How many videos in the index this user created.
  let videoCounts: IntegerColumn
  let isVerified: Column<UInt8>
  let displayNames: StringColumn

  var byteCount: Int {
    followerCounts.byteCount + videoCounts.byteCount + isVerified.byteCount
      + displayNames.byteCount
  }
}

/// Per-hashtag values.
struct HashtagColumns: Sendable {
  let viewCounts: IntegerColumn
  let videoCounts: IntegerColumn
  /// The challenge descriptions, for the trending lists; empty for none.
  let descriptions: StringColumn

  var byteCount: Int { viewCounts.byteCount + videoCounts.byteCount + descriptions.byteCount }
}

/// Per-sound values.
struct SoundColumns: Sendable {
  let videoCounts: IntegerColumn
  let artists: StringColumn

  var byteCount: Int { videoCounts.byteCount + artists.byteCount }
}

/// The effects, in the order they were added: stored for the trending lists, not searched,
/// so they have no partition.
struct EffectColumns: Sendable {
  let ids: StringColumn
  let names: StringColumn
  /// Keyed by the effect's id, as video thumbnails are.
  let thumbnails: URLColumn
  let useCounts: IntegerColumn

  /// The number of effects.
  var count: Int { ids.count }

  var byteCount: Int {
    ids.byteCount + names.byteCount + thumbnails.byteCount + useCounts.byteCount
  }
}

/// An immutable, searchable state of the index, published by a commit.
///
/// Readers take a reference to the current snapshot and search it without locks; a commit
/// builds a new snapshot and swaps it in, so a query never sees a half-applied commit
/// (Lucene's `SearcherManager`, Tantivy's `Searcher`).
/// The last lineage given to a snapshot (``IndexSnapshot/lineage``).
private let snapshotLineages = Atomic<UInt64>(0)
/// The last version given to a snapshot (``IndexSnapshot/version``).
private let snapshotVersions = Atomic<UInt64>(0)

final class IndexSnapshot: Sendable {
  let configuration: IndexConfiguration
  /// The term dictionary, shared by all types.
  let terms: ByteStringTable
  /// One partition per ``SearchResultType``, in `SearchResultType.index` order.
  let partitions: [TypePartition]
  let videos: VideoColumns
  let users: UserColumns
  let hashtags: HashtagColumns
  let sounds: SoundColumns
  let effects: EffectColumns
  /// Popularity and recency factors computed for searches of this snapshot.
  let staticFactors = StaticFactorCache()
  /// The sorted term dictionary and phrase dictionary of suggestions, built on first use.
  let suggestionCache = SuggestionCache()
  /// Which exact name matches each type can have, built on first use by a Top tab or one-term
  /// search (or by `prepareSuggestions()`).
  let exactNames = ExactNameFilterCache()
  /// The documents this snapshot was built from, which a writer of the index starts from;
  /// shared with the snapshots that replace its counts, whose counts differ from the
  /// documents' where ``changedCounts`` says.
  let documents: DocumentSlot
  /// Its documents' ids by kind, for references from other segments and for deletes and
  /// count changes by id, built on first use (``ReferenceResolver``); shared with the
  /// snapshots that replace its counts.
  let idTables: IDTables
  /// What this segment is across count changes: a snapshot with new counts
  /// (``replacingCounts(_:)``) keeps its source's lineage, so that a merge of the source
  /// still finds it among the published segments. Unique to each build.
  let lineage: UInt64
  /// Unique to each snapshot object: a commit tells by it whether a segment's counts
  /// changed since it last wrote them.
  let version = snapshotVersions.add(1, ordering: .relaxed).newValue
  /// The documents whose counts were set since the build (``patchingCounts(_:)``), per
  /// kind: what a commit writes beside an unchanged segment file so that the counts last.
  let changedCounts: SegmentDeletions

  init(
    configuration: IndexConfiguration, terms: ByteStringTable, partitions: [TypePartition],
    videos: VideoColumns, users: UserColumns, hashtags: HashtagColumns, sounds: SoundColumns,
    effects: EffectColumns, lineage: UInt64? = nil, idTables: IDTables? = nil,
    documents: DocumentSlot? = nil, changedCounts: SegmentDeletions = .none
  ) {
    self.lineage = lineage ?? snapshotLineages.add(1, ordering: .relaxed).newValue
    self.idTables = idTables ?? IDTables()
    self.documents = documents ?? DocumentSlot()
    self.changedCounts = changedCounts
    self.configuration = configuration
    self.terms = terms
    self.partitions = partitions
    self.videos = videos
    self.users = users
    self.hashtags = hashtags
    self.sounds = sounds
    self.effects = effects
  }

  /// An index with no documents.
  static func makeEmpty(configuration: IndexConfiguration = IndexConfiguration()) -> IndexSnapshot {
    // An empty writer builds an empty snapshot; it cannot fail.
    let snapshot = (try? IndexWriter(configuration: configuration).makeSnapshot())!
    snapshot.documents.value = .memory(.empty)
    return snapshot
  }

  /// The partition of a type.
  @inline(__always)
  func partition(_ type: SearchResultType) -> TypePartition { partitions[type.index] }

  /// The number of documents of every searchable type (effects are not counted).
  var documentCount: Int { partitions.reduce(0) { $0 + $1.documentCount } }

  /// The number of documents of every type, effects included.
  var heldCount: Int { documentCount + effects.count }

  /// The bytes the index holds in memory: postings, dictionary, columns, stored text (the
  /// effects and what the trending lists read included), and the suggestion structures and
  /// exact name filters once they are built.
  var memoryBytes: Int {
    partitions.reduce(0) { $0 + $1.byteCount } + terms.memoryBytes + videos.byteCount
      + users.byteCount + hashtags.byteCount + sounds.byteCount + effects.byteCount
      + suggestionCache.byteCount + exactNames.byteCount
  }
}
