import Foundation
import Testing

@testable import DiscoverSearch

/// The binary records a writer keeps and a commit saves: every field comes back, and damaged
/// bytes are refused, never trusted.
@Suite("Index: document records")
struct DocumentRecordTests {
  static let documents: [Document] = [
    .video(
      Video(
        id: "v1", title: "Café \"crème\" \\ 🎉", description: "line\nbreak",
        hashtags: ["a", "", "ü"],
        creator: "u1", sound: nil, effect: "e1", viewCount: Int.max, likeCount: 0,
        createdAt: Date(timeIntervalSince1970: 1_700_000_000.25), thumbnailURL: "https://t/1.jpg")),
    .video(Video(id: "v2", title: "", viewCount: 3)),
    .user(
      User(
        id: "u1", username: "dance_queen", displayName: nil, bio: "bio", followerCount: 1 << 40,
        isVerified: true)),
    .hashtag(Hashtag(id: "h1", name: "fyp", description: nil, viewCount: 129, videoCount: 128)),
    .sound(Sound(id: "s1", title: "Song", artist: "Artist", videoCount: 127)),
    .effect(Effect(id: "e1", name: "Green Screen", thumbnailURL: nil, useCount: 5)),
  ]

  static func record(_ document: Document) -> [UInt8] {
    var bytes: [UInt8] = []
    DocumentRecord.encode(document, into: &bytes)
    return bytes
  }

  static func decode(_ bytes: [UInt8]) -> Document? {
    bytes.withUnsafeBufferPointer { try? DocumentRecord.decode($0) }
  }

  @Test func everyFieldComesBack() {
    for document in Self.documents {
      #expect(Self.decode(Self.record(document)) == document)
    }
  }

  /// Patching a record's counts gives the bytes of the document with the counts applied
  /// (set, then views and likes added), for every kind, every count set or not, and counts
  /// whose varints change length; a damaged record is refused, not patched.
  @Test func patchedCountsMatchTheDocumentEncodedAgain() throws {
    let values: [Int?] = [nil, 0, 127, 128, 1 << 40, Int.max]
    for document in Self.documents {
      let bytes = Self.record(document)
      for first in values {
        for second in values.prefix(4) {
          for added in [nil, SIMD2(1, 0), SIMD2(200, Int.max)] {
            let update = CountUpdate(
              id: document.id, viewCount: first, likeCount: second, followerCount: first,
              videoCount: second)
            var patched: [UInt8] = []
            try bytes.withUnsafeBufferPointer {
              try DocumentRecord.appendPatchingCounts(
                of: $0, set: update, adding: added, to: &patched)
            }
            var expected = document
            update.apply(to: &expected)
            if let added, case .video(var video) = expected {
              video.viewCount = DocumentStoreBuilder.adding(video.viewCount, added[0])
              video.likeCount = DocumentStoreBuilder.adding(video.likeCount, added[1])
              expected = .video(video)
            }
            #expect(
              patched == Self.record(expected),
              "\(document.id) \(update) \(String(describing: added))")
          }
        }
      }
      for length in 0..<bytes.count where bytes[0] != 4 {
        var patched: [UInt8] = []
        let cut = Array(bytes.prefix(length))
        let refused = cut.withUnsafeBufferPointer {
          (try? DocumentRecord.appendPatchingCounts(
            of: $0, set: nil, adding: nil, to: &patched)) == nil
        }
        // Cut within the counts or before them: refused; within what follows, copied as is.
        if length < bytes.count - Self.bytesAfterCounts(document) {
          #expect(refused, "\(document.id) cut at \(length)")
        }
      }
    }
  }

  /// The bytes a record holds after its last count.
  static func bytesAfterCounts(_ document: Document) -> Int {
    switch document {
    case .video(let video):
      (video.createdAt == nil ? 1 : 9) + Self.optionalLength(video.thumbnailURL)
    case .user: 1
    default: 0
    }
  }

  static func optionalLength(_ string: String?) -> Int {
    guard let string else { return 1 }
    var bytes: [UInt8] = []
    DocumentRecord.appendVarint(UInt64(string.utf8.count + 1), to: &bytes)
    return bytes.count + string.utf8.count
  }

  @Test func truncatedAndExtendedRecordsAreRefused() {
    for document in Self.documents {
      let bytes = Self.record(document)
      for length in 0..<bytes.count {
        #expect(Self.decode(Array(bytes.prefix(length))) == nil, "\(document.id) cut at \(length)")
      }
      #expect(Self.decode(bytes + [0]) == nil)
    }
  }

  @Test func damagedBytesNeverCrash() {
    var random = SystemRandomNumberGenerator()
    for document in Self.documents {
      let bytes = Self.record(document)
      for _ in 0..<500 {
        var damaged = bytes
        let position = Int.random(in: 0..<damaged.count, using: &random)
        damaged[position] = UInt8.random(in: 0...255, using: &random)
        _ = Self.decode(damaged)
      }
    }
    // A count past Int.max, a varint of eleven bytes, an unknown kind, a bad flag.
    #expect(
      Self.decode([
        3, 1, 0x73, 1, 0x74, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01,
      ]) == nil)
    #expect(
      Self.decode([3, 1, 0x73, 1, 0x74, 0] + [UInt8](repeating: 0x80, count: 10) + [0]) == nil)
    #expect(Self.decode([9]) == nil)
    #expect(Self.decode([1, 1, 0x75, 1, 0x75, 0, 0, 0, 2]) == nil)
    #expect(Self.decode([1, 1, 0x75, 1, 0x75, 0, 0, 0, 1]) != nil)
  }

  @Test func framedSizesMatchTheVarint() {
    for length in [1, 127, 128, 16_383, 16_384, 1 << 21, (1 << 28) + 5] {
      var prefix: [UInt8] = []
      DocumentRecord.appendVarint(UInt64(length), to: &prefix)
      #expect(DocumentFile.framedSize(of: length) == prefix.count + length)
    }
  }
}
