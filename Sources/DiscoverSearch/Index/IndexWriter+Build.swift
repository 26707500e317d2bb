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
    let termCount = terms.count
    let userCount = builders[SearchResultType.user.index].documentCount
    let videoCount = builders[SearchResultType.video.index].documentCount

    // Resolve each video's creator and sound ids.
    var creators = [UInt32](repeating: UInt32.max, count: videoCount)
    var sounds = [UInt32](repeating: UInt32.max, count: videoCount)
    var unresolved: [UnresolvedReference] = []
    var userVideoCounts = [UInt32](repeating: 0, count: userCount)
    for video in 0..<videoCount {
      if let id = videoCreatorIDs[video] {
        if let user = resolve(id, as: .user) {
          creators[video] = user
          userVideoCounts[Int(user)] &+= 1
        } else {
          unresolved.append(UnresolvedReference(video: UInt32(video), isSound: false, id: id))
        }
      }
      if let id = videoSoundIDs[video] {
        if let sound = resolve(id, as: .sound) {
          sounds[video] = sound
        } else {
          unresolved.append(UnresolvedReference(video: UInt32(video), isSound: true, id: id))
        }
      }
    }

    let splits = makeTagSplits()
    var partitions: [TypePartition] = []
    for builder in builders {
      partitions.append(
        try makePartition(builder, termCount: termCount, splits: splits, creators: creators))
    }

    let videos = VideoColumns(
      viewCounts: Column(videoViews), likeCounts: Column(videoLikes),
      createdAt: Column(videoCreatedAt), creators: Column(creators), sounds: Column(sounds),
      thumbnails: videoThumbnails.build(), unresolvedReferences: unresolved)
    let users = UserColumns(
      followerCounts: Column(userFollowers), videoCounts: Column(userVideoCounts),
      isVerified: Column(userVerified), displayNames: userDisplayNames.build())
    let hashtags = HashtagColumns(viewCounts: Column(hashtagViews), videoCounts: Column(hashtagVideos))
    let soundColumns = SoundColumns(videoCounts: Column(soundVideos), artists: soundArtists.build())
    return IndexSnapshot(
      configuration: configuration, terms: terms, partitions: partitions, videos: videos,
      users: users, hashtags: hashtags, sounds: soundColumns, documentIDs: documentIDs,
      documentLocations: Column(documentLocations))
  }

  /// The document of `type` with `id`, if there is one.
  private func resolve(_ id: String, as type: SearchResultType) -> UInt32? {
    var id = id
    guard let entry = id.withUTF8({ documentIDs.find(UnsafeRawBufferPointer($0)) }) else {
      return nil
    }
    let location = documentLocations[Int(entry)]
    guard Int(location >> 30) == type.index else { return nil }
    return location & ((1 << 30) - 1)
  }

  /// For each tag term made of one run of lowercase ASCII letters (`#dancechallenge`), the
  /// words it splits into by the corpus vocabulary (``WordSegmenter``).
  ///
  /// - Returns: `index[term]` is `UInt32.max` or the start of the term's parts in `parts`,
  ///   which holds a count followed by that many part term ids.
  private func makeTagSplits() -> (index: [UInt32], parts: [UInt32]) {
    var index = [UInt32](repeating: UInt32.max, count: terms.count)
    var parts: [UInt32] = []
    guard totalPlainWords > 0 else { return (index, parts) }
    let counts = plainWordCounts
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
        let start = UInt32(parts.count)
        parts.append(UInt32(ranges.count))
        for range in ranges {
          guard let part = table.find(UnsafeRawBufferPointer(rebasing: body[range])) else {
            parts.removeSubrange(Int(start)...)
            return
          }
          parts.append(part)
        }
        index[Int(term)] = start
      }
    }
    return (index, parts)
  }

  /// Inverts one type's entries into its partition.
  private func makePartition(
    _ builder: TypeBuilder, termCount: Int, splits: (index: [UInt32], parts: [UInt32]),
    creators: [UInt32]
  ) throws -> TypePartition {
    let fieldCount = builder.fieldCount
    let documentCount = builder.documentCount
    var norms = builder.norms
    let entries = builder.entries

    // Entries that commit adds, in document order: the creator field of videos, and the
    // vocabulary parts of concatenated tags.
    var extras: [PostingEntry] = []
    var entryIndex = 0
    for document in 0..<UInt32(documentCount) {
      while entryIndex < entries.count && entries[entryIndex].document == document {
        let entry = entries[entryIndex]
        let start = splits.index[Int(entry.term)]
        if start != UInt32.max {
          let count = Int(splits.parts[Int(start)])
          for offset in 0..<count {
            extras.append(
              PostingEntry(
                term: splits.parts[Int(start) + 1 + offset], document: document,
                field: entry.field, position: entry.position + UInt32(offset)))
          }
          // The parts lengthen the field: `#sidharthmusic` is two words long, not one.
          let normIndex = Int(document) * fieldCount + entry.field
          let length = Int(entry.position) + count
          if Float(length) > FieldLength.table[Int(norms[normIndex])] {
            norms[normIndex] = FieldLength.code(for: length)
          }
        }
        entryIndex += 1
      }
      if builder.type == .video {
        let user = creators[Int(document)]
        if user != UInt32.max {
          let start = Int(userCreatorTermStarts[Int(user)])
          let end = Int(userCreatorTermStarts[Int(user) + 1])
          var length: UInt32 = 0
          for packed in userCreatorTerms[start..<end] {
            let position = UInt32(truncatingIfNeeded: packed)
            length = max(length, position + 1)
            extras.append(
              PostingEntry(
                term: UInt32(packed >> 32), document: document, field: 3, position: position))
          }
          norms[Int(document) * fieldCount + 3] = FieldLength.code(for: Int(length))
        }
      }
    }

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
      FieldLength.inverseNormalization(b: configuration.b(for: fields[$0]), averageLength: averages[$0])
    }

    // Counting sort by term: each term's main entries, then its extras, both in document order.
    var mainCounts = [UInt32](repeating: 0, count: termCount)
    var starts = [Int](repeating: 0, count: termCount + 1)
    for entry in entries { mainCounts[Int(entry.term)] &+= 1 }
    var extraCounts = [UInt32](repeating: 0, count: termCount)
    for entry in extras { extraCounts[Int(entry.term)] &+= 1 }
    var total = 0
    for term in 0..<termCount {
      starts[term] = total
      total += Int(mainCounts[term]) + Int(extraCounts[term])
    }
    starts[termCount] = total
    var sorted = [PostingEntry](
      repeating: PostingEntry(term: 0, document: 0, field: 0, position: 0), count: total)
    var cursors = Array(starts[0..<termCount])
    sorted.withUnsafeMutableBufferPointer { output in
      for entry in entries {
        let term = Int(entry.term)
        output[cursors[term]] = entry
        cursors[term] += 1
      }
      for entry in extras {
        let term = Int(entry.term)
        output[cursors[term]] = entry
        cursors[term] += 1
      }
    }

    var encoder = PostingsEncoder(
      fieldCount: fieldCount, documentCount: documentCount, termCount: termCount,
      inverseNormalization: inverseNormalization, norms: norms)
    var occurrences: [UInt32] = []
    sorted.withUnsafeBufferPointer { sorted in
      for term in 0..<termCount {
        let start = starts[term]
        let end = starts[term + 1]
        guard start < end else { continue }
        let middle = start + Int(mainCounts[term])
        encoder.beginList()
        var main = start
        var extra = middle
        while main < middle || extra < end {
          let document = min(
            main < middle ? sorted[main].document : UInt32.max,
            extra < end ? sorted[extra].document : UInt32.max)
          occurrences.removeAll(keepingCapacity: true)
          while main < middle && sorted[main].document == document {
            occurrences.append(sorted[main].fieldPosition)
            main += 1
          }
          while extra < end && sorted[extra].document == document {
            occurrences.append(sorted[extra].fieldPosition)
            extra += 1
          }
          IndexWriter.sortAndDeduplicate(&occurrences)
          occurrences.withUnsafeBufferPointer {
            encoder.addPosting(document: document, fieldPositions: $0)
          }
        }
        encoder.endList(term: UInt32(term))
      }
    }
    guard encoder.fitsOffsets else {
      throw SearchError(
        .invalidArgument,
        "the \(builder.type.rawValue) postings exceed 4 GB; split the collection into several indexes")
    }
    return TypePartition(
      type: builder.type, documentCount: documentCount, postings: encoder.build(),
      norms: Column(norms), averageFieldLengths: averages, ids: builder.ids.build(),
      titles: builder.titles.build(), configuration: configuration)
  }

  /// Sorts a document's occurrences of a term (field, then position) and drops repeats.
  private static func sortAndDeduplicate(_ values: inout [UInt32]) {
    if values.count <= 32 {
      // Almost always already sorted or nearly: insertion sort.
      for index in 1..<max(values.count, 1) {
        let value = values[index]
        var slot = index
        while slot > 0 && values[slot - 1] > value {
          values[slot] = values[slot - 1]
          slot -= 1
        }
        values[slot] = value
      }
    } else {
      values.sort()
    }
    var write = 0
    for read in 0..<values.count where read == 0 || values[read] != values[write - 1] {
      values[write] = values[read]
      write += 1
    }
    values.removeLast(values.count - write)
  }
}
