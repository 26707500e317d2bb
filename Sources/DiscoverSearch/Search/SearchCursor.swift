/// Where a page of results ended: pass it back to get the next page.
///
/// The cursor holds the rank of the last result shown (search-after pagination, like
/// Elasticsearch's `search_after`), not an offset, so page two neither repeats nor skips
/// hits as long as the index did not change between the two searches. It is an opaque
/// string that can travel through an app and back (``token``).
public struct SearchCursor: Sendable, Hashable, CustomStringConvertible {
  /// The cursor as an opaque, URL-safe string.
  public let token: String

  /// Restores a cursor from its ``token``.
  public init(token: String) {
    self.token = token
  }

  public var description: String { token }

  /// Deep pages end here: a search returns no cursor past this many results. Each page
  /// costs about the same as the first, but nobody reads this far; the cap bounds what a
  /// scraper can walk (Elasticsearch's `index.max_result_window` plays the same role).
  public static let maximumDepth = 10_000

  /// What a cursor encodes.
  struct Contents: Equatable {
    var queryHash: UInt64
    var key: RankKey
    /// How many results earlier pages returned.
    var offset: Int
    /// The recency origin of page one (seconds since 1970), so that later pages rank with
    /// the same ages even when the clock has moved on.
    var originSeconds: Int64 = 0
    /// Where in the Top tab's sections the page ended (see ``TopTabPolicy``); 0 elsewhere.
    var section: UInt8 = 0
  }

  private static let version: UInt8 = 2

  init(_ contents: Contents) {
    var bytes: [UInt8] = [SearchCursor.version]
    func append<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    append(contents.queryHash)
    bytes.append(contents.key.coverage)
    append(contents.key.score.bitPattern)
    bytes.append(contents.key.typeIndex)
    append(contents.key.document)
    append(UInt32(clamping: contents.offset))
    append(contents.originSeconds)
    bytes.append(contents.section)
    token = Base64URL.encode(bytes)
  }

  /// Decodes the cursor, checking it belongs to `query` in `tab` searched with the same
  /// matching (as you type, `isPrefix`, or by whole words).
  ///
  /// - Throws: ``SearchError/Code/invalidQuery`` when the cursor is malformed or was made
  ///   for another query or tab, or for the same query with the other matching, whose
  ///   message names that as the reason.
  func contents(query: String, tab: SearchTab, isPrefix: Bool) throws -> Contents {
    let queryHash = Self.hash(query: query, tab: tab, isPrefix: isPrefix)
    guard token.utf8.count < 64, let bytes = Base64URL.decode(token), bytes.count == 32,
      bytes[0] == SearchCursor.version
    else {
      throw SearchError(
        .invalidQuery,
        "the page cursor is malformed; pass back the nextCursor of a previous response, or none for the first page"
      )
    }
    func read<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
      var value = T.zero
      withUnsafeMutableBytes(of: &value) {
        $0.copyBytes(from: bytes[offset..<(offset + MemoryLayout<T>.size)])
      }
      return T(littleEndian: value)
    }
    let hash = read(UInt64.self, at: 1)
    guard hash == queryHash else {
      guard hash == Self.hash(query: query, tab: tab, isPrefix: !isPrefix) else {
        throw SearchError(
          .invalidQuery,
          "the page cursor belongs to another query or tab; start again from the first page")
      }
      let made =
        isPrefix
        ? "by whole words, not as you type (matching the last word as a prefix)"
        : "as you type (matching the last word as a prefix), not by whole words"
      throw SearchError(
        .invalidQuery,
        "the page cursor belongs to this query searched \(made); page on with the matching it was made with, or start again from the first page"
      )
    }
    let key = RankKey(
      coverage: bytes[9], score: Float(bitPattern: read(UInt32.self, at: 10)),
      typeIndex: bytes[14], document: read(UInt32.self, at: 15))
    // Origins are kept within ±10^15 seconds (``RecencyOptions``); a cursor claiming
    // another was not made by a search.
    let originSeconds = read(Int64.self, at: 23)
    guard key.typeIndex < 4, bytes[31] < 3, originSeconds.magnitude <= 1_000_000_000_000_000
    else {
      throw SearchError(
        .invalidQuery, "the page cursor is malformed; start again from the first page")
    }
    return Contents(
      queryHash: hash, key: key, offset: Int(read(UInt32.self, at: 19)),
      originSeconds: originSeconds, section: bytes[31])
  }

  /// A stable hash of the query and tab (64-bit FNV-1a, Fowler, Noll and Vo), the same in
  /// every process, unlike Swift's seeded `Hasher`.
  ///
  /// A search as you type (`isPrefix`) matches more than the same words searched whole, so
  /// its cursors differ.
  static func hash(query: String, tab: SearchTab, isPrefix: Bool = false) -> UInt64 {
    FNV1a.hash(query.utf8 + [0] + tab.rawValue.utf8 + (isPrefix ? [1] : []))
  }
}

/// Base64 with the URL-safe alphabet and no padding (RFC 4648, section 5).
enum Base64URL {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  static func encode(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count * 4 + 2) / 3)
    var index = 0
    while index < bytes.count {
      let remaining = bytes.count - index
      let b0 = UInt32(bytes[index])
      let b1 = remaining > 1 ? UInt32(bytes[index + 1]) : 0
      let b2 = remaining > 2 ? UInt32(bytes[index + 2]) : 0
      let group = b0 << 16 | b1 << 8 | b2
      output.append(alphabet[Int(group >> 18 & 63)])
      output.append(alphabet[Int(group >> 12 & 63)])
      if remaining > 1 { output.append(alphabet[Int(group >> 6 & 63)]) }
      if remaining > 2 { output.append(alphabet[Int(group & 63)]) }
      index += 3
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The decoded bytes, or `nil` when `text` is not unpadded base64url.
  static func decode(_ text: String) -> [UInt8]? {
    var values: [UInt32] = []
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(UInt32(byte - UInt8(ascii: "A")))
      case UInt8(ascii: "a")...UInt8(ascii: "z"):
        values.append(UInt32(byte - UInt8(ascii: "a") + 26))
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        values.append(UInt32(byte - UInt8(ascii: "0") + 52))
      case UInt8(ascii: "-"): values.append(62)
      case UInt8(ascii: "_"): values.append(63)
      default: return nil
      }
    }
    guard values.count % 4 != 1 else { return nil }
    var output: [UInt8] = []
    var index = 0
    while index < values.count {
      let remaining = values.count - index
      var group: UInt32 = 0
      for offset in 0..<4 { group = group << 6 | (offset < remaining ? values[index + offset] : 0) }
      output.append(UInt8(group >> 16 & 0xFF))
      if remaining > 2 { output.append(UInt8(group >> 8 & 0xFF)) }
      if remaining > 3 { output.append(UInt8(group & 0xFF)) }
      index += 4
    }
    return output
  }
}
