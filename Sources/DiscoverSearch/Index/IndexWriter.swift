import CPrefetch
import Foundation

/// Collects documents and builds searchable snapshots of them.
///
/// A writer is owned by one task. Add, update and delete documents and change their counts,
/// then ``publish()`` to make everything so far visible to searches of the ``DiscoverIndex``
/// the writer came from, or ``commit()`` to also make it durable in the index's directory;
/// readers keep searching the previous snapshot until the new one is swapped in. A writer
/// made by ``DiscoverIndex/makeWriter()`` starts with the index's documents.
///
/// The writer keeps every document as a compact binary record. While documents are only
/// added or their counts changed, each is analyzed as it comes (tokens become term ids and
/// postings entries). A publish after additions alone builds a segment of the new documents,
/// searched with the index's other segments as one, and ``mergePolicy`` merges segments on a
/// task of its own. A publish after a delete or an
/// update, or after counts and documents both changed, and every commit, build one segment
/// of everything (after a delete or update, analyzing every document again); after count
/// changes alone, the last snapshot is shared with new count columns.
public struct IndexWriter {
  /// The settings the index is built with.
  public let configuration: IndexConfiguration
  /// The index ``publish()`` and ``commit()`` publish to.
  let target: DiscoverIndex?
  /// The lock of the directory ``commit()`` writes to, for an index opened from or saved to
  /// one.
  let directoryLock: DirectoryLock?
  /// Every document held, as records (``DocumentRecord``).
  var store = DocumentStoreBuilder()
  /// Whether every document held is analyzed below, in the store's order; after a delete
  /// or an update the analysis is dropped, and publishing redoes it, unless the writer
  /// deletes in segments (``deletesInSegments``).
  var analysisIsCurrent = true
  /// Whether the analysis also holds documents since deleted or replaced, their ids retired
  /// (``retiredLocation``): it still serves as the context new segments are analyzed with
  /// (the vocabulary, creators, video counts), and a build of everything analyzes again.
  var analysisHasRemovals: Bool { retiredCount > 0 }
  /// How many analyzed documents were deleted or replaced since the last analysis.
  private var retiredCount = 0
  /// The ids of documents deleted or replaced since the last publish, with the kind of the
  /// version analyzed: the next publish deletes their published versions in the segments
  /// (``SegmentSet/deleting(_:documents:)``).
  var tombstones: [(id: String, kind: DocumentKind)] = []
  /// The ids among ``unpublished`` deleted or replaced since they were added: the next
  /// publish keeps only their latest version, if they are still held.
  var touchedUnpublished: Set<String> = []
  /// The snapshot this writer published last and the orders it numbered documents in,
  /// while no document was added, updated or deleted since: a publish of count changes
  /// alone derives its snapshot from it (``IndexSnapshot/replacingCounts(_:)``).
  var countBase: (snapshot: IndexSnapshot, orders: [DocumentOrder])?
  /// Which counts changed since ``countBase`` was published.
  var changedCounts = CountKinds()
  /// The ids whose counts changed since the last publish, with repeats: a publish that
  /// keeps the segments sets their counts there (``SegmentSet/patchingCounts(_:)``).
  var countChangedIDs: [String] = []
  /// Whether counts changed since the last publish.
  var hasCountChangesSincePublish: Bool { !changedCounts.isEmpty }
  /// When and which segments ``publish()`` merges (``MergePolicy``).
  public var mergePolicy = MergePolicy()
  /// The documents added since the last publish, while only additions happened since and
  /// the index shows what that publish published: the next publish builds a segment of
  /// them alone (``makeSegment(of:)``). `nil` when the next publish builds the whole index.
  var unpublished: [Document]?

  var terms = TermInterner()
  /// Occurrences of all words of running text (titles, descriptions, names), the vocabulary
  /// hashtags are split with; ``TermInterner`` counts each word.
  var totalPlainWords = 0
  /// Scratch for the hashes of a field's tokens: the first `stream.tokens.count` are the
  /// current field's.
  private var hashes: [Int] = []
  /// Every document's id, effects' included, for duplicates and for resolving creators,
  /// sounds and effects.
  var documentIDs = DocumentIDTable()
  /// Each id's document, by the id table's entry: its kind (`DocumentKind.index`) in the top
  /// three bits, its number within the kind below (``locationNumberBits``);
  /// ``retiredLocation`` once the document is deleted or replaced.
  var documentLocations: [UInt32] = []
  /// The location of an id whose analyzed document was deleted or replaced: of no kind, so
  /// nothing resolves to it, and registering the id again reuses its entry.
  static let retiredLocation = UInt32.max
  var builders: [TypeBuilder] = SearchResultType.allCases.map { TypeBuilder(type: $0) }
  var tokenizer = Tokenizer(mode: .document)
  let stream = TokenStream()

  // Video values.
  var videoViews: [Int] = []
  var videoLikes: [Int] = []
  /// Seconds since 1970, or ``missingDate``.
  var videoCreatedAt: [Int64] = []
  /// Each video's creator, sound and effect, as the writer's numbers of a user, a sound and
  /// an effect, or `UInt32.max` when the video names none or names one not added yet (see
  /// ``pendingReferences``). Resolved as each video is added, and kept as four bytes rather
  /// than the id's string.
  var videoCreators: [UInt32] = []
  var videoSounds: [UInt32] = []
  var videoEffects: [UInt32] = []
  /// The creators, sounds and effects no document had when their video was added, in the
  /// order added: commit looks them up again, and those still missing become unresolved
  /// references.
  var pendingReferences: [UnresolvedReference] = []
  var videoThumbnails = URLColumnBuilder()
  /// Each video's hashtags as written, for the trending lists.
  var videoHashtags = StringListColumn.Builder()
  // User values, and the terms a user's videos get in their creator field.
  var userFollowers: [Int] = []
  var userVerified: [UInt8] = []
  var userDisplayNames = StringColumnBuilder()
  var userCreatorTerms: [UInt64] = []
  var userCreatorTermStarts: [UInt32] = [0]
  // Hashtag and sound values.
  var hashtagViews: [Int] = []
  var hashtagVideos: [Int] = []
  var hashtagDescriptions = StringColumnBuilder()
  var soundVideos: [Int] = []
  var soundArtists = StringColumnBuilder()
  // Effects, stored but not searched: no builder, no postings.
  var effectIDs = StringColumnBuilder()
  var effectNames = StringColumnBuilder()
  var effectThumbnails = URLColumnBuilder()
  var effectUseCounts: [Int] = []
  /// For a writer of a segment's documents alone, what it reads from the writer of the
  /// whole index (``makeSegment(of:)``); `nil` for any other writer.
  var segmentContext: SegmentContext?

