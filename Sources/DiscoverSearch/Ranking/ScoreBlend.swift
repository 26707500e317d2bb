/// How a search turns a document's text score into its score, and the bounds that keep
/// pruning exact; then how the best hits are re-ranked by match quality.
///
/// First phase, on every search path:
///
/// ```
/// score = text · factor,   factor = 1 + popularity · pop + recency · rec   (StaticFactors)
/// ```
///
/// The factor is at least 1 and at most the static factors' range maximum, so a block's
/// text bound times that maximum bounds its scores. Every path combines the parts with
/// ``combine(text:factor:)``, so equal inputs give bit-identical scores on every path.
///
/// Second phase, on the best ``RankingOptions/rerankWindow`` first-phase hits of a type:
///
/// ```
/// final = score · quality,   quality = 1 + exactness · exact + proximity · adjacent
/// ```
///
/// Match quality needs positions and whole-field checks, too costly for every candidate and
/// too loose to bound per block, so it re-ranks a window of the best hits, as Vespa's
/// second-phase ranking (`rerank-count`) and Elasticsearch's rescorer (`window_size`) do.
/// Hits past the window keep their first-phase score; since quality is at least 1, every
/// window hit still scores at least as high as any hit past it, so one order holds for all
/// pages.
struct ScoreBlend {
  /// Per-document static factors; `nil` when popularity and recency are off.
  let factors: StaticFactors?
  let exactness: Float
  /// The proximity weight; 0 for queries of one term.
  let proximity: Float
  /// Per field slot, the length a name field holding exactly the query has (-1 for fields
  /// that are not names; see ``NameLengths``).
  let nameLengths: SIMD4<Int32>
  /// For users and hashtags: the stored names (slot 0's value) and the query's tag key,
  /// compared for exact matches (see ``NameLengths``).
  let tagNames: StringColumn?
  let tagKey: [UInt8]
  let fieldCount: Int
  let norms: UnsafePointer<UInt8>

  init(
    partition: TypePartition, factors: StaticFactors?, options: MatchQualityOptions,
    termCount: Int, nameLengths: SIMD4<Int32>, tagKey: [UInt8] = []
  ) {
    tagNames = NameLengths.hasTagNames(partition.type) && !tagKey.isEmpty ? partition.titles : nil
    self.tagKey = tagKey
    self.factors = factors
    exactness = RankingOptions.sanitized(options.exactness)
    proximity = termCount >= 2 ? RankingOptions.sanitized(options.proximity) : 0
    self.nameLengths = nameLengths
    fieldCount = partition.fieldCount
    norms = partition.norms.base
  }

  /// Whether match quality can change a score (otherwise it is 1 and need not be computed).
  var usesQuality: Bool { exactness > 0 || proximity > 0 }

  @inline(__always)
  func factor(of document: UInt32) -> Float {
    guard let factors else { return 1 }
    return factors.factors[Int(document)]
  }

  /// An upper bound of `document`'s static factor that stays in cache: the largest factor
  /// of its run of 64 documents (1 without factors).
  @inline(__always)
  func factorBound(of document: UInt32) -> Float {
    factors?.chunkMaximum(of: document) ?? 1
  }

  /// An upper bound of the static factor of `document` and of every later document, from a
  /// table that stays in cache (1 without factors).
  @inline(__always)
  func factorSuffixBound(of document: UInt32) -> Float {
    factors?.suffixMaximum(of: document) ?? 1
  }

  /// The largest static factor of documents `first...last`.
  @inline(__always)
  func factorMaximum(from first: UInt32, through last: UInt32) -> Float {
    factors?.maximum(from: first, through: last) ?? 1
  }

  /// The largest static factor of the type.
  var factorMaximum: Float { factors?.maximum ?? 1 }

  /// The first-phase score.
  @inline(__always)
  static func combine(text: Float, factor: Float) -> Float {
    text * factor
  }

  /// The final score of a re-ranked hit.
  @inline(__always)
  static func combine(score: Float, quality: Float) -> Float {
    score * quality
  }

  /// What a document's match is worth beyond its text score.
  struct Quality {
    var isExact = false
    /// The share of consecutive query term pairs found adjacent and in order.
    var adjacency: Float = 0
  }

  /// The match quality of `document`, from cursors standing on it (or past it, for terms
  /// it lacks). Alternatives of group `g` are cursors `groupStarts[g]..<groupStarts[g + 1]`;
  /// `queryOrder` lists the groups in the order their terms were typed. `hasExactTag` is
  /// what ``hasExactTag(_:)`` says of the document.
  func quality(
    of document: UInt32, hasExactTag: Bool, cursors: [PostingCursor], groupStarts: [Int],
    queryOrder: [Int]
  ) -> Quality {
    var quality = Quality()
    let groupCount = groupStarts.count - 1
    guard groupCount > 0 else { return quality }
    quality.isExact = exactness > 0 && hasExactTag
    if exactness > 0 && !quality.isExact && mayBeExactByLength(document) {
      let codes = norms + Int(document) * fieldCount
      for field in 0..<fieldCount {
        // Lengths below 128 are stored exactly.
        let length = Int(codes[field])
        guard nameLengths[field] > 0, length == Int(nameLengths[field]), length < 128 else {
          continue
        }
        var isComplete = true
        for group in 0..<groupCount {
          var frequency: UInt32 = 0
          for index in groupStarts[group]..<groupStarts[group + 1]
          where cursors[index].document == document {
            frequency = max(frequency, cursors[index].frequency(inField: field))
          }
          if frequency == 0 {
            isComplete = false
            break
          }
        }
        if isComplete {
          quality.isExact = true
          break
        }
      }
    }
    if proximity > 0 && groupCount >= 2 {
      var previous = positions(of: queryOrder[0], document, cursors, groupStarts)
      var adjacent = 0
      for order in 1..<queryOrder.count {
        let current = positions(of: queryOrder[order], document, cursors, groupStarts)
        if previous.contains(where: { current.contains($0 &+ 1) }) { adjacent += 1 }
        previous = current
      }
      quality.adjacency = Float(adjacent) / Float(queryOrder.count - 1)
    }
    return quality
  }

