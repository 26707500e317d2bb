import CPrefetch

extension IndexWriter {
  /// Builds an immutable snapshot of everything added so far.
  ///
  /// Inversion is sort-based (Witten, Moffat and Bell, *Managing Gigabytes*, 2nd ed., 1999,
  /// section 5.2): the entries collected while adding are grouped by term with one counting
  /// sort, which keeps each term's entries in document order, then each term's documents
  /// are encoded block by block.
  ///
  /// - Complexity: O(t + v) for t tokens and v distinct terms.
  func makeSnapshot() throws -> IndexSnapshot {
    try makeSnapshotAndOrders().snapshot
  }

  /// ``makeSnapshot()``, with the order each type's documents were numbered in (video,
  /// user, hashtag, sound), which a publish of count changes alone reuses.
  func makeSnapshotAndOrders() throws -> (snapshot: IndexSnapshot, orders: [DocumentOrder]) {
    let textColumns =
      builders.flatMap { [$0.ids, $0.titles] }
      + [userDisplayNames, hashtagDescriptions, soundArtists, effectIDs, effectNames]
    guard textColumns.allSatisfy(\.fitsOffsets), videoHashtags.fitsOffsets,
      terms.arena.count <= Int(UInt32.max)
    else {
      throw SearchError(
        .invalidArgument,
        "the stored text exceeds 4 GB in one column; split the collection into several indexes")
    }
    let termCount = terms.count
    let userCount = builders[SearchResultType.user.index].documentCount

    // Most creators, sounds and effects were resolved as their videos were added; look up
    // the rest again, now that every document is known.
    var creators = videoCreators
    var sounds = videoSounds
    var effects = videoEffects
    var unresolved: [UnresolvedReference] = []
    for reference in pendingReferences {
      let video = Int(reference.video)
      if let document = resolve(reference.id, as: reference.kind.documentKind) {
        switch reference.kind {
        case .creator: creators[video] = document
        case .sound: sounds[video] = document
        case .effect: effects[video] = document
        }
      } else {
        unresolved.append(reference)
      }
    }
    var userVideoCounts = [UInt32](repeating: 0, count: userCount)
    if let counts = segmentContext?.userVideoCounts, counts.count == userCount {
      userVideoCounts = counts.map { UInt32(clamping: $0) }
    } else {
      for creator in creators where creator != UInt32.max { userVideoCounts[Int(creator)] &+= 1 }
    }

    // The snapshot numbers each type's documents most popular first (``DocumentOrder``).
    let videoOrder = DocumentOrder(counts: videoViews)
    let userOrder = DocumentOrder(counts: userFollowers)
    let hashtagOrder = DocumentOrder(counts: hashtagViews)
    let soundOrder = DocumentOrder(counts: soundVideos)
    let orders = [videoOrder, userOrder, hashtagOrder, soundOrder]

    let splits = segmentContext?.tagSplits(termCount: termCount) ?? makeTagSplits()
    let creatorTerms = self.creatorTerms(creators: creators, unresolved: unresolved)
    var partitions: [TypePartition] = []
    for builder in builders {
      partitions.append(
        try makePartition(
          builder, termCount: termCount, splits: splits, creatorTerms: creatorTerms,
          order: orders[builder.type.index]))
    }

    let references = unresolved.map {
      UnresolvedReference(video: videoOrder.rank[Int($0.video)], kind: $0.kind, id: $0.id)
    }.sorted { $0.video < $1.video }
    let videos = VideoColumns(
      viewCounts: IntegerColumn(videoOrder.apply(videoViews)),
      likeCounts: IntegerColumn(videoOrder.apply(videoLikes)),
      createdAt: DateColumn(
        seconds: videoCreatedAt, missing: IndexWriter.missingDate, order: videoOrder.order),
      creators: Column(videoOrder.apply(creators).map(userOrder.renumber)),
      sounds: Column(videoOrder.apply(sounds).map(soundOrder.renumber)),
      thumbnails: videoThumbnails.build().permuted(by: videoOrder),
      hashtags: videoHashtags.build(in: videoOrder),
      effects: Self.effectColumn(effects, in: videoOrder), unresolvedReferences: references)
    let users = UserColumns(
      followerCounts: IntegerColumn(userOrder.apply(userFollowers)),
      videoCounts: IntegerColumn(userOrder.apply(userVideoCounts).map { Int($0) }),
      isVerified: Column(userOrder.apply(userVerified)),
      displayNames: userDisplayNames.build(in: userOrder))
    let hashtags = HashtagColumns(
      viewCounts: IntegerColumn(hashtagOrder.apply(hashtagViews)),
      videoCounts: IntegerColumn(hashtagOrder.apply(hashtagVideos)),
      descriptions: hashtagDescriptions.build(in: hashtagOrder))
    let soundColumns = SoundColumns(
      videoCounts: IntegerColumn(soundOrder.apply(soundVideos)),
      artists: soundArtists.build(in: soundOrder))
    let effectColumns = EffectColumns(
      ids: effectIDs.build(), names: effectNames.build(), thumbnails: effectThumbnails.build(),
      useCounts: IntegerColumn(effectUseCounts))
    let snapshot = IndexSnapshot(
      configuration: configuration, terms: terms.makeTable(), partitions: partitions,
      videos: videos, users: users, hashtags: hashtags, sounds: soundColumns,
      effects: effectColumns)
    return (snapshot, orders)
  }

