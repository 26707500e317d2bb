import Synchronization

/// Which exact name matches a type can have at all. When none can, the Top tab counts a
/// card type without ranking it (its count is still needed for the facets), and a query of
/// one term, whose match quality then is 1 for every document, skips the re-ranking window.
///
/// A document matches exactly (``ScoreBlend/quality(of:hasExactTag:cursors:groupStarts:queryOrder:)``)
/// when its tag name reduces to the query's tag key, or when a text name field has the length
/// the query has there (``NameLengths``) and holds every query term. The filter keeps, per
/// type, the hashes of its tag names' keys, how many text names have each length, and every
/// `(field slot, field length, term)` of its shorter text names. No name of the query's
/// length, or a term group none of whose alternatives appears in a name of that length, rules
/// out every text match, whatever the other terms do; a tag key not among the hashes rules out
/// every tag match. The check is one-sided, like a Bloom filter (Bloom, "Space/time
/// trade-offs in hash coding with allowable errors", CACM 1970): "no" is certain, "maybe"
/// sends the search down the full path.
///
/// The hashes and keys are kept sorted and looked up by binary search, so that an index file
/// holds them as they are used (format 10): an opened index reads its filters instead of
/// analyzing a hundred thousand names on its first search.
struct ExactNameFilter: Sendable {
  /// ``ByteStringTable/hash(_:)`` of every tag name's ``NameLengths/tagKey(of:)`` (its bit
  /// pattern), sorted, each once.
  private(set) var tagKeys = Column<UInt64>()
  /// The field slot of the type's text name (``NameLengths/textNameSlot(of:)``), when it has
  /// one and its lengths could be read.
  private(set) var textSlot: Int?
  /// How many text names have each length, 0...127 (longer ones never match exactly: their
  /// norms are not stored exactly).
  private(set) var lengthCounts = [Int32](repeating: 0, count: 128)
  /// Names up to this length have their terms in ``nameTerms``; longer ones only count.
  private(set) var indexedLength = 0
  /// `slot << 40 | length << 32 | term` for every term of every text name of length
  /// 1...``indexedLength``, sorted, each once.
  private(set) var nameTerms = Column<UInt64>()

  /// A filter read from an index file, checked: sorted keys, a slot of the type, lengths in
  /// range.
  ///
  /// - Returns: `nil` when the parts are not a filter.
  init?(
    tagKeys: Column<UInt64>, nameTerms: Column<UInt64>, lengthCounts: [Int32], textSlot: Int,
    indexedLength: Int, fieldCount: Int
  ) {
    guard lengthCounts.count == 128, lengthCounts.allSatisfy({ $0 >= 0 }),
      (-1..<fieldCount).contains(textSlot), (0..<128).contains(indexedLength),
      Self.isStrictlyIncreasing(tagKeys.buffer), Self.isStrictlyIncreasing(nameTerms.buffer)
    else { return nil }
    self.tagKeys = tagKeys
    self.nameTerms = nameTerms
    self.lengthCounts = lengthCounts
    self.textSlot = textSlot < 0 ? nil : textSlot
    self.indexedLength = indexedLength
  }

  private static func isStrictlyIncreasing<T: Comparable>(_ values: UnsafeBufferPointer<T>) -> Bool
  {
    var index = 1
    while index < values.count {
      guard values[index - 1] < values[index] else { return false }
      index += 1
    }
    return true
  }

