import DiscoverSearch
import Foundation

/// The index as a service runs it (DESIGN contract 3, `--live`): opening a committed
/// directory until the first search is answered, and the first completion after an open
/// (each the median of a few fresh opens of the directory the benchmark saved); then a
/// writer of that directory publishing 1,000 new documents, committing 1,000 updated ones,
/// taking 100,000 count updates and publishing them (of the 5,000 videos it added, then of
/// 100,000 distinct videos).
///
/// Publishes of new documents add a segment of them; updates mark the old versions deleted
/// in their segments; a commit writes the segments published since and, beside the others,
/// their deleted documents and changed counts. The tiered and deleted-document ratios come
/// from ``TieredWorkload``.
struct LiveWorkload {
  /// Fresh opens timed; the median is reported.
  static let opens = 5
  /// Batches of 1,000 new documents published, and of 1,000 updated ones committed.
  static let publishes = 5
  static let commits = 3
  /// Count updates given to the writer, then published.
  static let countUpdates = 100_000

  struct Result {
    /// From `DiscoverIndex.open(at:)` until the first search has returned.
    var openMillis: Double
    /// The first completion on a freshly opened index.
    var firstCompletionMillis: Double
    /// Adding 1,000 new documents and publishing them, median and slowest.
    var publish1000P50Millis: Double
    var publish1000P99Millis: Double
    /// Updating 1,000 documents and publishing them (the old versions marked deleted in
    /// their segments), median; not in the contract's JSON.
    var publishUpdated1000P50Millis: Double
    /// Publishing 100,000 count updates while the index holds several segments (set in the
    /// segments holding the documents); not in the contract's JSON.
    var countPublishSegmentedMillis: Double
    /// Updating 1,000 documents and committing them, median.
    var commit1000P50Millis: Double
    /// Count updates the writer takes per second, and publishing 100,000 of them.
    var countUpdatesPerSecond: Double
    var countPublish100kMillis: Double
    /// Publishing 100,000 count updates of as many distinct videos (the updates above
    /// cycle over the 5,000 videos the writer added); not in the contract's JSON.
    var countPublishDistinctMillis: Double
    /// The first search as you type after a publish of new documents, which builds the new
    /// snapshot's lexicon, then the first completion, which builds its phrase dictionary;
    /// not in the contract's JSON.
    var firstPrefixSearchAfterPublishMillis: Double
    var firstCompletionAfterPublishMillis: Double
    /// The tiered index against one segment (``TieredWorkload``).
    var tiered: TieredWorkload.Result?
  }

  let directory: URL
  /// The search and the prefix asked first.
  let firstSearch: String
  let firstPrefix: String

  func run() throws -> Result {
    var openMillis: [Double] = []
    var completionMillis: [Double] = []
    for _ in 0..<Self.opens {
      let start = Measurement.now()
      let index = try DiscoverIndex.open(at: directory)
      _ = try index.search(firstSearch, limit: 10)
      let searched = Measurement.now()
      openMillis.append(Double(searched - start) / 1e6)
      let reopened = try DiscoverIndex.open(at: directory)
      let completionStart = Measurement.now()
      _ = try reopened.suggestions(forPrefix: firstPrefix, limit: 10)
      completionMillis.append(Double(Measurement.now() - completionStart) / 1e6)
    }
    return try measureChanges(
      openMillis: Self.median(openMillis), firstCompletionMillis: Self.median(completionMillis))
  }

  /// Milliseconds of ``commits`` rounds of updating `videos` (their titles marked with
  /// `marker` and the round) then calling `finish` (a publish or a commit).
  private static func timeUpdates(
    of videos: some Collection<Video>, marking marker: String, with writer: inout IndexWriter,
    finish: (inout IndexWriter) throws -> Void
  ) throws -> [Double] {
    var millis: [Double] = []
    for round in 0..<commits {
      let start = Measurement.now()
      for var video in videos {
        video.title += " \(marker) \(round)"
        try writer.update(.video(video))
      }
      try finish(&writer)
      millis.append(Double(Measurement.now() - start) / 1e6)
    }
    return millis
  }

