import DiscoverSearch
import Foundation

@testable import SyntheticCorpus

/// Corpora shared by the synthetic-corpus tests, built once: the vocabulary takes a moment in
/// debug builds.
enum CorpusFixtures {
  /// 20,000 documents, seed 42, the full 200,000-word vocabulary.
  static let corpus = SyntheticCorpus(documentCount: 20_000, seed: 42)

  /// The documents of ``corpus``.
  static let documents = Array(corpus)

  /// The videos of ``corpus``.
  static let videos: [Video] = documents.compactMap {
    if case .video(let video) = $0 { video } else { nil }
  }

  /// The users of ``corpus``.
  static let users: [User] = documents.compactMap {
    if case .user(let user) = $0 { user } else { nil }
  }

  /// The hashtags of ``corpus``.
  static let hashtags: [Hashtag] = documents.compactMap {
    if case .hashtag(let hashtag) = $0 { hashtag } else { nil }
  }

  /// The sounds of ``corpus``.
  static let sounds: [Sound] = documents.compactMap {
    if case .sound(let sound) = $0 { sound } else { nil }
  }

  /// A query mix generator that has observed ``corpus``.
  static let queryMix: QueryMixGenerator = {
    var mix = QueryMixGenerator(seed: 5)
    mix.observe(contentsOf: documents)
    return mix
  }()
}