  /// Whether the document's stored username or hashtag name reduces to the query's tag key
  /// (``NameLengths``), compared byte by byte, without building a string.
  func hasExactTag(_ document: UInt32) -> Bool {
    guard let tagNames else { return false }
    let name = tagNames.utf8(at: Int(document))
    var matched = 0
    for byte in name {
      if byte >= 0x80 {
        // Outside ASCII: fold the whole name (rare for usernames and hashtags).
        return NameLengths.tagKey(of: String(decoding: name, as: UTF8.self)) == tagKey
      }
      guard ASCII.isAlphanumeric(byte) else { continue }
      let lower = byte | (byte >= 65 && byte <= 90 ? 0x20 : 0)
      guard matched < tagKey.count, tagKey[matched] == lower else { return false }
      matched += 1
    }
    return matched == tagKey.count
  }

  /// Whether some text name field has the length an exact match has (checked on the norms
  /// alone, before any posting is read).
  @inline(__always)
  func mayBeExactByLength(_ document: UInt32) -> Bool {
    let codes = norms + Int(document) * fieldCount
    for field in 0..<fieldCount where nameLengths[field] > 0 {
      if Int32(codes[field]) == nameLengths[field] && codes[field] < 128 { return true }
    }
    return false
  }

  /// The quality factor of a match.
  @inline(__always)
  func multiplier(_ quality: Quality) -> Float {
    1 + (quality.isExact ? exactness : 0) + proximity * quality.adjacency
  }

  /// Positions of a group's terms in `document`, as `field << 27 | position`.
  private func positions(
    of group: Int, _ document: UInt32, _ cursors: [PostingCursor], _ groupStarts: [Int]
  ) -> [UInt32] {
    var result: [UInt32] = []
    for index in groupStarts[group]..<groupStarts[group + 1]
    where cursors[index].document == document {
      cursors[index].forEachPosition { field, position in
        result.append(UInt32(field) << 27 | (position & 0x7FF_FFFF))
      }
    }
    return result
  }
}

/// Match quality for searches that do not walk cursors in document order (the threshold
/// and lead-sorted searches): it keeps a cursor per alternative and moves it to each
/// document asked about, starting over when asked about an earlier one.
struct QualityProbe {
  private let postings: TypePostings
  private var cursors: [PostingCursor] = []
  private let groupStarts: [Int]
  private let queryOrder: [Int]
  private let scratch: UnsafeMutablePointer<UInt32>
  private let listIndexes: [Int]

  init(postings: TypePostings, groups: [TermPlan]) {
    self.postings = postings
    var starts = [0]
    var lists: [Int] = []
    for group in groups {
      for alternative in group.alternatives { lists.append(alternative.listIndex) }
      starts.append(lists.count)
    }
    groupStarts = starts
    listIndexes = lists
    queryOrder = groups.indices.sorted { groups[$0].queryTerm < groups[$1].queryTerm }
    scratch = .allocate(capacity: max(lists.count, 1) * PostingBlock.capacity)
  }

  /// Frees the cursors' scratch memory; call once when done.
  func deallocate() { scratch.deallocate() }

  mutating func quality(of document: UInt32, blend: ScoreBlend) -> ScoreBlend.Quality {
    let hasExactTag = blend.exactness > 0 && blend.hasExactTag(document)
    // The postings are needed for proximity, or for an exact match the norms allow.
    let needsPostings =
      blend.proximity > 0
      || (blend.exactness > 0 && !hasExactTag && blend.mayBeExactByLength(document))
    guard needsPostings else {
      var quality = ScoreBlend.Quality()
      quality.isExact = hasExactTag
      return quality
    }
    if cursors.isEmpty {
      // Made on first need: most hits of a one-word query never need their postings.
      for (offset, list) in listIndexes.enumerated() {
        cursors.append(
          PostingCursor(
            postings: postings, listIndex: list, scratch: scratch + offset * PostingBlock.capacity))
      }
    }
    for index in cursors.indices {
      if cursors[index].document > document || cursors[index].document == PostingCursor.end {
        cursors[index] = PostingCursor(
          postings: postings, listIndex: listIndexes[index],
          scratch: scratch + index * PostingBlock.capacity)
      }
      cursors[index].advance(to: document)
    }
    return blend.quality(
      of: document, hasExactTag: hasExactTag, cursors: cursors, groupStarts: groupStarts,
      queryOrder: queryOrder)
  }
}
