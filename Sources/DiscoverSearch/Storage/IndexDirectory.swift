import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// One commit of an index directory: its generation and the files it is made of.
///
/// Stored as a small text file, `manifest-<generation>`, line by line:
/// ```
/// discover-index-manifest 3
/// generation 7
/// segment segment-00000000000000000004-0.dsearch 1234567
/// documents documents-00000000000000000004-0.docs 2345678 5d0c81aa
/// deletes deletes-00000000000000000007-0.del 131080 0b1e44d2
/// counts counts-00000000000000000006-0.cnt 2600012 77aa0913
/// segment segment-00000000000000000007-1.dsearch 34567
/// documents documents-00000000000000000007-1.docs 45678 c0ffee01
/// crc32c 9f3a11c2
/// ```
/// The last line is the CRC-32C of every byte before it, so a torn or damaged manifest is
/// told from a whole one and never trusted. Each segment line names an immutable segment
/// file and its size (the file's own sections carry their checksums). The lines after it,
/// up to the next segment line, name the files that belong to that segment, each with its
/// size and CRC-32C: the documents it was built from (``DocumentFile``), its documents
/// deleted since (``SegmentDeletesFile``), and the counts set since (``SegmentCountsFile``).
/// A commit names the files of earlier commits whose segments it keeps, so a commit writes
/// only what changed (Lucene's segments and their `.liv` and doc-values update files).
/// Manifests of format 1 name no documents; of format 2, one segment.
struct IndexManifest: Sendable, Equatable {
  struct Segment: Sendable, Equatable {
    var file: String
    var bytes: Int
    /// The documents the segment was built from.
    var documents: CheckedFile?
    /// The segment's documents deleted since it was written.
    var deletes: CheckedFile?
    /// The counts set in the segment since it was written.
    var counts: CheckedFile?

    /// The segment's file and the files that belong to it.
    var files: [(name: String, bytes: Int)] {
      [(file, bytes)] + [documents, deletes, counts].compactMap { $0.map { ($0.file, $0.bytes) } }
    }
  }

  /// A file a commit names with its size and CRC-32C.
  struct CheckedFile: Sendable, Equatable {
    var file: String
    var bytes: Int
    var checksum: UInt32
  }

  /// The kinds of file that belong to a segment, by the word that starts their lines, with
  /// the prefix and suffix of their names.
  static let segmentFileKinds: [(line: String, prefix: String, suffix: String)] = [
    ("documents", "documents-", ".docs"), ("deletes", "deletes-", ".del"),
    ("counts", "counts-", ".cnt"),
  ]

  static let format = 3
  /// The formats this version reads.
  static let readableFormats = 1...3
  static let prefix = "manifest-"
  /// A manifest is a few lines per segment; a larger file is refused unread.
  static let maximumBytes = 1 << 20

  var generation: UInt64
  var segments: [Segment]

  /// The file name of the manifest of `generation`, padded so that names sort as numbers.
  static func fileName(generation: UInt64) -> String {
    prefix + paddedGeneration(generation)
  }

  /// The name of a file of kind `prefix` and `suffix` that a commit of `generation` writes
  /// for its segment number `segment`.
  static func fileName(_ prefix: String, generation: UInt64, segment: Int, _ suffix: String)
    -> String
  {
    prefix + paddedGeneration(generation) + "-\(segment)" + suffix
  }

  /// The name of segment 0's file in a commit of `generation`.
  static func segmentFileName(generation: UInt64) -> String {
    fileName("segment-", generation: generation, segment: 0, ".dsearch")
  }

  /// The name of segment 0's documents file in a commit of `generation`.
  static func documentsFileName(generation: UInt64) -> String {
    fileName("documents-", generation: generation, segment: 0, ".docs")
  }

  private static func paddedGeneration(_ generation: UInt64) -> String {
    let digits = String(generation)
    return String(repeating: "0", count: max(0, 20 - digits.count)) + digits
  }

