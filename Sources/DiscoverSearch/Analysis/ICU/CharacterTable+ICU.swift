import CICU

/// Per-code-point facts the tokenizer needs, read from ICU once and kept in flat tables.
///
/// ICU is slow to call per character, so the whole Basic Multilingual Plane is classified
/// and folded once (about 65,000 calls, a few milliseconds) when the table is first used.
/// Code points above U+FFFF (emoji, rare ideographs) ask ICU directly; they are rare in text.
///
/// Only files under `Analysis/ICU/` touch the `CICU` shim.
struct CharacterTable: Sendable {
  /// Flags of one code point, the `CICU_*` bits of the shim.
  struct Flags: OptionSet, Sendable {
    let rawValue: UInt16
    static let letter = Flags(rawValue: UInt16(CICU_LETTER))
    static let number = Flags(rawValue: UInt16(CICU_NUMBER))
    static let mark = Flags(rawValue: UInt16(CICU_MARK))
    static let uppercase = Flags(rawValue: UInt16(CICU_UPPERCASE))
    static let space = Flags(rawValue: UInt16(CICU_SPACE))
    static let pictographic = Flags(rawValue: UInt16(CICU_PICTOGRAPHIC))
    static let dictionaryScript = Flags(rawValue: UInt16(CICU_DICTIONARY_SCRIPT))
    static let cjScript = Flags(rawValue: UInt16(CICU_CJ_SCRIPT))
    static let hangul = Flags(rawValue: UInt16(CICU_HANGUL))
    static let diacritic = Flags(rawValue: UInt16(CICU_DIACRITIC))
    static let contextFree = Flags(rawValue: UInt16(CICU_CONTEXT_FREE))

    /// Letters, numbers and marks continue a word.
    static let wordCharacter: Flags = [.letter, .number, .mark]
  }

  /// The shared table, built on first use (thread-safe lazy initialization of a global).
  static let shared = CharacterTable()

  /// Flags for U+0000 to U+FFFF.
  private let bmpFlags: [UInt16]
  /// For each BMP code point, the start of its folded UTF-8 bytes in `foldBytes`; the fold
  /// of code point `c` is `foldBytes[foldStarts[c]..<foldStarts[c + 1]]`. Only meaningful
  /// for code points flagged `contextFree`.
  private let foldStarts: [UInt32]
  private let foldBytes: [UInt8]

  private init() {
    var flags = [UInt16](repeating: 0, count: 0x10000)
    var starts = [UInt32](repeating: 0, count: 0x10001)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(200_000)
    var source = [UInt8](repeating: 0, count: 4)
    var folded = [UInt8](repeating: 0, count: 64)
    for codePoint in 0..<0x10000 {
      starts[codePoint] = UInt32(bytes.count)
      if codePoint >= 0xD800 && codePoint <= 0xDFFF { continue }
      var value = UInt16(truncatingIfNeeded: cicu_classify(UInt32(codePoint)))
      if codePoint < 0x80 {
        // ASCII folds by lowercasing, inline in the tokenizer.
        flags[codePoint] = value
        continue
      }
      let sourceCount = UTF8Encoding.encode(UInt32(codePoint), into: &source)
      let length = source.withUnsafeBufferPointer { sourcePointer in
        folded.withUnsafeMutableBufferPointer { foldedPointer in
          cicu_fold_utf8(
            sourcePointer.baseAddress, Int32(sourceCount), foldedPointer.baseAddress,
            Int32(foldedPointer.count))
        }
      }
      if length >= 0 && value & UInt16(CICU_CONTEXT_FREE) != 0 {
        let result = folded[0..<Int(length)]
        if CharacterTable.foldStaysContextFree(result) {
          bytes.append(contentsOf: result)
        } else {
          value &= ~UInt16(CICU_CONTEXT_FREE)
        }
      } else {
        value &= ~UInt16(CICU_CONTEXT_FREE)
      }
      flags[codePoint] = value
    }
    starts[0x10000] = UInt32(bytes.count)
    bmpFlags = flags
    foldStarts = starts
    foldBytes = bytes
  }

