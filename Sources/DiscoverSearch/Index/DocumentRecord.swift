import Foundation

/// The binary form in which a writer keeps each document and a commit saves it: every field
/// of the ``Document``, in a fixed order per kind, with no field names.
///
/// A record is the kind's number (``DocumentKind/index``) in one byte, then the kind's
/// fields: a string as its UTF-8 length (a LEB128 varint, as in DWARF and Protocol Buffers)
/// and bytes; an optional string as 0 for none or its length plus one, then its bytes; a
/// list of strings as its count and the strings; a count as a varint; a flag as one byte; a
/// date as 0 for none or 1 and the eight bytes of its `timeIntervalSince1970`, little-endian.
/// Encoding a document this way costs a copy of its strings, where a JSON line costs a scan
/// of every byte for escapes and the field names.
enum DocumentRecord {
  /// Appends the record of `document` to `bytes`.
  static func encode(_ document: Document, into bytes: inout [UInt8]) {
    bytes.append(UInt8(document.kind.index))
    switch document {
    case .video(let video):
      appendString(video.id, to: &bytes)
      appendString(video.title, to: &bytes)
      appendOptional(video.description, to: &bytes)
      appendVarint(UInt64(video.hashtags.count), to: &bytes)
      for tag in video.hashtags { appendString(tag, to: &bytes) }
      appendOptional(video.creator, to: &bytes)
      appendOptional(video.sound, to: &bytes)
      appendOptional(video.effect, to: &bytes)
      appendVarint(UInt64(video.viewCount), to: &bytes)
      appendVarint(UInt64(video.likeCount), to: &bytes)
      if let createdAt = video.createdAt {
        bytes.append(1)
        withUnsafeBytes(of: createdAt.timeIntervalSince1970.bitPattern.littleEndian) {
          bytes.append(contentsOf: $0)
        }
      } else {
        bytes.append(0)
      }
      appendOptional(video.thumbnailURL, to: &bytes)
    case .user(let user):
      appendString(user.id, to: &bytes)
      appendString(user.username, to: &bytes)
      appendOptional(user.displayName, to: &bytes)
      appendOptional(user.bio, to: &bytes)
      appendVarint(UInt64(user.followerCount), to: &bytes)
      bytes.append(user.isVerified ? 1 : 0)
    case .hashtag(let hashtag):
      appendString(hashtag.id, to: &bytes)
      appendString(hashtag.name, to: &bytes)
      appendOptional(hashtag.description, to: &bytes)
      appendVarint(UInt64(hashtag.viewCount), to: &bytes)
      appendVarint(UInt64(hashtag.videoCount), to: &bytes)
    case .sound(let sound):
      appendString(sound.id, to: &bytes)
      appendString(sound.title, to: &bytes)
      appendOptional(sound.artist, to: &bytes)
      appendVarint(UInt64(sound.videoCount), to: &bytes)
    case .effect(let effect):
      appendString(effect.id, to: &bytes)
      appendString(effect.name, to: &bytes)
      appendOptional(effect.thumbnailURL, to: &bytes)
      appendVarint(UInt64(effect.useCount), to: &bytes)
    }
  }

  /// Appends `value` as a LEB128 varint: seven bits a byte, low first, the top bit set on
  /// every byte but the last.
  static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  private static func appendString(_ string: String, to bytes: inout [UInt8]) {
    var string = string
    string.withUTF8 { utf8 in
      appendVarint(UInt64(utf8.count), to: &bytes)
      bytes.append(contentsOf: utf8)
    }
  }

  private static func appendOptional(_ string: String?, to bytes: inout [UInt8]) {
    guard var string else {
      bytes.append(0)
      return
    }
    string.withUTF8 { utf8 in
      appendVarint(UInt64(utf8.count) + 1, to: &bytes)
      bytes.append(contentsOf: utf8)
    }
  }