  /// The generation a manifest file name gives, or `nil` for any other name (a temporary
  /// file among them).
  static func generation(ofFileName name: String) -> UInt64? {
    guard name.hasPrefix(prefix) else { return nil }
    let digits = name.dropFirst(prefix.count)
    guard digits.count == 20, digits.allSatisfy({ $0 >= "0" && $0 <= "9" }) else { return nil }
    return UInt64(digits)
  }

  var bytes: [UInt8] {
    var text = "discover-index-manifest \(Self.format)\ngeneration \(generation)\n"
    for segment in segments {
      text += "segment \(segment.file) \(segment.bytes)\n"
      let files = [segment.documents, segment.deletes, segment.counts]
      for (kind, file) in zip(Self.segmentFileKinds, files) {
        if let file {
          text += "\(kind.line) \(file.file) \(file.bytes) \(Self.hex(file.checksum))\n"
        }
      }
    }
    let bytes = Array(text.utf8)
    return bytes + Self.checksumLine(of: bytes[...])
  }

  /// `crc32c `, the body's CRC-32C in eight lowercase hex digits, and a newline: compared
  /// byte for byte, so that there is one spelling of each checksum.
  private static func checksumLine(of body: ArraySlice<UInt8>) -> [UInt8] {
    Array(("crc32c " + hex(body.withUnsafeBytes { CRC32C.checksum($0) }) + "\n").utf8)
  }

