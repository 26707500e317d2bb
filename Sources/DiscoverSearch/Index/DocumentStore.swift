/// Where one stored document's record (``DocumentRecord``) is: a chunk, an offset in it and
/// a length.
///
/// A record is never empty (it starts with its kind), so a length of 0 marks a document
/// removed from a ``DocumentStoreBuilder``.
struct StoredRecord: Sendable, Hashable {
  var chunk: UInt32
  var offset: UInt32
  var length: UInt32

  static let removed = StoredRecord(chunk: 0, offset: 0, length: 0)

  var isRemoved: Bool { length == 0 }
}

/// Immutable bytes holding whole document records, shared by every published state that names
/// them (a writer only ever appends to a chunk of its own).
final class DocumentChunk: Sendable {
  let bytes: [UInt8]

  init(_ bytes: [UInt8]) { self.bytes = bytes }
}

/// The documents of one published state of an index, as records (``DocumentRecord``): what
/// a writer of the index starts from, and what a commit saves beside the segment (Lucene's
/// stored fields, Tantivy's doc store).
///
/// The search structures cannot give documents back (descriptions and bios are not stored,
/// text is folded), so an index keeps the documents it was built from: a delete or an update
/// analyzes them again.
final class StoredDocuments: Sendable {
  let chunks: [DocumentChunk]
  /// The documents' records, in the order the writer first added their ids.
  let records: [StoredRecord]

  init(chunks: [DocumentChunk], records: [StoredRecord]) {
    self.chunks = chunks
    self.records = records
  }

  static let empty = StoredDocuments(chunks: [], records: [])

  /// The number of documents, effects included.
  var count: Int { records.count }

  /// The bytes of the records with their length prefixes: the size of the saved file.
  var byteCount: Int { records.reduce(0) { $0 + DocumentFile.framedSize(of: Int($1.length)) } }

  /// Calls `body` with the bytes of record `index`.
  func withRecord<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try Self.withBytes(of: records[index], in: chunks, body)
  }

  /// Calls `body` with the bytes `record` names in `chunks`.
  ///
  /// SAFETY: the offset and length of a ``StoredRecord`` are checked against its chunk in
  /// debug builds; every record is made by a ``DocumentStoreBuilder`` or
  /// ``DocumentFile/read()``, which place it inside its chunk.
  static func withBytes<R>(
    of record: StoredRecord, in chunks: [DocumentChunk],
    _ body: (UnsafeBufferPointer<UInt8>) throws -> R
  ) rethrows -> R {
    let bytes = chunks[Int(record.chunk)].bytes
    assert(Int(record.offset) + Int(record.length) <= bytes.count, "a stored record past its chunk")
    return try bytes.withUnsafeBufferPointer { buffer in
      try body(
        UnsafeBufferPointer(
          rebasing: buffer[Int(record.offset)..<Int(record.offset + record.length)]))
    }
  }
}

/// The documents a writer holds, as records, by id: adds append a record, updates append
/// the new record and forget the old one, deletes forget the record.
///
/// Records are appended to an open chunk of ``chunkSize`` bytes that is sealed when full, so a
/// published ``StoredDocuments`` shares every sealed chunk with the writer and copies at
/// most one chunk. Forgotten records stay in their chunks until ``compacted()``.
struct DocumentStoreBuilder {
  /// The size of a chunk; a longer record gets a chunk of its own.
  static let chunkSize = 1 << 22

  private var sealed: [DocumentChunk] = []
  private var open: [UInt8] = []
  /// Every id ever added, in the order first added.
  private var ids = DocumentIDTable()
  /// Each id's current record, by its number in ``ids``; ``StoredRecord/removed`` when deleted.
  private var records: [StoredRecord] = []
  /// Each id's document kind (``DocumentKind/index``), by its number in ``ids``.
  private var kinds: [UInt8] = []
  /// Count updates not yet written into their documents' records, by number in ``ids``:
  /// taking one costs a lookup, and each document changed is encoded again once, by
  /// ``applyCountUpdates()``, however many updates it got.
  private var pendingCounts: [UInt32: CountUpdate] = [:]
  /// Views and likes to add to videos' counts, by number in ``ids``, after
  /// ``pendingCounts`` (``increment(id:views:likes:)``).
  private var pendingIncrements: [UInt32: SIMD2<Int>] = [:]
  /// Scratch for one record being encoded.
  private var encoded: [UInt8] = []
  /// The documents held.
  private(set) var count = 0
  /// The bytes of records forgotten by updates and deletes.
  private(set) var forgottenBytes = 0
  /// The bytes of every record appended, forgotten ones included, framed as in the file.
  private(set) var byteCount = 0