  /// The creator terms of each video: its creator's, resolved to a user held; for a
  /// segment's writer, also those of creators outside the segment (``SegmentContext``),
  /// numbered after the users held.
  private func creatorTerms(creators: [UInt32], unresolved: [UnresolvedReference])
    -> CreatorTerms
  {
    guard let context = segmentContext, !context.externalCreators.isEmpty else {
      return CreatorTerms(
        creators: creators, terms: userCreatorTerms, starts: userCreatorTermStarts)
    }
    let userCount = UInt32(builders[SearchResultType.user.index].documentCount)
    var owners = creators
    for reference in unresolved where reference.kind == .creator {
      if let external = context.externalCreators[reference.id] {
        owners[Int(reference.video)] = userCount + external
      }
    }
    let offset = UInt32(userCreatorTerms.count)
    return CreatorTerms(
      creators: owners, terms: userCreatorTerms + context.externalCreatorTerms,
      starts: userCreatorTermStarts + context.externalCreatorStarts.dropFirst().map { $0 + offset })
  }

  /// Each video's effect in snapshot order, as ``VideoColumns/effects`` keeps them: the
  /// effect's number plus one, 0 for none, and no values at all when no video has one.
  /// (Effects themselves keep the order they were added in: no search ranks them.)
  private static func effectColumn(_ effects: [UInt32], in order: DocumentOrder) -> IntegerColumn {
    guard effects.contains(where: { $0 != UInt32.max }) else { return IntegerColumn([]) }
    return IntegerColumn(
      order.order.map { old in
        let effect = effects[Int(old)]
        return effect == UInt32.max ? 0 : Int(effect) + 1
      })
  }

