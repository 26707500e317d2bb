import DiscoverSearch

/// Makes the benchmark's default query mix for any corpus, from a bounded sample of it.
///
/// Feed it every document once with ``observe(_:)``; it keeps uniform samples (Vitter's
/// Algorithm R, see `ReservoirSample`) of video titles, hashtags (hashtag pages and the tags on
/// videos, so popular tags are sampled more often), usernames and sound titles, each at most
/// ``reservoirCapacity`` entries, so memory stays bounded whatever the corpus size. Then
/// ``makeQueries(count:seed:)`` and ``makeSuggestQueries(count:seed:)`` draw deterministic
/// mixes from the samples. It works on the synthetic corpus and on real ones alike (the
/// YouTube corpus has no sounds: sound-title queries then fall back to title words).
///
/// ```swift
/// var mix = QueryMixGenerator()
/// for document in corpus { mix.observe(document) }
/// let searches = mix.makeQueries(count: 1_000, seed: 7)
/// let completions = mix.makeSuggestQueries(count: 1_000, seed: 7)
/// ```
public struct QueryMixGenerator: Sendable {
  /// The default number of entries kept per sample.
  public static let defaultReservoirCapacity = 4_096

  /// Titles longer than this many UTF-8 bytes are cut (at a character boundary) before they
  /// are kept, so a sample's memory is bounded by its capacity times this.
  static let maximumTitleBytes = 400

  /// The most entries kept in each sample.
  public let reservoirCapacity: Int

  var titles: ReservoirSample<String>
  var hashtags: ReservoirSample<String>
  var usernames: ReservoirSample<String>
  var soundTitles: ReservoirSample<String>

  /// How many documents have been observed.
  public private(set) var observedDocumentCount = 0

  /// Creates a generator that has seen nothing yet.
  ///
  /// - Parameters:
  ///   - reservoirCapacity: The most entries kept per sample (titles, hashtags, usernames,
  ///     sound titles), at least 1.
  ///   - seed: Makes the sampling deterministic: the same documents in the same order with the
  ///     same seed give the same samples.
  public init(reservoirCapacity: Int = defaultReservoirCapacity, seed: UInt64 = 0) {
    precondition(reservoirCapacity > 0, "reservoirCapacity must be positive")
    self.reservoirCapacity = reservoirCapacity
    titles = ReservoirSample(capacity: reservoirCapacity, seed: seed ^ 1)
    hashtags = ReservoirSample(capacity: reservoirCapacity, seed: seed ^ 2)
    usernames = ReservoirSample(capacity: reservoirCapacity, seed: seed ^ 3)
    soundTitles = ReservoirSample(capacity: reservoirCapacity, seed: seed ^ 4)
  }

  /// Takes one document into the samples.
  ///
  /// - Complexity: O(1) per sampled string, plus O(title length) when a title is kept.
  public mutating func observe(_ document: Document) {
    observedDocumentCount += 1
    switch document {
    case .video(let video):
      let title = Self.bounded(video.title)
      if !title.isEmpty { titles.add(title) }
      for tag in video.hashtags where !tag.isEmpty { hashtags.add(tag) }
    case .user(let user):
      if !user.username.isEmpty { usernames.add(user.username) }
    case .hashtag(let hashtag):
      if !hashtag.name.isEmpty { hashtags.add(hashtag.name) }
    case .sound(let sound):
      let title = Self.bounded(sound.title)
      if !title.isEmpty { soundTitles.add(title) }
    case .effect:
      // Effects are not searched: no query names one.
      break
    }
  }

  /// Takes every document of `documents` into the samples, in order.
  ///
  /// - Complexity: O(n) for n documents.
  public mutating func observe<Documents: Sequence>(contentsOf documents: Documents)
  where Documents.Element == Document {
    for document in documents { observe(document) }
  }

  /// `text`, cut to at most ``maximumTitleBytes`` UTF-8 bytes at a character boundary.
  static func bounded(_ text: String) -> String {
    guard text.utf8.count > maximumTitleBytes else { return text }
    var result = ""
    for character in text {
      if result.utf8.count + character.utf8.count > maximumTitleBytes { break }
      result.append(character)
    }
    return result
  }
}

/// Splits `count` items among shares by the largest-remainder method (Hamilton's apportionment),
/// so that the counts sum to `count` and each is within one of `count * share`.
func apportion(_ count: Int, shares: [Double]) -> [Int] {
  let total = shares.reduce(0, +)
  let exact = shares.map { Double(count) * $0 / total }
  var counts = exact.map { Int($0) }
  let remainders = exact.enumerated().map { ($0.offset, $0.element - Double(counts[$0.offset])) }
    .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
  for (index, _) in remainders.prefix(count - counts.reduce(0, +)) { counts[index] += 1 }
  return counts
}

/// A shuffled list holding each label `counts[i]` times: exact proportions in random order.
/// The shuffle is Fisher-Yates (Knuth, TAOCP vol. 2, Algorithm P) on our own generator, since
/// the standard library's `shuffle` algorithm is not specified and could change.
func makeShuffledLabels<Label, G: RandomNumberGenerator>(
  _ labels: [Label], counts: [Int], using generator: inout G
) -> [Label] {
  var result: [Label] = []
  for (label, count) in zip(labels, counts) {
    result.append(contentsOf: repeatElement(label, count: count))
  }
  if result.count > 1 {
    for index in stride(from: result.count - 1, to: 0, by: -1) {
      result.swapAt(index, generator.nextInt(below: index + 1))
    }
  }
  return result
}