  init() {}

  /// A store holding `documents`, each record under the id it holds.
  ///
  /// - Throws: ``SearchError/Code/corruptIndex`` when a record is not a document or repeats an
  ///   id (the records come from a file a commit wrote and a checksum vouched for).
  init(_ documents: StoredDocuments) throws {
    try self.init(parts: [documents]) { _, _ in true }
  }

  /// A store holding the documents of `parts` that `keep` keeps (given the part's index and
  /// the document), in order, each record under the id it holds.
  ///
  /// - Throws: ``SearchError/Code/corruptIndex`` when a record is not a document or a kept
  ///   one repeats an id.
  init(parts: [StoredDocuments], keep: (Int, Document) throws -> Bool) throws {
    let total = parts.reduce(0) { $0 + $1.count }
    records.reserveCapacity(total)
    ids.reserveCapacity(total)
    for (part, documents) in parts.enumerated() {
      let chunkBase = UInt32(sealed.count)
      sealed += documents.chunks
      byteCount += documents.byteCount
      for index in 0..<documents.count {
        var record = documents.records[index]
        record.chunk += chunkBase
        let document = try documents.withRecord(index) { bytes in
          do throws(RecordDamage) { return try DocumentRecord.decode(bytes) } catch {
            throw SearchError(
              .corruptIndex,
              "stored document \(index + 1) is damaged (\(error.reason)); rebuild the index with `discover index`"
            )
          }
        }
        guard try keep(part, document) else {
          forgottenBytes += DocumentFile.framedSize(of: Int(record.length))
          continue
        }
        var id = document.id
        let (entry, isNew) = id.withUTF8 { ids.intern(UnsafeRawBufferPointer($0)) }
        guard isNew else {
          throw SearchError(
            .corruptIndex,
            "stored documents repeat the id \"\(document.id)\"; rebuild the index with `discover index`"
          )
        }
        assert(Int(entry) == records.count)
        records.append(record)
        kinds.append(UInt8(document.kind.index))
      }
    }
    count = records.count
    open.reserveCapacity(Self.chunkSize)
  }

  /// Whether a document with `id` is held.
  func contains(id: String) -> Bool { record(of: id) != nil }

  /// The document with `id`, if one is held, with its pending count updates.
  mutating func document(id: String) -> Document? {
    guard let entry = entry(of: id) else { return nil }
    return document(at: entry)
  }

  /// Calls `body` with the bytes of `record`, in a sealed chunk or the open one.
  private func withBytes<R>(of record: StoredRecord, _ body: (UnsafeBufferPointer<UInt8>) -> R)
    -> R
  {
    if Int(record.chunk) < sealed.count {
      return StoredDocuments.withBytes(of: record, in: sealed, body)
    }
    // SAFETY: the record was appended to the open chunk, which only grows until sealed.
    assert(
      Int(record.offset) + Int(record.length) <= open.count, "a stored record past its chunk")
    return open.withUnsafeBufferPointer { buffer in
      body(
        UnsafeBufferPointer(
          rebasing: buffer[Int(record.offset)..<Int(record.offset + record.length)]))
    }
  }

  /// The document of entry `entry`, with its pending count updates.
  private mutating func document(at entry: UInt32) -> Document? {
    let decoded = withBytes(of: records[Int(entry)]) { try? DocumentRecord.decode($0) }
    // A record this store encoded or checked always decodes.
    guard var document = decoded else { return nil }
    pendingCounts[entry]?.apply(to: &document)
    if let added = pendingIncrements[entry], case .video(var video) = document {
      video.viewCount = Self.adding(video.viewCount, added[0])
      video.likeCount = Self.adding(video.likeCount, added[1])
      document = .video(video)
    }
    return document
  }