  /// Creates a writer whose snapshots are not published anywhere (see ``makeIndex()``).
  public init(configuration: IndexConfiguration = IndexConfiguration()) {
    self.configuration = configuration
    target = nil
    directoryLock = nil
  }

  /// A writer of `target` holding the documents of `store`, committing under `lock`.
  init(
    target: DiscoverIndex, configuration: IndexConfiguration, store: DocumentStoreBuilder,
    lock: DirectoryLock?
  ) {
    self.configuration = configuration
    self.target = target
    directoryLock = lock
    self.store = store
    analysisIsCurrent = store.count == 0
    unpublished = []
  }

  /// A writer with `other`'s target, lock and documents, and no analysis.
  private init(documentsOf other: IndexWriter) {
    configuration = other.configuration
    target = other.target
    directoryLock = other.directoryLock
    store = other.store
    mergePolicy = other.mergePolicy
  }

  /// The number of documents held, of every type, effects included.
  public var documentCount: Int { store.count }

  /// Whether documents were added, updated or deleted, or counts changed, since the writer
  /// was made or last committed (Lucene's `hasUncommittedChanges`).
  public private(set) var hasUncommittedChanges = false

  /// Adds a document of any type.
  ///
  /// - Throws: ``SearchError/Code/invalidDocument`` when the id is empty or already used, or
  ///   a count is negative. The writer is unchanged when it throws.
  /// - Complexity: O(n) in the length of the document's text.
  public mutating func add(_ document: Document) throws {
    try Self.validate(document)
    if analysisIsCurrent {
      try analyze(document)
    } else if store.contains(id: document.id) {
      throw Self.duplicateID(document.id)
    }
    store.store(document)
    countBase = nil
    hasUncommittedChanges = true
    trackUnpublished(document)
  }

  /// Keeps `document` for the next publish's new segment, unless the documents added since
  /// the last publish are a large part of the index: then one build of everything costs
  /// about as much as a segment of them, and holding them costs memory.
  private mutating func trackUnpublished(_ document: Document) {
    guard unpublished != nil else { return }
    unpublished!.append(document)
    if unpublished!.count > Self.segmentDocumentsMinimum
      && unpublished!.count * 4 > store.count
    {
      unpublished = nil
    }
  }

  /// Below this many documents added since the last publish, the publish always builds a
  /// segment of them (when only additions happened).
  static let segmentDocumentsMinimum = 50_000

  /// Adds `document`, or replaces the document with its id (of any type): Lucene's
  /// `updateDocument`, last write wins. Visible at the next ``publish()``.
  ///
  /// - Returns: Whether a document was replaced.
  /// - Throws: ``SearchError/Code/invalidDocument`` when the document cannot be added (see
  ///   ``add(_:)-(Document)``); the writer is then unchanged.
  @discardableResult
  public mutating func update(_ document: Document) throws -> Bool {
    guard store.contains(id: document.id) else {
      try add(document)
      return false
    }
    try Self.validate(document)
    if deletesInSegments {
      let renamedUser = renamedUser(by: document)
      retire(document.id)
      try analyze(document)
      trackUnpublished(document)
      if let renamedUser { try refreshVideos(ofUser: renamedUser, id: document.id) }
    } else {
      dropAnalysis()
    }
    store.store(document)
    countBase = nil
    hasUncommittedChanges = true
    return true
  }

  /// Whether a delete or an update marks the published version deleted in its segment
  /// (and the next publish adds the new version in a new segment), keeping the analysis as
  /// the context of new segments; otherwise the analysis is dropped and the next publish
  /// builds everything. It does while the next publish builds a segment of the documents
  /// added since the last, and the analyzed documents that were removed stay within a
  /// quarter of those held (past that, the analysis is mostly waste, and a build of
  /// everything is due).
  private var deletesInSegments: Bool {
    unpublished != nil && analysisIsCurrent && target != nil
      && (retiredCount + 1) * 4 <= store.count
  }

  /// The writer's number of the user `document` replaces when it changes the user's
  /// username or display name, which the creator field of each of the user's videos holds.
  private mutating func renamedUser(by document: Document) -> UInt32? {
    guard case .user(let new) = document, let number = resolve(new.id, as: .user),
      case .user(let old) = store.document(id: new.id),
      old.username != new.username || old.displayName != new.displayName
    else { return nil }
    return number
  }

  /// Marks the published videos of user `user` (the writer's number, of id `id`) deleted and
  /// adds them again, so that their creator field holds the user's new names, as one build
  /// of everything would copy them.
  ///
  /// - Complexity: O(v) for v videos analyzed.
  private mutating func refreshVideos(ofUser user: UInt32, id: String) throws {
    var numbers = videoCreators.indices.filter { videoCreators[$0] == user }
    numbers += pendingReferences.lazy.filter { $0.kind == .creator && $0.id == id }
      .map { Int($0.video) }
    let ids = builders[SearchResultType.video.index].ids
    for number in numbers {
      let start = Int(ids.offsets[number])
      let end = Int(ids.offsets[number + 1])
      let videoID = ids.withBytes { String(decoding: $0[start..<end], as: UTF8.self) }
      guard let video = store.document(id: videoID), resolve(videoID, as: .video) != nil
      else { continue }
      retire(videoID)
      try analyze(video)
      trackUnpublished(video)
    }
  }

  /// Retires `id`'s analyzed document, and notes that its published or unpublished version
  /// goes at the next publish.
  private mutating func retire(_ id: String) {
    var key = id
    if let entry = key.withUTF8({ documentIDs.find(UnsafeRawBufferPointer($0)) }),
      documentLocations[Int(entry)] != Self.retiredLocation
    {
      let location = documentLocations[Int(entry)]
      let kind = DocumentKind.allCases[Int(location >> Self.locationNumberBits)]
      if kind == .video {
        // A deleted video no longer counts toward its creator's videos.
        videoCreators[Int(location & ((1 << Self.locationNumberBits) - 1))] = UInt32.max
      }
      documentLocations[Int(entry)] = Self.retiredLocation
      tombstones.append((id, kind))
    }
    retiredCount += 1
    touchedUnpublished.insert(id)
  }

