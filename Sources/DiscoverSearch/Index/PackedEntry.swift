/// The writer's postings entries, packed into 32-bit words in the order they are added.
///
/// A commit reads every entry once more, and until then the entries are most of what the
/// writer holds: at 8 bytes each, a million short videos take over 200 MB. Most entries
/// fit one word instead, the way a variable-byte code keeps small numbers short (Witten,
/// Moffat and Bell, *Managing Gigabytes*, 2nd ed., 1999, section 3.3; here with two lengths
/// only, so that a reader needs one test per entry):
///
/// - one word, top bit clear: the term id (under 2^21) in bits 10–30, the field in bits 8–9
///   and the position (under 256) in bits 0–7. Terms are numbered as first seen, so the
///   frequent ones are small, and fields are short;
/// - two words otherwise: a word with the top bit set, the field in bits 22–23 and the
///   position (up to ``PostingEntry/positionMask``) in bits 0–21, then the term id.
enum PackedEntry {
  /// Term ids below this fit the one-word form.
  static let shortTermLimit: UInt32 = 1 << 21
  /// Positions below this fit the one-word form.
  static let shortPositionLimit: UInt32 = 1 << 8
  /// Marks the first word of a two-word entry.
  private static let longMarker: UInt32 = 1 << 31

  /// Appends an entry to `words`: one word or two. Positions past
  /// ``PostingEntry/positionMask`` are stored as it.
  @inline(__always)
  static func append(
    term: UInt32, field: Int, position: UInt32, to words: inout UnsafeGrowableBuffer<UInt32>
  ) {
    let field = UInt32(truncatingIfNeeded: field) & 3
    if term < shortTermLimit && position < shortPositionLimit {
      words.append(term << 10 | field << 8 | position)
    } else {
      words.append(longMarker | field << 22 | min(position, PostingEntry.positionMask))
      words.append(term)
    }
  }

  /// The term of `word` read as a one-word entry: right when it is one, and some value under
  /// 2^22 otherwise (for prefetch hints, which only need to be right most of the time).
  @inline(__always)
  static func shortTerm(_ word: UInt32) -> UInt32 { word >> 10 & (1 << 22 - 1) }

  /// The entry that starts at `words[index]`; moves `index` to the next one.
  @inline(__always)
  static func read(_ words: UnsafePointer<UInt32>, at index: inout Int) -> PostingEntry {
    let word = words[index]
    if word & longMarker == 0 {
      index &+= 1
      return PostingEntry(term: word >> 10, fieldPosition: (word >> 8 & 3) << 30 | word & 0xFF)
    }
    let term = words[index &+ 1]
    index &+= 2
    return PostingEntry(
      term: term, fieldPosition: (word >> 22 & 3) << 30 | word & PostingEntry.positionMask)
  }
}
