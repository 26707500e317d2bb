import Foundation
import Synchronization

/// The static factor `1 + popularity · pop(d) + recency · rec(d)` of every document of one
/// type, for one setting of the signals and one origin, with range maxima for pruning.
///
/// A posting block covers a range of document ids; the largest factor in that range,
/// times the block's text bound, bounds every score in the block, so block-max pruning
/// (Ding and Suel, SIGIR 2011) keeps working on the blended score. Range maxima come from a
/// sparse table over chunks of 64 documents (Bender and Farach-Colton, "The LCA problem
/// revisited", LATIN 2000): O(1) per query, `n/64 · log(n/64)` floats of memory.
final class StaticFactors: @unchecked Sendable {
  // Immutable after init; the buffers are freed in deinit.
  /// One factor per document, each at least 1.
  let factors: UnsafeMutableBufferPointer<Float>
  /// The largest factor of the type.
  let maximum: Float
  /// The popularity pivot used.
  let pivot: Double
  /// The origin of recency, in seconds since 1970.
  let originSeconds: Int64
  private let table: UnsafeMutableBufferPointer<Float>
  /// Per run of 64 documents, the largest factor of it and of every later run.
  private let suffixTable: UnsafeMutableBufferPointer<Float>
  private let levelStarts: [Int]
  private let chunkCount: Int
  static let chunkShift = 6

  /// Computes the factors of `type`'s documents. `defaultPivot` gives the popularity
  /// pivot when the options set none (``geometricMeanPivot(snapshot:type:)``); it does not
  /// depend on the origin, so a caller that recomputes the factors every minute keeps it.
  init(
    snapshot: IndexSnapshot, type: SearchResultType, popularity: PopularityOptions,
    recency: RecencyOptions, originSeconds: Int64, defaultPivot: () -> Double
  ) {
    let count = snapshot.partition(type).documentCount
    let counts = StaticFactors.popularityCounts(of: type, in: snapshot)
    let popularityWeight = Double(RankingOptions.sanitized(popularity.weight))
    let recencyWeight = type == .video ? Double(RankingOptions.sanitized(recency.weight)) : 0
    var pivot = popularity.pivots[type] ?? 0
    if !(pivot.isFinite && pivot > 0) { pivot = defaultPivot() }
    self.pivot = pivot
    self.originSeconds = originSeconds
    factors = .allocate(capacity: max(count, 1))
    var maximum: Float = 1
    let curve = recency.curve
    for document in 0..<count {
      var factor = 1.0
      if popularityWeight > 0 {
        factor +=
          popularityWeight * PopularityOptions.signal(count: counts[document], pivot: pivot)
      }
      if recencyWeight > 0, let created = snapshot.videos.createdAt[document] {
        factor += recencyWeight * curve.signal(age: TimeInterval(originSeconds - created))
      }
      let value = Float(factor)
      factors[document] = value
      maximum = max(maximum, value)
    }
    self.maximum = maximum

    // Sparse table of chunk maxima.
    let chunks = max((count + (1 << StaticFactors.chunkShift) - 1) >> StaticFactors.chunkShift, 1)
    chunkCount = chunks
    var starts = [0]
    var length = 1
    while length <= chunks {
      starts.append(starts.last! + chunks)
      length <<= 1
    }
    levelStarts = starts
    table = .allocate(capacity: starts.last!)
    table.initialize(repeating: 1)
    for document in 0..<count {
      let chunk = document >> StaticFactors.chunkShift
      table[chunk] = max(table[chunk], factors[document])
    }
    suffixTable = .allocate(capacity: chunks)
    var suffix: Float = 1
    for chunk in stride(from: chunks - 1, through: 0, by: -1) {
      suffix = max(suffix, table[chunk])
      suffixTable[chunk] = suffix
    }
    var level = 1
    while level < starts.count - 1 {
      let half = 1 << (level - 1)
      for chunk in 0..<chunks {
        let other = min(chunk + half, chunks - 1)
        table[starts[level] + chunk] = max(
          table[starts[level - 1] + chunk], table[starts[level - 1] + other])
      }
      level += 1
    }
  }

  deinit {
    factors.deallocate()
    table.deallocate()
    suffixTable.deallocate()
  }

  /// The largest factor among the 64 documents around `document` (`document / 64`'s run):
  /// a bound read from a table 64 times smaller than the factors, which stays in cache.
  @inline(__always)
  func chunkMaximum(of document: UInt32) -> Float {
    table[Int(document) >> StaticFactors.chunkShift]
  }

  /// The largest factor of `document`'s run of 64 and of every later document: a bound on
  /// every document from `document` on, read from a table as small as the run maxima.
  @inline(__always)
  func suffixMaximum(of document: UInt32) -> Float {
    suffixTable[min(Int(document) >> StaticFactors.chunkShift, chunkCount - 1)]
  }

  /// The largest factor among documents `first...last` (clamped to the type).
  @inline(__always)
  func maximum(from first: UInt32, through last: UInt32) -> Float {
    let low = Int(first) >> StaticFactors.chunkShift
    let high = min(Int(min(last, UInt32(Int32.max))) >> StaticFactors.chunkShift, chunkCount - 1)
    guard low <= high else { return maximum }
    let span = high - low + 1
    let level = Int.bitWidth - 1 - span.leadingZeroBitCount
    let start = levelStarts[level]
    return max(table[start + low], table[start + high - (1 << level) + 1])
  }