  /// Deletes the document with `id`, of any type. Visible at the next ``publish()``: it then
  /// leaves hits, facet counts, completions and trending lists. A deleted user's videos stay;
  /// their cards name no creator, and their text still holds the user's names until the
  /// segments holding them merge.
  ///
  /// - Returns: Whether there was one (deleting an unknown id changes nothing).
  @discardableResult
  public mutating func delete(id: String) -> Bool {
    guard store.contains(id: id) else { return false }
    // A deleted user's videos keep the user's names in their creator field until they are
    // merged (their cards name no creator at once): adding them all again would make one
    // delete cost as much as the user's videos.
    if deletesInSegments { retire(id) } else { dropAnalysis() }
    store.remove(id: id)
    countBase = nil
    hasUncommittedChanges = true
    return true
  }

  /// Changes counts of a document without changing its text. Visible at the next
  /// ``publish()``, where ranking and its pruning bounds use the new counts. Unlike a
  /// delete or an update, it keeps the writer's analysis: the publish does not analyze the
  /// documents again.
  ///
  /// - Throws: ``SearchError/Code/documentNotFound`` when no document has the id,
  ///   ``SearchError/Code/invalidDocument`` when a count is negative or the document's type
  ///   has no such count. The writer is then unchanged.
  public mutating func updateCounts(_ update: CountUpdate) throws {
    try store.updateCounts(update)
    if analysisIsCurrent { setCounts(update) }
    countChangedIDs.append(update.id)
    hasUncommittedChanges = true
  }

  /// Adds the views and likes of `events` to their videos' counts: each view adds 1 to its
  /// video's `viewCount`, each like 1 to its `likeCount` (shares and posts change no
  /// count), as a service feeds the events it records for trending (``TrendingContent``)
  /// to its index too. A count set by ``updateCounts(_:)`` replaces what events added to it
  /// before, and events after it add to the value set. Visible at the next ``publish()``,
  /// like other count changes, and the writer's analysis is kept.
  ///
  /// - Returns: How many events changed a count; events of videos the writer does not hold
  ///   change nothing.
  @discardableResult
  public mutating func updateCounts(from events: some Sequence<ContentEvent>) -> Int {
    var applied = 0
    for event in events {
      let added: SIMD2<Int>
      switch event.kind {
      case .view: added = SIMD2(1, 0)
      case .like: added = SIMD2(0, 1)
      case .share, .post: continue
      }
      guard store.increment(id: event.videoID, views: added[0], likes: added[1]) else {
        continue
      }
      if analysisIsCurrent { addCounts(added, toVideo: event.videoID) }
      changedCounts.insert([.videoViews, .videoLikes])
      countChangedIDs.append(event.videoID)
      applied += 1
    }
    if applied > 0 { hasUncommittedChanges = true }
    return applied
  }

  /// Adds views and likes to a video's counts in the analysis.
  private mutating func addCounts(_ added: SIMD2<Int>, toVideo id: String) {
    guard let number = resolve(id, as: .video).map(Int.init) else { return }
    videoViews[number] = DocumentStoreBuilder.adding(videoViews[number], added[0])
    videoLikes[number] = DocumentStoreBuilder.adding(videoLikes[number], added[1])
  }

  /// Sets the counts of `update` in the analysis (checked by the store): counts are values
  /// beside the postings, so the analysis stays current and the next publish only rebuilds.
  private mutating func setCounts(_ update: CountUpdate) {
    var id = update.id
    guard let entry = id.withUTF8({ documentIDs.find(UnsafeRawBufferPointer($0)) }) else {
      return
    }
    let location = documentLocations[Int(entry)]
    guard location != Self.retiredLocation else { return }
    let number = Int(location & ((1 << Self.locationNumberBits) - 1))
    let kind = DocumentKind.allCases[Int(location >> Self.locationNumberBits)]
    let (first, second) = update.counts(for: kind)
    switch kind {
    case .video:
      Self.set(first, at: number, in: &videoViews, marking: .videoViews, in: &changedCounts)
      Self.set(second, at: number, in: &videoLikes, marking: .videoLikes, in: &changedCounts)
    case .user:
      Self.set(first, at: number, in: &userFollowers, marking: .userFollowers, in: &changedCounts)
    case .hashtag:
      Self.set(first, at: number, in: &hashtagViews, marking: .hashtagViews, in: &changedCounts)
      Self.set(second, at: number, in: &hashtagVideos, marking: .hashtagVideos, in: &changedCounts)
    case .sound:
      Self.set(first, at: number, in: &soundVideos, marking: .soundVideos, in: &changedCounts)
    case .effect: break
    }
  }

  /// Sets `value`, if given, at `number` of `values`, and marks `column` changed.
  private static func set(
    _ value: Int?, at number: Int, in values: inout [Int], marking column: CountKinds,
    in changed: inout CountKinds
  ) {
    guard let value else { return }
    values[number] = value
    changed.insert(column)
  }

  /// Forgets the analysis of the documents held, which a removal or a replacement makes
  /// wrong; publishing analyzes them again.
  private mutating func dropAnalysis() {
    guard analysisIsCurrent else { return }
    let changed = hasUncommittedChanges
    self = IndexWriter(documentsOf: self)
    hasUncommittedChanges = changed
    analysisIsCurrent = false
  }

  /// Analyzes every document held again, when a removal or replacement dropped the
  /// analysis. The store is compacted first when a third of its bytes are records it no
  /// longer holds.
  mutating func analyzeIfNeeded() throws {
    guard !analysisIsCurrent || analysisHasRemovals else { return }
    var fresh = IndexWriter(documentsOf: self)
    fresh.store.applyCountUpdates()
    if fresh.store.forgottenBytes > fresh.store.byteCount / 3 {
      fresh.store = fresh.store.compacted()
    }
    let documents = fresh.store
    try documents.forEachDocument { try fresh.analyze($0) }
    fresh.hasUncommittedChanges = hasUncommittedChanges
    self = fresh
    analysisIsCurrent = true
  }

  /// The error for an id already held.
  private static func duplicateID(_ id: String) -> SearchError {
    SearchError(
      .invalidDocument,
      "duplicate id \"\(id)\"; ids must be unique across all types (update(_:) replaces a document)"
    )
  }

