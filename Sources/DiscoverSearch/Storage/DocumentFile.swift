import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where the documents of a published state are: in memory, or in a committed file read only
/// when a writer needs them (opening an index never reads them).
enum DocumentSource: Sendable {
  case memory(StoredDocuments)
  case file(DocumentFile)
  /// An index from a version that did not keep its documents: it can be searched, not
  /// changed.
  case unavailable
  /// The documents of a segment set opened from a directory: each segment's own, less the
  /// deleted ones, with the counts set since (``SegmentSet/storedDocuments()``).
  case segments
}

/// The documents of a published state, set once it is built or opened.
final class DocumentSlot: Sendable {
  private let source = Lock<DocumentSource>(.unavailable)

  var value: DocumentSource {
    get { source.withLock { $0 } }
    set { source.withLock { $0 = newValue } }
  }

  /// The documents as a writer's store, checked to be the `expected` documents of the
  /// segments they belong to.
  ///
  /// - Throws: The errors of ``load()``; ``SearchError/Code/corruptIndex`` when the count
  ///   differs.
  func store(holding expected: Int) throws -> DocumentStoreBuilder {
    let store = try DocumentStoreBuilder(try load())
    guard store.count == expected else {
      throw SearchError(
        .corruptIndex,
        "the index's documents file holds \(store.count) documents and its segment \(expected); rebuild the index with `discover index`"
      )
    }
    return store
  }

  /// The documents, read from their file when they are there.
  ///
  /// - Throws: ``SearchError/Code/invalidArgument`` for an index that did not keep its
  ///   documents; the errors of ``DocumentFile/read()``.
  func load() throws(SearchError) -> StoredDocuments {
    switch value {
    case .memory(let documents): return documents
    case .file(let file): return try file.read()
    case .unavailable, .segments:
      throw SearchError(
        .invalidArgument,
        "this index was saved by an earlier version, without its documents, so it cannot be changed; rebuild it with `discover index`"
      )
    }
  }
}

extension IndexManifest.CheckedFile {
  /// The manifest's line of a written documents file.
  init(_ file: DocumentFile) {
    self.init(file: file.name, bytes: file.bytes, checksum: file.checksum)
  }
}

extension DocumentFile {
  /// The documents file a manifest line names in `directory`.
  init(_ file: IndexManifest.CheckedFile, in directory: URL) {
    self.init(name: file.file, directory: directory, bytes: file.bytes, checksum: file.checksum)
  }
}

/// A committed file of documents: their records (``DocumentRecord``), each after its length
/// as a LEB128 varint, in the order of ``StoredDocuments``. The manifest naming it holds its
/// size and CRC-32C, which a read checks.
struct DocumentFile: Sendable, Equatable {
  /// The file name, inside ``directory``.
  var name: String
  var directory: URL
  var bytes: Int
  var checksum: UInt32

  var path: String { directory.appendingPathComponent(name).path }

  /// The size of the pieces a file is read in, and of the chunks its records are kept in.
  private static let pieceSize = DocumentStoreBuilder.chunkSize

  /// The bytes a record of `length` bytes takes in the file, with its length prefix.
  static func framedSize(of length: Int) -> Int {
    var prefix = 1
    var rest = length >> 7
    while rest > 0 {
      prefix += 1
      rest >>= 7
    }
    return prefix + length
  }

  /// Reads and checks the file: its size, its checksum and its framing (each record is
  /// checked as a document when a writer takes it in).
  ///
  /// - Throws: ``SearchError/Code/io`` when it cannot be read, ``SearchError/Code/corruptIndex``
  ///   when it is not a regular file, its size or checksum is not the manifest's, or it ends
  ///   inside a record.
  func read() throws(SearchError) -> StoredDocuments {
    let advice = "rebuild the index with `discover index`"
    let (descriptor, size) = try RegularFile.openForReading(path, advice: advice)
    defer { close(descriptor) }
    guard size == bytes else {
      throw SearchError(
        .corruptIndex, "\(path) is \(size) bytes, not the \(bytes) its manifest says; \(advice)")
    }
    var reader = RecordChunkReader(descriptor: descriptor, path: path)
    var chunks: [DocumentChunk] = []
    var records: [StoredRecord] = []
    var crc: UInt32 = 0
    // A piece of at most the file's size (plus one byte, to see its end in one read).
    let pieceSize = min(Self.pieceSize, size + 1)
    while let (piece, found) = try reader.next(
      maximumBytes: pieceSize, chunk: UInt32(truncatingIfNeeded: chunks.count))
    {
      crc = piece.withUnsafeBytes { CRC32C.checksum($0, seed: crc) }
      records += found
      chunks.append(DocumentChunk(piece))
    }
    guard reader.leftover.isEmpty, !reader.foundDamage else {
      throw SearchError(
        .corruptIndex, "\(path) ends inside a record or holds an empty one; \(advice)")
    }
    guard crc == checksum else {
      throw SearchError(.corruptIndex, "\(path) does not match its checksum; \(advice)")
    }
    return StoredDocuments(chunks: chunks, records: records)
  }