  /// A checksum in eight lowercase hex digits.
  private static func hex(_ checksum: UInt32) -> String {
    let digits = String(checksum, radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }

  /// Parses a manifest, checking its checksum, its lines and its file names.
  ///
  /// - Returns: The manifest, or why it is not one (a sentence for an error message).
  static func parse(_ bytes: [UInt8]) -> Result<IndexManifest, ManifestDamage> {
    // The checksum line: the last 16 bytes, `crc32c ` and eight hex digits and a newline.
    let checksumLength = 16
    guard bytes.count > checksumLength, bytes.last == UInt8(ascii: "\n") else {
      return .failure(ManifestDamage("it is truncated"))
    }
    let body = bytes[..<(bytes.count - checksumLength)]
    let checksumLine = bytes[(bytes.count - checksumLength)...]
    guard checksumLine.starts(with: "crc32c ".utf8) else {
      return .failure(ManifestDamage("its checksum line is missing"))
    }
    guard checksumLine.elementsEqual(Self.checksumLine(of: body)) else {
      return .failure(ManifestDamage("its checksum does not match"))
    }
    let lines = String(decoding: body, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)
    guard lines.count >= 3, lines.last == "",
      let format = readableFormats.first(where: { lines[0] == "discover-index-manifest \($0)" })
    else { return .failure(ManifestDamage("it is of another format")) }
    guard lines[1].hasPrefix("generation "), let generation = UInt64(lines[1].dropFirst(11))
    else { return .failure(ManifestDamage("its generation line is damaged")) }
    var manifest = IndexManifest(generation: generation, segments: [])
    for line in lines[2..<(lines.count - 1)] {
      let parts = line.split(separator: " ", omittingEmptySubsequences: false)
      if parts.first == "segment" {
        guard parts.count == 3, let size = Int(parts[2]), size >= 0,
          isSegmentFileName(parts[1]), format >= 3 || manifest.segments.last?.documents == nil
        else { return .failure(ManifestDamage("a segment line is damaged")) }
        manifest.segments.append(Segment(file: String(parts[1]), bytes: size))
        continue
      }
      guard let kind = segmentFileKinds.firstIndex(where: { parts.first == Substring($0.line) }),
        format >= 3 || (format == 2 && kind == 0), !manifest.segments.isEmpty
      else { return .failure(ManifestDamage("a line is of no known kind")) }
      guard let file = checkedFile(parts, kind: segmentFileKinds[kind]) else {
        return .failure(ManifestDamage("its \(parts[0]) line is damaged"))
      }
      let last = manifest.segments.count - 1
      switch kind {
      case 0 where manifest.segments[last].documents == nil:
        manifest.segments[last].documents = file
      case 1 where manifest.segments[last].deletes == nil: manifest.segments[last].deletes = file
      case 2 where manifest.segments[last].counts == nil: manifest.segments[last].counts = file
      default: return .failure(ManifestDamage("a segment has two \(parts[0]) lines"))
      }
    }
    guard !manifest.segments.isEmpty else { return .failure(ManifestDamage("it names no segment")) }
    return .success(manifest)
  }

  /// The file of a line `<kind> <name> <size> <checksum>`, or `nil` when it is damaged.
  private static func checkedFile(
    _ parts: [Substring], kind: (line: String, prefix: String, suffix: String)
  ) -> CheckedFile? {
    guard parts.count == 4, let size = Int(parts[2]), size >= 0, parts[3].count == 8,
      let checksum = UInt32(parts[3], radix: 16), hex(checksum) == parts[3],
      isFileName(parts[1], prefix: kind.prefix, suffix: kind.suffix)
    else { return nil }
    return CheckedFile(file: String(parts[1]), bytes: size, checksum: checksum)
  }

  /// The files the manifest names, with their sizes.
  var files: [(name: String, bytes: Int)] {
    segments.flatMap(\.files)
  }

  /// Whether `name` is a plain segment file name: no path separators, nothing that could
  /// lead outside the directory.
  static func isSegmentFileName(_ name: Substring) -> Bool {
    isFileName(name, prefix: "segment-", suffix: ".dsearch")
  }

  /// Whether `name` is the name of a file that belongs to a segment.
  static func isSegmentPartFileName(_ name: Substring) -> Bool {
    isSegmentFileName(name)
      || segmentFileKinds.contains { isFileName(name, prefix: $0.prefix, suffix: $0.suffix) }
  }

  /// Whether `name` is a plain file name with `prefix` and `suffix`, and nothing that could
  /// lead outside the directory.
  static func isFileName(_ name: Substring, prefix: String, suffix: String) -> Bool {
    name.hasPrefix(prefix) && name.hasSuffix(suffix) && name.count <= 64
      && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
  }
}

/// A segment as the last commit wrote it: what the next commit keeps of it.
struct CommittedSegment: Sendable {
  var entry: IndexManifest.Segment
  /// The deleted documents its deletes file holds.
  var deletedCount: Int
  /// The ``IndexSnapshot/version`` whose counts its counts file holds.
  var countsVersion: UInt64
}

/// Why a manifest file is not a manifest.
struct ManifestDamage: Error {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}

/// An index directory: immutable segment files and the manifests that name them.
///
/// A commit writes its segment file, flushes it, then writes its manifest to a temporary
/// file, flushes it, renames it into place and flushes the directory (the protocol of
/// Lucene's `segments_N` files): a crash at any point leaves the previous manifest, and every
/// file it names, as they were. Opening reads the newest manifest that is whole and whose
/// files are all there with their sizes, so a torn newest commit falls back to the one
/// before it. A writer removes what no live manifest names: older manifests and segments,
/// the single `index.dsearch` of earlier versions, and files that killed writers left.
enum IndexDirectory {
  /// The lock file a writer holds.
  static let lockFileName = "write.lock"

  /// The newest whole commit in `directory`, or `nil` when it holds no manifest at all.
  ///
  /// A writer may commit while this reads: a manifest or segment that vanishes between the
  /// listing and its reading means a newer commit landed (a commit removes the older files
  /// only after its manifest is in place), so the directory is listed again, a few times.
  ///
  /// - Throws: ``SearchError/Code/corruptIndex`` when manifests exist but none is whole with
  ///   all its files, naming the newest one's damage; ``SearchError/Code/io`` when the
  ///   directory cannot be listed.
  static func newestCommit(in directory: URL) throws(SearchError) -> IndexManifest? {
    var attempt = 0
    while true {
      attempt += 1
      switch try scanCommits(in: directory) {
      case .found(let manifest): return manifest
      case .empty: return nil
      case .damaged(_, sawVanishedFile: true) where attempt < 10: continue
      case .damaged(let damage, _):
        throw SearchError(
          .corruptIndex,
          "no whole commit in \(directory.path) (\(damage)); rebuild the index with `discover index`"
        )
      }
    }
  }

