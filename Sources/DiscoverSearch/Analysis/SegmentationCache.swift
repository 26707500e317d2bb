import CPrefetch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Remembers ICU's dictionary segmentation of runs of Thai, Chinese or Japanese text.
///
/// Dictionary segmentation costs thousands of instructions per run, and the same runs come
/// back again and again in a collection (words, names, common phrases). The cache keys runs
/// by their bytes and replays their word boundaries; it stops growing at
/// ``maximumEntries`` runs so memory stays bounded.
///
/// A run and its boundaries are one record in one array, and the hash table's slot holds
/// where the record starts: a hit reads the slot, then the record, two cache misses where
/// separate tables of keys, key offsets and boundaries took four. (Open addressing with
/// linear probing, as in Knuth, *The Art of Computer Programming*, vol. 3, section 6.4.)
struct SegmentationCache {
  /// Runs remembered at most: about 8 MB of records and slots for runs of typical length.
  let maximumEntries: Int
  /// Longer runs are segmented every time: they rarely repeat. A record stores a run's
  /// length and its boundaries in single bytes, so this stays under 256.
  static let maximumRunBytes = 192

  /// Open addressing, a power of two long: 0 for an empty slot, else the upper 32 bits of
  /// the run's hash, then 1 + where its record starts in ``records``.
  private var slots: [UInt64] = []
  /// Per run: its length in bytes, its number of words, its bytes, then each word's start
  /// and end offsets.
  private var records: [UInt8] = []
  private var count = 0

  init(maximumEntries: Int = 1 << 17) {
    self.maximumEntries = maximumEntries
  }

  /// The hash of `run`, for ``segment(_:hash:into:)``; starts loading the slot where its
  /// lookup begins, so that work done before the lookup overlaps the cache miss.
  func prepareLookup(_ run: UnsafeBufferPointer<UInt8>) -> Int {
    let hash = ByteStringTable.hash(UnsafeRawBufferPointer(run))
    if !slots.isEmpty {
      slots.withUnsafeBufferPointer {
        cprefetch_for_reading($0.baseAddress! + (hash & ($0.count - 1)))
      }
    }
    return hash
  }

  /// Writes the word boundaries of `run` (start, end pairs of byte offsets) into `output`;
  /// `hash` is the run's ``prepareLookup(_:)``.
  ///
  /// - Complexity: O(n) in the run's length; ICU's segmentation only on a miss.
  mutating func segment(
    _ run: UnsafeBufferPointer<UInt8>, hash: Int, into output: inout UnsafeGrowableBuffer<Int32>
  ) {
    output.removeAll()
    let isCacheable = run.count <= SegmentationCache.maximumRunBytes
    var slot = -1
    if isCacheable {
      let (record, free) = find(run, hash: hash)
      if let record {
        records.withUnsafeBufferPointer { records in
          let wordCount = Int(records[record &+ 1])
          var index = record &+ 2 &+ run.count
          for _ in 0..<(2 &* wordCount) {
            output.append(Int32(records[index]))
            index &+= 1
          }
        }
        return
      }
      slot = free
    }
    DictionaryWordBreaker.forEachWord(in: run) { wordStart, wordEnd in
      output.append(Int32(wordStart))
      output.append(Int32(wordEnd))
    }
    // A run of at most 192 bytes has at most 192 words, each bounded by offsets that fit a
    // byte (ICU's words are nonempty and in order): the record's single bytes hold them.
    guard isCacheable, count < maximumEntries else { return }
    insert(run, hash: hash, slot: slot, words: output.buffer)
  }

  /// The record of `run` if it is remembered, and otherwise the free slot where it belongs
  /// (or -1 when there are no slots yet).
  private func find(_ run: UnsafeBufferPointer<UInt8>, hash: Int) -> (record: Int?, slot: Int) {
    guard !slots.isEmpty else { return (nil, -1) }
    let tag = UInt64(truncatingIfNeeded: hash) >> 32
    return slots.withUnsafeBufferPointer { slots in
      records.withUnsafeBufferPointer { records in
        let mask = slots.count &- 1
        var slot = hash & mask
        while true {
          let entry = slots[slot]
          if entry == 0 { return (nil, slot) }
          if entry >> 32 == tag {
            let record = Int(UInt32(truncatingIfNeeded: entry)) &- 1
            if Int(records[record]) == run.count
              && memcmp(records.baseAddress! + (record &+ 2), run.baseAddress!, run.count) == 0
            {
              return (record, slot)
            }
          }
          slot = (slot &+ 1) & mask
        }
      }
    }
  }

  /// Remembers `run`'s `words` (start, end pairs) in free slot `slot` (-1 when there are
  /// no slots yet).
  private mutating func insert(
    _ run: UnsafeBufferPointer<UInt8>, hash: Int, slot: Int, words: UnsafeBufferPointer<Int32>
  ) {
    let record = records.count
    records.append(UInt8(run.count))
    records.append(UInt8(words.count / 2))
    records.append(contentsOf: run)
    for offset in words { records.append(UInt8(offset)) }
    count += 1
    let entry = (UInt64(truncatingIfNeeded: hash) >> 32) << 32 | UInt64(record + 1)
    if slot < 0 || count * 2 > slots.count {
      grow()
      place(entry, hash: hash)
    } else {
      slots[slot] = entry
    }
  }

  /// Doubles the slots (starting at 64) and places every record again.
  private mutating func grow() {
    let old = slots
    slots = [UInt64](repeating: 0, count: Swift.max(64, old.count * 2))
    for entry in old where entry != 0 {
      // Slots keep only the upper half of a hash: hash the run again.
      let record = Int(UInt32(truncatingIfNeeded: entry)) - 1
      let hash = records.withUnsafeBytes {
        ByteStringTable.hash(
          UnsafeRawBufferPointer(rebasing: $0[(record + 2)..<(record + 2 + Int($0[record]))]))
      }
      place(entry, hash: hash)
    }
  }

  /// Puts `entry` into the first free slot from where `hash` begins.
  private mutating func place(_ entry: UInt64, hash: Int) {
    let mask = slots.count - 1
    var slot = hash & mask
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = entry
  }
}