  /// Writes `documents` as the file `name` in `directory`: to a temporary name, flushed,
  /// then renamed into place (the directory is flushed by the manifest's rename after).
  ///
  /// - Throws: ``SearchError/Code/io`` when it cannot be written; nothing is left behind.
  static func write(_ documents: StoredDocuments, name: String, in directory: URL)
    throws(SearchError) -> DocumentFile
  {
    let path = directory.appendingPathComponent(name).path
    let temporary = AtomicFile.temporaryPath(for: path)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw SearchError(.io, "cannot create \(temporary): \(String(cString: strerror(errno)))")
    }
    var output = BufferedOutput(descriptor: descriptor)
    var prefix: [UInt8] = []
    for index in 0..<documents.count {
      documents.withRecord(index) { record in
        prefix.removeAll(keepingCapacity: true)
        DocumentRecord.appendVarint(UInt64(record.count), to: &prefix)
        prefix.withUnsafeBytes { output.append($0) }
        output.append(UnsafeRawBufferPointer(record))
      }
    }
    output.flush()
    let failure =
      output.failure ?? (fsync(descriptor) == 0 ? nil : String(cString: strerror(errno)))
    close(descriptor)
    if let failure {
      unlink(temporary)
      throw SearchError(.io, "cannot write \(path): \(failure)")
    }
    try AtomicFile.moveIntoPlace(temporary, at: path, in: directory, what: "the new documents")
    return DocumentFile(
      name: name, directory: directory, bytes: output.written, checksum: output.checksum)
  }
}

/// Reads a file of length-prefixed records in pieces that end at a record's end, so that no
/// record is split between two.
private struct RecordChunkReader {
  let descriptor: Int32
  let path: String
  /// Bytes read after the last whole record of the previous piece.
  var leftover: [UInt8] = []
  var isAtEnd = false
  /// Whether a record of length 0, or over 4 GB, was found: the file is damaged.
  var foundDamage = false
  /// What each `read` fills, reused.
  private var scratch: [UInt8] = []

  init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }

  /// The next piece, about `maximumBytes` of whole records (more when one record is
  /// longer), and where its records are, numbered as chunk `chunk`; `nil` at the end.
  mutating func next(maximumBytes: Int, chunk: UInt32) throws(SearchError) -> (
    [UInt8], [StoredRecord]
  )? {
    var piece = leftover
    leftover = []
    var wantedSize = maximumBytes
    while true {
      while !isAtEnd && piece.count < wantedSize {
        let wanted = wantedSize - piece.count
        if scratch.count < wanted { scratch = [UInt8](repeating: 0, count: wanted) }
        let result = scratch.withUnsafeMutableBytes {
          Glibc.read(descriptor, $0.baseAddress!, wanted)
        }
        if result < 0 {
          if errno == EINTR || errno == EAGAIN { continue }
          throw SearchError(.io, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        if result == 0 { isAtEnd = true }
        piece.append(contentsOf: scratch[..<result])
      }
      if piece.isEmpty || foundDamage { return nil }
      let (records, end) = wholeRecords(in: piece, chunk: chunk)
      if end == 0 {
        // One record longer than a piece: read on until it ends, or the file does.
        leftover = piece
        if isAtEnd || foundDamage { return nil }
        piece = leftover
        leftover = []
        wantedSize = piece.count * 2
        continue
      }
      leftover = Array(piece[end...])
      piece.removeSubrange(end...)
      return (piece, records)
    }
  }

  /// The whole records at the start of `piece`, and where the last one ends.
  private mutating func wholeRecords(in piece: [UInt8], chunk: UInt32) -> ([StoredRecord], Int) {
    var records: [StoredRecord] = []
    var offset = 0
    while offset < piece.count {
      var length: UInt64 = 0
      var shift: UInt64 = 0
      var cursor = offset
      var complete = false
      while cursor < piece.count && shift < 35 {
        let byte = piece[cursor]
        cursor += 1
        length |= UInt64(byte & 0x7F) << shift
        if byte < 0x80 {
          complete = true
          break
        }
        shift += 7
      }
      if !complete && shift >= 35 { foundDamage = true }
      guard complete else { break }
      guard length > 0, length < UInt64(UInt32.max) else {
        foundDamage = true
        break
      }
      guard UInt64(piece.count - cursor) >= length else { break }
      records.append(
        StoredRecord(
          chunk: chunk, offset: UInt32(cursor), length: UInt32(length)))
      offset = cursor + Int(length)
    }
    return (records, offset)
  }
}

/// A write buffer over a descriptor that keeps the CRC-32C and count of what it wrote and
/// the first error.
private struct BufferedOutput {
  let descriptor: Int32
  var buffer: [UInt8] = []
  var written = 0
  var checksum: UInt32 = 0
  var failure: String?

  init(descriptor: Int32) {
    self.descriptor = descriptor
    buffer.reserveCapacity(1 << 20)
  }

  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 20 { flush() }
  }

  mutating func flush() {
    guard !buffer.isEmpty else { return }
    checksum = buffer.withUnsafeBytes { CRC32C.checksum($0, seed: checksum) }
    written += buffer.count
    var done = 0
    while failure == nil && done < buffer.count {
      let result = buffer.withUnsafeBytes {
        Glibc.write(descriptor, $0.baseAddress! + done, $0.count - done)
      }
      if result < 0 {
        if errno == EINTR { continue }
        failure = String(cString: strerror(errno))
      } else {
        done += result
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }
}