  /// Appends to `bytes` the record `record` with new counts: those `update` sets, then, for
  /// a video, `added` views and likes (held at `Int.max`). Every other byte is copied, and
  /// strings are skipped rather than decoded: applying count updates costs a walk of each
  /// record instead of a decoding and an encoding of the whole document.
  ///
  /// - Throws: ``RecordDamage`` as ``decode(_:)`` would for the fields before the counts.
  static func appendPatchingCounts(
    of record: UnsafeBufferPointer<UInt8>, set update: CountUpdate?, adding added: SIMD2<Int>?,
    to bytes: inout [UInt8]
  ) throws(RecordDamage) {
    var reader = RecordReader(bytes: record)
    let kind = try reader.byte()
    // The fields before the counts, per kind: strings, optional strings, a list of strings.
    switch kind {
    case 0:
      try reader.skipStrings(2)
      try reader.skipOptionalStrings(1)
      try reader.skipStrings(try reader.count())
      try reader.skipOptionalStrings(3)
    case 1:
      try reader.skipStrings(2)
      try reader.skipOptionalStrings(2)
    case 2:
      try reader.skipStrings(2)
      try reader.skipOptionalStrings(1)
    case 3:
      try reader.skipStrings(2)
      try reader.skipOptionalStrings(1)
    default:
      // Effects have no count an update changes.
      bytes.append(contentsOf: record)
      return
    }
    let countsStart = reader.offset
    // Videos: views and likes; users: followers; hashtags: views and videos; sounds: videos.
    var first = try reader.count()
    var second = kind == 0 || kind == 2 ? try reader.count() : nil
    let rest = reader.offset
    let set = update?.counts(for: DocumentKind.allCases[Int(kind)])
    first = set?.first ?? first
    second = set?.second ?? second
    if kind == 0, let added, let likes = second {
      first = DocumentStoreBuilder.adding(first, added[0])
      second = DocumentStoreBuilder.adding(likes, added[1])
    }
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: record[..<countsStart]))
    appendVarint(UInt64(first), to: &bytes)
    if let second { appendVarint(UInt64(second), to: &bytes) }
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: record[rest...]))
  }

  /// The document a record holds.
  ///
  /// - Throws: ``RecordDamage`` when the bytes are not one whole record: an unknown kind, a
  ///   length or count past the end, a varint too long, a count past `Int.max`, a date out
  ///   of the writer's range, or bytes left over.
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(RecordDamage) -> Document {
    var reader = RecordReader(bytes: bytes)
    let kind = try reader.byte()
    let document: Document
    switch kind {
    case 0:
      let id = try reader.string()
      let title = try reader.string()
      let description = try reader.optionalString()
      let tagCount = try reader.count()
      var hashtags: [String] = []
      hashtags.reserveCapacity(min(tagCount, bytes.count))
      for _ in 0..<tagCount { hashtags.append(try reader.string()) }
      let creator = try reader.optionalString()
      let sound = try reader.optionalString()
      let effect = try reader.optionalString()
      let viewCount = try reader.count()
      let likeCount = try reader.count()
      let createdAt = try reader.date()
      let thumbnailURL = try reader.optionalString()
      document = .video(
        Video(
          id: id, title: title, description: description, hashtags: hashtags, creator: creator,
          sound: sound, effect: effect, viewCount: viewCount, likeCount: likeCount,
          createdAt: createdAt, thumbnailURL: thumbnailURL))
    case 1:
      document = .user(
        User(
          id: try reader.string(), username: try reader.string(),
          displayName: try reader.optionalString(), bio: try reader.optionalString(),
          followerCount: try reader.count(), isVerified: try reader.flag()))
    case 2:
      document = .hashtag(
        Hashtag(
          id: try reader.string(), name: try reader.string(),
          description: try reader.optionalString(), viewCount: try reader.count(),
          videoCount: try reader.count()))
    case 3:
      document = .sound(
        Sound(
          id: try reader.string(), title: try reader.string(), artist: try reader.optionalString(),
          videoCount: try reader.count()))
    case 4:
      document = .effect(
        Effect(
          id: try reader.string(), name: try reader.string(),
          thumbnailURL: try reader.optionalString(), useCount: try reader.count()))
    default:
      throw RecordDamage("kind \(kind) is none of the five")
    }
    guard reader.isAtEnd else { throw RecordDamage("bytes follow the record's last field") }
    return document
  }
}

/// Why bytes are not a document record.
struct RecordDamage: Error {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}

/// Reads the fields of one record, checking every length against the bytes left.
struct RecordReader {
  let bytes: UnsafeBufferPointer<UInt8>
  private(set) var offset = 0

  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  var isAtEnd: Bool { offset == bytes.count }

  mutating func byte() throws(RecordDamage) -> UInt8 {
    guard offset < bytes.count else { throw RecordDamage("it ends inside a field") }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// A LEB128 varint of at most ten bytes.
  mutating func varint() throws(RecordDamage) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let byte = try byte()
      guard shift < 64, shift < 63 || byte <= 1 else { throw RecordDamage("a number is too long") }
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
  }

  /// A count or length, at most `Int.max`.
  mutating func count() throws(RecordDamage) -> Int {
    guard let count = Int(exactly: try varint()) else {
      throw RecordDamage("a count is larger than the largest integer")
    }
    return count
  }

  mutating func flag() throws(RecordDamage) -> Bool {
    switch try byte() {
    case 0: return false
    case 1: return true
    default: throw RecordDamage("a flag is neither 0 nor 1")
    }
  }

  mutating func string() throws(RecordDamage) -> String {
    try text(length: try count())
  }

  /// Skips `count` strings.
  mutating func skipStrings(_ count: Int) throws(RecordDamage) {
    for _ in 0..<count { try skip(try self.count()) }
  }

  /// Skips `count` optional strings.
  mutating func skipOptionalStrings(_ count: Int) throws(RecordDamage) {
    for _ in 0..<count {
      let stored = try self.count()
      if stored > 0 { try skip(stored - 1) }
    }
  }

  private mutating func skip(_ length: Int) throws(RecordDamage) {
    guard length <= bytes.count - offset else { throw RecordDamage("a string runs past its end") }
    offset += length
  }

  mutating func optionalString() throws(RecordDamage) -> String? {
    let stored = try count()
    return stored == 0 ? nil : try text(length: stored - 1)
  }

  private mutating func text(length: Int) throws(RecordDamage) -> String {
    guard length <= bytes.count - offset else { throw RecordDamage("a string runs past its end") }
    defer { offset += length }
    return String(
      decoding: UnsafeBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
  }

  /// An optional date, within the ±10^15 seconds a writer accepts.
  mutating func date() throws(RecordDamage) -> Date? {
    guard try flag() else { return nil }
    guard bytes.count - offset >= 8 else { throw RecordDamage("a date runs past its end") }
    var bits: UInt64 = 0
    for index in 0..<8 { bits |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
    offset += 8
    let seconds = Double(bitPattern: bits)
    guard seconds.isFinite, abs(seconds) < 1e15 else {
      throw RecordDamage("a date is out of range")
    }
    return Date(timeIntervalSince1970: seconds)
  }
}
