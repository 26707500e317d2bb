import Foundation
import Testing

@testable import DiscoverSearch

/// Inputs that once made a fuzz target (Fuzz/, Scripts/fuzz.sh) crash or break a rule, fed
/// through the same entry points (``FuzzTargets``) again: each must now give a typed error.
@Suite struct FuzzRegressionTests {
  /// A saved input of the `index-files` target: the template file it replaces, its option
  /// byte, and where its bytes differ from the template's (an input's bytes, kept small).
  struct IndexFilesInput: CustomStringConvertible {
    var file: String
    var options: UInt8
    var edits: [(offset: Int, bytes: [UInt8])]
    /// The template file's CRC-32C when the input was saved: while it still matches, the
    /// input means exactly what it meant then.
    var templateChecksum: UInt32

    var description: String { "\(file), options \(options)" }

    /// The template file, and the input's bytes.
    func make() throws -> (template: [UInt8], input: [UInt8]) {
      let files = FuzzSamples.indexFiles
      let selected = try #require(
        files.firstIndex { $0.name == file }, "no \(file) in the template")
      var bytes = files[selected].bytes
      for edit in edits {
        bytes.replaceSubrange(edit.offset..<(edit.offset + edit.bytes.count), with: edit.bytes)
      }
      return (files[selected].bytes, [UInt8(selected), options] + bytes)
    }
  }

  /// A posting block's count byte said 256 postings (a block holds 128): the validator
  /// unpacked them into its 128-value buffer (heap-buffer-overflow under AddressSanitizer),
  /// and searches would have too. Found by `index-files` with the checksums fixed and full
  /// verification (against an earlier, smaller template); saved as the same one-byte change
  /// against the current one: the first block of the videos' postings, count 0x00 -> 0xFF.
  static let postingBlockOf256 = IndexFilesInput(
    file: "segment-00000000000000000002-0.dsearch", options: 0x03,
    edits: [(offset: 12_208, bytes: [0xFF])], templateChecksum: 0xB6AE_A657)

  @Test func aPostingBlockClaimingMoreThanABlockHoldsIsCorruption() throws {
    let saved = Self.postingBlockOf256
    let (template, input) = try saved.make()
    let directory = FuzzDirectory("regression")
    #expect(FuzzTargets.indexFiles(input, in: directory) == [])
    guard template.withUnsafeBytes({ CRC32C.checksum($0) }) == saved.templateChecksum else {
      // The template changed since the input was saved: it is still damage, whatever it hits.
      return
    }
    let opening = #expect(throws: SearchError.self) {
      try DiscoverIndex.open(at: directory.url, verification: .full)
    }
    let verifying = #expect(throws: SearchError.self) {
      try DiscoverIndex.verify(at: directory.url)
    }
    for error in [opening, verifying] {
      #expect(error?.code == .corruptIndex)
      #expect(error?.message.contains("a posting block holds the wrong number of postings") == true)
    }
  }

  /// A posting list header claimed about 2³² documents: the block count, worked out from it
  /// before the validator compared it with the index's document count, overflowed 32 bits
  /// and trapped. Found by `index-files` with the checksums fixed, full verification, a
  /// writer, completions and `verify(at:)` (options 0x7B); saved as its changes to the
  /// template, the five 0xFF bytes at 10,080 among them.
  static let documentFrequencyNear2To32 = IndexFilesInput(
    file: "segment-00000000000000000002-0.dsearch", options: 0x7B,
    edits: [
      (809, [0x32, 0x34, 0x36]), (10_080, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF]), (20_734, [0x37, 0x39]),
      (27_139, [0x8A]), (27_418, [0x80]), (28_324, [0xEF]),
      (29_518, [0x9D, 0x69, 0xE6, 0xB1, 0xFF, 0x70, 0x31]), (33_459, [0x01, 0x00, 0x00]),
      (33_464, [0x00, 0x00, 0x08]), (33_746, [0x5B]), (33_780, [0x36]),
    ], templateChecksum: 0)  // not compared: its test only replays the input

  @Test func aListClaimingAbout2To32DocumentsIsCorruption() throws {
    let (_, input) = try Self.documentFrequencyNear2To32.make()
    #expect(FuzzTargets.indexFiles(input, in: FuzzDirectory("regression-frequency")) == [])
  }
}
