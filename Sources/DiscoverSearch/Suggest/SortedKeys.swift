#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Byte strings in ascending byte order, stored back to back: a sorted array that stands in
/// for a trie.
///
/// Every node of the trie of these keys is a contiguous range of keys that share the node's
/// prefix, so a prefix lookup is two binary searches, and a node's children are found by
/// galloping through its range. This is the layout of Hsu and Ottaviano's "RMQ trie" ("Space-
/// efficient data structures for top-k completion", WWW 2013), and it takes one offset per key
/// instead of a node per byte.
struct SortedKeys: Sendable {
  /// The keys' bytes, back to back in key order.
  let bytes: Column<UInt8>
  /// `starts[i]..<starts[i + 1]` is key `i` in ``bytes``.
  let starts: Column<UInt32>
  /// For each pair of first bytes `b0 << 8 | b1` (`b1` 0 for a one-byte key), the first key
  /// that starts with that pair or a later one: 65,537 entries, so a lookup binary-searches
  /// only the keys of its first two bytes instead of the whole dictionary, saving about
  /// ten cache misses each time.
  let buckets: Column<UInt32>
  /// The first eight bytes of every ``headStride``-th key, big-endian and padded with
  /// zeros: a binary search compares these side by side and reads a key's bytes only
  /// when they tie, instead of two scattered reads (offset, then bytes) at every step.
  /// Truncating and padding keeps byte order (a key below another never has a larger
  /// head), so the search stays exact.
  let heads: Column<UInt64>
  /// One key in this many has its head in ``heads``.
  static let headStride = 8
  /// The heads of every ``coarseHeadStride``-th key: a first binary search over these
  /// (eight times fewer, so a bucket of thousands of keys spans a few cache lines) narrows
  /// the search over ``heads`` to one cache line.
  let coarseHeads: Column<UInt64>
  static let coarseHeadStride = 64
  /// For each pair of first bytes whose bucket holds at least ``thirdByteMinimum`` keys,
  /// 1 + the number of its table in ``thirdByteStarts``; 0 for the others (65,536 entries).
  let thirdByteTables: Column<UInt32>
  /// Tables of 257 entries, one per large bucket: entry `c` is the first key of the bucket
  /// whose third byte is `c` or more (a two-byte key counts as 0), entry 256 the bucket's
  /// end. A prefix of three bytes is then two reads, and a longer one a search among the
  /// keys of its first three bytes: the level below the two-byte table, where a dictionary
  /// of millions of terms has buckets of thousands.
  let thirdByteStarts: Column<UInt32>
  /// The fewest keys of a bucket given a table of third bytes.
  static let thirdByteMinimum = 256

  /// The keys of `bytes` at `starts`, read from a file: `nil` unless the starts begin at 0,
  /// never decrease, end at the bytes' end, and the keys are in strictly increasing order,
  /// which every search of them assumes.
  ///
  /// - Complexity: O(n) in the bytes.
  init?(validatingBytes bytes: Column<UInt8>, starts: Column<UInt32>) {
    guard Self.isStrictlyAscending(bytes: bytes, starts: starts) else { return nil }
    self.init(bytes: bytes, starts: starts)
  }

  /// Whether `starts` begin at 0, never decrease and end at the end of `bytes`, and the keys
  /// they delimit are in strictly increasing byte order.
  ///
  /// Neighbouring keys are compared by their first eight bytes as one big-endian word
  /// (zero-padded, as ``head(_:)``), and byte by byte only when those tie: dictionaries
  /// of millions of keys are checked on every open.
  ///
  /// - Complexity: O(n) in the keys, plus the bytes of neighbours whose heads tie.
  static func isStrictlyAscending(bytes: Column<UInt8>, starts: Column<UInt32>) -> Bool {
    guard starts.count >= 1, starts[0] == 0, Int(starts[starts.count - 1]) == bytes.count
    else { return false }
    var decreases = false
    for index in 1..<starts.count { decreases = decreases || starts[index] < starts[index - 1] }
    guard !decreases else { return false }
    var previousHead: UInt64 = 0
    for index in 0..<(starts.count - 1) {
      let start = Int(starts[index])
      let length = Int(starts[index + 1]) - start
      let head: UInt64
      if start + 8 <= bytes.count {
        // SAFETY: the eight bytes at `start` lie within `bytes` (checked just above).
        let word = UInt64(
          bigEndian: UnsafeRawPointer(bytes.base + start).loadUnaligned(
            as: UInt64.self))
        head = length >= 8 ? word : word & ~(UInt64.max >> UInt64(length * 8))
      } else {
        head = Self.head(UnsafeBufferPointer(start: bytes.base + start, count: length))
      }
      if index > 0 {
        if head < previousHead { return false }
        if head == previousHead {
          // Keys sharing their first eight bytes (long tags, phrases of one long word):
          // the rest by `memcmp`, then the shorter first.
          let previousStart = Int(starts[index - 1])
          let previousLength = start - previousStart
          let order = memcmp(
            bytes.base + previousStart, bytes.base + start, min(previousLength, length))
          guard order < 0 || (order == 0 && previousLength < length) else { return false }
        }
      }
      previousHead = head
    }
    return true
  }