  /// Throws when `document` cannot be held: an empty id, a negative count, a creation date
  /// beyond ±10^15 seconds.
  private static func validate(_ document: Document) throws {
    guard !document.id.isEmpty else {
      throw SearchError(
        .invalidDocument,
        "\(document.kind.nameWithArticle) has an empty id; every document needs a unique, non-empty id"
      )
    }
    switch document {
    case .video(let video):
      try checkCount(video.id, "viewCount", video.viewCount)
      try checkCount(video.id, "likeCount", video.likeCount)
      if let date = video.createdAt {
        // Dates beyond about ±30 million years are typing mistakes, and would not fit the
        // index's 64-bit seconds.
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e15 else {
          throw SearchError(
            .invalidDocument, "document \"\(video.id)\": createdAt \(date) is out of range")
        }
      }
    case .user(let user): try checkCount(user.id, "followerCount", user.followerCount)
    case .hashtag(let hashtag):
      try checkCount(hashtag.id, "viewCount", hashtag.viewCount)
      try checkCount(hashtag.id, "videoCount", hashtag.videoCount)
    case .sound(let sound): try checkCount(sound.id, "videoCount", sound.videoCount)
    case .effect(let effect): try checkCount(effect.id, "useCount", effect.useCount)
    }
  }

  /// Analyzes a document of any type into the postings entries and columns.
  private mutating func analyze(_ document: Document) throws {
    switch document {
    case .video(let video): try analyze(video)
    case .user(let user): try analyze(user)
    case .hashtag(let hashtag): try analyze(hashtag)
    case .sound(let sound): try analyze(sound)
    case .effect(let effect): try analyze(effect)
    }
  }

  /// Adds a video; see ``add(_:)-(Document)``.
  public mutating func add(_ video: Video) throws { try add(Document.video(video)) }

  /// Adds a user; see ``add(_:)-(Document)``.
  public mutating func add(_ user: User) throws { try add(Document.user(user)) }

  /// Adds a hashtag; see ``add(_:)-(Document)``.
  public mutating func add(_ hashtag: Hashtag) throws { try add(Document.hashtag(hashtag)) }

  /// Adds a sound; see ``add(_:)-(Document)``.
  public mutating func add(_ sound: Sound) throws { try add(Document.sound(sound)) }

  /// Adds an effect; see ``add(_:)-(Document)``.
  ///
  /// Effects are stored for the trending lists, not searched: their names get no postings.
  public mutating func add(_ effect: Effect) throws { try add(Document.effect(effect)) }

  /// Adds documents of any type, in order.
  ///
  /// Faster than adding them one by one: while one document is analyzed, the writer
  /// already fetches what registering the next ones will read.
  ///
  /// - Throws: ``SearchError/Code/invalidDocument`` for the first document that cannot be
  ///   added (see ``add(_:)-(Document)``). The documents before it stay added; it and those
  ///   after it are not.
  /// - Complexity: O(n) in the total length of the documents' text.
  public mutating func add(contentsOf documents: some Sequence<Document>) throws {
    // An array's documents are read in place: taking each out of an iterator copies it,
    // which retains every string it holds and releases them again after. Other sequences
    // are gathered into chunks and added the same way.
    let added: Void? = try documents.withContiguousStorageIfAvailable { try add(inPlace: $0) }
    if added != nil { return }
    var iterator = documents.makeIterator()
    var chunk: [Document] = []
    chunk.reserveCapacity(256)
    while true {
      chunk.removeAll(keepingCapacity: true)
      while chunk.count < 256, let next = iterator.next() { chunk.append(next) }
      if chunk.isEmpty { return }
      try chunk.withUnsafeBufferPointer { try add(inPlace: $0) }
    }
  }

  /// ``add(contentsOf:)`` for documents in contiguous memory. (A method of its own: a call
  /// of a non-mutating method on `self` inside the closure that captures it copies the
  /// whole writer.)
  private mutating func add(inPlace documents: UnsafeBufferPointer<Document>) throws {
    // How many documents ahead the id's slot is fetched: enough for the load to arrive
    // while the documents before are analyzed.
    let lookahead = 2
    // A writer whose analysis was dropped only stores documents until it publishes.
    if analysisIsCurrent { reserveCapacity(for: documents) }
    for index in documents.indices {
      if index &+ lookahead < documents.count {
        documentIDs.prefetch(id: documents[index &+ lookahead].id)
      }
      try add(documents[index])
    }
  }

  /// Makes room for `documents` in the id table and the per-document arrays of their
  /// types.
  ///
  /// An array that grows by doubling copies itself into fresh memory each time, and on
  /// some machines the kernel's zeroing of fresh pages costs more than the copy: reserving
  /// what a batch needs up front writes each array once. Growth stays geometric, so
  /// reserving before each of many small batches costs no more than appending.
  private mutating func reserveCapacity(for documents: UnsafeBufferPointer<Document>) {
    var added = [0, 0, 0, 0, 0]
    for index in documents.indices { added[documents[index].kind.index] &+= 1 }
    documentIDs.reserveCapacity(documentIDs.count + documents.count)
    documentLocations.reserveCapacity(adding: documents.count)
    for kind in DocumentKind.allCases where added[kind.index] > 0 {
      let count = added[kind.index]
      if let type = kind.searchResultType { builders[type.index].reserveCapacity(adding: count) }
      switch kind {
      case .video:
        videoViews.reserveCapacity(adding: count)
        videoLikes.reserveCapacity(adding: count)
        videoCreatedAt.reserveCapacity(adding: count)
        videoCreators.reserveCapacity(adding: count)
        videoSounds.reserveCapacity(adding: count)
        videoEffects.reserveCapacity(adding: count)
        videoThumbnails.reserveCapacity(adding: count)
        videoHashtags.reserveCapacity(adding: count)
      case .user:
        userFollowers.reserveCapacity(adding: count)
        userVerified.reserveCapacity(adding: count)
        userDisplayNames.reserveCapacity(adding: count)
        userCreatorTermStarts.reserveCapacity(adding: count)
      case .hashtag:
        hashtagViews.reserveCapacity(adding: count)
        hashtagVideos.reserveCapacity(adding: count)
        hashtagDescriptions.reserveCapacity(adding: count)
      case .sound:
        soundVideos.reserveCapacity(adding: count)
        soundArtists.reserveCapacity(adding: count)
      case .effect:
        effectIDs.reserveCapacity(adding: count)
        effectNames.reserveCapacity(adding: count)
        effectThumbnails.reserveCapacity(adding: count)
        effectUseCounts.reserveCapacity(adding: count)
      }
    }
  }