  /// For each tag term made of one run of lowercase ASCII letters (`#dancechallenge`), the
  /// words it splits into by the corpus vocabulary (``WordSegmenter``).
  private func makeTagSplits() -> TagSplits {
    var splits = TagSplits(termCount: terms.count)
    guard totalPlainWords > 0 else { return splits }
    let counts = terms.wordCounts()
    let table = terms
    // In a small corpus every word counts; in a large one, a word seen once is likely a
    // typo or a name and makes bad splits.
    let minimumFrequency: UInt32 = totalPlainWords >= 100_000 ? 2 : 1
    var segmenter = WordSegmenter(
      frequency: { key in table.find(key).map { counts[Int($0)] } ?? 0 },
      totalFrequency: Double(totalPlainWords), minimumFrequency: minimumFrequency)
    // The words a part can be: frequent enough, of a part's length, lowercase ASCII letters.
    var partWords: [UInt32] = []
    for term in 0..<UInt32(terms.count) where counts[Int(term)] >= minimumFrequency {
      let isPartWord = terms.withBytes(of: term) { bytes in
        (WordSegmenter.minimumPartLength...WordSegmenter.maximumPartLength).contains(bytes.count)
          && bytes.allSatisfy { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
      }
      if isPartWord { partWords.append(term) }
    }
    var filter = WordFilter(capacity: partWords.count)
    for term in partWords { terms.withBytes(of: term) { filter.insert($0) } }
    segmenter.filter = filter
    for term in 0..<UInt32(terms.count) {
      terms.withBytes(of: term) { bytes in
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "#") || bytes[0] == UInt8(ascii: "@")
        else { return }
        let body = UnsafeRawBufferPointer(rebasing: bytes[1...])
        guard body.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }),
          let ranges = segmenter.split(body)
        else { return }
        var parts: [UInt32] = []
        for range in ranges {
          guard let part = table.find(UnsafeRawBufferPointer(rebasing: body[range])) else {
            return
          }
          parts.append(part)
        }
        splits.setParts(parts, of: term)
      }
    }
    return splits
  }

  /// Inverts one type's entries into its partition.
  ///
  /// Entries are collected in the writer's document numbers; the partition numbers documents
  /// by `order`. Besides the entries added, a partition gets entries that only a commit can
  /// make: the creator field of videos (the terms of the creator's username and display
  /// name, known once every user is), and the vocabulary parts of concatenated tags. Those
  /// are counted in the first pass and placed along with the document's own entries in the
  /// second, never stored in between.
  private func makePartition(
    _ builder: TypeBuilder, termCount: Int, splits: TagSplits,
    creatorTerms videoCreatorTerms: CreatorTerms, order: DocumentOrder
  ) throws -> TypePartition {
    let fieldCount = builder.fieldCount
    let documentCount = builder.documentCount
    var norms = builder.norms
    let words = builder.entries.buffer
    let creatorTerms = builder.type == .video ? videoCreatorTerms : nil

    // Where each document's entries start; the last one's end at `words.count`.
    let documentStarts = builder.entryStarts
    precondition(documentStarts.count == documentCount, "a document without an entry start")

    // First pass, in the writer's order: how many entries each term gets, and the lengths
    // of the fields that derived entries fill or lengthen. The counters take four bytes a
    // term (read and written at random, they miss the cache less than eight would);
    // `total` checks that none can have wrapped.
    let counts = LargeMemory.allocate(UInt32.self, capacity: termCount + 1)
    defer { LargeMemory.deallocate(counts) }
    counts.update(repeating: 0, count: termCount + 1)
    var total = 0
    // A counter is a miss for a rare term. The counter of the entry sixteen words ahead is
    // prefetched, reading that word as a one-word entry: a rare two-word entry (a position
    // past 255, or a term past 2^21) makes the hint a wasted load, never a wrong count.
    let countLookahead = 16
    let prefetchEnd = words.count &- countLookahead
    for document in 0..<documentCount {
      var index = documentStarts[document]
      let end = document + 1 < documentCount ? documentStarts[document + 1] : words.count
      while index < end {
        if index < prefetchEnd {
          cprefetch_for_writing(counts + Int(PackedEntry.shortTerm(words[index &+ countLookahead])))
        }
        let entry = PackedEntry.read(words.base, at: &index)
        counts[Int(entry.term)] &+= 1
        total &+= 1
        let partCount = splits.partCount(of: entry.term)
        guard partCount > 0 else { continue }
        // The parts lengthen the field: `#sidharthmusic` is two words long, not one.
        let normIndex = document * fieldCount + entry.field
        let length = Int(entry.position) + partCount
        if Float(length) > FieldLength.table[Int(norms[normIndex])] {
          norms[normIndex] = FieldLength.code(for: length)
        }
      }
    }
    // Each occurrence of a tag gets one entry per part: the parts' counts follow from the
    // tag's, without looking its parts up once per occurrence. (Before the creator terms
    // are counted: a creator's mention term gets no parts.)
    for term in splits.terms {
      let occurrences = counts[Int(term)]
      guard occurrences > 0, let parts = splits.parts(of: term) else { continue }
      for part in parts { counts[Int(part)] &+= occurrences }
      total &+= Int(occurrences) &* parts.count
    }
    if let creatorTerms {
      // The creator's terms are a cache miss away (users come in any order): those of the
      // video a few ahead are prefetched.
      let lookahead = 8
      for document in 0..<documentCount {
        if document &+ lookahead < documentCount {
          creatorTerms.prefetchTerms(ofVideo: document &+ lookahead)
        }
        guard let range = creatorTerms.range(ofVideo: document) else { continue }
        var length: UInt32 = 0
        total &+= range.count
        for packed in creatorTerms.terms[range] {
          counts[Int(packed >> 32)] &+= 1
          length = max(length, UInt32(truncatingIfNeeded: packed) + 1)
        }
        norms[document * fieldCount + SearchField.videoCreator.slot] =
          FieldLength.code(for: Int(length))
      }
    }
    guard total < Int(UInt32.max) else {
      throw SearchError(
        .invalidArgument,
        "the \(builder.type.rawValue) postings exceed 4 G entries; split the collection into several indexes"
      )
    }

    // Norms in snapshot order.
    var ordered = [UInt8](repeating: 0, count: norms.count)
    for (new, old) in order.order.enumerated() {
      for field in 0..<fieldCount {
        ordered[new * fieldCount + field] = norms[Int(old) * fieldCount + field]
      }
    }
    norms = ordered

    // Average field lengths, from the same codes the searcher decodes; a segment's are the
    // whole index's (its context holds the other documents' sums).
    var sums = [Double](repeating: 0, count: fieldCount)
    for document in 0..<documentCount {
      for field in 0..<fieldCount {
        sums[field] += Double(FieldLength.table[Int(norms[document * fieldCount + field])])
      }
    }
    var count = documentCount
    if let others = segmentContext?.otherLengths[builder.type.index] {
      count += others.count
      for field in 0..<fieldCount { sums[field] += others.sums[field] }
    }
    let averages = sums.map { FieldLength.average(sum: $0, count: count) }
    let fields = SearchField.fields(of: builder.type)
    let inverseNormalization = (0..<fieldCount).map {
      FieldLength.inverseNormalization(
        b: configuration.b(for: fields[$0]), averageLength: averages[$0])
    }

    // Counting sort by term, each term's entries in document order.
    let postings = try norms.withUnsafeBufferPointer { normBuffer in
      try IndexWriter.invert(
        words: UnsafePointer(words.base), wordCount: words.count, documentStarts: documentStarts,
        counts: counts,
        splits: splits, creatorTerms: creatorTerms, termCount: termCount,
        fieldCount: fieldCount, documentCount: documentCount,
        inverseNormalization: inverseNormalization, norms: normBuffer.baseAddress!,
        order: order, type: builder.type)
    }
    return TypePartition(
      type: builder.type, documentCount: documentCount, postings: postings,
      norms: Column(norms), averageFieldLengths: averages, ids: builder.ids.build(in: order),
      titles: builder.titles.build(in: order), configuration: configuration)
  }

  /// Groups entries by term with a counting sort and encodes every term's list.
  ///
  /// Writer document `d`'s entries are the ``PackedEntry`` words
  /// `words[documentStarts[d]..<documentStarts[d + 1]]` (the last up to `wordCount`), each
  /// followed by its tag's parts in `splits`, then, for videos, its creator's terms.
  /// `counts[t]` is how many entries term `t` gets in all (their sum under 2^32); it is
  /// overwritten. The scatter visits documents in snapshot order (`order`) and renumbers
  /// them, so each term's entries land in ascending snapshot order. `norms` are in snapshot
  /// order.
  private static func invert(
    words: UnsafePointer<UInt32>, wordCount: Int, documentStarts: [Int],
    counts: UnsafeMutablePointer<UInt32>,
    splits: TagSplits, creatorTerms: CreatorTerms?, termCount: Int, fieldCount: Int,
    documentCount: Int, inverseNormalization: [[Float]],
    norms: UnsafePointer<UInt8>, order: DocumentOrder, type: SearchResultType
  ) throws -> TypePostings {
    // starts[t] is where term t's entries begin; cursors[t] where its next one goes.
    // Read and written at random, one term per entry: huge pages keep them in the TLB.
    let starts = counts
    let cursors = LargeMemory.allocate(UInt32.self, capacity: max(termCount, 1))
    defer { LargeMemory.deallocate(cursors) }
    var total: UInt32 = 0
    for term in 0..<termCount {
      let count = starts[term]
      starts[term] = total
      cursors[term] = total
      total &+= count
    }
    starts[termCount] = total
    // The term is implied by where an occurrence lands, so the sorted copy holds the
    // snapshot's document in its place.
    let sorted = LargeMemory.allocate(Occurrence.self, capacity: max(Int(total), 1))
    defer { LargeMemory.deallocate(sorted) }
    precondition(
      documentStarts.count == documentCount && order.order.count == documentCount,
      "document starts and order disagree with the document count")
    // Each document's entries, in snapshot order: one pass of independent loads (their
    // misses overlap), after which the scatter reads where a document's entries are in
    // sequence instead of a cache and TLB miss away.
    let ranges = LargeMemory.allocate(EntryRange.self, capacity: max(documentCount, 1))
    defer { LargeMemory.deallocate(ranges) }
    documentStarts.withUnsafeBufferPointer { documentStarts in
      for new in 0..<documentCount {
        let old = Int(order.order[new])
        ranges[new] = EntryRange(
          start: documentStarts[old],
          end: old &+ 1 < documentCount ? documentStarts[old &+ 1] : wordCount)
      }
    }
    // The writer's documents come in another order, so each document's entries (and a
    // video's creator, where the creator's terms start, and those terms) are cache misses
    // away. They are prefetched in stages: the creator of the document sixteen ahead; then
    // every line of the entries (and where the creator's terms start) of the one eight
    // ahead; then the creator's terms, the cursors of the entries' terms and where a tag's
    // parts are, of the one four ahead; then the slots those cursors point at, and the
    // tag's parts, of the one two ahead. Their misses overlap with the scatter of the
    // documents before instead of each waiting its turn (a prefetch whose address is still
    // loading stalls like a load). A rare term's cursor and slot are each a miss of their
    // own.
    let lookahead = 8
    order.order.withUnsafeBufferPointer { order in
      for new in 0..<documentCount {
        let old = Int(order[new])
        if let creatorTerms, new &+ 2 &* lookahead < documentCount {
          creatorTerms.prefetchCreator(ofVideo: Int(order[new &+ 2 &* lookahead]))
        }
        if new &+ lookahead < documentCount {
          let ahead = ranges[new &+ lookahead]
          cprefetch_range_for_reading(
            words + ahead.start, (ahead.end &- ahead.start) &* MemoryLayout<UInt32>.stride)
          creatorTerms?.prefetchStart(ofVideo: Int(order[new &+ lookahead]))
        }
        if new &+ lookahead / 2 < documentCount {
          let ahead = ranges[new &+ lookahead / 2]
          creatorTerms?.prefetchTerms(ofVideo: Int(order[new &+ lookahead / 2]))
          forEachTerm(of: words, from: ahead.start, to: ahead.end) {
            cprefetch_for_writing(cursors + $0)
            splits.prefetchIndex(of: UInt32(truncatingIfNeeded: $0))
          }
        }
        if new &+ lookahead / 4 < documentCount {
          let ahead = ranges[new &+ lookahead / 4]
          // A later entry of the same term goes to the next slot: the prefetch is a hint.
          forEachTerm(of: words, from: ahead.start, to: ahead.end) {
            cprefetch_for_writing(sorted + Int(cursors[$0]))
            splits.prefetchParts(of: UInt32(truncatingIfNeeded: $0))
          }
        }
        let document = UInt32(truncatingIfNeeded: new)
        let normBase = new &* fieldCount
        var index = ranges[new].start
        let end = ranges[new].end
        while index < end {
          let entry = PackedEntry.read(words, at: &index)
          let norm = norms[normBase &+ entry.field]
          place(
            entry.withNorm(norm), document: document, sorted: sorted, cursors: cursors)
          guard let parts = splits.parts(of: entry.term) else { continue }
          for (offset, part) in parts.enumerated() {
            let position = entry.position + UInt32(offset)
            place(
              PostingEntry(term: part, field: entry.field, position: position).withNorm(norm),
              document: document, sorted: sorted, cursors: cursors)
          }
        }
        guard let creatorTerms, let range = creatorTerms.range(ofVideo: old) else { continue }
        let field = SearchField.videoCreator.slot
        let norm = norms[normBase &+ field]
        for packed in creatorTerms.terms[range] {
          let term = UInt32(truncatingIfNeeded: packed >> 32)
          let position = UInt32(truncatingIfNeeded: packed)
          place(
            PostingEntry(term: term, field: field, position: position).withNorm(norm),
            document: document, sorted: sorted, cursors: cursors)
        }
      }
    }

    var impactWeights = SIMD4<Float>.zero
    for field in SearchField.fields(of: type) { impactWeights[field.slot] = field.defaultWeight }
    var encoder = PostingsEncoder(
      fieldCount: fieldCount, documentCount: documentCount, termCount: termCount,
      inverseNormalization: inverseNormalization, impactWeights: impactWeights)
    var occurrences = UnsafeGrowableBuffer<UInt32>(capacity: 1024)
    defer { occurrences.deallocate() }
    for term in 0..<termCount {
      var index = Int(starts[term])
      let end = Int(starts[term + 1])
      guard index < end else { continue }
      encoder.beginList()
      while index < end {
        let document = sorted[index].document
        if index &+ 1 == end || sorted[index &+ 1].document != document {
          // Most documents hold a term once: its one field position is passed as it is,
          // with no copy, sort or deduplication.
          encoder.addPosting(document: document, fieldPosition: sorted[index].fieldPosition)
          index &+= 1
          continue
        }
        occurrences.removeAll()
        while index < end && sorted[index].document == document {
          occurrences.append(sorted[index].fieldPosition)
          index &+= 1
        }
        let count = IndexWriter.sortAndDeduplicate(occurrences.base, count: occurrences.count)
        encoder.addPosting(
          document: document,
          fieldPositions: UnsafeBufferPointer(start: occurrences.base, count: count))
      }
      encoder.endList(term: UInt32(term))
    }
    guard encoder.fitsOffsets else {
      _ = encoder.finish()
      throw SearchError(
        .invalidArgument,
        "the \(type.rawValue) postings exceed 4 GB; split the collection into several indexes")
    }
    return encoder.finish()
  }

  /// Calls `body` with the term of each of entries `words[start..<end]`, for the scatter's
  /// prefetches.
  @inline(__always)
  private static func forEachTerm(
    of words: UnsafePointer<UInt32>, from start: Int, to end: Int, _ body: (Int) -> Void
  ) {
    var index = start
    while index < end { body(Int(PackedEntry.read(words, at: &index).term)) }
  }

  /// Writes `entry` of snapshot document `document` at its term's cursor, and moves the
  /// cursor on.
  @inline(__always)
  private static func place(
    _ entry: PostingEntry, document: UInt32, sorted: UnsafeMutablePointer<Occurrence>,
    cursors: UnsafeMutablePointer<UInt32>
  ) {
    let term = Int(entry.term)
    let slot = Int(cursors[term])
    sorted[slot] = Occurrence(document: document, fieldPosition: entry.fieldPosition)
    cursors[term] = UInt32(truncatingIfNeeded: slot &+ 1)
  }

  /// Where a document's entries are among the writer's words.
  private struct EntryRange: BitwiseCopyable {
    var start: Int
    var end: Int
  }

  /// An entry in the scatter's output, where its term is implied by its place: the
  /// snapshot's document and `PostingEntry.fieldPosition` with the length code set.
  private struct Occurrence: BitwiseCopyable {
    var document: UInt32
    var fieldPosition: UInt32
  }

  /// Sorts a document's occurrences of a term (field, then position) in place and drops
  /// repeats; returns how many remain.
  private static func sortAndDeduplicate(_ values: UnsafeMutablePointer<UInt32>, count: Int) -> Int
  {
    if count <= 32 {
      // Almost always already sorted or nearly: insertion sort.
      var index = 1
      while index < count {
        let value = values[index]
        var slot = index
        while slot > 0 && values[slot - 1] > value {
          values[slot] = values[slot - 1]
          slot -= 1
        }
        values[slot] = value
        index += 1
      }
    } else {
      var buffer = UnsafeMutableBufferPointer(start: values, count: count)
      buffer.sort()
    }
    var write = 0
    for read in 0..<count where read == 0 || values[read] != values[write - 1] {
      values[write] = values[read]
      write += 1
    }
    return write
  }
}