  private enum Scan {
    case found(IndexManifest)
    case empty
    /// No whole commit: the newest manifest's damage, and whether a file listed or named
    /// was gone when read.
    case damaged(String, sawVanishedFile: Bool)
  }

  /// One pass over the manifests listed, newest first.
  private static func scanCommits(in directory: URL) throws(SearchError) -> Scan {
    let generations = try manifestGenerations(in: directory).sorted(by: >)
    guard !generations.isEmpty else { return .empty }
    var firstDamage: String?
    var sawVanishedFile = false
    for generation in generations {
      let name = IndexManifest.fileName(generation: generation)
      let path = directory.appendingPathComponent(name).path
      switch readManifest(name, in: directory) {
      case .success(let manifest) where manifest.generation == generation:
        if let missing = missingSegment(of: manifest, in: directory) {
          firstDamage = firstDamage ?? "\(name) names \(missing.description)"
          sawVanishedFile = sawVanishedFile || missing.isGone
          continue
        }
        return .found(manifest)
      case .success:
        firstDamage = firstDamage ?? "\(name) holds another generation"
      case .failure(let damage):
        firstDamage = firstDamage ?? "\(name): \(damage.reason)"
        sawVanishedFile = sawVanishedFile || access(path, F_OK) != 0
      }
    }
    return .damaged(firstDamage ?? "no manifest", sawVanishedFile: sawVanishedFile)
  }

  private static func readManifest(_ name: String, in directory: URL) -> Result<
    IndexManifest, ManifestDamage
  > {
    let path = directory.appendingPathComponent(name).path
    do {
      let bytes = try RegularFile.read(
        path, maximumBytes: IndexManifest.maximumBytes, advice: "rebuild the index")
      return IndexManifest.parse(bytes)
    } catch {
      return .failure(ManifestDamage(error.message))
    }
  }

  /// The first segment of `manifest` that is missing or of another size, described, and
  /// whether it is gone.
  private static func missingSegment(of manifest: IndexManifest, in directory: URL)
    -> (description: String, isGone: Bool)?
  {
    for file in manifest.files {
      var status = stat()
      let path = directory.appendingPathComponent(file.name).path
      guard stat(path, &status) == 0 else { return ("\(file.name), which is missing", true) }
      guard status.st_mode & S_IFMT == S_IFREG, Int(exactly: status.st_size) == file.bytes
      else {
        return ("\(file.name) of \(file.bytes) bytes, which is \(status.st_size)", false)
      }
    }
    return nil
  }

