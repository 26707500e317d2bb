/// A list of strings per document (a video's hashtags), all lists in one arena.
///
/// Each document's list is one entry of a ``StringColumn``: every string's UTF-8 bytes
/// followed by the byte 0xFF, which UTF-8 never uses, so an entry splits without lengths and a
/// list costs one byte per string plus the entry's four-byte offset. An array of `String`s per
/// document would cost a heap allocation per list and 16 bytes per string, for a million
/// videos.
struct StringListColumn: Sendable {
  /// Ends every string of a list.
  static let terminator: UInt8 = 0xFF

  /// One entry per document: its strings, each followed by ``terminator``.
  let lists: StringColumn

  /// Adopts `lists`; `nil` when an entry does not end with a ``terminator`` (a damaged file).
  ///
  /// - Complexity: O(n) in the number of entries.
  init?(validating lists: StringColumn) {
    for index in 0..<lists.count {
      let bytes = lists.utf8(at: index)
      guard bytes.isEmpty || bytes[bytes.count - 1] == Self.terminator else { return nil }
    }
    self.lists = lists
  }

  private init(trusted lists: StringColumn) {
    self.lists = lists
  }

  /// The number of lists (documents).
  var count: Int { lists.count }

  /// Calls `body` with the UTF-8 bytes of each string of list `index`, in order.
  ///
  /// - Complexity: O(n) in the list's bytes.
  func forEachString(inListAt index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    let bytes = lists.utf8(at: index)
    var start = 0
    for end in bytes.indices where bytes[end] == Self.terminator {
      body(UnsafeBufferPointer(rebasing: bytes[start..<end]))
      start = end + 1
    }
  }

  /// The strings of list `index`, in order.
  ///
  /// - Complexity: O(n) in the list's bytes.
  func strings(at index: Int) -> [String] {
    var strings: [String] = []
    forEachString(inListAt: index) { strings.append(String(decoding: $0, as: UTF8.self)) }
    return strings
  }

  var byteCount: Int { lists.byteCount }

  /// Builds a ``StringListColumn``, one list per document in the order they are added.
  struct Builder: Sendable {
    private var lists = StringColumnBuilder()

    /// Adds the next document's list.
    ///
    /// - Complexity: O(n) in the strings' total length.
    mutating func append(_ strings: [String]) {
      lists.append(strings, eachFollowedBy: StringListColumn.terminator)
    }

    /// Makes room for `added` more lists' offsets.
    mutating func reserveCapacity(adding added: Int) {
      lists.reserveCapacity(adding: added)
    }

    /// Whether the bytes still fit the 32-bit offsets.
    var fitsOffsets: Bool { lists.fitsOffsets }

    /// The lists in snapshot order.
    func build(in order: DocumentOrder) -> StringListColumn {
      StringListColumn(trusted: lists.build(in: order))
    }
  }
}