/// The terms each video gets in its creator field: its creator's username and display name
/// terms (`IndexWriter.userCreatorTerms`), each packed as term id << 32 | position.
struct CreatorTerms {
  /// Each video's creator, as the writer's user number, or `UInt32.max`.
  let creators: [UInt32]
  let terms: [UInt64]
  /// `terms[starts[u]..<starts[u + 1]]` are user `u`'s.
  let starts: [UInt32]

  /// Where the terms of video `video`'s creator are in ``terms``; nil when the video has no
  /// (known) creator.
  @inline(__always)
  func range(ofVideo video: Int) -> Range<Int>? {
    let user = creators[video]
    guard user != UInt32.max else { return nil }
    return Int(starts[Int(user)])..<Int(starts[Int(user) + 1])
  }

  /// Starts loading the video's creator.
  @inline(__always)
  func prefetchCreator(ofVideo video: Int) {
    creators.withUnsafeBufferPointer { cprefetch_for_reading($0.baseAddress! + video) }
  }

  /// Starts loading where the terms of the video's creator start.
  @inline(__always)
  func prefetchStart(ofVideo video: Int) {
    let user = creators[video]
    guard user != UInt32.max else { return }
    starts.withUnsafeBufferPointer { cprefetch_for_reading($0.baseAddress! + Int(user)) }
  }