  /// The counts popularity is read from: views, followers or videos.
  static func popularityCounts(of type: SearchResultType, in snapshot: IndexSnapshot)
    -> IntegerColumn
  {
    switch type {
    case .video: snapshot.videos.viewCounts
    case .user: snapshot.users.followerCounts
    case .hashtag: snapshot.hashtags.viewCounts
    case .sound: snapshot.sounds.videoCounts
    }
  }

  /// Lucene `FeatureField`'s default pivot: the geometric mean of `1 + S`.
  static func geometricMeanPivot(snapshot: IndexSnapshot, type: SearchResultType) -> Double {
    let counts = popularityCounts(of: type, in: snapshot)
    let count = snapshot.partition(type).documentCount
    guard count > 0 else { return 1 }
    var sum = 0.0
    for document in 0..<count { sum += log1p(Double(counts[document])) }
    return max(exp(sum / Double(count)), 1)
  }
}

/// The static factors a snapshot computed lately, by type, signal settings and origin.
///
/// Computing them costs one pass over the type's columns (12–18 ms a million videos on the
/// development machine), so they are kept: with the origin at "now" rounded to the minute, a
/// busy index computes them at most once a minute. The default popularity pivots, which do
/// not depend on the origin, are kept apart and computed once per type.
final class StaticFactorCache: Sendable {
  /// What a type's factors depend on: the signal settings that apply to it and the origin.
  struct Key: Hashable, Sendable {
    var type: SearchResultType
    var popularity: PopularityOptions
    var recency: RecencyOptions
    var originSeconds: Int64

    /// The key of `type`'s factors under `options` at `now`. `indexPivot`, when given, is
    /// the popularity pivot where the options set none: a segment's factors use the whole
    /// index's (``SegmentSet``), not its own.
    init(type: SearchResultType, options: RankingOptions, now: Date, indexPivot: Double?) {
      // Only videos have dates: other types ignore recency and the origin.
      var recency = options.recency
      recency.origin = nil
      let originSeconds = type == .video ? options.recency.originSeconds(now: now) : 0
      if type != .video { recency = RecencyOptions(weight: 0) }
      var popularity = options.popularity
      if popularity.pivots.count > 1 || (popularity.pivots.first.map { $0.key != type } ?? false) {
        popularity.pivots = popularity.pivots.filter { $0.key == type }
      }
      if let indexPivot, !(popularity.pivots[type].map { $0.isFinite && $0 > 0 } ?? false) {
        popularity.pivots[type] = indexPivot
      }
      self.type = type
      self.popularity = popularity
      self.recency = recency
      self.originSeconds = originSeconds
    }
  }

  private let entries = Lock<[(key: Key, factors: StaticFactors)]>([])
  private static let capacity = 8
  /// Each type's default popularity pivot, computed on first use: a pass of `log1p` over
  /// the type's counts that does not depend on the origin, so the factors recomputed each
  /// minute need not repeat it.
  private let defaultPivots = Lock<[SearchResultType: Double]>([:])

  /// The factors for `type` under `options` at `now`, computed on a miss. `indexPivot` is
  /// as ``Key/init(type:options:now:indexPivot:)`` takes it.
  func factors(
    snapshot: IndexSnapshot, type: SearchResultType, options: RankingOptions, now: Date,
    indexPivot: Double? = nil
  ) -> StaticFactors {
    factors(
      snapshot: snapshot,
      key: Key(type: type, options: options, now: now, indexPivot: indexPivot))
  }

  /// The factors of `key`, computed on a miss.
  func factors(snapshot: IndexSnapshot, key: Key) -> StaticFactors {
    if let hit = entries.withLock({ entries in entries.first { $0.key == key }?.factors }) {
      return hit
    }
    let computed = StaticFactors(
      snapshot: snapshot, type: key.type, popularity: key.popularity, recency: key.recency,
      originSeconds: key.originSeconds,
      defaultPivot: { defaultPivot(snapshot: snapshot, type: key.type) })
    entries.withLock { entries in
      entries.removeAll { $0.key == key }
      entries.append((key, computed))
      if entries.count > StaticFactorCache.capacity { entries.removeFirst() }
    }
    return computed
  }

  /// Sets the default popularity pivots, one per type in `SearchResultType.allCases` order,
  /// as an index file keeps them (format 11), so that the first search after opening does
  /// not compute them.
  func store(defaultPivots pivots: [Double]) {
    defaultPivots.withLock { known in
      for (type, pivot) in zip(SearchResultType.allCases, pivots) { known[type] = pivot }
    }
  }

  /// `type`'s default popularity pivot, computed once.
  func defaultPivot(snapshot: IndexSnapshot, type: SearchResultType) -> Double {
    if let known = defaultPivots.withLock({ $0[type] }) { return known }
    let pivot = StaticFactors.geometricMeanPivot(snapshot: snapshot, type: type)
    defaultPivots.withLock { $0[type] = pivot }
    return pivot
  }
}