  /// A fold result can join its neighbours when it holds a combining mark or a conjoining
  /// Hangul jamo (halfwidth katakana voicing marks and compatibility jamo fold to those);
  /// such code points must be folded in context, by ICU.
  private static func foldStaysContextFree(_ bytes: ArraySlice<UInt8>) -> Bool {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let (codePoint, width) = UTF8Encoding.decode(bytes, at: index)
      index += max(width, 1)
      if codePoint >= 0x1100 && codePoint <= 0x11FF { return false }
      if codePoint >= 0x3130 && codePoint <= 0x318F { return false }
      if codePoint >= 0xA960 && codePoint <= 0xA97F { return false }
      if codePoint >= 0xD7B0 && codePoint <= 0xD7FF { return false }
      let flags = cicu_classify(codePoint)
      if flags & CICU_MARK != 0 { return false }
    }
    return true
  }

  /// The flags of a code point.
  @inline(__always)
  func flags(_ codePoint: UInt32) -> Flags {
    if codePoint < 0x10000 {
      return Flags(rawValue: bmpFlags.withUnsafeBufferPointer { $0[Int(codePoint)] })
    }
    return Flags(rawValue: UInt16(truncatingIfNeeded: cicu_classify(codePoint)))
  }

  /// Appends the fold of a context-free BMP code point to `output`.
  ///
  /// - Precondition: `flags(codePoint)` contains `.contextFree` and `codePoint < 0x10000`.
  @inline(__always)
  func appendFold(of codePoint: UInt32, to output: inout UnsafeGrowableBuffer<UInt8>) {
    let index = Int(codePoint)
    foldStarts.withUnsafeBufferPointer { starts in
      let start = Int(starts[index])
      let end = Int(starts[index + 1])
      foldBytes.withUnsafeBufferPointer { bytes in
        if end - start == 1 {
          output.append(bytes[start])
        } else {
          output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
        }
      }
    }
  }
}

/// Folding of text that needs context (marks, jamo, scripts written with combining vowels).
enum ContextualFolding {
  /// Folds UTF-8 bytes with ICU (NFKC case folding, diacritics removed) and appends the
  /// result. Returns `false` and appends nothing when ICU rejects the text.
  ///
  /// - Complexity: O(n) in the length of `source`.
  static func appendFold(
    of source: UnsafeBufferPointer<UInt8>, to output: inout UnsafeGrowableBuffer<UInt8>
  ) -> Bool {
    if source.isEmpty { return true }
    var capacity = source.count * 3 + 16
    while true {
      let start = output.count
      output.append(repeating: 0, count: capacity)
      let length = cicu_fold_utf8(
        source.baseAddress, Int32(source.count), output.base + start, Int32(capacity))
      if length >= 0 {
        output.truncate(to: start + Int(length))
        return true
      }
      output.truncate(to: start)
      if length == Int32.min { return false }
      capacity = Int(-length) + 16
    }
  }
}

/// Dictionary word breaks for Thai, Lao, Khmer, Myanmar, Chinese and Japanese runs.
enum DictionaryWordBreaker {
  /// The largest number of words taken from one run; longer runs are cut (a run this long
  /// is not a title a person typed).
  static let maximumWordsPerRun = 4096

  /// Calls `body` with the byte range of each word in `text`, in order.
  ///
  /// - Complexity: O(n) in the length of `text`, in ICU's dictionary-based break iterator.
  static func forEachWord(
    in text: UnsafeBufferPointer<UInt8>, _ body: (_ start: Int, _ end: Int) -> Void
  ) {
    guard !text.isEmpty, text.count < Int(Int32.max) else { return }
    let capacity = min(maximumWordsPerRun, text.count)
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: capacity * 2) { buffer in
      let starts = buffer.baseAddress!
      let ends = starts + capacity
      let count = cicu_word_segments(
        text.baseAddress, Int32(text.count), starts, ends, Int32(capacity))
      if count <= 0 { return }
      for index in 0..<Int(count) {
        body(Int(starts[index]), Int(ends[index]))
      }
    }
  }
}