  /// Starts loading the terms of the video's creator.
  @inline(__always)
  func prefetchTerms(ofVideo video: Int) {
    let user = creators[video]
    guard user != UInt32.max else { return }
    terms.withUnsafeBufferPointer {
      // No base address when no user has any creator terms.
      if let base = $0.baseAddress { cprefetch_for_reading(base + Int(starts[Int(user)])) }
    }
  }
}

/// The vocabulary parts of concatenated tags, by term (`IndexWriter.makeTagSplits()`).
struct TagSplits {
  /// `index[term]` is where the term's parts start in `parts`, which holds a count followed by
  /// that many part term ids; meaningful only for terms marked in `hasParts`.
  private var index: [UInt32]
  private var parts: [UInt32] = []
  /// Bit `term` is set when the term has parts. Commit checks every entry: a bit per term
  /// stays in the cache, where `index` (4 bytes per term) missed it for most checks.
  private var hasParts: [UInt64]
  /// How many parts each term has (0 for none): a byte per term, for the first pass of a
  /// commit, which needs only the number (a field's length) and misses the cache on it less
  /// often than on `index` and `parts`.
  private var partCounts: [UInt8]
  /// The terms that have parts, ascending.
  private(set) var terms: [UInt32] = []

  init(termCount: Int) {
    index = [UInt32](repeating: 0, count: termCount)
    hasParts = [UInt64](repeating: 0, count: (termCount + 63) / 64)
    partCounts = [UInt8](repeating: 0, count: termCount)
  }