  /// Analyzes a video (checked by ``validate(_:)``).
  private mutating func analyze(_ video: Video) throws {
    try register(video.id, type: .video)
    // Resolving the creator, the sound and the effect reads an id slot, then where the id's
    // bytes start and its location, then the bytes: one dependent cache miss after another.
    // Each step is started while a field of the video is analyzed, so that its miss
    // overlaps that work.
    var creator = video.creator.map { ReferenceLookup(id: $0, table: documentIDs) }
    var sound = video.sound.map { ReferenceLookup(id: $0, table: documentIDs) }
    var effect = video.effect.map { ReferenceLookup(id: $0, table: documentIDs) }
    let builder = SearchResultType.video.index
    // One stream for the title, description and hashtags (see `appendStream`).
    stream.removeAll()
    let title = tokenizeField(video.title, field: 0)
    creator?.prefetchStart(table: documentIDs, locations: documentLocations)
    sound?.prefetchStart(table: documentIDs, locations: documentLocations)
    effect?.prefetchStart(table: documentIDs, locations: documentLocations)
    let description = tokenizeField(video.description, field: 1)
    creator?.prefetchBytes(table: documentIDs)
    sound?.prefetchBytes(table: documentIDs)
    effect?.prefetchBytes(table: documentIDs)
    var position: UInt32 = 0
    for tag in video.hashtags {
      position = tokenizer.tokenizeTag(tag, kind: .hashtag, into: stream, firstPosition: position)
    }
    let hashtags = FieldSpan(field: 2, tokenEnd: stream.tokens.count, length: position)
    appendStream(builder: builder, title, description, hashtags)
    // The creator field (3) is filled at commit, when every user is known.
    builders[builder].norms.append(0)
    builders[builder].ids.append(video.id)
    builders[builder].titles.append(video.title)
    videoViews.append(video.viewCount)
    videoLikes.append(video.likeCount)
    videoCreatedAt.append(
      video.createdAt.map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? Self.missingDate)
    let number = UInt32(builders[builder].documentCount - 1)
    videoCreators.append(reference(creator, as: .creator, from: number))
    videoSounds.append(reference(sound, as: .sound, from: number))
    videoEffects.append(reference(effect, as: .effect, from: number))
    videoThumbnails.append(video.thumbnailURL, id: video.id)
    videoHashtags.append(video.hashtags)
  }

  /// Analyzes a user (checked by ``validate(_:)``).
  private mutating func analyze(_ user: User) throws {
    try register(user.id, type: .user)
    let builder = SearchResultType.user.index
    stream.removeAll()
    let username = tokenizeTagField(user.username, kind: .mention, field: 0)
    let name = tokenizeField(user.displayName, field: 1)
    let bio = tokenizeField(user.bio, field: 2)
    let firstEntry = builders[builder].entries.buffer.count
    appendStream(builder: builder, username, name, bio)
    // The username's and display name's terms, for the creator field of the user's videos:
    // the entries just appended for their tokens, one each, with the name's positions after
    // the username's.
    let entries = builders[builder].entries.buffer
    var index = firstEntry
    for token in 0..<name.tokenEnd {
      let entry = PackedEntry.read(entries.base, at: &index)
      let position = entry.position + (token < username.tokenEnd ? 0 : username.length)
      userCreatorTerms.append(UInt64(entry.term) << 32 | UInt64(position))
    }
    userCreatorTermStarts.append(UInt32(userCreatorTerms.count))
    builders[builder].ids.append(user.id)
    builders[builder].titles.append(user.username)
    userFollowers.append(user.followerCount)
    userVerified.append(user.isVerified ? 1 : 0)
    userDisplayNames.append(user.displayName)
  }

  /// Analyzes a hashtag (checked by ``validate(_:)``).
  private mutating func analyze(_ hashtag: Hashtag) throws {
    try register(hashtag.id, type: .hashtag)
    let builder = SearchResultType.hashtag.index
    stream.removeAll()
    let name = tokenizeTagField(hashtag.name, kind: .hashtag, field: 0)
    let description = tokenizeField(hashtag.description, field: 1)
    appendStream(builder: builder, name, description, nil)
    builders[builder].ids.append(hashtag.id)
    builders[builder].titles.append(hashtag.name)
    hashtagViews.append(hashtag.viewCount)
    hashtagVideos.append(hashtag.videoCount)
    hashtagDescriptions.append(hashtag.description)
  }

  /// Analyzes a sound (checked by ``validate(_:)``).
  private mutating func analyze(_ sound: Sound) throws {
    try register(sound.id, type: .sound)
    let builder = SearchResultType.sound.index
    stream.removeAll()
    let title = tokenizeField(sound.title, field: 0)
    let artist = tokenizeField(sound.artist, field: 1)
    appendStream(builder: builder, title, artist, nil)
    builders[builder].ids.append(sound.id)
    builders[builder].titles.append(sound.title)
    soundVideos.append(sound.videoCount)
    soundArtists.append(sound.artist)
  }

  /// Analyzes an effect (checked by ``validate(_:)``): stored, not searched.
  private mutating func analyze(_ effect: Effect) throws {
    try registerID(effect.id, kind: .effect, number: effectUseCounts.count)
    effectIDs.append(effect.id)
    effectNames.append(effect.name)
    effectThumbnails.append(effect.thumbnailURL, id: effect.id)
    effectUseCounts.append(effect.useCount)
  }

  /// Makes every change so far visible to searches of the index this writer came from,
  /// without writing anything to disk (Lucene's refresh): searches already running finish
  /// on the state before.
  ///
  /// - Throws: ``SearchError/Code/invalidArgument`` if the writer was not made by
  ///   ``DiscoverIndex/makeWriter()``, or the collection is too large for one index.
  /// - Complexity: After additions alone, O(t) in the tokens of the new documents, plus
  ///   O(n) in the documents held (their records and creators are counted). When only counts
  ///   changed since this writer's last publish or commit, O(n) in the documents of the
  ///   types whose counts changed: their count columns are made anew and everything else is
  ///   shared (documents keep their numbers until the next full build orders them by
  ///   popularity again). Otherwise O(t) in the tokens of every document held.
  public mutating func publish() throws {
    guard let target else { throw Self.noIndex }
    target.publish(try makeSegmentSet(publishingTo: target))
    startMerges(in: target)
  }