  /// What the keys' lookups derive from them, as an index file keeps it (format 11) so that
  /// opening does not rebuild it. The two 65,536-entry tables are kept sparse: a dictionary
  /// of a few words would otherwise take half a megabyte each on disk.
  struct Tables {
    var heads: Column<UInt64>
    var coarseHeads: Column<UInt64>
    /// The nonempty buckets in pair order, each `pair << 32 | first key`.
    var buckets: Column<UInt64>
    /// The pairs that have a table of third bytes, ascending (table `i` belongs to the
    /// `i`-th).
    var thirdBytePairs: Column<UInt32>
    var thirdByteStarts: Column<UInt32>
  }

  /// The derived tables, for saving.
  var tables: Tables {
    var nonempty: [UInt64] = []
    var pairs: [UInt32] = []
    for pair in 0..<65_536 {
      if buckets[pair] < buckets[pair + 1] {
        nonempty.append(UInt64(pair) << 32 | UInt64(buckets[pair]))
      }
      if thirdByteTables[pair] != 0 { pairs.append(UInt32(pair)) }
    }
    return Tables(
      heads: heads, coarseHeads: coarseHeads, buckets: Column(nonempty),
      thirdBytePairs: Column(pairs), thirdByteStarts: thirdByteStarts)
  }

  /// The keys of `bytes` at `starts` with tables read from a file: `nil` unless the keys
  /// pass ``init(validatingBytes:starts:)``'s checks and the tables have the sizes the keys
  /// imply, with every range they give in order and within the keys, so that no lookup
  /// reads out of bounds. (A head that lies gives wrong answers, not wrong reads; the
  /// section checksums of ``IndexVerification/full`` catch it.)
  ///
  /// - Complexity: O(n) in the keys.
  init?(validatingBytes bytes: Column<UInt8>, starts: Column<UInt32>, tables: Tables) {
    guard Self.isStrictlyAscending(bytes: bytes, starts: starts) else { return nil }
    let count = starts.count - 1
    let headCount = (count + Self.headStride - 1) / Self.headStride
    let ratio = Self.coarseHeadStride / Self.headStride
    let tableCount = tables.thirdBytePairs.count
    guard tables.heads.count == headCount,
      tables.coarseHeads.count == (headCount + ratio - 1) / ratio,
      tables.thirdByteStarts.count == tableCount * 257,
      let buckets = Self.denseBuckets(tables.buckets, count: count),
      let thirdByteTables = Self.denseTables(tables.thirdBytePairs)
    else { return nil }
    for table in 0..<tableCount {
      let entries = UnsafeBufferPointer(
        rebasing: tables.thirdByteStarts.buffer[(table * 257)..<(table * 257 + 257)])
      guard Self.isAscending(entries, upTo: count) else { return nil }
    }
    self.bytes = bytes
    self.starts = starts
    heads = tables.heads
    coarseHeads = tables.coarseHeads
    self.buckets = buckets
    self.thirdByteTables = thirdByteTables
    thirdByteStarts = tables.thirdByteStarts
  }