  /// Commits `set` as the directory's next generation, then removes what the new manifest
  /// does not name. The caller holds the directory's lock.
  ///
  /// Segments of `committed` (the last commit's, by lineage) keep their files; the others
  /// are written with their documents. Beside each segment, a deletes file is written when
  /// its deleted documents changed since `committed`, and a counts file when its counts did.
  ///
  /// With `releasingDocuments`, the documents written are dropped from memory and read from
  /// their files when needed again: for a writer's commits, which alone replace the files.
  ///
  /// - Returns: The new manifest, and its segments by lineage for the next commit.
  /// - Throws: ``SearchError/Code/io`` when a file cannot be written or flushed (the
  ///   previous commit is then intact, and the files this commit wrote are removed). A
  ///   directory whose manifests are all damaged is committed over.
  static func commit(
    _ set: SegmentSet, to directory: URL, lock: DirectoryLock,
    reusing committed: [UInt64: CommittedSegment] = [:], releasingDocuments: Bool = false,
    merged: MergedSegmentFiles? = nil
  ) throws(SearchError) -> (manifest: IndexManifest, segments: [UInt64: CommittedSegment]) {
    precondition(lock.directory == directory, "a commit under another directory's lock")
    // Past every manifest name, whole or torn: a torn newest commit is then older than the
    // new one, and removed with the rest.
    let (generation, overflows) = highestGeneration(in: directory).addingReportingOverflow(1)
    guard !overflows else {
      throw SearchError(
        .corruptIndex,
        "a manifest in \(directory.path) claims the last generation there is; remove the manifest files and commit again"
      )
    }
    var writes = CommitWrites(directory: directory, generation: generation)
    var manifest = IndexManifest(generation: generation, segments: [])
    var segments: [UInt64: CommittedSegment] = [:]
    do {
      let written = merged?.segments ?? [:]
      for (index, segment) in set.segments.enumerated() {
        // A merge's files are named only while they are there as it wrote them (a save
        // into the directory, which keeps no merge's files, may have removed them).
        // A merge wrote no deletes or counts file (versions start at 1).
        let known =
          committed[segment.lineage]
          ?? written[segment.lineage].flatMap { entry in
            entry.files.allSatisfy { isWhole($0, in: directory) }
              ? CommittedSegment(entry: entry, deletedCount: 0, countsVersion: 0) : nil
          }
        let entry = try writes.entry(
          of: segment, number: index, deletions: set.deletions[index], known: known)
        manifest.segments.append(entry)
        segments[segment.lineage] = CommittedSegment(
          entry: entry, deletedCount: set.deletions[index].count, countsVersion: segment.version)
      }
      try failIfInjected(.manifest, in: directory)
      try AtomicFile.write(
        manifest.bytes,
        to: directory.appendingPathComponent(IndexManifest.fileName(generation: generation)))
    } catch {
      writes.removeWritten()
      throw error
    }
    if releasingDocuments { writes.documentsNowOnDisk() }
    removeUnreferencedFiles(in: directory, keeping: manifest) { merged?.names ?? [] }
    return (manifest, segments)
  }

  /// The files one commit writes, removed again when it fails.
  private struct CommitWrites {
    let directory: URL
    let generation: UInt64
    private(set) var paths: [String] = []
    /// The segments whose documents were written, with their files.
    private var documents: [(DocumentSlot, DocumentFile)] = []

    init(directory: URL, generation: UInt64) {
      self.directory = directory
      self.generation = generation
    }

    /// The manifest entry of `segment`, number `number` in the commit: `known`'s files
    /// when it was committed before, its own otherwise; and its deletes and counts files.
    mutating func entry(
      of segment: IndexSnapshot, number: Int, deletions: SegmentDeletions,
      known: CommittedSegment?
    ) throws(SearchError) -> IndexManifest.Segment {
      var entry: IndexManifest.Segment
      if let known {
        entry = known.entry
        // A merge's segment, written beside the commits, keeps its documents in memory
        // until a commit names its files.
        if case .memory = segment.documents.value, let file = known.entry.documents {
          documents.append((segment.documents, DocumentFile(file, in: directory)))
        }
      } else {
        let name = name("segment-", number, ".dsearch")
        let path = directory.appendingPathComponent(name).path
        let size = try IndexDirectory.writeSegment(segment, to: path, in: directory)
        paths.append(path)
        entry = IndexManifest.Segment(file: name, bytes: size)
        entry.documents = try commitDocuments(of: segment, number: number)
      }
      if deletions.count == 0 {
        entry.deletes = nil
      } else if entry.deletes == nil || known?.deletedCount != deletions.count {
        entry.deletes = try write(
          SegmentDeletesFile.encode(deletions), name: name("deletes-", number, ".del"))
      }
      if segment.changedCounts.count == 0 {
        entry.counts = nil
      } else if entry.counts == nil || known?.countsVersion != segment.version {
        entry.counts = try write(
          SegmentCountsFile.encode(segment.changedCountPatches),
          name: name("counts-", number, ".cnt"))
      }
      return entry
    }

    private func name(_ prefix: String, _ number: Int, _ suffix: String) -> String {
      IndexManifest.fileName(prefix, generation: generation, segment: number, suffix)
    }