  /// Records the parts of `term`; terms come in ascending order, each once, with 1 to 255
  /// parts.
  mutating func setParts(_ termParts: [UInt32], of term: UInt32) {
    precondition(
      (1...Int(UInt8.max)).contains(termParts.count) && terms.last.map { $0 < term } ?? true,
      "tag parts are set once per term, in term order")
    index[Int(term)] = UInt32(parts.count)
    parts.append(UInt32(termParts.count))
    parts.append(contentsOf: termParts)
    hasParts[Int(term >> 6)] |= 1 << UInt64(term & 63)
    partCounts[Int(term)] = UInt8(termParts.count)
    terms.append(term)
  }

  /// Whether `term` has parts.
  @inline(__always)
  func hasParts(_ term: UInt32) -> Bool {
    hasParts[Int(term >> 6)] & 1 << UInt64(term & 63) != 0
  }

  /// How many parts `term` has (0 for none).
  @inline(__always)
  func partCount(of term: UInt32) -> Int {
    hasParts(term) ? Int(partCounts[Int(term)]) : 0
  }

  /// The parts of `term`, or nil when it has none.
  @inline(__always)
  func parts(of term: UInt32) -> ArraySlice<UInt32>? {
    guard hasParts(term) else { return nil }
    let start = Int(index[Int(term)])
    return parts[(start + 1)..<(start + 1 + Int(parts[start]))]
  }

  /// Starts loading where the parts of `term` are, if it has any.
  @inline(__always)
  func prefetchIndex(of term: UInt32) {
    guard hasParts(term) else { return }
    index.withUnsafeBufferPointer { cprefetch_for_reading($0.baseAddress! + Int(term)) }
  }

  /// Starts loading the parts of `term`, if it has any (``prefetchIndex(of:)`` first).
  @inline(__always)
  func prefetchParts(of term: UInt32) {
    guard hasParts(term) else { return }
    let start = Int(index[Int(term)])
    parts.withUnsafeBufferPointer { cprefetch_for_reading($0.baseAddress! + start) }
  }
}