  /// The 65,537 bucket starts from the nonempty buckets, or `nil` unless their pairs and
  /// first keys strictly increase and stay below 65,536 and `count`.
  private static func denseBuckets(_ nonempty: Column<UInt64>, count: Int) -> Column<UInt32>? {
    var isValid = true
    let dense = Column(count: 65_537, repeating: UInt32(count)) { dense in
      var pair = 0
      var previous: (pair: UInt64, key: UInt64)?
      for entry in nonempty.buffer {
        let (entryPair, key) = (entry >> 32, entry & 0xFFFF_FFFF)
        guard entryPair < 65_536, key < UInt64(count),
          previous.map({ entryPair > $0.pair && key > $0.key }) ?? true
        else {
          isValid = false
          return
        }
        previous = (entryPair, key)
        // This bucket, and the empty ones since the last, start at this key.
        dense[pair...Int(entryPair)].update(repeating: UInt32(key))
        pair = Int(entryPair) + 1
      }
    }
    return isValid ? dense : nil
  }

  /// The 65,536 table numbers (1 + the table's index, 0 for none) from the pairs that have
  /// tables, or `nil` unless the pairs strictly increase and stay below 65,536.
  private static func denseTables(_ pairs: Column<UInt32>) -> Column<UInt32>? {
    var isValid = true
    let dense = Column(count: 65_536, repeating: UInt32(0)) { dense in
      var previous: UInt32?
      for (index, pair) in pairs.buffer.enumerated() {
        guard pair < 65_536, previous.map({ pair > $0 }) ?? true else {
          isValid = false
          return
        }
        dense[Int(pair)] = UInt32(index + 1)
        previous = pair
      }
    }
    return isValid ? dense : nil
  }

  /// Whether `values` never decrease and none exceeds `limit`.
  private static func isAscending(_ values: UnsafeBufferPointer<UInt32>, upTo limit: Int) -> Bool {
    guard let last = values.last else { return true }
    guard Int(last) <= limit else { return false }
    var decreases = false
    for index in 1..<values.count { decreases = decreases || values[index] < values[index - 1] }
    return !decreases
  }

  init(bytes: Column<UInt8>, starts: Column<UInt32>) {
    self.bytes = bytes
    self.starts = starts
    let count = starts.count - 1
    var heads: [UInt64] = []
    heads.reserveCapacity(count / Self.headStride + 1)
    for index in Swift.stride(from: 0, to: count, by: Self.headStride) {
      let start = Int(starts[index])
      heads.append(
        Self.head(
          UnsafeBufferPointer(start: bytes.base + start, count: Int(starts[index + 1]) - start)))
    }
    self.heads = Column(heads)
    let ratio = Self.coarseHeadStride / Self.headStride
    coarseHeads = Column(Swift.stride(from: 0, to: heads.count, by: ratio).map { heads[$0] })
    let buckets = Column(count: 65_537, repeating: UInt32(count)) { buckets in
      var bucket = 0
      for index in 0..<count {
        let start = Int(starts[index])
        let length = Int(starts[index + 1]) - start
        let key =
          length == 0 ? 0 : Int(bytes[start]) << 8 | (length > 1 ? Int(bytes[start + 1]) : 0)
        guard bucket <= key else { continue }
        // This key's bucket, and the empty ones since the last key's, start here.
        buckets[bucket...key].update(repeating: UInt32(index))
        bucket = key + 1
      }
    }
    self.buckets = buckets
    var tableStarts: [UInt32] = []
    thirdByteTables = Column(count: 65_536, repeating: UInt32(0)) { tables in
      // Pairs whose second byte is 0 share their bucket with one-byte keys: no table.
      for pair in 0..<65_536 where pair & 0xFF != 0 {
        let low = Int(buckets[pair])
        let high = Int(buckets[pair + 1])
        guard high - low >= Self.thirdByteMinimum else { continue }
        tables[pair] = UInt32(tableStarts.count / 257 + 1)
        var third = 0
        for index in low..<high {
          let start = Int(starts[index])
          let byte = Int(starts[index + 1]) - start > 2 ? Int(bytes[start + 2]) : 0
          while third <= byte {
            tableStarts.append(UInt32(index))
            third += 1
          }
        }
        while third <= 256 {
          tableStarts.append(UInt32(high))
          third += 1
        }
      }
    }
    thirdByteStarts = Column(tableStarts)
  }

