import Foundation

/// What a search needs to explain its hits: the terms it ran with and the ranking.
struct ExplainContext {
  var parsed: ParsedQuery
  var termIDs: [[TermID?]]
  var selected: [Int]
  var ranking: RankingOptions
  var now: Date
  var nameLengths: NameLengths
}

extension IndexSnapshot {
  /// The breakdown of `hit`'s score, recomputed from the postings the search read.
  func explain(_ hit: Hit, type: SearchResultType, context: ExplainContext) -> ScoreExplanation {
    let partition = self.partition(type)
    let postings = partition.postings
    let ranking = context.ranking
    let scorer = BM25F(
      partition: partition, k1: ranking.clampedK1, weights: ranking.weights(for: type))
    let fieldCount = partition.fieldCount
    let fields = SearchField.fields(of: type)
    let document = hit.document

    // The plans in the order the search summed them (rarest first).
    struct Alternative {
      var listIndex: Int
      var idf: Float
      var form: String
    }
    var groups: [(queryTerm: Int, alternatives: [Alternative], cost: Int)] = []
    for term in context.selected {
      var alternatives: [Alternative] = []
      var cost = 0
      for (offset, id) in context.termIDs[term].enumerated() {
        guard let id, let listIndex = postings.listIndex(for: id) else { continue }
        let frequency = Int(postings.lists[listIndex].documentFrequency)
        cost += frequency
        alternatives.append(
          Alternative(
            listIndex: listIndex,
            idf: BM25F.idf(documentFrequency: frequency, documentCount: partition.documentCount),
            form: String(decoding: context.parsed.terms[term].alternatives[offset], as: UTF8.self)))
      }
      if !alternatives.isEmpty { groups.append((term, alternatives, cost)) }
    }
    groups.sort { $0.cost < $1.cost }

    let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: PostingBlock.capacity)
    defer { scratch.deallocate() }
    var terms: [ScoreExplanation.TermMatch] = []
    var text: Float = 0
    var plans: [TermPlan] = []
    for group in groups {
      var best: (score: Float, match: ScoreExplanation.TermMatch)?
      for alternative in group.alternatives {
        var cursor = PostingCursor(
          postings: postings, listIndex: alternative.listIndex, scratch: scratch)
        cursor.advance(to: document)
        guard cursor.document == document else { continue }
        let x = scorer.weightedFrequency(cursor)
        let score = 1 * (alternative.idf * scorer.saturate(x))
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
              averageFieldLength: Double(partition.averageFieldLengths[slot]),
              weight: Double(weight),
              contribution: Double(
                weight * Float(frequency) * scorer.inverseNormalization[slot << 8 | code])))
        }
        let match = ScoreExplanation.TermMatch(
          term: context.parsed.terms[group.queryTerm].displayText, matchedForm: alternative.form,
          idf: Double(alternative.idf), fields: fieldMatches, weightedFrequency: Double(x),
          score: Double(score))
        if best == nil || score > best!.score { best = (score, match) }
      }
      if let best {
        text += best.score
        terms.append(best.match)
      }
      plans.append(
        TermPlan(
          alternatives: group.alternatives.map {
            AlternativePlan(listIndex: $0.listIndex, idf: $0.idf, weight: 1)
          }, queryTerm: group.queryTerm))
    }

    // Static factor.
    let factors =
      ranking.usesStaticSignals
      ? staticFactors.factors(snapshot: self, type: type, options: ranking, now: context.now)
      : nil
    let factor = factors.map { $0.factors[Int(document)] } ?? 1
    let count: Int =
      switch type {
      case .video: videos.viewCounts[Int(document)]
      case .user: users.followerCounts[Int(document)]
      case .hashtag: hashtags.viewCounts[Int(document)]
      case .sound: sounds.videoCounts[Int(document)]
      }
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
      qualityFactor: Double(qualityFactor), typoPenalty: 1, score: Double(hit.score))
  }
}
