import Synchronization

/// Which exact name matches a type can have at all, so that the Top tab can skip ranking a
/// card type when none can (its count is still needed for the facets, and counting alone is
/// cheaper).
///
/// A document matches exactly (``ScoreBlend/quality(of:hasExactTag:cursors:groupStarts:queryOrder:)``)
/// when its tag name reduces to the query's tag key, or when a text name field has the length
/// the query has there (``NameLengths``) and holds every query term. The filter keeps, per
/// type, the hashes of its tag names' keys and every `(field slot, field length, term)` of
/// its text names. A term group none of whose alternatives appears in a name of the query's
/// length rules out every text match, whatever the other terms do; a tag key not among the
/// hashes rules out every tag match. The check is one-sided, like a Bloom filter (Bloom,
/// "Space/time trade-offs in hash coding with allowable errors", CACM 1970): "no" is
/// certain, "maybe" sends the search down the full path.
struct ExactNameFilter: Sendable {
  /// ``ByteStringTable/hash(_:)`` of every tag name's ``NameLengths/tagKey(of:)``.
  private var tagKeys: Set<Int> = []
  /// `slot << 40 | length << 32 | term` for every term of every text name, lengths 1...127.
  private var nameTerms: Set<UInt64> = []

  /// Reads the type's names from the snapshot and analyzes them as the writer did.
  init(snapshot: IndexSnapshot, type: SearchResultType) {
    let partition = snapshot.partition(type)
    if NameLengths.hasTagNames(type) {
      for document in 0..<partition.documentCount {
        let key = NameLengths.tagKey(of: partition.titles.string(at: document))
        tagKeys.insert(key.withUnsafeBytes { ByteStringTable.hash($0) })
      }
    }
    guard let slot = NameLengths.textNameSlot(of: type) else { return }
    let names = type == .user ? snapshot.users.displayNames : partition.titles
    var tokenizer = Tokenizer(mode: .document)
    let stream = TokenStream()
    for document in 0..<min(partition.documentCount, names.count) {
      stream.removeAll()
      let length = tokenizer.tokenize(names.string(at: document), into: stream)
      // Longer fields never match exactly: their norms are not stored exactly.
      guard length > 0 && length < 128 else { continue }
      for token in stream.tokens {
        guard
          let term = snapshot.terms.find(UnsafeRawBufferPointer(stream.bytes(of: token)))
        else { continue }
        nameTerms.insert(Self.nameKey(slot: slot, length: Int(length), term: term))
      }
    }
  }

  @inline(__always)
  private static func nameKey(slot: Int, length: Int, term: UInt32) -> UInt64 {
    UInt64(slot) << 40 | UInt64(length) << 32 | UInt64(term)
  }

  /// Whether some document may match the query exactly. `termIDs` holds every query term's
  /// alternatives (`nil` where the dictionary lacks one); `selected` the terms the search
  /// requires; `nameLengths` and `tagKey` are the query's (``NameLengths``).
  func mayMatchExactly(
    termIDs: [[TermID?]], selected: [Int], nameLengths: SIMD4<Int32>, tagKey: [UInt8]
  ) -> Bool {
    if !tagKey.isEmpty && tagKeys.contains(tagKey.withUnsafeBytes { ByteStringTable.hash($0) }) {
      return true
    }
    for slot in 0..<4 {
      let length = Int(nameLengths[slot])
      guard length > 0 && length < 128 else { continue }
      let everyGroupFits = selected.allSatisfy { term in
        termIDs[term].contains { id in
          id.map { nameTerms.contains(Self.nameKey(slot: slot, length: length, term: $0.rawValue)) }
            ?? false
        }
      }
      if everyGroupFits && !selected.isEmpty { return true }
    }
    return false
  }

  /// The bytes the two sets hold (8 per slot, at their capacity).
  var byteCount: Int { (tagKeys.capacity + nameTerms.capacity) * 8 }
}

/// The exact name filters of a snapshot, built per type on first use.
final class ExactNameFilterCache: Sendable {
  private let filters = Mutex<[ExactNameFilter?]>([nil, nil, nil, nil])

  /// The filter of `type`, built now if it is not yet (concurrent first callers wait for
  /// one build).
  func filter(of type: SearchResultType, in snapshot: IndexSnapshot) -> ExactNameFilter {
    filters.withLock { filters in
      if let filter = filters[type.index] { return filter }
      let made = ExactNameFilter(snapshot: snapshot, type: type)
      filters[type.index] = made
      return made
    }
  }

  /// The bytes held, 0 before the first use.
  var byteCount: Int {
    filters.withLock { filters in filters.reduce(0) { $0 + ($1?.byteCount ?? 0) } }
  }
}