  /// The number in ``ids`` of the document with `id`, if one is held.
  private func entry(of id: String) -> UInt32? {
    var id = id
    guard let entry = id.withUTF8({ ids.find(UnsafeRawBufferPointer($0)) }),
      !records[Int(entry)].isRemoved
    else { return nil }
    return entry
  }

  private func record(of id: String) -> StoredRecord? {
    entry(of: id).map { records[Int($0)] }
  }

  /// Takes new counts for a document held; they are written into its record by
  /// ``applyCountUpdates()``.
  ///
  /// - Throws: ``SearchError/Code/documentNotFound`` when no document has the id,
  ///   ``SearchError/Code/invalidDocument`` when a count is negative or of another type.
  mutating func updateCounts(_ update: CountUpdate) throws {
    guard let entry = entry(of: update.id) else {
      throw SearchError(
        .documentNotFound, "no document has the id \"\(update.id)\"; add it before its counts")
    }
    try update.check(for: DocumentKind.allCases[Int(kinds[Int(entry)])])
    if let earlier = pendingCounts[entry] {
      pendingCounts[entry] = earlier.merged(with: update)
    } else {
      pendingCounts[entry] = update
    }
    // A count set replaces what was added to it before.
    if var added = pendingIncrements[entry] {
      if update.viewCount != nil { added[0] = 0 }
      if update.likeCount != nil { added[1] = 0 }
      pendingIncrements[entry] = added
    }
  }

  /// Adds `views` and `likes` to the counts of the video with `id`.
  ///
  /// - Returns: Whether a video has the id (nothing changes otherwise).
  mutating func increment(id: String, views: Int, likes: Int) -> Bool {
    guard let entry = entry(of: id), kinds[Int(entry)] == UInt8(DocumentKind.video.index) else {
      return false
    }
    let added = pendingIncrements[entry] ?? SIMD2(0, 0)
    pendingIncrements[entry] = SIMD2(Self.adding(added[0], views), Self.adding(added[1], likes))
    return true
  }

  /// `count + added`, held at `Int.max` rather than overflowing (counts are never negative).
  static func adding(_ count: Int, _ added: Int) -> Int {
    let (sum, overflows) = count.addingReportingOverflow(added)
    return overflows ? Int.max : sum
  }

  /// Writes every pending count update into its document's record, patching the counts of
  /// each record in a copy (``DocumentRecord/appendPatchingCounts(of:set:adding:to:)``).
  ///
  /// - Complexity: O(*d*) in the bytes of the documents that got updates.
  mutating func applyCountUpdates() {
    guard !pendingCounts.isEmpty || !pendingIncrements.isEmpty else { return }
    var entries = Array(pendingCounts.keys)
    entries += pendingIncrements.keys.lazy.filter { self.pendingCounts[$0] == nil }
    var patched: [UInt8] = []
    for entry in entries.sorted() {
      patched.removeAll(keepingCapacity: true)
      let update = pendingCounts[entry]
      let added = pendingIncrements[entry]
      // A record this store encoded or checked always walks.
      let isPatched = withBytes(of: records[Int(entry)]) { record in
        (try? DocumentRecord.appendPatchingCounts(
          of: record, set: update, adding: added, to: &patched)) != nil
      }
      guard isPatched else { continue }
      let previous = records[Int(entry)]
      records[Int(entry)] = append(patched)
      forgottenBytes += DocumentFile.framedSize(of: Int(previous.length))
    }
    pendingCounts.removeAll()
    pendingIncrements.removeAll()
  }