  /// Makes every change so far durable and visible: for an index opened from or saved to a
  /// directory, commits a new generation there, then publishes it; for an index only in
  /// memory, publishes.
  ///
  /// A commit writes what changed since the last one (see the IndexFormat article): the
  /// segments published since, with their documents, and beside the segments it keeps, their
  /// deleted documents and changed counts when those changed. A merge on a task of its own
  /// wrote its segment already, and the commit names those files.
  ///
  /// - Throws: The errors of ``publish()``; ``SearchError/Code/io`` when the directory
  ///   cannot be written, and then the last commit and the searches' state are unchanged,
  ///   and the writer still holds the changes (its next publish or commit builds one segment
  ///   of everything).
  /// - Complexity: as ``publish()``, plus writing what changed.
  public mutating func commit() throws {
    guard let target else { throw Self.noIndex }
    let set = try makeSegmentSet(publishingTo: target)
    if let directoryLock {
      let directory = directoryLock.directory
      let source = target.source.withLock { $0 }
      let committed = source?.directory == directory ? source?.committed ?? [:] : [:]
      let written: (manifest: IndexManifest, segments: [UInt64: CommittedSegment])
      do {
        written = try IndexDirectory.commit(
          set, to: directory, lock: directoryLock, reusing: committed, releasingDocuments: true,
          merged: target.mergedFiles)
      } catch {
        // What the set held is no longer tracked as unpublished: build everything next.
        unpublished = nil
        countBase = nil
        throw error
      }
      target.source.withLock {
        $0 = IndexSource(
          directory: directory, generation: written.manifest.generation,
          verification: source?.verification ?? .standard, committed: written.segments)
      }
    }
    target.publish(set)
    if let committed = target.source.withLock({ $0?.committed }) {
      target.mergedFiles.forget(
        committed: Set(committed.keys),
        keepingOnly: Set(target.segments.segments.map(\.lineage)))
    }
    hasUncommittedChanges = false
    startMerges(in: target)
  }

  private static let noIndex = SearchError(
    .invalidArgument,
    "this writer belongs to no index; use DiscoverIndex.makeWriter(), or makeIndex()")

  /// Builds a new, independent index of every document held.
  ///
  /// - Complexity: as ``publish()``.
  public func makeIndex() throws -> DiscoverIndex {
    var copy = self
    return DiscoverIndex(snapshot: try copy.makeSnapshotWithDocuments())
  }

  /// A snapshot of every document held, which keeps their records for the next writer.
  ///
  /// When only counts changed since this writer's last snapshot, the snapshot is that one
  /// with new count columns (``IndexSnapshot/replacingCounts(_:)``) instead of a new build.
  mutating func makeSnapshotWithDocuments() throws -> IndexSnapshot {
    let snapshot: IndexSnapshot
    if let base = countBase, analysisIsCurrent {
      store.applyCountUpdates()
      snapshot = base.snapshot.replacingCounts(
        countColumns(in: base.orders), changed: countChangedDocuments(in: base))
      countBase = (snapshot, base.orders)
    } else {
      try analyzeIfNeeded()
      store.applyCountUpdates()
      let built = try makeSnapshotAndOrders()
      snapshot = built.snapshot
      countBase = built
    }
    changedCounts = []
    countChangedIDs = []
    snapshot.documents.value = .memory(store.published())
    return snapshot
  }

  /// The documents of `base`, the last build, whose counts changed since.
  ///
  /// - Complexity: O(c) for c count changes.
  private func countChangedDocuments(
    in base: (snapshot: IndexSnapshot, orders: [DocumentOrder])
  ) -> SegmentDeletions {
    var changed = SegmentDeletions.none
    for id in countChangedIDs {
      var id = id
      guard let entry = id.withUTF8({ documentIDs.find(UnsafeRawBufferPointer($0)) }) else {
        continue
      }
      let location = documentLocations[Int(entry)]
      let kindIndex = Int(location >> Self.locationNumberBits)
      guard kindIndex < DocumentKind.allCases.count,
        let type = DocumentKind.allCases[kindIndex].searchResultType
      else { continue }
      let number = Int(location & ((1 << Self.locationNumberBits) - 1))
      let ranks = base.orders[type.index].rank
      if number < ranks.count {
        changed.insert(ranks[number], of: DocumentKind.allCases[kindIndex], in: base.snapshot)
      }
    }
    return changed
  }

  /// The count columns that changed since ``countBase``, in the snapshot order `orders`.
  private func countColumns(in orders: [DocumentOrder]) -> CountColumns {
    func column(_ kind: CountKinds, _ values: [Int], _ type: SearchResultType) -> IntegerColumn? {
      changedCounts.contains(kind) ? IntegerColumn(orders[type.index].apply(values)) : nil
    }
    return CountColumns(
      videoViews: column(.videoViews, videoViews, .video),
      videoLikes: column(.videoLikes, videoLikes, .video),
      userFollowers: column(.userFollowers, userFollowers, .user),
      hashtagViews: column(.hashtagViews, hashtagViews, .hashtag),
      hashtagVideos: column(.hashtagVideos, hashtagVideos, .hashtag),
      soundVideos: column(.soundVideos, soundVideos, .sound))
  }

  // MARK: - Adding

  /// Throws when count `name` of document `id` is negative. (One call per count: an array
  /// of name and value pairs cost an allocation per document.)
  @inline(__always)
  private static func checkCount(_ id: String, _ name: StaticString, _ value: Int) throws {
    guard value >= 0 else {
      throw SearchError(
        .invalidDocument, "document \"\(id)\": \(name) is \(value); counts must be 0 or more")
    }
  }

  /// Marks an unknown creation date in ``videoCreatedAt`` (the writer refuses dates beyond
  /// ±10^15 seconds).
  static let missingDate = Int64.min

  /// The bits of a ``documentLocations`` entry that hold the document's number within its
  /// kind: 29, so that the kind's three bits (five kinds) fit above them.
  static let locationNumberBits = 29