  /// Whether sorted `values` hold `value` (binary search).
  private static func contains<T: Comparable>(_ values: UnsafeBufferPointer<T>, _ value: T) -> Bool
  {
    var low = 0
    var high = values.count
    while low < high {
      let middle = (low + high) / 2
      if values[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low < values.count && values[low] == value
  }

  /// The sorted distinct values of `values`, as a column.
  private static func sortedColumn(_ values: [UInt64]) -> Column<UInt64> {
    var sorted = values
    sorted.radixSort()
    var kept = 0
    for value in sorted where kept == 0 || sorted[kept - 1] != value {
      sorted[kept] = value
      kept += 1
    }
    sorted.removeLast(sorted.count - kept)
    return Column(sorted)
  }

  /// At most this many text names are analyzed for ``nameTerms`` once a type has more than
  /// ``analyzesEveryNameUpTo`` documents: the shortest ones, which a query of a word or two
  /// can match exactly (about 2% of a million synthetic video titles have one or two words).
  static let analyzedNameBudget = 1 << 17
  static let analyzesEveryNameUpTo = 1 << 18

  /// Reads the type's names from the snapshot and analyzes them as the writer did.
  init(snapshot: IndexSnapshot, type: SearchResultType) {
    let partition = snapshot.partition(type)
    if NameLengths.hasTagNames(type) {
      var hashes: [UInt64] = []
      hashes.reserveCapacity(partition.documentCount)
      for document in 0..<partition.documentCount {
        let key = NameLengths.tagKey(of: partition.titles.string(at: document))
        hashes.append(UInt64(bitPattern: Int64(key.withUnsafeBytes { ByteStringTable.hash($0) })))
      }
      tagKeys = Self.sortedColumn(hashes)
    }
    // Without a slot whose lengths it read, the filter answers "maybe" for text names.
    guard let slot = NameLengths.textNameSlot(of: type), slot < partition.fieldCount else {
      return
    }
    let names = type == .user ? snapshot.users.displayNames : partition.titles
    let documentCount = partition.documentCount
    let fieldCount = partition.fieldCount
    guard names.count >= documentCount, partition.norms.count >= documentCount * fieldCount
    else { return }
    textSlot = slot
    let norms = partition.norms.buffer
    for document in 0..<documentCount {
      let code = Int(norms[document * fieldCount + slot])
      if code < 128 { lengthCounts[code] += 1 }
    }
    indexedLength = Self.indexedLength(lengthCounts: lengthCounts, documentCount: documentCount)
    guard indexedLength > 0 else { return }
    var tokenizer = Tokenizer(mode: .document)
    let stream = TokenStream()
    var keys: [UInt64] = []
    defer { nameTerms = Self.sortedColumn(keys) }
    for document in 0..<documentCount {
      let code = Int(norms[document * fieldCount + slot])
      guard code > 0 && code <= indexedLength else { continue }
      stream.removeAll()
      let length = Int(tokenizer.tokenize(names.string(at: document), into: stream))
      guard length > 0 && length <= indexedLength else { continue }
      for token in stream.tokens {
        guard
          let term = snapshot.terms.find(UnsafeRawBufferPointer(stream.bytes(of: token)))
        else { continue }
        keys.append(Self.nameKey(slot: slot, length: length, term: term))
      }
    }
  }

  /// The longest names analyzed: every one in a type of at most ``analyzesEveryNameUpTo``
  /// documents, otherwise the shortest, up to a sixteenth of the documents and at most
  /// ``analyzedNameBudget``, whole lengths at a time.
  static func indexedLength(lengthCounts: [Int32], documentCount: Int) -> Int {
    let budget =
      documentCount <= analyzesEveryNameUpTo
      ? documentCount : min(documentCount / 16, analyzedNameBudget)
    var analyzed = 0
    var indexed = 0
    for length in 1..<min(lengthCounts.count, 128) {
      analyzed += Int(lengthCounts[length])
      if analyzed > budget { break }
      indexed = length
    }
    return indexed
  }

  @inline(__always)
  private static func nameKey(slot: Int, length: Int, term: UInt32) -> UInt64 {
    UInt64(slot) << 40 | UInt64(length) << 32 | UInt64(term)
  }

  /// Whether some document may match the query exactly. `groups` are the query terms the
  /// type's search requires, each with its alternatives found in the type (as
  /// ``IndexSnapshot/termPlans(in:termIDs:weights:selected:)`` makes them), and `termIDs`
  /// every query term's alternatives; `nameLengths` and `tagKey` are the query's
  /// (``NameLengths``).
  ///
  /// Like the search, it ignores terms without an alternative in the type: when it has to
  /// match any term, the exactness check only asks for the others.
  func mayMatchExactly(
    groups: [TermPlan], termIDs: [[TermID?]], nameLengths: SIMD4<Int32>, tagKey: [UInt8]
  ) -> Bool {
    let present = groups.filter { !$0.alternatives.isEmpty }
    // Without terms a search has no hits, and the exactness check needs one.
    guard !present.isEmpty else { return false }
    if !tagKey.isEmpty
      && Self.contains(
        tagKeys.buffer,
        UInt64(bitPattern: Int64(tagKey.withUnsafeBytes { ByteStringTable.hash($0) })))
    {
      return true
    }
    for slot in 0..<4 {
      let length = Int(nameLengths[slot])
      guard length > 0 && length < 128 else { continue }
      // A slot the filter knows nothing of may match.
      guard slot == textSlot else { return true }
      guard lengthCounts[length] > 0 else { continue }
      guard length <= indexedLength else { return true }
      let everyGroupFits = present.allSatisfy { group in
        group.alternatives.contains { alternative in
          guard let id = termIDs[group.queryTerm][alternative.alternative] else { return true }
          return Self.contains(
            nameTerms.buffer, Self.nameKey(slot: slot, length: length, term: id.rawValue))
        }
      }
      if everyGroupFits { return true }
    }
    return false
  }

  /// The bytes of the two sorted key lists and the length counts.
  var byteCount: Int { (tagKeys.count + nameTerms.count) * 8 + lengthCounts.count * 4 }
}

/// The exact name filters of a snapshot, built per type on first use.
final class ExactNameFilterCache: Sendable {
  private let filters = Lock<[ExactNameFilter?]>([nil, nil, nil, nil])

  /// ``ExactNameFilter/mayMatchExactly(groups:termIDs:nameLengths:tagKey:)`` of the filter of
  /// `type`, asked where it is kept (a search copies no sets), built first if it is not yet
  /// (concurrent first callers wait for one build).
  func mayMatchExactly(
    _ type: SearchResultType, in snapshot: IndexSnapshot, groups: [TermPlan],
    termIDs: [[TermID?]], nameLengths: SIMD4<Int32>, tagKey: [UInt8]
  ) -> Bool {
    filters.withLock { filters in
      Self.build(type, in: snapshot, into: &filters)
      return filters[type.index]?.mayMatchExactly(
        groups: groups, termIDs: termIDs, nameLengths: nameLengths, tagKey: tagKey) ?? true
    }
  }

  /// Every type's filter, built first where it is not yet: what an index file saves.
  func filters(of snapshot: IndexSnapshot) -> [ExactNameFilter] {
    filters.withLock { filters in
      SearchResultType.allCases.map { type in
        Self.build(type, in: snapshot, into: &filters)
        return filters[type.index]!
      }
    }
  }

  /// Keeps filters read from an index file, one per type in `SearchResultType.index` order.
  func store(_ loaded: [ExactNameFilter]) {
    precondition(loaded.count == SearchResultType.allCases.count, "one filter per type")
    filters.withLock { filters in filters = loaded.map { $0 } }
  }

  /// Gives `other` the filters built here: for a snapshot with the same documents and
  /// text (names do not depend on counts).
  func share(with other: ExactNameFilterCache) {
    let built = filters.withLock { $0 }
    other.filters.withLock { $0 = built }
  }

  /// Builds every type's filter that is not built yet.
  func prepare(_ snapshot: IndexSnapshot) {
    filters.withLock { filters in
      for type in SearchResultType.allCases { Self.build(type, in: snapshot, into: &filters) }
    }
  }

  private static func build(
    _ type: SearchResultType, in snapshot: IndexSnapshot, into filters: inout [ExactNameFilter?]
  ) {
    if filters[type.index] == nil {
      filters[type.index] = ExactNameFilter(snapshot: snapshot, type: type)
    }
  }

  /// The bytes held, 0 before the first use.
  var byteCount: Int {
    filters.withLock { filters in filters.reduce(0) { $0 + ($1?.byteCount ?? 0) } }
  }
}
