import Foundation

/// The largest page a search returns.
public let maximumSearchLimit = 1000

extension DiscoverIndex {
  /// Searches the index.
  ///
  /// The query is sanitized (``QuerySanitizer``) and analyzed like documents. Every word is
  /// required; `#tag` matches hashtags and videos tagged with it, `@name` matches users and
  /// their videos, `"quoted words"` must appear as a phrase. When no document matches every
  /// word, words that match nothing at all are dropped, and failing that, documents
  /// matching the most words come first (``SearchResponse/matchedAllTerms`` is then
  /// `false`). A query with nothing searchable left gives an empty response.
  ///
  /// - Parameters:
  ///   - query: The text typed in the search bar.
  ///   - tab: Which result types to return; facet counts cover every type regardless.
  ///   - limit: How many results per page, 1 to ``maximumSearchLimit``.
  ///   - cursor: The previous page's ``SearchResponse/nextCursor``, or `nil` for page one.
  ///   - ranking: Ranking settings.
  /// - Returns: One page of results with facet counts.
  /// - Throws: ``SearchError/Code/invalidQuery`` when `cursor` is malformed or belongs to
  ///   another query or tab.
  /// - Complexity: O(p) in the postings of the query's terms in the worst case; frequent
  ///   terms are counted by bitmap and ranked with block-max pruning.
  public func search(
    _ query: String, in tab: SearchTab = .top, limit: Int = 10, after cursor: SearchCursor? = nil,
    ranking: RankingOptions = RankingOptions()
  ) throws -> SearchResponse {
    precondition(
      limit > 0 && limit <= maximumSearchLimit,
      "search limit must be 1...\(maximumSearchLimit), got \(limit)")
    let snapshot = self.snapshot
    return try workspaces.withWorkspace { workspace in
      try snapshot.search(
        query, in: tab, limit: limit, after: cursor, ranking: ranking, workspace: workspace)
    }
  }
}

extension IndexSnapshot {
  func search(
    _ query: String, in tab: SearchTab, limit: Int, after cursor: SearchCursor?,
    ranking: RankingOptions, workspace: SearchWorkspace
  ) throws -> SearchResponse {
    let sanitized = QuerySanitizer.sanitize(query)
    let parsed = QueryParser.parse(sanitized, using: workspace)
    let queryHash = SearchCursor.hash(query: sanitized, tab: tab)
    let position = try cursor.map { try $0.contents(expectingQueryHash: queryHash) }
    guard !parsed.isEmpty else { return .empty(query: sanitized, tab: tab) }

    // Term ids of every alternative; nil where the dictionary does not have it.
    let termIDs: [[TermID?]] = parsed.terms.map { term in
      term.alternatives.map { bytes in
        bytes.withUnsafeBytes { self.terms.find($0) }.map(TermID.init)
      }
    }
    let everyTerm = Array(parsed.terms.indices)
    var outcome = run(
      termIDs: termIDs, selected: everyTerm, phrases: parsed.phrases, matching: .all,
      tab: tab, limit: limit, after: position?.key, ranking: ranking)
    var matchedAllTerms = true
    if outcome.totalCount == 0 && parsed.terms.count >= 2 {
      // Nothing has every word: first drop words found nowhere, then rank by words matched.
      matchedAllTerms = false
      let known = everyTerm.filter { termIDs[$0].contains { $0 != nil } }
      if !known.isEmpty && known.count < everyTerm.count {
        outcome = run(
          termIDs: termIDs, selected: known, phrases: [], matching: .all, tab: tab,
          limit: limit, after: position?.key, ranking: ranking)
      }
      if outcome.totalCount == 0 && known.count >= 2 {
        outcome = run(
          termIDs: termIDs, selected: known, phrases: [], matching: .any, tab: tab,
          limit: limit, after: position?.key, ranking: ranking)
      }
    }

    // Merge the tab's types in the order every page shares.
    var ranked: [(hit: Hit, type: SearchResultType)] = []
    for type in tab.resultTypes {
      for hit in outcome.hits[type.index] { ranked.append((hit, type)) }
    }
    ranked.sort { lhs, rhs in
      if lhs.hit.coverage != rhs.hit.coverage { return lhs.hit.coverage > rhs.hit.coverage }
      if lhs.hit.score != rhs.hit.score { return lhs.hit.score > rhs.hit.score }
      if lhs.type.index != rhs.type.index { return lhs.type.index < rhs.type.index }
      return lhs.hit.document < rhs.hit.document
    }
    if ranked.count > limit { ranked.removeLast(ranked.count - limit) }

    let highlighter = Highlighter(query: parsed, workspace: workspace)
    let results = ranked.map { makeResult(type: $0.type, hit: $0.hit, highlighter: highlighter) }
    let totalHits = outcome.facets.total(for: tab)
    let offset = (position?.offset ?? 0) + results.count
    var nextCursor: SearchCursor?
    if let last = ranked.last, results.count == limit, offset < totalHits,
      offset < SearchCursor.maximumDepth
    {
      nextCursor = SearchCursor(
        SearchCursor.Contents(
          queryHash: queryHash,
          key: RankKey(
            coverage: last.hit.coverage, score: last.hit.score,
            typeIndex: UInt8(last.type.index), document: last.hit.document),
          offset: offset))
    }
    return SearchResponse(
      query: sanitized, tab: tab, results: results, facets: outcome.facets,
      totalHits: totalHits, nextCursor: nextCursor, matchedAllTerms: matchedAllTerms)
  }