  /// Stores `document`, replacing the one with its id if there is one.
  ///
  /// - Returns: Whether a document was replaced.
  @discardableResult
  mutating func store(_ document: Document) -> Bool {
    encoded.removeAll(keepingCapacity: true)
    DocumentRecord.encode(document, into: &encoded)
    let record = append(encoded)
    var id = document.id
    let (entry, isNew) = id.withUTF8 { ids.intern(UnsafeRawBufferPointer($0)) }
    if isNew {
      records.append(record)
      kinds.append(UInt8(document.kind.index))
      count += 1
      return false
    }
    // The new document replaces the old one whole, with any counts pending for it.
    pendingCounts[entry] = nil
    pendingIncrements[entry] = nil
    kinds[Int(entry)] = UInt8(document.kind.index)
    let previous = records[Int(entry)]
    records[Int(entry)] = record
    if previous.isRemoved {
      count += 1
      return false
    }
    forgottenBytes += DocumentFile.framedSize(of: Int(previous.length))
    return true
  }

  /// Forgets the document with `id`.
  ///
  /// - Returns: Whether there was one.
  @discardableResult
  mutating func remove(id: String) -> Bool {
    var id = id
    guard let entry = id.withUTF8({ ids.find(UnsafeRawBufferPointer($0)) }),
      !records[Int(entry)].isRemoved
    else { return false }
    forgottenBytes += DocumentFile.framedSize(of: Int(records[Int(entry)].length))
    records[Int(entry)] = .removed
    pendingCounts[entry] = nil
    pendingIncrements[entry] = nil
    count -= 1
    return true
  }

  /// Appends one record's bytes, sealing the open chunk first when they do not fit.
  private mutating func append(_ bytes: [UInt8]) -> StoredRecord {
    precondition(
      !bytes.isEmpty && bytes.count < Int(UInt32.max), "a document record of \(bytes.count) bytes")
    if open.count + bytes.count > Self.chunkSize && !open.isEmpty {
      sealed.append(DocumentChunk(open))
      open.removeAll(keepingCapacity: true)
    }
    let record = StoredRecord(
      chunk: UInt32(sealed.count), offset: UInt32(open.count), length: UInt32(bytes.count))
    open.append(contentsOf: bytes)
    byteCount += DocumentFile.framedSize(of: bytes.count)
    return record
  }

  /// The documents held, for a published state: the sealed chunks are shared, the open one
  /// copied. Count updates must have been applied (``applyCountUpdates()``).
  ///
  /// - Complexity: O(*n*) in the number of ids ever added, plus the open chunk's bytes.
  func published() -> StoredDocuments {
    precondition(
      pendingCounts.isEmpty && pendingIncrements.isEmpty,
      "count updates not yet written into their records")
    var chunks = sealed
    if !open.isEmpty { chunks.append(DocumentChunk(open)) }
    var live: [StoredRecord] = []
    live.reserveCapacity(count)
    for record in records where !record.isRemoved { live.append(record) }
    return StoredDocuments(chunks: chunks, records: live)
  }

  /// The same documents in fresh chunks without forgotten records, and without the ids of
  /// deleted documents.
  ///
  /// - Complexity: O(*b*) in the bytes of the documents held.
  func compacted() -> DocumentStoreBuilder {
    var copy = DocumentStoreBuilder()
    let documents = published()
    copy.records.reserveCapacity(documents.count)
    copy.ids.reserveCapacity(documents.count)
    for index in 0..<documents.count {
      documents.withRecord(index) { bytes in
        let record = copy.append(Array(bytes))
        copy.records.append(record)
      }
    }
    copy.kinds = zip(records, kinds).filter { !$0.0.isRemoved }.map(\.1)
    copy.ids = idsOfHeldDocuments()
    copy.count = count
    return copy
  }

  /// The id table of the documents held, in the order of ``records``.
  private func idsOfHeldDocuments() -> DocumentIDTable {
    var table = DocumentIDTable()
    table.reserveCapacity(count)
    for entry in records.indices where !records[entry].isRemoved {
      ids.withBytes(of: UInt32(entry)) { _ = table.intern($0) }
    }
    return table
  }

  /// Calls `body` with each document held, in the order their ids were first added. Count
  /// updates must have been applied (``applyCountUpdates()``).
  ///
  /// - Throws: What `body` throws.
  func forEachDocument(_ body: (Document) throws -> Void) throws {
    let documents = published()
    for index in 0..<documents.count {
      // A record this store encoded or checked always decodes.
      guard let document = documents.withRecord(index, { try? DocumentRecord.decode($0) })
      else { continue }
      try body(document)
    }
  }
}