  /// The document of `kind` with `id`, if there is one.
  func resolve(_ id: String, as kind: DocumentKind) -> UInt32? {
    var id = id
    guard let entry = id.withUTF8({ documentIDs.find(UnsafeRawBufferPointer($0)) }) else {
      return nil
    }
    return location(of: entry, as: kind)
  }

  /// The writer's number of document `entry` of the id table, if it is of `kind`.
  private func location(of entry: UInt32, as kind: DocumentKind) -> UInt32? {
    let location = documentLocations[Int(entry)]
    guard Int(location >> Self.locationNumberBits) == kind.index else { return nil }
    return location & ((1 << Self.locationNumberBits) - 1)
  }

  /// The writer's number of the document a video's reference of `kind` names, for video
  /// `video`; `UInt32.max` when it names none, or one not added yet (then commit tries
  /// again).
  private mutating func reference(
    _ lookup: ReferenceLookup?, as kind: UnresolvedReference.Kind, from video: UInt32
  ) -> UInt32 {
    guard var lookup else { return UInt32.max }
    let entry = lookup.id.withUTF8 {
      documentIDs.find(UnsafeRawBufferPointer($0), hash: lookup.hash)
    }
    if let entry, let document = location(of: entry, as: kind.documentKind) { return document }
    pendingReferences.append(UnresolvedReference(video: video, kind: kind, id: lookup.id))
    return UInt32.max
  }

  /// Gives a new document the next ``DocID`` within its type.
  private mutating func register(_ id: String, type: SearchResultType) throws {
    try registerID(id, kind: DocumentKind(type), number: builders[type.index].documentCount)
    builders[type.index].entryStarts.append(builders[type.index].entries.buffer.count)
  }

  /// Records `id` as document `number` of `kind`, after checking that no document has it.
  private mutating func registerID(_ id: String, kind: DocumentKind, number: Int) throws {
    guard !id.isEmpty else {
      throw SearchError(
        .invalidDocument,
        "\(kind.nameWithArticle) has an empty id; every document needs a unique, non-empty id")
    }
    guard number < (1 << Self.locationNumberBits) - 1 else {
      throw SearchError(.invalidArgument, "an index holds fewer than 2^29 documents of one type")
    }
    guard documentIDs.byteCount + id.utf8.count <= Int(UInt32.max) else {
      throw SearchError(
        .invalidArgument,
        "the document ids exceed 4 GB; split the collection into several indexes")
    }
    var id = id
    let (entry, isNew) = id.withUTF8 { documentIDs.intern(UnsafeRawBufferPointer($0)) }
    let location = UInt32(kind.index) << Self.locationNumberBits | UInt32(number)
    if !isNew && documentLocations[Int(entry)] == Self.retiredLocation {
      // The id of a document deleted or replaced, added again.
      documentLocations[Int(entry)] = location
      return
    }
    guard isNew else {
      let existing = DocumentKind.allCases[
        Int(documentLocations[Int(entry)] >> Self.locationNumberBits)]
      throw SearchError(
        .invalidDocument,
        "duplicate id \"\(id)\" (already used by \(existing.nameWithArticle)); ids must be unique across all types"
      )
    }
    documentLocations.append(location)
  }

  /// The tokens of one field in the stream: those from the end of the span before (or the
  /// start) to `tokenEnd`, and the field's length.
  private struct FieldSpan {
    var field: Int
    var tokenEnd: Int
    var length: UInt32
  }

  /// Tokenizes `text` into the stream, after the fields already there, as field `field`.
  @inline(__always)
  private mutating func tokenizeField(_ text: String?, field: Int) -> FieldSpan {
    let length = tokenizer.tokenize(text ?? "", into: stream)
    return FieldSpan(field: field, tokenEnd: stream.tokens.count, length: length)
  }

  /// Tokenizes a tag given without its marker (a hashtag's name, a username) into the
  /// stream, after the fields already there, as field `field`.
  @inline(__always)
  private mutating func tokenizeTagField(_ name: String, kind: TokenKind, field: Int)
    -> FieldSpan
  {
    let length = tokenizer.tokenizeTag(name, kind: kind, into: stream)
    return FieldSpan(field: field, tokenEnd: stream.tokens.count, length: length)
  }

  /// Turns the stream's tokens into postings entries of up to three fields, one after the
  /// other, and records the fields' lengths. A `third` span comes only with a `second`.
  ///
  /// Each document's fields are tokenized into one stream and interned together, so that
  /// the slots of all its terms are fetched before the first is looked up, rather than a
  /// field's few at a time.
  private mutating func appendStream(
    builder: Int, _ first: FieldSpan, _ second: FieldSpan?, _ third: FieldSpan?
  ) {
    assert(second != nil || third == nil, "a third field span needs a second")
    builders[builder].norms.append(FieldLength.code(for: Int(first.length)))
    if let second { builders[builder].norms.append(FieldLength.code(for: Int(second.length))) }
    if let third { builders[builder].norms.append(FieldLength.code(for: Int(third.length))) }
    guard !stream.tokens.isEmpty else { return }
    // Append to a local view of the store's buffer and put it back once: appending through
    // `builders[builder]` would check uniqueness and exclusive access per token.
    PostingEntryStore.makeUnique(&builders[builder].entries)
    let store = builders[builder].entries
    var entries = store.buffer
    defer { store.buffer = entries }
    // Two passes: hash every token and prefetch its first slot, then intern. With millions
    // of terms most slots miss the cache; fetched together, their misses overlap instead of
    // each waiting for the one before.
    hashAndPrefetchTokens()
    terms.makeTableUnique()
    internTokens(from: 0, to: first.tokenEnd, field: first.field, into: &entries)
    if let second {
      internTokens(
        from: first.tokenEnd, to: second.tokenEnd, field: second.field, into: &entries)
      if let third {
        internTokens(
          from: second.tokenEnd, to: third.tokenEnd, field: third.field, into: &entries)
      }
    }
  }

