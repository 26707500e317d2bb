import CPrefetch

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
    let order = DocumentOrder.sorted(counts)
    var rank = [UInt32](repeating: 0, count: counts.count)
    for (new, old) in order.enumerated() { rank[Int(old)] = UInt32(new) }
    self.order = order
    self.rank = rank
  }

  /// Document numbers by count, largest first, ties in ascending number; counts are at
  /// least 0 (the writer refuses negative ones).
  ///
  /// When the count and the number fit one 64-bit key together, as they do for any real
  /// collection, the keys sort as plain integers: no comparison reads `counts` at random.
  private static func sorted(_ counts: [Int]) -> [UInt32] {
    let numberBits = UInt64(counts.count).bitWidth - UInt64(counts.count).leadingZeroBitCount
    let largest = UInt64(counts.max() ?? 0)
    guard numberBits < 64, largest < (1 as UInt64) << UInt64(64 - numberBits) else {
      var order = (0..<UInt32(counts.count)).map { $0 }
      order.sort {
        counts[Int($0)] != counts[Int($1)] ? counts[Int($0)] > counts[Int($1)] : $0 < $1
      }
      return order
    }
    var keys = [UInt64]()
    keys.reserveCapacity(counts.count)
    for (number, count) in counts.enumerated() {
      keys.append((largest - UInt64(count)) << UInt64(numberBits) | UInt64(number))
    }
    keys.radixSort()
    let mask = ((1 as UInt64) << UInt64(numberBits)) &- 1
    return keys.map { UInt32(truncatingIfNeeded: $0 & mask) }
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
  ///
  /// The strings are copied once, straight into the column's memory.
  func build(in order: DocumentOrder) -> StringColumn {
    let total = byteCount
    let count = order.order.count
    var permutedOffsets = [UInt32](repeating: 0, count: count + 1)
    let permutedBytes = LargeMemory.allocate(UInt8.self, capacity: max(total, 1))
    // The strings are read in another order than they were written, so a string's offsets
    // and then its bytes are two dependent misses. The offsets of the string sixteen ahead
    // and the bytes of the one eight ahead are prefetched: the misses of several strings
    // overlap instead of each waiting its turn.
    let lookahead = 8
    offsets.withUnsafeBufferPointer { offsets in
      order.order.withUnsafeBufferPointer { order in
        permutedOffsets.withUnsafeMutableBufferPointer { permutedOffsets in
          withBytes { bytes in
            guard let base = bytes.baseAddress, let offsetBase = offsets.baseAddress else {
              return
            }
            var end = 0
            for new in 0..<count {
              if new &+ 2 &* lookahead < count {
                cprefetch_for_reading(offsetBase + Int(order[new &+ 2 &* lookahead]))
              }
              if new &+ lookahead < count {
                let ahead = Int(order[new &+ lookahead])
                let aheadStart = Int(offsets[ahead])
                cprefetch_range_for_reading(
                  base + aheadStart, Int(offsets[ahead &+ 1]) &- aheadStart)
              }
              let old = Int(order[new])
              let start = Int(offsets[old])
              let length = Int(offsets[old &+ 1]) &- start
              if length > 0 { (permutedBytes + end).update(from: base + start, count: length) }
              end &+= length
              permutedOffsets[new &+ 1] = UInt32(truncatingIfNeeded: end)
            }
          }
        }
      }
    }
    return StringColumn(
      bytes: Column(adopting: permutedBytes, count: total), offsets: Column(permutedOffsets))
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