/// Unicode names of emoji, so that "fire" finds 🔥 and 🔥 finds "fire".
///
/// The words sit in flat memory, indexed by code point: the tokenizer looks them up for every
/// emoji it meets, in documents and in highlighted titles, and a dictionary of arrays cost a
/// hash and a retain per word there.
enum EmojiNames {
  /// Words too common in emoji names to help a search ("face with tears of joy").
  private static let skippedWords: Set<String> = [
    "with", "of", "and", "the", "a", "an", "in", "on", "for", "sign", "symbol",
  ]

  /// Extended_Pictographic lives in these ranges (Unicode 15 emoji data).
  private static let ranges: [ClosedRange<UInt32>] = [
    0x00A9...0x00AE, 0x203C...0x3299, 0x1F000...0x1FAFF,
  ]

  /// The table, allocated once and never freed: pointers copy without reference counting.
  private struct Storage: @unchecked Sendable {
    // Invariant that makes this Sendable: written once, while the static initializer runs,
    // and only read afterwards.
    /// Per slot (a code point of ``ranges``, in order), the index of its first word; one more
    /// entry ends the last slot.
    let firstWords: UnsafeMutablePointer<UInt32>
    /// Per word, where its bytes end in `bytes`; entry 0 is 0.
    let wordEnds: UnsafeMutablePointer<UInt32>
    let bytes: UnsafeMutablePointer<UInt8>
  }

  /// Name words (lowercased) of every pictographic code point, read from ICU once.
  private static let storage: Storage = {
    var firstWords: [UInt32] = []
    var wordEnds: [UInt32] = [0]
    var bytes: [UInt8] = []
    var buffer = [CChar](repeating: 0, count: 128)
    for range in ranges {
      for codePoint in range {
        precondition(
          slot(of: codePoint) == firstWords.count, "EmojiNames.slot(of:) and ranges disagree")
        firstWords.append(UInt32(wordEnds.count - 1))
        guard cicu_classify(codePoint) & CICU_PICTOGRAPHIC != 0 else { continue }
        let length = buffer.withUnsafeMutableBufferPointer {
          cicu_char_name(codePoint, $0.baseAddress, Int32($0.count))
        }
        guard length > 0 else { continue }
        let name = String(
          decoding: buffer[0..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let words = name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
          .map(String.init).filter { !skippedWords.contains($0) }
        for word in words {
          bytes += word.utf8
          wordEnds.append(UInt32(bytes.count))
        }
      }
    }
    firstWords.append(UInt32(wordEnds.count - 1))
    func copy<T>(_ array: [T]) -> UnsafeMutablePointer<T> {
      let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(array.count, 1))
      pointer.initialize(from: array, count: array.count)
      return pointer
    }
    return Storage(firstWords: copy(firstWords), wordEnds: copy(wordEnds), bytes: copy(bytes))
  }()

  /// The slot of a code point in the table, if it lies in ``ranges``.
  @inline(__always)
  private static func slot(of codePoint: UInt32) -> Int? {
    // The ranges of ``ranges`` back to back, spelled out so that a lookup reads no array;
    // `storage` checks that they agree.
    switch codePoint {
    case 0x00A9...0x00AE: Int(codePoint - 0x00A9)
    case 0x203C...0x3299: 6 + Int(codePoint - 0x203C)
    case 0x1F000...0x1FAFF: 6 + 4_702 + Int(codePoint - 0x1F000)
    default: nil
    }
  }

  /// Calls `body` with each name word of a pictographic code point (none when it has none),
  /// in order.
  @inline(__always)
  static func forEachWord(of codePoint: UInt32, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    guard let slot = slot(of: codePoint) else { return }
    let storage = self.storage
    for word in Int(storage.firstWords[slot])..<Int(storage.firstWords[slot + 1]) {
      let start = Int(storage.wordEnds[word])
      body(
        UnsafeBufferPointer(
          start: storage.bytes + start, count: Int(storage.wordEnds[word + 1]) - start))
    }
  }

  /// How many name words a code point has.
  static func wordCount(of codePoint: UInt32) -> Int {
    guard let slot = slot(of: codePoint) else { return 0 }
    return Int(storage.firstWords[slot + 1] - storage.firstWords[slot])
  }
}
