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
    let textColumns =
      builders.flatMap { [$0.ids, $0.titles] } + [userDisplayNames, soundArtists]
    guard textColumns.allSatisfy(\.fitsOffsets), terms.arena.count <= Int(UInt32.max) else {
      throw SearchError(
        .invalidArgument,
        "the stored text exceeds 4 GB in one column; split the collection into several indexes")
    }
    let termCount = terms.count
    let userCount = builders[SearchResultType.user.index].documentCount

    // Most creators and sounds were resolved as their videos were added; look up the rest
    // again, now that every document is known.
    var creators = videoCreators
    var sounds = videoSounds
    var unresolved: [UnresolvedReference] = []
    for reference in pendingReferences {
      let video = Int(reference.video)
      if let document = resolve(reference.id, as: reference.isSound ? .sound : .user) {
        if reference.isSound { sounds[video] = document } else { creators[video] = document }
      } else {
        unresolved.append(reference)
      }
    }
    var userVideoCounts = [UInt32](repeating: 0, count: userCount)
    for creator in creators where creator != UInt32.max { userVideoCounts[Int(creator)] &+= 1 }

    // The snapshot numbers each type's documents most popular first (``DocumentOrder``).
    let videoOrder = DocumentOrder(counts: videoViews)
    let userOrder = DocumentOrder(counts: userFollowers)
    let hashtagOrder = DocumentOrder(counts: hashtagViews)
    let soundOrder = DocumentOrder(counts: soundVideos)
    let orders = [videoOrder, userOrder, hashtagOrder, soundOrder]

    let splits = makeTagSplits()
    var partitions: [TypePartition] = []
    for builder in builders {
      partitions.append(
        try makePartition(
          builder, termCount: termCount, splits: splits, creators: creators,
          order: orders[builder.type.index]))
    }

    let references = unresolved.map {
      UnresolvedReference(video: videoOrder.rank[Int($0.video)], isSound: $0.isSound, id: $0.id)
    }.sorted { $0.video < $1.video }
    let videos = VideoColumns(
      viewCounts: IntegerColumn(videoOrder.apply(videoViews)),
      likeCounts: IntegerColumn(videoOrder.apply(videoLikes)),
      createdAt: DateColumn(
        seconds: videoCreatedAt, missing: IndexWriter.missingDate, order: videoOrder.order),
      creators: Column(videoOrder.apply(creators).map(userOrder.renumber)),
      sounds: Column(videoOrder.apply(sounds).map(soundOrder.renumber)),
      thumbnails: videoThumbnails.build().permuted(by: videoOrder),
      unresolvedReferences: references)
    let users = UserColumns(
      followerCounts: IntegerColumn(userOrder.apply(userFollowers)),
      videoCounts: IntegerColumn(userOrder.apply(userVideoCounts).map { Int($0) }),
      isVerified: Column(userOrder.apply(userVerified)),
      displayNames: userDisplayNames.build(in: userOrder))
    let hashtags = HashtagColumns(
      viewCounts: IntegerColumn(hashtagOrder.apply(hashtagViews)),
      videoCounts: IntegerColumn(hashtagOrder.apply(hashtagVideos)))
    let soundColumns = SoundColumns(
      videoCounts: IntegerColumn(soundOrder.apply(soundVideos)),
      artists: soundArtists.build(in: soundOrder))
    return IndexSnapshot(
      configuration: configuration, terms: terms.makeTable(), partitions: partitions,
      videos: videos,
      users: users, hashtags: hashtags, sounds: soundColumns)
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
    let segmenter = WordSegmenter(
      frequency: { key in table.find(key).map { counts[Int($0)] } ?? 0 },
      totalFrequency: Double(totalPlainWords), minimumFrequency: minimumFrequency)
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
  /// by `order`.
  private func makePartition(
    _ builder: TypeBuilder, termCount: Int, splits: TagSplits,
    creators: [UInt32], order: DocumentOrder
  ) throws -> TypePartition {
    let fieldCount = builder.fieldCount
    let documentCount = builder.documentCount
    var norms = builder.norms
    let entries = builder.entries.buffer.buffer

    // Where each document's entries start, then the end of the last one.
    var mainStarts = builder.entryStarts
    mainStarts.append(entries.count)

    // Entries that commit adds, in document order: the creator field of videos, and the
    // vocabulary parts of concatenated tags.
    var extras = UnsafeGrowableBuffer<PostingEntry>()
    defer { extras.deallocate() }
    var extraStarts: [Int] = []
    extraStarts.reserveCapacity(documentCount + 1)
    // The creator's terms are a cache miss away (users come in any order): those of the
    // video a few ahead are prefetched.
    let lookahead = 8
    for document in 0..<documentCount {
      extraStarts.append(extras.count)
      for entry in entries[mainStarts[document]..<mainStarts[document + 1]] {
        if let parts = splits.parts(of: entry.term) {
          let count = parts.count
          for (offset, part) in parts.enumerated() {
            extras.append(
              PostingEntry(
                term: part, field: entry.field, position: entry.position + UInt32(offset)))
          }
          // The parts lengthen the field: `#sidharthmusic` is two words long, not one.
          let normIndex = document * fieldCount + entry.field
          let length = Int(entry.position) + count
          if Float(length) > FieldLength.table[Int(norms[normIndex])] {
            norms[normIndex] = FieldLength.code(for: length)
          }
        }
      }
      if builder.type == .video {
        if document &+ lookahead < documentCount {
          let ahead = creators[document &+ lookahead]
          if ahead != UInt32.max {
            userCreatorTerms.withUnsafeBufferPointer {
              // No base address when no user has any creator terms.
              if let base = $0.baseAddress {
                cprefetch_for_reading(base + Int(userCreatorTermStarts[Int(ahead)]))
              }
            }
          }
        }
        let user = creators[document]
        if user != UInt32.max {
          let start = Int(userCreatorTermStarts[Int(user)])
          let end = Int(userCreatorTermStarts[Int(user) + 1])
          var length: UInt32 = 0
          for packed in userCreatorTerms[start..<end] {
            let position = UInt32(truncatingIfNeeded: packed)
            length = max(length, position + 1)
            extras.append(PostingEntry(term: UInt32(packed >> 32), field: 3, position: position))
          }
          norms[document * fieldCount + 3] = FieldLength.code(for: Int(length))
        }
      }
    }
    extraStarts.append(extras.count)

    // Norms in snapshot order.
    var ordered = [UInt8](repeating: 0, count: norms.count)
    for (new, old) in order.order.enumerated() {
      for field in 0..<fieldCount {
        ordered[new * fieldCount + field] = norms[Int(old) * fieldCount + field]
      }
    }
    norms = ordered

    // Average field lengths, from the same codes the searcher decodes.
    var averages = [Float](repeating: 0, count: fieldCount)
    if documentCount > 0 {
      var sums = [Double](repeating: 0, count: fieldCount)
      for document in 0..<documentCount {
        for field in 0..<fieldCount {
          sums[field] += Double(FieldLength.table[Int(norms[document * fieldCount + field])])
        }
      }
      averages = sums.map { Float($0 / Double(documentCount)) }
    }
    let fields = SearchField.fields(of: builder.type)
    let inverseNormalization = (0..<fieldCount).map {
      FieldLength.inverseNormalization(
        b: configuration.b(for: fields[$0]), averageLength: averages[$0])
    }

    // Counting sort by term: each term's main entries, then its extras, both in document order.
    let postings = try norms.withUnsafeBufferPointer { normBuffer in
      try IndexWriter.invert(
        main: entries, mainStarts: mainStarts, extras: extras.buffer, extraStarts: extraStarts,
        termCount: termCount, fieldCount: fieldCount,
        documentCount: documentCount, inverseNormalization: inverseNormalization,
        norms: normBuffer.baseAddress!, order: order, type: builder.type)
    }
    return TypePartition(
      type: builder.type, documentCount: documentCount, postings: postings,
      norms: Column(norms), averageFieldLengths: averages, ids: builder.ids.build(in: order),
      titles: builder.titles.build(in: order), configuration: configuration)
  }

  /// Groups entries by term with a counting sort and encodes every term's list.
  ///
  /// Entries arrive grouped by the writer's document numbers (writer document `d`'s main
  /// entries are `main[mainStarts[d]..<mainStarts[d + 1]]`, and likewise for extras); the
  /// scatter visits documents in snapshot order (`order`) and renumbers them, so each term's
  /// main entries, then its extras, land in ascending snapshot order. `norms` are in
  /// snapshot order.
  private static func invert(
    main: UnsafeBufferPointer<PostingEntry>, mainStarts: [Int],
    extras: UnsafeBufferPointer<PostingEntry>, extraStarts: [Int], termCount: Int, fieldCount: Int,
    documentCount: Int, inverseNormalization: [[Float]],
    norms: UnsafePointer<UInt8>, order: DocumentOrder, type: SearchResultType
  ) throws -> TypePostings {
    // starts[t] is where term t's entries begin; mainEnds[t] where its extras begin.
    // Read and written at random, one term per entry: huge pages keep them in the TLB.
    let starts = LargeMemory.allocate(Int.self, capacity: termCount + 1)
    let mainEnds = LargeMemory.allocate(Int.self, capacity: max(termCount, 1))
    let cursors = LargeMemory.allocate(Int.self, capacity: max(termCount, 1))
    defer {
      LargeMemory.deallocate(starts)
      LargeMemory.deallocate(mainEnds)
      LargeMemory.deallocate(cursors)
    }
    starts.update(repeating: 0, count: termCount + 1)
    mainEnds.update(repeating: 0, count: termCount)
    for entry in main { mainEnds[Int(entry.term)] &+= 1 }
    for entry in extras { starts[Int(entry.term)] &+= 1 }
    var total = 0
    for term in 0..<termCount {
      let mainCount = mainEnds[term]
      let extraCount = starts[term]
      starts[term] = total
      mainEnds[term] = total + mainCount
      cursors[term] = total
      total += mainCount + extraCount
    }
    starts[termCount] = total
    // The term is implied by where an occurrence lands, so the sorted copy holds the
    // snapshot's document in its place.
    let sorted = LargeMemory.allocate(Occurrence.self, capacity: max(total, 1))
    defer { LargeMemory.deallocate(sorted) }
    // Both passes visit documents in snapshot order, so the norms are read in order too.
    // The writer's documents come in another order, so each document's start and entries
    // are two dependent cache misses away. Both are prefetched, in two stages: the start of
    // the document sixteen ahead, then the entries of the one eight ahead, whose start has
    // arrived by then. Their misses overlap with the scatter of the documents before instead
    // of each waiting its turn (a prefetch whose address is still loading stalls like a load).
    let lookahead = 8
    for (pass, (entries, documentStarts)) in [(main, mainStarts), (extras, extraStarts)]
      .enumerated()
    {
      if pass == 1 { for term in 0..<termCount { cursors[term] = mainEnds[term] } }
      guard let base = entries.baseAddress, !entries.isEmpty else { continue }
      precondition(
        documentStarts.count == documentCount + 1 && order.order.count == documentCount,
        "document starts and order disagree with the document count")
      documentStarts.withUnsafeBufferPointer { documentStarts in
        order.order.withUnsafeBufferPointer { order in
          let firstStart = documentStarts.baseAddress!
          for new in 0..<documentCount {
            let old = Int(order[new])
            if new &+ 2 &* lookahead < documentCount {
              cprefetch_for_reading(firstStart + Int(order[new &+ 2 &* lookahead]))
            }
            if new &+ lookahead < documentCount {
              cprefetch_for_reading(base + documentStarts[Int(order[new &+ lookahead])])
            }
            let normBase = new &* fieldCount
            for index in documentStarts[old]..<documentStarts[old &+ 1] {
              let entry = base[index]
              let term = Int(entry.term)
              sorted[cursors[term]] = Occurrence(
                document: UInt32(truncatingIfNeeded: new),
                fieldPosition: entry.withNorm(norms[normBase &+ entry.field]).fieldPosition)
              cursors[term] &+= 1
            }
          }
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
      let start = starts[term]
      let end = starts[term + 1]
      guard start < end else { continue }
      let middle = mainEnds[term]
      encoder.beginList()
      var mainIndex = start
      var extraIndex = middle
      while mainIndex < middle || extraIndex < end {
        let document = min(
          mainIndex < middle ? sorted[mainIndex].document : UInt32.max,
          extraIndex < end ? sorted[extraIndex].document : UInt32.max)
        occurrences.removeAll()
        while mainIndex < middle && sorted[mainIndex].document == document {
          occurrences.append(sorted[mainIndex].fieldPosition)
          mainIndex &+= 1
        }
        while extraIndex < end && sorted[extraIndex].document == document {
          occurrences.append(sorted[extraIndex].fieldPosition)
          extraIndex &+= 1
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

/// The vocabulary parts of concatenated tags, by term (`IndexWriter.makeTagSplits()`).
private struct TagSplits {
  /// `index[term]` is where the term's parts start in `parts`, which holds a count followed by
  /// that many part term ids; meaningful only for terms marked in `hasParts`.
  private var index: [UInt32]
  private var parts: [UInt32] = []
  /// Bit `term` is set when the term has parts. Commit checks every entry: a bit per term
  /// stays in the cache, where `index` (4 bytes per term) missed it for most checks.
  private var hasParts: [UInt64]

  init(termCount: Int) {
    index = [UInt32](repeating: 0, count: termCount)
    hasParts = [UInt64](repeating: 0, count: (termCount + 63) / 64)
  }

  mutating func setParts(_ termParts: [UInt32], of term: UInt32) {
    index[Int(term)] = UInt32(parts.count)
    parts.append(UInt32(termParts.count))
    parts.append(contentsOf: termParts)
    hasParts[Int(term >> 6)] |= 1 << UInt64(term & 63)
  }

  /// The parts of `term`, or nil when it has none.
  @inline(__always)
  func parts(of term: UInt32) -> ArraySlice<UInt32>? {
    guard hasParts[Int(term >> 6)] & 1 << UInt64(term & 63) != 0 else { return nil }
    let start = Int(index[Int(term)])
    return parts[(start + 1)..<(start + 1 + Int(parts[start]))]
  }
}
