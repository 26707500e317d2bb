import Foundation

extension DiscoverIndex {
  /// Saves the current snapshot into `directory` (created if needed), atomically.
  ///
  /// The index is written to a temporary file, flushed to disk, then renamed over
  /// `index.dsearch`, and the directory is flushed: a crash at any moment leaves either the
  /// previous file or the new one, never a mix.
  ///
  /// - Throws: ``SearchError/Code/io`` when the directory or file cannot be written.
  /// - Complexity: O(n) in the index size.
  public func save(to directory: URL) throws {
    try snapshot.save(to: directory)
  }

  /// Opens an index saved with ``save(to:)``.
  ///
  /// Every section's checksum is verified and the structure is validated, so a damaged or
  /// foreign file is reported, never trusted; sizes in the file are checked against its size
  /// before anything is allocated for them, and only a regular file is opened (a pipe in its
  /// place is refused, not waited on).
  ///
  /// - Throws: ``SearchError/Code/io`` when the file cannot be read,
  ///   ``SearchError/Code/corruptIndex`` when it is damaged, truncated, of another format, or
  ///   not a regular file.
  /// - Complexity: O(n) in the file size.
  public static func open(at directory: URL) throws -> DiscoverIndex {
    DiscoverIndex(snapshot: try IndexSnapshot.load(from: directory))
  }

  /// The size of the index file in `directory`, in bytes.
  public static func fileSize(at directory: URL) throws -> Int {
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
  func save(to directory: URL) throws {
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw SearchError(
        .io, "cannot create the index directory \(directory.path): \(error.localizedDescription)")
    }
    let finalPath = directory.appendingPathComponent(IndexFile.fileName).path
    // Unique per save, so two saves into one directory never write the same file; what a
    // killed save left is removed first.
    AtomicFile.removeAbandonedTemporaries(of: finalPath, in: directory)
    let temporaryPath = AtomicFile.temporaryPath(for: finalPath)
    var writer = try IndexFileWriter(path: temporaryPath)
    do {
      try write(to: &writer)
      try writer.finish()
    } catch {
      writer.abandon()
      unlink(temporaryPath)
      throw error
    }
    try AtomicFile.moveIntoPlace(
      temporaryPath, at: finalPath, in: directory, what: "the new index")
  }

  private func write(to writer: inout IndexFileWriter) throws {
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

  static func load(from directory: URL) throws -> IndexSnapshot {
    let path = directory.appendingPathComponent(IndexFile.fileName).path
    var reader = try IndexFileReader(path: path)
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
      let postings = TypePostings(
        fieldCount: fieldCount, documentCount: documentCount,
        termPresence: try reader.column(), termRanks: try reader.column(),
        lists: try reader.column(), listFieldMaxima: try reader.column(),
        blockLastDocuments: try reader.column(), blockDataOffsets: try reader.column(),
        blockPositionOffsets: try reader.column(), blockFieldMaxima: try reader.column(),
        bytes: try reader.column(), positions: try reader.column(), bitmaps: try reader.column(),
        bitmapLists: try reader.column(), rankDirectory: try reader.column(),
        impactLists: try reader.column(), impactStarts: try reader.column(),
        impactDocuments: try reader.column(), impactValues: try reader.column(),
        impactWeights: try Self.readWeights(&reader, path: path))
      let norms = try reader.column(UInt8.self)
      let averages = try reader.array(Float.self)
      let ids = try reader.strings()
      let titles = try reader.strings()
      guard norms.count == documentCount * fieldCount, averages.count == fieldCount,
        ids.count == documentCount, titles.count == documentCount
      else { throw corrupt("the \(type.rawValue) columns do not match the document count") }
      try PostingsValidator(postings: postings, termCount: terms.count, path: path).validate()
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
    guard reader.isAtEnd else { throw corrupt("the file has sections this build does not know") }
    return IndexSnapshot(
      configuration: configuration, terms: terms, partitions: partitions, videos: videos,
      users: users, hashtags: hashtags, sounds: soundColumns, effects: effectColumns)
  }
}
