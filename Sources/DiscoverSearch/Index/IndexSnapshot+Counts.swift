/// New count columns for a snapshot, in its document order; `nil` where a count is unchanged.
struct CountColumns {
  var videoViews: IntegerColumn?
  var videoLikes: IntegerColumn?
  var userFollowers: IntegerColumn?
  var hashtagViews: IntegerColumn?
  var hashtagVideos: IntegerColumn?
  var soundVideos: IntegerColumn?

  /// The new column of `column` (one of ``CountKinds/columns``).
  subscript(column: CountKinds) -> IntegerColumn? {
    get {
      switch column {
      case .videoViews: videoViews
      case .videoLikes: videoLikes
      case .userFollowers: userFollowers
      case .hashtagViews: hashtagViews
      case .hashtagVideos: hashtagVideos
      default: soundVideos
      }
    }
    set {
      switch column {
      case .videoViews: videoViews = newValue
      case .videoLikes: videoLikes = newValue
      case .userFollowers: userFollowers = newValue
      case .hashtagViews: hashtagViews = newValue
      case .hashtagVideos: hashtagVideos = newValue
      default: soundVideos = newValue
      }
    }
  }
}

/// One count of one document to set in a segment (``IndexSnapshot/patchingCounts(_:)``).
struct CountPatch: Sendable, Equatable {
  /// One of ``CountKinds/columns``.
  var column: CountKinds
  /// The document's number in its type.
  var document: UInt32
  var value: Int
}

extension CountKinds {
  /// Each count column and the kind of documents it counts.
  static let columns: [(column: CountKinds, kind: DocumentKind)] = [
    (.videoViews, .video), (.videoLikes, .video), (.userFollowers, .user),
    (.hashtagViews, .hashtag), (.hashtagVideos, .hashtag), (.soundVideos, .sound),
  ]

  /// The count columns of `document` with its values.
  static func values(of document: Document) -> [(column: CountKinds, value: Int)] {
    switch document {
    case .video(let video): [(.videoViews, video.viewCount), (.videoLikes, video.likeCount)]
    case .user(let user): [(.userFollowers, user.followerCount)]
    case .hashtag(let hashtag):
      [(.hashtagViews, hashtag.viewCount), (.hashtagVideos, hashtag.videoCount)]
    case .sound(let sound): [(.soundVideos, sound.videoCount)]
    case .effect: []
    }
  }
}

extension IndexSnapshot {
  /// The count column `column` (one of ``CountKinds/columns``).
  func countColumn(_ column: CountKinds) -> IntegerColumn {
    switch column {
    case .videoViews: videos.viewCounts
    case .videoLikes: videos.likeCounts
    case .userFollowers: users.followerCounts
    case .hashtagViews: hashtags.viewCounts
    case .hashtagVideos: hashtags.videoCounts
    default: sounds.videoCounts
    }
  }

  /// This snapshot with the counts of `patches` set, through ``replacingCounts(_:)``: each
  /// column patched is copied whole, the others shared.
  ///
  /// - Complexity: O(n) in the documents of the types patched.
  func patchingCounts(_ patches: [CountPatch]) -> IndexSnapshot {
    guard !patches.isEmpty else { return self }
    var columns = CountColumns()
    var changed = SegmentDeletions.none
    for (column, kind) in CountKinds.columns {
      let wanted = patches.filter { $0.column == column }
      guard !wanted.isEmpty else { continue }
      let current = countColumn(column)
      var values = (0..<current.count).map { current[$0] }
      for patch in wanted where Int(patch.document) < values.count {
        values[Int(patch.document)] = patch.value
        changed.insert(patch.document, of: kind, in: self)
      }
      columns[column] = IntegerColumn(values)
    }
    return replacingCounts(columns, changed: changed)
  }

  /// The current counts of the documents whose counts changed since the build
  /// (``changedCounts``), as patches: what a commit writes beside the segment's file.
  var changedCountPatches: [CountPatch] {
    var patches: [CountPatch] = []
    for (column, kind) in CountKinds.columns {
      guard let changed = changedCounts.kinds[kind.index] else { continue }
      let values = countColumn(column)
      for document in changed.documents where Int(document) < values.count {
        patches.append(CountPatch(column: column, document: document, value: values[Int(document)]))
      }
    }
    return patches
  }

