import Synchronization

/// Which posting lists of a type read from disk have had their blocks checked.
///
/// Opening checks the tables every list points into (sizes, offsets, orders), which is cheap,
/// and leaves decoding each block to the first search that uses the list: at a million
/// documents, decoding every block on open took a third of the time to the first search.
/// A list is checked once per process (``PostingsValidator/validateList(_:)``), before any
/// search reads it, and a damaged list fails that search with `corruptIndex` every time.
/// Lucene similarly leaves whole-file checks to `CheckIndex` and merges, and keeps only
/// bounds checks on the read path.
///
/// One bit per list, set once and never cleared, so a reader that sees the bit set also sees
/// a checked list (the list's bytes are immutable; the bit only saves repeating the check).
final class PostingListChecks: @unchecked Sendable {
  // SAFETY: `words` is allocated and initialized once in `init` and freed in `deinit`; every
  // access after `init` is an atomic load or `bitwiseOr` on one word, so concurrent readers
  // marking lists race on nothing. The index `list >> 6` is checked against `wordCount`.
  private let words: UnsafeMutablePointer<Atomic<UInt64>>
  private let wordCount: Int
  /// The index file's path, for error messages.
  let path: String

  /// Marks for `listCount` lists, none checked yet.
  init(listCount: Int, path: String) {
    wordCount = (listCount + 63) >> 6
    words = .allocate(capacity: max(wordCount, 1))
    for word in 0..<wordCount { (words + word).initialize(to: Atomic(0)) }
    self.path = path
  }

  deinit {
    words.deinitialize(count: wordCount)
    words.deallocate()
  }

  /// Whether list `list` was checked.
  @inline(__always)
  func isChecked(_ list: Int) -> Bool {
    let word = list >> 6
    precondition(word < wordCount, "list \(list) outside the checked range")
    return words[word].load(ordering: .acquiring) & (1 << UInt64(list & 63)) != 0
  }

  /// Records that list `list` passed its check.
  func markChecked(_ list: Int) {
    let word = list >> 6
    precondition(word < wordCount, "list \(list) outside the checked range")
    words[word].bitwiseOr(1 << UInt64(list & 63), ordering: .releasing)
  }
}

extension TypePostings {
  /// The list index of `term`, after checking the list's blocks if no search has yet.
  ///
  /// Every search reaches the postings of a term read from disk through here (or through
  /// lists a plan made here), so no block is decoded before it was checked.
  ///
  /// - Throws: ``SearchError/Code/corruptIndex`` when the list is damaged.
  /// - Complexity: O(1) once checked; the first time, O(p) in the list's postings.
  func checkedListIndex(for term: TermID) throws -> Int? {
    guard let list = listIndex(for: term) else { return nil }
    guard let checks = listChecks, !checks.isChecked(list) else { return list }
    try PostingsValidator(postings: self, path: checks.path).validateList(list)
    checks.markChecked(list)
    return list
  }
}