    /// Writes and flushes `bytes` as file `name`.
    private mutating func write(_ bytes: [UInt8], name: String) throws(SearchError)
      -> IndexManifest.CheckedFile
    {
      let url = directory.appendingPathComponent(name)
      try AtomicFile.write(bytes, to: url)
      paths.append(url.path)
      return IndexManifest.CheckedFile(
        file: name, bytes: bytes.count, checksum: bytes.withUnsafeBytes { CRC32C.checksum($0) })
    }

    /// The documents file of `segment`: the one it was opened with when that is in the
    /// directory already, or a new one; `nil` for a segment of an earlier version that kept
    /// no documents.
    private mutating func commitDocuments(of segment: IndexSnapshot, number: Int)
      throws(SearchError) -> IndexManifest.CheckedFile?
    {
      let held: StoredDocuments
      switch segment.documents.value {
      case .unavailable, .segments: return nil
      case .file(let file)
      where file.directory.standardizedFileURL == directory.standardizedFileURL:
        return IndexManifest.CheckedFile(file)
      case .file(let file): held = try file.read()
      case .memory(let documents): held = documents
      }
      try IndexDirectory.failIfInjected(.documents, in: directory)
      let file = try DocumentFile.write(
        held, name: name("documents-", number, ".docs"), in: directory)
      paths.append(file.path)
      documents.append((segment.documents, file))
      return IndexManifest.CheckedFile(file)
    }

    /// Removes every file written, after a failure.
    func removeWritten() {
      for path in paths { unlink(path) }
    }

    /// Points the documents written at their files, which frees them from memory: a
    /// writer reads them again from there.
    func documentsNowOnDisk() {
      for (slot, file) in documents { slot.value = .file(file) }
    }
  }

  /// Whether `file` is in `directory`, a regular file of its size.
  private static func isWhole(_ file: (name: String, bytes: Int), in directory: URL) -> Bool {
    var status = stat()
    return stat(directory.appendingPathComponent(file.name).path, &status) == 0
      && status.st_mode & S_IFMT == S_IFREG && Int(exactly: status.st_size) == file.bytes
  }

  /// A step of a commit that tests make fail, as a full disk or a failing device would
  /// (the failure injection of Lucene's `MockDirectoryWrapper`).
  enum FaultStep: Sendable {
    /// Writing the segment file, after its bytes went out and before its rename.
    case segment
    /// Writing the documents file, after the segment is in place.
    case documents
    /// Writing the manifest, after the segment and the documents are in place.
    case manifest
  }

  /// The injected failures, by directory path: only commits into that directory fail, so
  /// tests running at once do not see each other's.
  static let injectedFaults = Lock<[String: FaultStep]>([:])

  fileprivate static func failIfInjected(_ step: FaultStep, in directory: URL) throws(SearchError) {
    guard injectedFaults.withLock({ $0[directory.path] }) == step else { return }
    throw SearchError(.io, "cannot write into \(directory.path): No space left on device")
  }

  /// The highest generation any manifest name in `directory` holds, whole or not.
  private static func highestGeneration(in directory: URL) -> UInt64 {
    ((try? manifestGenerations(in: directory)) ?? []).max() ?? 0
  }

  /// The generations the manifest names in `directory` hold, in no order.
  ///
  /// - Throws: ``SearchError/Code/io`` when the directory cannot be listed.
  private static func manifestGenerations(in directory: URL) throws(SearchError) -> [UInt64] {
    do {
      return try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .compactMap(IndexManifest.generation(ofFileName:))
    } catch {
      throw SearchError(
        .io, "cannot list the index directory \(directory.path): \(error.localizedDescription)")
    }
  }

  /// Writes and flushes a segment file through a temporary name, and returns its size.
  static func writeSegment(
    _ snapshot: IndexSnapshot, to path: String, in directory: URL
  ) throws(SearchError) -> Int {
    let temporary = AtomicFile.temporaryPath(for: path)
    do {
      var writer = try IndexFileWriter(path: temporary)
      do {
        try snapshot.write(to: &writer)
        try writer.finish()
      } catch {
        writer.abandon()
        throw error
      }
      try failIfInjected(.segment, in: directory)
    } catch {
      unlink(temporary)
      throw error as? SearchError ?? SearchError(.io, "cannot write \(path): \(error)")
    }
    try AtomicFile.moveIntoPlace(temporary, at: path, in: directory, what: "the new segment")
    var status = stat()
    guard stat(path, &status) == 0, let size = Int(exactly: status.st_size) else {
      throw SearchError(.io, "cannot read the size of \(path): \(String(cString: strerror(errno)))")
    }
    return size
  }