  /// Interns tokens `start..<end` of the stream, hashed by ``hashAndPrefetchTokens()``, as
  /// entries of field `field`. The caller has called ``TermInterner/makeTableUnique()``.
  @inline(__always)
  private mutating func internTokens(
    from start: Int, to end: Int, field: Int, into entries: inout UnsafeGrowableBuffer<UInt32>
  ) {
    // Only now: making room for the padded loads may have moved the stream's bytes.
    let bytes = UnsafeRawBufferPointer(stream.bytes.buffer)
    let tokens = stream.tokens
    var plainWords = 0
    for index in start..<end {
      let token = tokens[index]
      let key = UnsafeRawBufferPointer(
        rebasing: bytes[Int(token.start)..<Int(token.start + token.count)])
      let isWord = token.kind == .word
      let term = terms.internUnique(key, hash: hashes[index], isWord: isWord, isPadded: true)
      if isWord { plainWords += 1 }
      PackedEntry.append(term: term, field: field, position: token.position, to: &entries)
    }
    totalPlainWords += plainWords
  }

  /// Hashes the stream's tokens into ``hashes`` and starts loading the slot each one's
  /// lookup starts at; first makes 16 bytes of room after the stream's bytes, which may move
  /// them. A function of its own, called once per field: inlined, it made `appendStream` too
  /// large for the compiler to inline the interning into its loop.
  @inline(never)
  private mutating func hashAndPrefetchTokens() {
    // Room for 16 bytes past the last token, which `hash(paddedBytes:)` and the interner's
    // padded prefix may read (and mask off).
    stream.bytes.reserveCapacity(stream.bytes.count + 16)
    let bytes = UnsafeRawBufferPointer(stream.bytes.buffer)
    let tokens = stream.tokens
    // Written in place through one buffer pointer: appending checked the array's
    // uniqueness for every token.
    var scratch: [Int] = []
    swap(&scratch, &hashes)
    defer { swap(&scratch, &hashes) }
    if scratch.count < tokens.count {
      scratch = [Int](repeating: 0, count: Swift.max(tokens.count, 2 * scratch.count))
    }
    scratch.withUnsafeMutableBufferPointer { hashes in
      for index in 0..<tokens.count {
        let token = tokens[index]
        let hash = ByteStringTable.hash(
          paddedBytes: UnsafeRawBufferPointer(
            rebasing: bytes[Int(token.start)..<Int(token.start + token.count)]))
        hashes[index] = hash
        terms.prefetch(hash: hash)
      }
    }
  }
}

/// What the writer collects for one content type before a commit.
struct TypeBuilder: Sendable {
  let type: SearchResultType
  /// One entry per token (``PackedEntry``), in the order documents were added.
  var entries = PostingEntryStore()
  /// Where each document's entries start in ``entries`` (a word index), by the writer's
  /// document number.
  var entryStarts: [Int] = []
  /// Field length codes, document-major.
  var norms: [UInt8] = []
  var ids = StringColumnBuilder()
  var titles = StringColumnBuilder()

  init(type: SearchResultType) {
    self.type = type
  }

  var fieldCount: Int { SearchField.fields(of: type).count }

  /// The number of documents added: one entry start each.
  var documentCount: Int { entryStarts.count }

  /// Makes room for `added` more documents in the per-document arrays.
  mutating func reserveCapacity(adding added: Int) {
    entryStarts.reserveCapacity(adding: added)
    norms.reserveCapacity(adding: added * fieldCount)
    ids.reserveCapacity(adding: added)
    titles.reserveCapacity(adding: added)
  }
}

/// The postings entries of one type, as ``PackedEntry`` words.
typealias PostingEntryStore = GrowableStore<UInt32>

/// A growable array of plain values in memory from ``LargeMemory``, shared by reference:
/// tens of millions of postings entries, or hundreds of megabytes of titles, grow by
/// remapping pages instead of by copying them into fresh memory, as a Swift array would.
///
/// Copy on write: a writer's copy shares the store until one of them appends, which first
/// makes its own with ``makeUnique(_:)`` (see `IndexWriter.appendStream`).
final class GrowableStore<Element: BitwiseCopyable>: @unchecked Sendable {
  // Invariant that makes this Sendable: the buffer is only modified through a uniquely
  // referenced store, by the writer that owns it.
  private let cell = UnsafeBufferCell<Element>(capacity: 0)

  /// The elements. Kept in a cell rather than a stored `var`: every access to a class's
  /// stored `var` is checked for exclusivity at run time, and a writer touches its stores
  /// several times per document (adding 200,000 documents made 2 million such checks).
  var buffer: UnsafeGrowableBuffer<Element> {
    @inline(__always) get { cell.value }
    @inline(__always) _modify { yield &cell.value }
  }

  /// Makes `store` its holder's own before a change: a copy when another holder shares it.
  static func makeUnique(_ store: inout GrowableStore) {
    if !isKnownUniquelyReferenced(&store) { store = store.copy() }
  }

  /// A store with a copy of the elements.
  func copy() -> GrowableStore {
    let copy = GrowableStore()
    copy.buffer.append(contentsOf: buffer.buffer)
    return copy
  }

  deinit { cell.deallocate() }
}

/// A video's reference to its creator or sound, looked up in steps (`IndexWriter.add(_:)`).
private struct ReferenceLookup {
  var id: String
  let hash: Int
  /// The id the table most likely holds it as, once its slot has been read.
  private var candidate: UInt32?

  /// Hashes `id` and starts loading its slot.
  init(id: String, table: DocumentIDTable) {
    var id = id
    hash = id.withUTF8 { ByteStringTable.hash(UnsafeRawBufferPointer($0)) }
    self.id = id
    table.prefetch(hash: hash)
  }

  /// Reads the slot and starts loading where the candidate's bytes start and its location.
  mutating func prefetchStart(table: DocumentIDTable, locations: [UInt32]) {
    candidate = table.candidate(hash: hash)
    guard let candidate else { return }
    table.prefetchStart(of: candidate)
    locations.withUnsafeBufferPointer { cprefetch_for_reading($0.baseAddress! + Int(candidate)) }
  }

  /// Starts loading the candidate's bytes.
  func prefetchBytes(table: DocumentIDTable) {
    if let candidate { table.prefetchBytes(of: candidate) }
  }
}

/// Which count columns changed since a writer's last snapshot.
struct CountKinds: OptionSet {
  let rawValue: UInt8
  static let videoViews = CountKinds(rawValue: 1 << 0)
  static let videoLikes = CountKinds(rawValue: 1 << 1)
  static let userFollowers = CountKinds(rawValue: 1 << 2)
  static let hashtagViews = CountKinds(rawValue: 1 << 3)
  static let hashtagVideos = CountKinds(rawValue: 1 << 4)
  static let soundVideos = CountKinds(rawValue: 1 << 5)
}
