/// New count columns for a snapshot, in its document order; `nil` where a count is unchanged.
struct CountColumns {
  var videoViews: IntegerColumn?
  var videoLikes: IntegerColumn?
  var userFollowers: IntegerColumn?
  var hashtagViews: IntegerColumn?
  var hashtagVideos: IntegerColumn?
  var soundVideos: IntegerColumn?
}

extension IndexSnapshot {
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
  /// - Complexity: O(1) but for the phrase weights; the columns were built by the caller.
  func replacingCounts(_ columns: CountColumns) -> IndexSnapshot {
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
      users: users, hashtags: hashtags, sounds: sounds, effects: effects)
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