  /// Removes the manifests older than `manifest`, the segment files it does not name, the
  /// single-file index of earlier versions, and temporary files of writers that died.
  /// Readers that opened an older commit keep reading it: a mapped file outlives its name.
  /// `pending` (read after the directory is listed) names files to keep as well: those
  /// background merges wrote for the next commit (``MergedSegmentFiles``).
  static func removeUnreferencedFiles(
    in directory: URL, keeping manifest: IndexManifest, pending: () -> Set<String> = { [] }
  ) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
    else { return }
    let live = Set(manifest.files.map(\.name)).union(pending())
    for name in names {
      let isOlderManifest =
        IndexManifest.generation(ofFileName: name).map { $0 < manifest.generation } ?? false
      let isDeadFile = IndexManifest.isSegmentPartFileName(name[...]) && !live.contains(name)
      if isOlderManifest || isDeadFile || name == IndexFile.fileName {
        unlink(directory.appendingPathComponent(name).path)
      }
    }
    for name in names
    where name.hasPrefix("segment-")
      || IndexManifest.segmentFileKinds.contains(where: { name.hasPrefix($0.prefix) })
      || name.hasPrefix(IndexManifest.prefix) || name.hasPrefix(IndexFile.fileName)
    {
      if let final = name.range(of: ".tmp-").map({ String(name[..<$0.lowerBound]) }) {
        AtomicFile.removeAbandonedTemporaries(
          of: directory.appendingPathComponent(final).path, in: directory)
      }
    }
  }
}

/// The lock one writer of an index directory holds: `flock` on `write.lock`, released when
/// this object goes away or its process dies (the kernel drops the lock with the last
/// descriptor), so a killed writer never leaves a directory locked.
final class DirectoryLock: Sendable {
  let directory: URL
  private let descriptor: Int32

  /// Takes the lock of `directory`, which must exist.
  ///
  /// - Throws: ``SearchError/Code/indexLocked`` when another writer, in this process or
  ///   another, holds it; ``SearchError/Code/io`` when the lock file cannot be opened.
  init(directory: URL) throws(SearchError) {
    self.directory = directory
    let path = directory.appendingPathComponent(IndexDirectory.lockFileName).path
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
    guard descriptor >= 0 else {
      throw SearchError(.io, "cannot open \(path): \(String(cString: strerror(errno)))")
    }
    // Each open gives its own lock: a second writer in this very process is refused too.
    guard Self.lock(descriptor) else {
      let reason = errno
      close(descriptor)
      if reason == EWOULDBLOCK {
        throw SearchError(
          .indexLocked,
          "another writer holds \(path); wait for it to finish, or stop it (the lock goes with its process)"
        )
      }
      throw SearchError(.io, "cannot lock \(path): \(String(cString: strerror(reason)))")
    }
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// Takes the `flock` on `descriptor`, trying again for up to 100 ms while it is held.
  ///
  /// A process that forks (in any thread, to start a child) copies every descriptor, the
  /// lock file's of a writer that just finished among them, and the lock stays held by the
  /// copy until the child's `exec` closes it (`O_CLOEXEC`): for that moment a new writer
  /// would be refused though no writer is left. A writer really at work holds the lock for
  /// longer than the retries last, and is still reported.
  ///
  /// - Returns: Whether the lock was taken; `errno` says why not.
  private static func lock(_ descriptor: Int32) -> Bool {
    for _ in 0..<40 {
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
      guard errno == EWOULDBLOCK || errno == EINTR else { return false }
      usleep(2_500)
    }
    errno = EWOULDBLOCK
    return false
  }
}
