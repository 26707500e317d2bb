import DiscoverSearch
import Foundation

/// A deterministic generator of a realistic short-video corpus of any size.
///
/// The corpus is a stream of ``documentCount`` documents: about 85% videos, 8% users,
/// 5% hashtags and 2% sounds (``videoShare``, ``userShare``, ``hashtagShare``, ``soundShare``),
/// interleaved so that every video's creator and sound is a user and a sound that came earlier
/// in the stream. Ids are `v1, v2, ...`, `u1, ...`, `h1, ...`, `s1, ...`.
///
/// Nothing is held per document: each document is a pure function of `(seed, position)`, built
/// from its own ``SplitMix64`` stream, so the corpus scales to tens of millions of documents,
/// any document can be made on its own with ``document(at:)``, and batch sizes or iteration
/// order never change the output. What is held is the shared text model: a Zipf-distributed
/// multilingual `Vocabulary` of 200,000 words and a hashtag vocabulary (50,000 names, or one
/// per hashtag document if more), about 30 MB in all.
///
/// ```swift
/// let corpus = SyntheticCorpus(documentCount: 1_000_000, seed: 42)
/// try corpus.forEachBatch(size: 10_000) { batch in for document in batch { try writer.add(document) } }
/// ```
///
/// The text model, with the numbers behind it, is described on `Vocabulary`,
/// `HashtagVocabulary` and the per-type generators; counts are lognormal, dates fall in the
/// year before ``referenceDate``.
public struct SyntheticCorpus: Sendable {
  /// The share of videos in the stream (85 per hundred documents).
  public static let videoShare = 0.85
  /// The share of users in the stream (8 per hundred documents).
  public static let userShare = 0.08
  /// The share of hashtags in the stream (5 per hundred documents).
  public static let hashtagShare = 0.05
  /// The share of sounds in the stream (2 per hundred documents).
  public static let soundShare = 0.02

  /// The fixed "now" of the corpus, 2026-11-01T00:00:00Z: videos are dated in the year before
  /// it, so the output does not depend on the day it is generated.
  public static let referenceDate = Date(timeIntervalSince1970: Double(referenceSeconds))

  /// The span of video dates before ``referenceDate``: 365 days.
  public static let dateSpan: TimeInterval = Double(dateSpanSeconds)

  /// The largest supported corpus; username generation stays injective up to this size.
  public static let maximumDocumentCount = 500_000_000

  /// 2026-11-01T00:00:00Z in Unix seconds.
  static let referenceSeconds = 1_793_491_200
  /// 365 days in seconds.
  static let dateSpanSeconds = 365 * 86_400

  /// The number of documents in the stream.
  public let documentCount: Int
  /// The seed every document derives from.
  public let seed: UInt64

  let layout: CorpusLayout
  let vocabulary: Vocabulary
  let hashtagVocabulary: HashtagVocabulary
  let usernames: UsernameScheme

  /// Prepares a corpus of `documentCount` documents determined by `seed`.
  ///
  /// Builds the vocabularies (a fraction of a second in release builds); documents are made
  /// lazily, when iterated.
  ///
  /// - Parameters:
  ///   - documentCount: How many documents the stream holds, `0...maximumDocumentCount`.
  ///   - seed: Any value; equal seeds give identical corpora.
  ///   - vocabularySize: Distinct words in the vocabulary (at least 1,000). The default,
  ///     200,000, is the realistic size; tests may pass less to build faster.
  /// - Complexity: O(vocabularySize + documentCount / 20) for the vocabularies.
  public init(documentCount: Int, seed: UInt64, vocabularySize: Int = 200_000) {
    precondition(
      (0...Self.maximumDocumentCount).contains(documentCount),
      "documentCount must be in 0...\(Self.maximumDocumentCount), got \(documentCount)")
    self.documentCount = documentCount
    self.seed = seed
    let layout = CorpusLayout()
    self.layout = layout
    let vocabulary = Vocabulary(size: vocabularySize, seed: seed)
    self.vocabulary = vocabulary
    let hashtagDocuments = layout.count(ofType: 2, before: documentCount)
    self.hashtagVocabulary = HashtagVocabulary(
      size: Swift.max(HashtagVocabulary.minimumSize, hashtagDocuments), vocabulary: vocabulary,
      seed: seed)
    self.usernames = UsernameScheme(vocabulary: vocabulary, seed: seed)
  }

