extension DiscoverIndex {
  /// Match counts per type computed the slow, obvious way, for checking the fast paths.
  ///
  /// Every posting list of the query's terms is decoded whole, without skip tables,
  /// bitmaps or score bounds, and intersected as sets, with the same fallback rules as
  /// ``search(_:in:limit:after:ranking:)``. The benchmark compares these counts with the
  /// search's facets so a broken engine cannot look fast.
  ///
  /// - Returns: The counts and whether every term matched, or `nil` for queries with
  ///   phrases (whose positions this check does not read).
  /// - Complexity: O(p) in the postings of the query's terms.
  @_spi(Benchmarking)
  public func referenceCounts(for query: String) -> (facets: FacetCounts, matchedAllTerms: Bool)? {
    snapshot.referenceCounts(for: query)
  }
}

extension IndexSnapshot {
  func referenceCounts(for query: String) -> (facets: FacetCounts, matchedAllTerms: Bool)? {
    let parsed = QueryParser.parse(QuerySanitizer.sanitize(query))
    guard parsed.phrases.isEmpty else { return nil }
    if parsed.isEmpty { return (FacetCounts(), true) }
    // Per term and type, the set of matching documents.
    var sets: [[Set<UInt32>]] = []
    var known: [Bool] = []
    for term in parsed.terms {
      var perType: [Set<UInt32>] = []
      var isKnown = false
      for partition in partitions {
        var documents = Set<UInt32>()
        for alternative in term.alternatives {
          guard let id = alternative.withUnsafeBytes({ terms.find($0) }),
            let list = partition.postings.listIndex(for: TermID(id))
          else { continue }
          isKnown = true
          documents.formUnion(Self.decodeWhole(partition.postings, list: list))
        }
        perType.append(documents)
      }
      sets.append(perType)
      known.append(isKnown)
    }
    func intersect(_ selected: [Int]) -> FacetCounts {
      var facets = FacetCounts()
      for type in SearchResultType.allCases {
        var result = sets[selected[0]][type.index]
        for term in selected.dropFirst() { result.formIntersection(sets[term][type.index]) }
        facets[type] = result.count
      }
      return facets
    }
    func unite(_ selected: [Int]) -> FacetCounts {
      var facets = FacetCounts()
      for type in SearchResultType.allCases {
        var result = Set<UInt32>()
        for term in selected { result.formUnion(sets[term][type.index]) }
        facets[type] = result.count
      }
      return facets
    }
    func total(_ facets: FacetCounts) -> Int {
      facets.videos + facets.users + facets.hashtags + facets.sounds
    }
    let all = Array(parsed.terms.indices)
    var facets = intersect(all)
    if total(facets) > 0 || all.count < 2 { return (facets, true) }
    let present = all.filter { known[$0] }
    if present.isEmpty { return (facets, false) }
    if present.count < all.count {
      facets = intersect(present)
      if total(facets) > 0 { return (facets, false) }
    }
    if present.count >= 2 { facets = unite(present) }
    return (facets, false)
  }

  /// Every document of a list, read block by block from the bytes alone.
  private static func decodeWhole(_ postings: TypePostings, list index: Int) -> [UInt32] {
    let list = postings.lists[index]
    var result: [UInt32] = []
    var offset = Int(list.dataOffset)
    var previous: Int64 = -1
    for block in 0..<Int(list.blockCount) {
      if list.blockCount > 1 {
        offset = Int(postings.blockDataOffsets[Int(list.firstBlock) + block])
      }
      let header = postings.bytes.base + offset
      let count = Int(header[0]) + 1
      let width = Int(header[1])
      let data = UnsafeRawPointer(header + 2 + postings.fieldCount)
      for slot in 0..<count {
        previous += Int64(BitPacking.value(at: slot, from: data, width: width)) + 1
        result.append(UInt32(previous))
      }
    }
    return result
  }
}