  /// Hits of the tab's types and counts of all types.
  private struct Outcome {
    var hits: [[Hit]]
    var facets: FacetCounts
    var totalCount: Int
  }

  private func run(
    termIDs: [[TermID?]], selected: [Int], phrases: [ParsedQuery.Phrase], matching: Matching,
    tab: SearchTab, limit: Int, after: RankKey?, ranking: RankingOptions
  ) -> Outcome {
    var outcome = Outcome(
      hits: Array(repeating: [], count: 4), facets: FacetCounts(), totalCount: 0)
    var isInTab: [Bool] = [false, false, false, false]
    for type in tab.resultTypes { isInTab[type.index] = true }
    for partition in partitions {
      let plans = selected.map { term in
        TermPlan(
          alternatives: termIDs[term].compactMap { id -> AlternativePlan? in
            guard let id, let listIndex = partition.postings.listIndex(for: id) else { return nil }
            let frequency = Int(partition.postings.lists[listIndex].documentFrequency)
            return AlternativePlan(
              listIndex: listIndex,
              idf: BM25F.idf(documentFrequency: frequency, documentCount: partition.documentCount),
              weight: 1)
          },
          queryTerm: term)
      }
      let searcher = TypeSearcher(
        partition: partition, k1: ranking.clampedK1, weights: ranking.weights(for: partition.type),
        usesImpactOrders: ranking.usesImpactOrders)
      let result = searcher.search(
        terms: plans, phrases: phrases, matching: matching,
        limit: isInTab[partition.type.index] ? limit : 0, after: after)
      outcome.hits[partition.type.index] = result.hits
      outcome.facets[partition.type] = result.count
      outcome.totalCount += result.count
    }
    return outcome
  }

  /// The result card of a hit.
  func makeResult(type: SearchResultType, hit: Hit, highlighter: Highlighter) -> SearchResult {
    let partition = self.partition(type)
    let document = Int(hit.document)
    let id = partition.ids.string(at: document)
    let title = partition.titles.string(at: document)
    var subtitle: String?
    var thumbnail: String?
    let metadata: SearchResultMetadata
    switch type {
    case .video:
      let creator = videos.creators[document]
      let sound = videos.sounds[document]
      var creatorID: String?
      var creatorUsername: String?
      if creator != UInt32.max {
        let users = self.partition(.user)
        creatorID = users.ids.string(at: Int(creator))
        creatorUsername = users.titles.string(at: Int(creator))
        let displayName = self.users.displayNames.string(at: Int(creator))
        subtitle = displayName.isEmpty ? creatorUsername : displayName
      }
      var soundID: String?
      var soundTitle: String?
      if sound != UInt32.max {
        let sounds = self.partition(.sound)
        soundID = sounds.ids.string(at: Int(sound))
        soundTitle = sounds.titles.string(at: Int(sound))
      }
      for reference in videos.unresolvedReferences(of: hit.document) {
        if reference.isSound { soundID = reference.id } else { creatorID = reference.id }
      }
      thumbnail = videos.thumbnails.url(at: document, id: id)
      let createdAt = videos.createdAt[document]
      metadata = .video(
        VideoMetadata(
          viewCount: videos.viewCounts[document], likeCount: videos.likeCounts[document],
          createdAt: createdAt.map { Date(timeIntervalSince1970: TimeInterval($0)) },
          creatorID: creatorID, creatorUsername: creatorUsername, soundID: soundID,
          soundTitle: soundTitle))
    case .user:
      let displayName = users.displayNames.string(at: document)
      subtitle = displayName.isEmpty ? nil : displayName
      metadata = .user(
        UserMetadata(
          displayName: subtitle, followerCount: users.followerCounts[document],
          videoCount: Int(users.videoCounts[document]), isVerified: users.isVerified[document] != 0)
      )
    case .hashtag:
      metadata = .hashtag(
        HashtagMetadata(
          viewCount: hashtags.viewCounts[document], videoCount: hashtags.videoCounts[document]))
    case .sound:
      let artist = sounds.artists.string(at: document)
      subtitle = artist.isEmpty ? nil : artist
      metadata = .sound(SoundMetadata(artist: subtitle, videoCount: sounds.videoCounts[document]))
    }
    return SearchResult(
      id: id, type: type, title: title, subtitle: subtitle, thumbnailURL: thumbnail,
      metadata: metadata, highlights: highlighter.highlights(in: title, type: type),
      score: Double(hit.score))
  }
}