  /// The number of videos in the stream.
  public var videoCount: Int { layout.count(ofType: 0, before: documentCount) }
  /// The number of users in the stream.
  public var userCount: Int { layout.count(ofType: 1, before: documentCount) }
  /// The number of hashtags in the stream.
  public var hashtagCount: Int { layout.count(ofType: 2, before: documentCount) }
  /// The number of sounds in the stream.
  public var soundCount: Int { layout.count(ofType: 3, before: documentCount) }

  /// The document at `position` in the stream, `0..<documentCount`.
  ///
  /// Equal to the `position`-th element of iteration, and computed without generating any other
  /// document.
  public func document(at position: Int) -> Document {
    var scratch: [UInt8] = []
    scratch.reserveCapacity(512)
    return document(at: position, scratch: &scratch)
  }

  /// The document at `position`, building its text in `scratch` (reused across documents to
  /// save allocations; its contents on entry do not matter).
  func document(at position: Int, scratch: inout [UInt8]) -> Document {
    precondition(
      (0..<documentCount).contains(position),
      "position \(position) is outside the corpus 0..<\(documentCount)")
    scratch.removeAll(keepingCapacity: true)
    var generator = SplitMix64(
      seed: SplitMix64.mix(seed ^ SplitMix64.mix(UInt64(position) &+ 0x5EED)))
    let (typeIndex, ordinal) = layout.slot(at: position)
    switch typeIndex {
    case 0:
      return .video(
        makeVideo(ordinal: ordinal, position: position, using: &generator, scratch: &scratch))
    case 1:
      return .user(makeUser(ordinal: ordinal, using: &generator, scratch: &scratch))
    case 2:
      return .hashtag(makeHashtag(ordinal: ordinal, using: &generator, scratch: &scratch))
    default:
      return .sound(
        makeSound(ordinal: ordinal, position: position, using: &generator, scratch: &scratch))
    }
  }

  /// The documents at `positions`, in order.
  ///
  /// - Complexity: O(positions.count).
  public func documents(in positions: Range<Int>) -> [Document] {
    var scratch: [UInt8] = []
    scratch.reserveCapacity(512)
    return positions.map { document(at: $0, scratch: &scratch) }
  }

  /// Calls `body` with consecutive batches of at most `size` documents, covering the stream in
  /// order; only one batch is in memory at a time.
  ///
  /// Each batch is made by `threads` threads, each filling its own contiguous part; `body` runs
  /// on the calling thread, never concurrently with generation. The documents do not depend on
  /// `threads` or `size`.
  ///
  /// - Parameters:
  ///   - size: The largest batch, at least 1.
  ///   - threads: How many threads make each batch, at least 1; by default one per active
  ///     processor. Batches smaller than 1,024 documents per thread use fewer threads.
  ///   - body: Receives each batch; a thrown error stops the iteration and is rethrown.
  /// - Complexity: O(documentCount).
  public func forEachBatch(
    size: Int, threads: Int = defaultThreadCount, _ body: ([Document]) throws -> Void
  ) rethrows {
    precondition(size > 0, "batch size must be positive, got \(size)")
    precondition(threads > 0, "thread count must be positive, got \(threads)")
    var start = 0
    while start < documentCount {
      let end = Swift.min(start + size, documentCount)
      try body(makeBatch(start..<end, threads: threads))
      start = end
    }
  }

  /// The number of threads ``forEachBatch(size:threads:_:)`` uses unless told otherwise: the
  /// number of active processors.
  public static var defaultThreadCount: Int { ProcessInfo.processInfo.activeProcessorCount }
}

extension SyntheticCorpus: Sequence {
  /// Produces the corpus's documents one at a time, in stream order.
  public struct Iterator: IteratorProtocol {
    private let corpus: SyntheticCorpus
    private var position = 0
    private var scratch: [UInt8] = []

    init(corpus: SyntheticCorpus) {
      self.corpus = corpus
      scratch.reserveCapacity(512)
    }

    /// The next document, or nil after the last.
    public mutating func next() -> Document? {
      guard position < corpus.documentCount else { return nil }
      defer { position += 1 }
      return corpus.document(at: position, scratch: &scratch)
    }
  }

  /// Returns an iterator over all documents, in stream order.
  public func makeIterator() -> Iterator {
    Iterator(corpus: self)
  }

  /// The number of documents: iteration yields exactly this many.
  public var underestimatedCount: Int { documentCount }
}