  /// The counts of the documents whose counts changed since the build (``changedCounts``),
  /// as updates by id, but for the documents `deleted` holds: what a writer's documents
  /// take from a segment opened with a counts file.
  func changedCountUpdates(skipping deleted: SegmentDeletions) -> [CountUpdate] {
    var updates: [CountUpdate] = []
    for kind in [DocumentKind.video, .user, .hashtag, .sound] {
      guard let changed = changedCounts.kinds[kind.index] else { continue }
      let ids = self.ids(of: kind)
      for document in changed.documents where !deleted.contains(document, of: kind) {
        let index = Int(document)
        var update = CountUpdate(id: ids.string(at: index))
        switch kind {
        case .video:
          update.viewCount = videos.viewCounts[index]
          update.likeCount = videos.likeCounts[index]
        case .user: update.followerCount = users.followerCounts[index]
        case .hashtag:
          update.viewCount = hashtags.viewCounts[index]
          update.videoCount = hashtags.videoCounts[index]
        default: update.videoCount = sounds.videoCounts[index]
        }
        updates.append(update)
      }
    }
    return updates
  }

  /// The counts that differ from those of `earlier`, an earlier version of this segment
  /// (of its lineage), as patches.
  ///
  /// - Complexity: O(n) in the documents.
  func countChanges(since earlier: IndexSnapshot) -> [CountPatch] {
    var patches: [CountPatch] = []
    for (column, _) in CountKinds.columns {
      let now = countColumn(column)
      let before = earlier.countColumn(column)
      guard now.count == before.count else { continue }
      for document in 0..<now.count where now[document] != before[document] {
        patches.append(CountPatch(column: column, document: UInt32(document), value: now[document]))
      }
    }
    return patches
  }

  /// This snapshot with new counts and everything else shared: postings, text, dates,
  /// references, the exact name filters and the completion structures (the phrase
  /// dictionary weighed anew when followers or sounds' video counts changed).
  ///
  /// Documents keep their numbers, so they are no longer numbered exactly most popular
  /// first (``DocumentOrder``): pruning stays correct, because every bound on the static
  /// factors is computed from the counts of the snapshot searched (``StaticFactors``), and
  /// the next full build orders them again. Lucene's updatable doc values likewise change
  /// values without re-indexing, and leave the index sort to merges.
  ///
  /// - Parameter changed: The documents whose counts `columns` changes, added to
  ///   ``changedCounts``.
  /// - Complexity: O(1) but for the phrase weights and the marks of `changed`; the columns
  ///   were built by the caller.
  func replacingCounts(_ columns: CountColumns, changed: SegmentDeletions) -> IndexSnapshot {
    let videos = VideoColumns(
      viewCounts: columns.videoViews ?? self.videos.viewCounts,
      likeCounts: columns.videoLikes ?? self.videos.likeCounts,
      createdAt: self.videos.createdAt, creators: self.videos.creators,
      sounds: self.videos.sounds, thumbnails: self.videos.thumbnails,
      hashtags: self.videos.hashtags, effects: self.videos.effects,
      unresolvedReferences: self.videos.unresolvedReferences)
    let users = UserColumns(
      followerCounts: columns.userFollowers ?? self.users.followerCounts,
      videoCounts: self.users.videoCounts, isVerified: self.users.isVerified,
      displayNames: self.users.displayNames)
    let hashtags = HashtagColumns(
      viewCounts: columns.hashtagViews ?? self.hashtags.viewCounts,
      videoCounts: columns.hashtagVideos ?? self.hashtags.videoCounts,
      descriptions: self.hashtags.descriptions)
    let sounds = SoundColumns(
      videoCounts: columns.soundVideos ?? self.sounds.videoCounts, artists: self.sounds.artists)
    let snapshot = IndexSnapshot(
      configuration: configuration, terms: terms, partitions: partitions, videos: videos,
      users: users, hashtags: hashtags, sounds: sounds, effects: effects, lineage: lineage,
      idTables: idTables, documents: documents,
      changedCounts: changedCounts.union(changed))
    exactNames.share(with: snapshot.exactNames)
    // The lexicon weighs terms by their documents, which counts do not change.
    let (lexicon, phrases) = suggestionCache.parts
    let weighed =
      columns.userFollowers == nil && columns.soundVideos == nil
      ? phrases
      : phrases?.reweighted(followers: users.followerCounts, soundVideos: sounds.videoCounts)
    snapshot.suggestionCache.store(lexicon: lexicon, phrases: weighed)
    return snapshot
  }
}