  /// Times a writer of the directory: publishes of new documents, commits of updated ones,
  /// count updates. The writer's first commit analyzes every document it read from the
  /// directory and writes them as one segment, so one untimed commit comes first.
  private func measureChanges(openMillis: Double, firstCompletionMillis: Double) throws -> Result {
    let index = try DiscoverIndex.open(at: directory)
    var writer = try index.makeWriter()
    try writer.commit()
    var publishMillis: [Double] = []
    var added: [Video] = []
    for batch in 0..<Self.publishes {
      let videos = (0..<1_000).map { number in
        Video(
          id: "live-\(batch)-\(number)", title: "\(firstSearch) live clip \(number)",
          hashtags: ["live\(number % 10)"], viewCount: number * 37)
      }
      let start = Measurement.now()
      for video in videos { try writer.add(video) }
      try writer.publish()
      publishMillis.append(Double(Measurement.now() - start) / 1e6)
      added += videos
    }
    // A search as you type first (it needs the lexicon alone), then a completion (the
    // phrase dictionary too).
    let prefixStart = Measurement.now()
    _ = try index.search(firstPrefix, limit: 10, matching: .asYouType)
    let prefixSearchAfterPublish = Double(Measurement.now() - prefixStart) / 1e6
    let completionStart = Measurement.now()
    _ = try index.suggestions(forPrefix: firstPrefix, limit: 10)
    let completionAfterPublish = Double(Measurement.now() - completionStart) / 1e6
    let publishUpdatedMillis = try Self.timeUpdates(
      of: added.suffix(1_000), marking: "republished", with: &writer
    ) { try $0.publish() }
    for number in 0..<Self.countUpdates {
      let video = added[number % added.count]
      try writer.updateCounts(CountUpdate(id: video.id, viewCount: number, likeCount: number / 3))
    }
    let segmentedCountStart = Measurement.now()
    try writer.publish()
    let countPublishSegmentedMillis = Double(Measurement.now() - segmentedCountStart) / 1e6
    let commitMillis = try Self.timeUpdates(
      of: added.prefix(1_000), marking: "updated", with: &writer
    ) { try $0.commit() }
    let countStart = Measurement.now()
    for number in 0..<Self.countUpdates {
      let video = added[number % added.count]
      try writer.updateCounts(CountUpdate(id: video.id, viewCount: number, likeCount: number / 3))
    }
    let countSeconds = Double(Measurement.now() - countStart) / 1e9
    let publishStart = Measurement.now()
    try writer.publish()
    let publishMillis100k = Double(Measurement.now() - publishStart) / 1e6
    for (number, id) in index.documentIDs(of: .video, limit: Self.countUpdates).enumerated() {
      try writer.updateCounts(CountUpdate(id: id, viewCount: number, likeCount: number / 3))
    }
    let distinctStart = Measurement.now()
    try writer.publish()
    return Result(
      openMillis: openMillis, firstCompletionMillis: firstCompletionMillis,
      publish1000P50Millis: Self.median(publishMillis),
      publish1000P99Millis: publishMillis.max() ?? 0,
      publishUpdated1000P50Millis: Self.median(publishUpdatedMillis),
      countPublishSegmentedMillis: countPublishSegmentedMillis,
      commit1000P50Millis: Self.median(commitMillis),
      countUpdatesPerSecond: Double(Self.countUpdates) / countSeconds,
      countPublish100kMillis: publishMillis100k,
      countPublishDistinctMillis: Double(Measurement.now() - distinctStart) / 1e6,
      firstPrefixSearchAfterPublishMillis: prefixSearchAfterPublish,
      firstCompletionAfterPublishMillis: completionAfterPublish)
  }

  private static func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
  }
}