  /// The keys whose first bytes match those of `prefix`, and how many bytes of it that
  /// range covers exactly (every key of the range starts with them, and every key that
  /// starts with them is in the range): up to three.
  @inline(__always)
  private func bucketRange(of prefix: UnsafeBufferPointer<UInt8>) -> (
    keys: Range<Int>, depth: Int
  ) {
    guard let first = prefix.first else { return (0..<count, 0) }
    if prefix.count == 1 {
      let low = Int(first) << 8
      return (Int(buckets[low])..<Int(buckets[low + 256]), 1)
    }
    let pair = Int(first) << 8 | Int(prefix[1])
    // One-byte keys sort before every longer key with the same first byte and sit in the
    // bucket of `b0 << 8`, which a prefix of two or more bytes never matches.
    let bucket = Int(buckets[pair])..<Int(buckets[pair + 1])
    guard prefix[1] != 0 else { return (bucket, 1) }
    let table = Int(thirdByteTables[pair])
    guard prefix.count >= 3, table != 0, prefix[2] != 0 else { return (bucket, 2) }
    let entry = (table - 1) * 257 + Int(prefix[2])
    return (Int(thirdByteStarts[entry])..<Int(thirdByteStarts[entry + 1]), 3)
  }

  /// Sorts and stores `keys`, which must be distinct.
  ///
  /// - Returns: The stored keys and, for each stored key, its index in `keys`.
  /// - Complexity: O(n log n) comparisons of keys.
  static func make(sorting keys: [[UInt8]]) -> (keys: SortedKeys, order: [UInt32]) {
    var order = (0..<keys.count).map { UInt32($0) }
    keys.withUnsafeBufferPointer { keys in
      order.sort { lhs, rhs in
        keys[Int(lhs)].withUnsafeBufferPointer { left in
          keys[Int(rhs)].withUnsafeBufferPointer { right in
            SortedKeys.compare(left, right) < 0
          }
        }
      }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(keys.reduce(0) { $0 + $1.count })
    var starts: [UInt32] = [0]
    starts.reserveCapacity(keys.count + 1)
    for index in order {
      bytes += keys[Int(index)]
      starts.append(UInt32(truncatingIfNeeded: bytes.count))
    }
    return (SortedKeys(bytes: Column(bytes), starts: Column(starts)), order)
  }

  /// The number of keys.
  /// Merges several sorted key lists (a k-way merge, each step taking the smallest head):
  /// calls `body` once per distinct key, in order, with the key and, for each list holding
  /// it, the list's index and the key's position there. Returns the merged keys.
  ///
  /// - Complexity: O(k · s) key comparisons for k distinct keys and s lists.
  static func merging(
    _ lists: [SortedKeys],
    _ body: (UnsafeBufferPointer<UInt8>, [(list: Int, position: Int)]) -> Void
  ) -> SortedKeys {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(lists.reduce(0) { $0 + $1.bytes.count })
    var starts: [UInt32] = [0]
    var positions = [Int](repeating: 0, count: lists.count)
    var holders: [(list: Int, position: Int)] = []
    while true {
      var smallest: UnsafeBufferPointer<UInt8>?
      for (keys, position) in zip(lists, positions) where position < keys.count {
        let key = keys.key(position)
        if smallest.map({ compare(key, $0) < 0 }) ?? true { smallest = key }
      }
      guard let smallest else { break }
      holders.removeAll(keepingCapacity: true)
      for list in lists.indices where positions[list] < lists[list].count {
        if compare(lists[list].key(positions[list]), smallest) == 0 {
          holders.append((list, positions[list]))
          positions[list] += 1
        }
      }
      body(smallest, holders)
      bytes.append(contentsOf: smallest)
      starts.append(UInt32(truncatingIfNeeded: bytes.count))
    }
    return SortedKeys(bytes: Column(bytes), starts: Column(starts))
  }

  var count: Int { starts.count - 1 }

  /// The bytes taken.
  var byteCount: Int {
    bytes.byteCount + starts.byteCount + buckets.byteCount + heads.byteCount
      + coarseHeads.byteCount + thirdByteTables.byteCount + thirdByteStarts.byteCount
  }

  /// The first eight bytes of `key`, big-endian, padded with zeros.
  @inline(__always)
  static func head(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var head: UInt64 = 0
    for index in 0..<8 {
      head = head << 8 | (index < key.count ? UInt64(key[index]) : 0)
    }
    return head
  }

  /// Key `index`.
  @inline(__always)
  func key(_ index: Int) -> UnsafeBufferPointer<UInt8> {
    let start = Int(starts[index])
    return UnsafeBufferPointer(start: bytes.base + start, count: Int(starts[index + 1]) - start)
  }

  /// Key `index` as text.
  func string(_ index: Int) -> String {
    String(decoding: key(index), as: UTF8.self)
  }

  /// Lexicographic byte order: negative, zero or positive.
  @inline(__always)
  static func compare(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Int {
    let common = min(lhs.count, rhs.count)
    var index = 0
    while index < common {
      let left = lhs[index]
      let right = rhs[index]
      if left != right { return Int(left) - Int(right) }
      index += 1
    }
    return lhs.count - rhs.count
  }

  /// The keys that start with `prefix`, within `range`.
  ///
  /// - Complexity: O(log n) key comparisons.
  func range(withPrefix prefix: UnsafeBufferPointer<UInt8>, in range: Range<Int>? = nil)
    -> Range<Int>
  {
    let bucket = bucketRange(of: prefix)
    let range = range.map { $0.clamped(to: bucket.keys) } ?? bucket.keys
    if prefix.count <= bucket.depth { return range }
    let first = firstKey(notBelow: prefix, in: range)
    // The keys with the prefix end where galloping from the first finds one without it
    // (``endOfChild(from:upTo:depth:unit:)``): the few keys of a long prefix sit next to
    // each other, so they cost a few comparisons in the same cache lines.
    guard first < range.upperBound else { return first..<first }
    let candidate = key(first)
    guard candidate.count >= prefix.count,
      Self.compare(UnsafeBufferPointer(rebasing: candidate[0..<prefix.count]), prefix) == 0
    else { return first..<first }
    return first..<endOfChild(from: first, upTo: range.upperBound, depth: 0, unit: prefix)
  }

  /// The first key of `range` that is not below `prefix` in byte order.
  ///
  /// Binary searches over the sampled heads (``coarseHeads`` for a wide range, then
  /// ``heads``) narrow the range to the keys after the last sample below `prefix`; a binary
  /// search over those keys ends the search.
  ///
  /// - Complexity: O(log n) comparisons of heads, O(log ``headStride``) of keys.
  private func firstKey(notBelow prefix: UnsafeBufferPointer<UInt8>, in range: Range<Int>) -> Int {
    let prefixHead = Self.head(prefix)
    var range = range
    if range.count > 2 * Self.coarseHeadStride {
      range = narrowed(
        range, samples: coarseHeads, stride: Self.coarseHeadStride, prefix: prefix,
        prefixHead: prefixHead)
    }
    range = narrowed(
      range, samples: heads, stride: Self.headStride, prefix: prefix, prefixHead: prefixHead)
    var first = range.lowerBound
    var end = range.upperBound
    while first < end {
      let middle = (first + end) >> 1
      if Self.compare(key(middle), prefix) < 0 { first = middle + 1 } else { end = middle }
    }
    return first
  }

  /// The part of `range` where its first key not below `prefix` lies, found by a binary
  /// search over `samples`, the heads of every `stride`-th key: after the last sampled key
  /// below the prefix, up to and including the first one not below it.
  @inline(__always)
  private func narrowed(
    _ range: Range<Int>, samples: Column<UInt64>, stride: Int,
    prefix: UnsafeBufferPointer<UInt8>, prefixHead: UInt64
  ) -> Range<Int> {
    var low = (range.lowerBound + stride - 1) / stride
    var high = (range.upperBound + stride - 1) / stride
    while low < high {
      let middle = (low + high) >> 1
      let head = samples[middle]
      let isBelow =
        head != prefixHead ? head < prefixHead : Self.compare(key(middle * stride), prefix) < 0
      if isBelow { low = middle + 1 } else { high = middle }
    }
    let lower = max(range.lowerBound, low > 0 ? (low - 1) * stride + 1 : 0)
    return lower..<max(lower, min(range.upperBound, low * stride + 1))
  }

  /// The index of a key equal to `key`, if there is one.
  ///
  /// - Complexity: O(log n) key comparisons.
  func index(of key: UnsafeBufferPointer<UInt8>) -> Int? {
    let bucket = bucketRange(of: key).keys
    let found = firstKey(notBelow: key, in: bucket)
    guard found < bucket.upperBound, Self.compare(self.key(found), key) == 0 else { return nil }
    return found
  }

  /// The end of the child that starts at `start`: the first key in `start..<end` whose
  /// bytes `depth..<depth + unit.count` differ from `unit`.
  ///
  /// Keys in the range share their first `depth` bytes and are sorted, so the keys with
  /// `unit` next are contiguous. Galloping (exponential then binary search) costs
  /// O(log c) comparisons for a child of c keys, so small children deep in the trie are cheap.
  func endOfChild(from start: Int, upTo end: Int, depth: Int, unit: UnsafeBufferPointer<UInt8>)
    -> Int
  {
    @inline(__always) func matches(_ index: Int) -> Bool {
      let candidate = key(index)
      guard candidate.count >= depth + unit.count else { return false }
      for offset in 0..<unit.count where candidate[depth + offset] != unit[offset] {
        return false
      }
      return true
    }
    var known = start  // matches
    var step = 1
    while known + step < end && matches(known + step) {
      known += step
      step <<= 1
    }
    var low = known + 1
    var high = min(known + step, end)
    while low < high {
      let middle = (low + high) >> 1
      if matches(middle) { low = middle + 1 } else { high = middle }
    }
    return low
  }
}

extension SortedKeys {
  /// A child of a trie node: the keys that continue with one character.
  struct Child: Sendable {
    var keys: Range<Int>
    /// The character (Unicode scalar value).
    var scalar: UInt32
    /// Its length in UTF-8 bytes.
    var length: UInt8
  }

  /// The children of the node `range`, whose keys share `depth` bytes (the node's own key,
  /// if it is one, is not a child).
  ///
  /// - Complexity: O(c log(n / c)) for c children of n keys.
  func children(of range: Range<Int>, depth: Int) -> [Child] {
    var result: [Child] = []
    var index = range.lowerBound
    while index < range.upperBound {
      let key = key(index)
      guard key.count > depth else {
        index += 1
        continue
      }
      let (scalar, length) = UTF8Scalar.decode(key, at: depth)
      let end = endOfChild(
        from: index, upTo: range.upperBound, depth: depth,
        unit: UnsafeBufferPointer(rebasing: key[depth..<(depth + length)]))
      result.append(Child(keys: index..<end, scalar: scalar, length: UInt8(length)))
      index = end
    }
    return result
  }

  /// Children with the masks of their bytes, as an index file keeps them (format 11): five
  /// words each, the range's bounds, the scalar with its length above bit 32, and the mask.
  static func encode(_ children: [(child: Child, mask: ByteMask)]) -> [UInt64] {
    children.flatMap { child, mask in
      [
        UInt64(child.keys.lowerBound), UInt64(child.keys.upperBound),
        UInt64(child.scalar) | UInt64(child.length) << 32, mask.low, mask.high,
      ]
    }
  }

  /// The children of the node `range` (whose keys share `depth` bytes) read back from
  /// ``encode(_:)``'s words, or `nil` unless they are in order within the node and the
  /// first and last key of each agree on the child's bytes, so that every key between them
  /// (the keys being sorted) continues the node with the same character.
  ///
  /// - Complexity: O(c) for c children.
  func decodeChildren(_ words: Column<UInt64>, of range: Range<Int>, depth: Int)
    -> [(child: Child, mask: ByteMask)]?
  {
    guard words.count % 5 == 0 else { return nil }
    var result: [(child: Child, mask: ByteMask)] = []
    result.reserveCapacity(words.count / 5)
    var previousEnd = UInt64(range.lowerBound)
    for entry in stride(from: 0, to: words.count, by: 5) {
      let lower = words[entry]
      let upper = words[entry + 1]
      let length = Int(words[entry + 2] >> 32)
      guard previousEnd <= lower, lower < upper, upper <= UInt64(range.upperBound),
        (1...4).contains(length)
      else { return nil }
      let first = key(Int(lower))
      let last = key(Int(upper) - 1)
      guard first.count >= depth + length, last.count >= depth + length,
        (depth..<(depth + length)).allSatisfy({ first[$0] == last[$0] })
      else { return nil }
      result.append(
        (
          Child(
            keys: Int(lower)..<Int(upper), scalar: UInt32(truncatingIfNeeded: words[entry + 2]),
            length: UInt8(length)),
          ByteMask(low: words[entry + 3], high: words[entry + 4])
        ))
      previousEnd = upper
    }
    return result
  }

  /// The nodes of the trie, as ranges of keys, that hold at least `minimumSize` keys (the
  /// root excepted), walked by character.
  ///
  /// - Complexity: O(c log n) for the c children of the nodes returned.
  func nodes(minimumSize: Int) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var pending = [(range: 0..<count, depth: 0)]
    while let (range, depth) = pending.popLast() {
      for child in children(of: range, depth: depth) where child.keys.count >= minimumSize {
        result.append(child.keys)
        pending.append((child.keys, depth + Int(child.length)))
      }
    }
    return result
  }

  /// The keys of `range` whose bytes `depth..<depth + unit.count` equal `unit`; all keys of
  /// the range share their first `depth` bytes.
  ///
  /// - Complexity: O(log n) comparisons of at most `unit.count` bytes.
  func childRange(in range: Range<Int>, depth: Int, unit: UnsafeBufferPointer<UInt8>)
    -> Range<Int>
  {
    /// The order of key `index`'s bytes from `depth` against `unit` (a shorter key first).
    @inline(__always) func order(_ index: Int) -> Int {
      let candidate = key(index)
      let available = candidate.count - depth
      let common = min(max(available, 0), unit.count)
      for offset in 0..<common where candidate[depth + offset] != unit[offset] {
        return Int(candidate[depth + offset]) - Int(unit[offset])
      }
      return common < unit.count ? -1 : 0
    }
    var low = range.lowerBound
    var high = range.upperBound
    while low < high {
      let middle = (low + high) >> 1
      if order(middle) < 0 { low = middle + 1 } else { high = middle }
    }
    // The child's end by galloping from its first key: deep in the trie children are a
    // few keys long, so this reads keys next to the first instead of halving the node.
    guard low < range.upperBound, order(low) == 0 else { return low..<low }
    return low..<endOfChild(from: low, upTo: range.upperBound, depth: depth, unit: unit)
  }
}

/// UTF-8 decoding of one scalar, for walking keys by character.
enum UTF8Scalar {
  /// The length of the scalar whose first byte is `lead`: 1 to 4 (1 for a stray byte).
  @inline(__always)
  static func length(lead: UInt8) -> Int {
    if lead < 0xC0 { return 1 }
    if lead < 0xE0 { return 2 }
    if lead < 0xF0 { return 3 }
    return 4
  }

