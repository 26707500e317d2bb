/// The order a snapshot numbers a type's documents in: most popular first.
///
/// Numbering documents by a static score is what lets top-k pruning use that score
/// (Long and Suel, "Optimized query execution in large search engines with global page
/// ordering", VLDB 2003; Lucene's index sorting does the same). Neighbouring documents then
/// have similar popularity, so the largest static factor of a block's document range is
/// close to its documents' own, and blocks of unpopular documents fall below the threshold
/// and are skipped. Ties keep the order documents were added in.
struct DocumentOrder {
  /// `order[new]` is the document's number in the writer (the order it was added).
  let order: [UInt32]
  /// `rank[old]` is its number in the snapshot.
  let rank: [UInt32]

  /// Orders documents by `counts` (views, followers or videos), largest first.
  init(counts: [Int]) {
    var order = (0..<UInt32(counts.count)).map { $0 }
    order.sort { counts[Int($0)] != counts[Int($1)] ? counts[Int($0)] > counts[Int($1)] : $0 < $1 }
    var rank = [UInt32](repeating: 0, count: counts.count)
    for (new, old) in order.enumerated() { rank[Int(old)] = UInt32(new) }
    self.order = order
    self.rank = rank
  }

  /// Per-document values in snapshot order.
  func apply<T>(_ values: [T]) -> [T] {
    order.map { values[Int($0)] }
  }

  /// A reference to a document of this type (or `UInt32.max` for none) in snapshot numbers.
  @inline(__always)
  func renumber(_ old: UInt32) -> UInt32 {
    old == UInt32.max ? old : rank[Int(old)]
  }
}

extension StringColumnBuilder {
  /// The strings in snapshot order.
  func build(in order: DocumentOrder) -> StringColumn {
    var permuted = StringColumnBuilder()
    permuted.bytes.reserveCapacity(bytes.count)
    permuted.offsets.reserveCapacity(offsets.count)
    for old in order.order {
      let start = Int(offsets[Int(old)])
      let end = Int(offsets[Int(old) + 1])
      permuted.bytes.append(contentsOf: bytes[start..<end])
      permuted.offsets.append(UInt32(truncatingIfNeeded: permuted.bytes.count))
    }
    return permuted.build()
  }
}

extension URLColumn {
  /// The URLs in snapshot order.
  func permuted(by order: DocumentOrder) -> URLColumn {
    let indexes = order.order.map { templateIndexes[Int($0)] }
    // Literal URLs are kept by ascending document: renumber, then sort.
    var literalPairs: [(document: UInt32, literal: Int)] = []
    for literal in 0..<literalDocuments.count {
      literalPairs.append((order.rank[Int(literalDocuments[literal])], literal))
    }
    literalPairs.sort { $0.document < $1.document }
    var permutedLiterals = StringColumnBuilder()
    for pair in literalPairs { permutedLiterals.append(literals.string(at: pair.literal)) }
    return URLColumn(
      templateIndexes: Column(indexes), templates: templates,
      literalDocuments: Column(literalPairs.map(\.document)), literals: permutedLiterals.build())
  }
}
