import Foundation

/// What a search needs to explain its hits: the terms it ran with and the ranking.
struct ExplainContext {
  var parsed: ParsedQuery
  /// Per segment, the term ids of every alternative.
  var termIDs: [[[TermID?]]]
  /// Each alternative's weight, typos and origin (``QueryExpansion``).
  var weights: [[Float]]
  var typos: [[Int]]
  var origins: [[WordOrigin]]
  var selected: [Int]
  var ranking: RankingOptions
  var now: Date
  var nameLengths: NameLengths
}

extension SegmentSet {
  /// The breakdown of `hit`'s score (a hit in the set's numbering), recomputed from the
  /// postings of its segment with the index-wide statistics the search used.
  ///
  /// - Throws: ``SearchError/Code/corruptIndex`` as ``termPlans(of:termIDs:weights:selected:)``
  ///   does.
  ///
  /// With `termsOnly`, only the terms' part is filled in (the static factor and match
  /// quality are left at 1): what a caller needs to know which form of each word the hit
  /// holds, without computing the type's static factors.
  func explain(
    _ hit: Hit, type: SearchResultType, context: ExplainContext, termsOnly: Bool = false
  ) throws -> ScoreExplanation {
    let (index, document) = position(of: hit.document, of: type)
    var local = hit
    local.document = document
    let plans = try termPlans(
      of: type, termIDs: context.termIDs, weights: context.weights, selected: context.selected)
    return try segments[index].explain(
      local, type: type, context: context, plans: plans[index],
      normalization: normalizations[index][type.index],
      averageFieldLengths: statistics[type.index].averageFieldLengths,
      indexPivot: termsOnly ? nil : indexPivot(of: type), termsOnly: termsOnly)
  }
}

extension IndexSnapshot {
  /// The breakdown of `hit`'s score in this segment, from the query's `plans` here (with the
  /// idfs the search used), normalizing lengths by `normalization` (or the segment's own)
  /// with `averageFieldLengths`.
  func explain(
    _ hit: Hit, type: SearchResultType, context: ExplainContext, plans: [TermPlan],
    normalization: SegmentNormalization?, averageFieldLengths: [Float], indexPivot: Double?,
    termsOnly: Bool = false
  ) throws -> ScoreExplanation {
    let partition = self.partition(type)
    let postings = partition.postings
    let ranking = context.ranking
    let scorer = BM25F(
      partition: partition, k1: ranking.clampedK1, weights: ranking.weights(for: type),
      normalization: normalization)
    let fieldCount = partition.fieldCount
    let fields = SearchField.fields(of: type)
    let document = hit.document

    // The plans in the order the search summed them (rarest first, as `TypeSearcher`).
    let plans =
      plans
      .filter { !$0.alternatives.isEmpty }
      .sorted { $0.cost(in: postings) < $1.cost(in: postings) }

    let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: PostingBlock.capacity)
    defer { scratch.deallocate() }
    var terms: [ScoreExplanation.TermMatch] = []
    var text: Float = 0
    for plan in plans {
      let term = context.parsed.terms[plan.queryTerm]
      var best: (score: Float, match: ScoreExplanation.TermMatch)?
      for alternative in plan.alternatives {
        var cursor = PostingCursor(
          postings: postings, listIndex: alternative.listIndex, scratch: scratch)
        cursor.advance(to: document)
        guard cursor.document == document else { continue }
        let x = scorer.weightedFrequency(cursor)
        let score = alternative.weight * scorer.score(cursor, idf: alternative.idf)
        var fieldMatches: [ScoreExplanation.FieldMatch] = []
        for slot in 0..<fieldCount {
          let frequency = cursor.frequency(inField: slot)
          guard frequency > 0 else { continue }
          let code = Int(partition.norms.base[Int(document) * fieldCount + slot])
          let weight = scorer.weights[slot]
          fieldMatches.append(
            ScoreExplanation.FieldMatch(
              field: fields[slot], termFrequency: Int(frequency),
              fieldLength: Int(FieldLength.table[code]),
              averageFieldLength: Double(averageFieldLengths[slot]),
              weight: Double(weight),
              contribution: Double(
                weight * Float(frequency) * scorer.inverseNormalization[slot << 8 | code])))
        }
        let match = ScoreExplanation.TermMatch(
          term: term.displayText,
          matchedForm: String(decoding: term.alternatives[alternative.alternative], as: UTF8.self),
          idf: Double(alternative.idf), fields: fieldMatches, weightedFrequency: Double(x),
          typos: context.typos[plan.queryTerm][alternative.alternative],
          penalty: Double(alternative.weight), score: Double(score),
          origin: context.origins[plan.queryTerm][alternative.alternative],
          splitFrom: term.splitFrom)
        if best == nil || score > best!.score { best = (score, match) }
      }
      if let best {
        text += best.score
        terms.append(best.match)
      }
    }

    if termsOnly {
      return ScoreExplanation(
        k1: Double(scorer.k1), terms: terms, textScore: Double(text),
        popularity: ScoreExplanation.Popularity(count: 0, pivot: 0, signal: 0, weight: 0),
        recency: ScoreExplanation.Recency(ageSeconds: nil, signal: 0, weight: 0),
        staticFactor: 1, isExactMatch: false, adjacency: 0, isReranked: false,
        qualityFactor: 1, typoPenalty: terms.map(\.penalty).min() ?? 1, score: Double(text))
    }

    // Static factor.
    let factors =
      ranking.usesStaticSignals
      ? staticFactors.factors(
        snapshot: self, type: type, options: ranking, now: context.now, indexPivot: indexPivot)
      : nil
    let factor = factors.map { $0.factors[Int(document)] } ?? 1
    let count = StaticFactors.popularityCounts(of: type, in: self)[Int(document)]
    let pivot = factors?.pivot ?? 0
    let popularityWeight = Double(RankingOptions.sanitized(ranking.popularity.weight))
    var ageSeconds: Double?
    var recencySignal = 0.0
    if type == .video, let created = videos.createdAt[Int(document)] {
      let origin = ranking.recency.originSeconds(now: context.now)
      ageSeconds = Double(origin - created)
      recencySignal = ranking.recency.signal(age: Double(origin - created))
    }
    let recencyWeight =
      type == .video ? Double(RankingOptions.sanitized(ranking.recency.weight)) : 0

    // Match quality.
    let blend = ScoreBlend(
      partition: partition, factors: factors, options: ranking.matchQuality,
      termCount: plans.count, nameLengths: context.nameLengths.lengths(of: type),
      tagKey: context.nameLengths.tagKey)
    var quality = ScoreBlend.Quality()
    if !plans.isEmpty && blend.usesQuality {
      var probe = QualityProbe(postings: postings, groups: plans)
      quality = probe.quality(of: document, blend: blend)
      probe.deallocate()
    }
    let qualityFactor = hit.isReranked ? blend.multiplier(quality) : 1

    return ScoreExplanation(
      k1: Double(scorer.k1), terms: terms, textScore: Double(text),
      popularity: ScoreExplanation.Popularity(
        count: count, pivot: pivot,
        signal: pivot > 0 ? PopularityOptions.signal(count: count, pivot: pivot) : 0,
        weight: popularityWeight),
      recency: ScoreExplanation.Recency(
        ageSeconds: ageSeconds, signal: recencySignal, weight: recencyWeight),
      staticFactor: Double(factor), isExactMatch: quality.isExact,
      adjacency: Double(quality.adjacency), isReranked: hit.isReranked,
      qualityFactor: Double(qualityFactor),
      typoPenalty: terms.map(\.penalty).min() ?? 1, score: Double(hit.score))
  }
}