  /// The scalar value at `offset` of `bytes` and its length; stray bytes decode as themselves.
  @inline(__always)
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (
    value: UInt32, length: Int
  ) {
    let lead = bytes[offset]
    let length = min(Self.length(lead: lead), bytes.count - offset)
    guard length > 1 else { return (UInt32(lead), 1) }
    var value = UInt32(lead) & (0xFF >> (length + 1))
    for index in 1..<length { value = value << 6 | UInt32(bytes[offset + index] & 0x3F) }
    return (value, length)
  }

  /// The UTF-8 bytes of scalar value `value`, first byte lowest, and their count; a value
  /// that is no scalar (a surrogate, or past U+10FFFF) stands for its low byte.
  @inline(__always)
  static func encode(_ value: UInt32) -> (packed: UInt32, length: Int) {
    switch value {
    case 0..<0x80:
      return (value, 1)
    case 0x80..<0x800:
      return ((0xC0 | value >> 6) | (0x80 | value & 0x3F) << 8, 2)
    case 0x800..<0xD800, 0xE000..<0x10000:
      return (
        (0xE0 | value >> 12) | (0x80 | value >> 6 & 0x3F) << 8 | (0x80 | value & 0x3F) << 16, 3
      )
    case 0x10000...0x10FFFF:
      return (
        (0xF0 | value >> 18) | (0x80 | value >> 12 & 0x3F) << 8 | (0x80 | value >> 6 & 0x3F) << 16
          | (0x80 | value & 0x3F) << 24, 4
      )
    default:
      return (value & 0xFF, 1)
    }
  }

  /// The scalar values of `bytes`.
  static func scalars(of bytes: UnsafeBufferPointer<UInt8>) -> [UInt32] {
    var result: [UInt32] = []
    append(scalarsOf: bytes, to: &result)
    return result
  }

  /// Appends the scalar values of `bytes` to `scalars` (reusing its storage).
  static func append(scalarsOf bytes: UnsafeBufferPointer<UInt8>, to scalars: inout [UInt32]) {
    var offset = 0
    while offset < bytes.count {
      let (value, length) = decode(bytes, at: offset)
      scalars.append(value)
      offset += length
    }
  }
}
