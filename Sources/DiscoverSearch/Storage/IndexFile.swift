#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The on-disk layout of a saved index: one file of checksummed sections.
///
/// ```
/// [magic "DSINDEX\0": 8] [format version: UInt32] [byte order mark 0x01020304: UInt32]
/// [section 0, 16-byte aligned] [section 1] ...
/// [section table: per section offset UInt64, length UInt64, element size UInt32, CRC-32C UInt32]
/// [footer: table offset UInt64, section count UInt64, table CRC-32C UInt32, 0: UInt32,
///  magic "DSINDEX\0": 8]
/// ```
///
/// Sections are the snapshot's columns, written in a fixed order; reading maps them in place
/// (the file is mapped, or read into one buffer, and columns view it without copying).
enum IndexFile {
  static let magic: [UInt8] = Array("DSINDEX\u{0}".utf8)
  /// Bumped whenever the section order or any layout changes.
  static let formatVersion: UInt32 = 11
  /// The versions this build reads: 8 lacks the suggestion sections, 9 the exact name
  /// filters (format 10), which are then built on first use, and 10 the tables derived from
  /// the suggestion sections (format 11), which are then built on open.
  static let readableVersions: ClosedRange<UInt32> = 8...11
  static let byteOrderMark: UInt32 = 0x0102_0304
  static let headerSize = 16
  static let footerSize = 32
  static let tableEntrySize = 24
  static let alignment = 16
  /// The index file's name inside the index directory.
  static let fileName = "index.dsearch"
}

/// Writes an index file section by section, then the table and footer.
struct IndexFileWriter {
  private let descriptor: Int32
  private let path: String
  private var offset = 0
  private var table: [(offset: UInt64, length: UInt64, elementSize: UInt32, checksum: UInt32)] = []

  /// Creates (or truncates) the file at `path`.
  init(path: String) throws {
    self.path = path
    descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else {
      throw SearchError(.io, "cannot create \(path): \(String(cString: strerror(errno)))")
    }
    var header = IndexFile.magic
    withUnsafeBytes(of: IndexFile.formatVersion.littleEndian) { header.append(contentsOf: $0) }
    withUnsafeBytes(of: IndexFile.byteOrderMark) { header.append(contentsOf: $0) }
    try write(header)
  }

  private mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
    var written = 0
    while written < bytes.count {
      let result = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
      if result < 0 {
        if errno == EINTR { continue }
        throw SearchError(.io, "cannot write \(path): \(String(cString: strerror(errno)))")
      }
      written += result
    }
    offset += bytes.count
  }

  private mutating func write(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try write($0) }
  }

  /// Appends one section holding `buffer`.
  mutating func append<T: BitwiseCopyable>(_ buffer: UnsafeBufferPointer<T>) throws {
    let padding = (IndexFile.alignment - offset % IndexFile.alignment) % IndexFile.alignment
    if padding > 0 { try write([UInt8](repeating: 0, count: padding)) }
    let raw = UnsafeRawBufferPointer(buffer)
    let start = offset
    if raw.count > 0 { try write(raw) }
    table.append(
      (UInt64(start), UInt64(raw.count), UInt32(MemoryLayout<T>.stride), CRC32C.checksum(raw)))
  }

  mutating func append<T: BitwiseCopyable>(_ column: Column<T>) throws {
    try append(column.buffer)
  }

  mutating func append<T: BitwiseCopyable>(_ array: [T]) throws {
    try array.withUnsafeBufferPointer { try append($0) }
  }

  mutating func append(_ column: IntegerColumn) throws {
    try append([UInt64(column.width)])
    try append(column.storage)
  }

  mutating func append(_ column: StringColumn) throws {
    try append(column.bytes)
    try append(column.offsets)
  }

  mutating func append(_ column: URLColumn) throws {
    try append(column.templateIndexes)
    try append(column.templates)
    try append(column.literalDocuments)
    try append(column.literals)
  }

  /// Writes the table and footer, flushes the file to disk and closes it.
  mutating func finish() throws {
    var tableBytes: [UInt8] = []
    for entry in table {
      withUnsafeBytes(of: entry.offset.littleEndian) { tableBytes.append(contentsOf: $0) }
      withUnsafeBytes(of: entry.length.littleEndian) { tableBytes.append(contentsOf: $0) }
      withUnsafeBytes(of: entry.elementSize.littleEndian) { tableBytes.append(contentsOf: $0) }
      withUnsafeBytes(of: entry.checksum.littleEndian) { tableBytes.append(contentsOf: $0) }
    }
    let tableOffset = UInt64(offset)
    let tableChecksum = tableBytes.withUnsafeBytes { CRC32C.checksum($0) }
    try write(tableBytes)
    var footer: [UInt8] = []
    withUnsafeBytes(of: tableOffset.littleEndian) { footer.append(contentsOf: $0) }
    withUnsafeBytes(of: UInt64(table.count).littleEndian) { footer.append(contentsOf: $0) }
    withUnsafeBytes(of: tableChecksum.littleEndian) { footer.append(contentsOf: $0) }
    withUnsafeBytes(of: UInt32(0)) { footer.append(contentsOf: $0) }
    footer.append(contentsOf: IndexFile.magic)
    try write(footer)
    guard fsync(descriptor) == 0 else {
      throw SearchError(.io, "cannot flush \(path) to disk: \(String(cString: strerror(errno)))")
    }
    close(descriptor)
  }

  /// Closes the file without finishing it (after an error).
  func abandon() {
    close(descriptor)
  }
}

/// Reads an index file written by ``IndexFileWriter``: the file mapped into memory (a large
/// mapped), its checksums verified (``IndexVerification``), then sections handed out in order
/// as columns viewing that memory.
///
/// Everything read from the file is checked before it is used: the file must be a regular
/// file (a pipe would block the open), its header and footer are read first, and every size
/// and offset in the footer and section table is compared with the file size, in unsigned
/// or checked arithmetic, before it becomes an `Int`.
struct IndexFileReader {
  private let storage: ColumnStorage
  let path: String
  private var sections: [(offset: Int, length: Int, elementSize: Int)] = []
  private var next = 0

  /// Reads and verifies the file at `path`.
  ///
  /// - Throws: ``SearchError/Code/io`` when the file cannot be read;
  ///   ``SearchError/Code/corruptIndex`` when it is not a regular file, truncated, not an
  ///   index file, of another format version, or fails a checksum.
  init(path: String, verification: IndexVerification = .full) throws {
    self.path = path
    let advice = "build one with `discover index`"
    let (descriptor, size) = try RegularFile.openForReading(path, advice: advice)
    defer { close(descriptor) }
    guard size >= IndexFile.headerSize + IndexFile.footerSize else {
      throw SearchError(.corruptIndex, "\(path) is truncated (\(size) bytes); rebuild the index")
    }
    storage = try Self.load(descriptor, size: size, path: path)
    let bytes = UnsafeRawBufferPointer(start: storage.base, count: size)
    try Self.checkHeader(bytes, path: path)
    let (tableOffset, sectionCount) = try Self.readFooter(bytes, path: path)
    for index in 0..<sectionCount {
      sections.append(
        try Self.readSection(
          index, of: bytes, tableOffset: tableOffset, verification: verification, path: path))
    }
  }

  /// The file's bytes in memory, mapped. A large file is mapped at a 2 MB boundary and
  /// offered to transparent huge pages, since searches touch an index at random: where the
  /// page cache holds it in 2 MB folios, the kernel maps them whole (on 4 KB pages searches
  /// ran 7-14% slower at the median on 1M documents). Reading it into anonymous huge pages
  /// instead made the kernel zero 270 MB first: 73% of opening 1M documents. Its header and
  /// footer are read and checked before it is mapped, so that a file that is not an index
  /// is refused unmapped.
  private static func load(_ descriptor: Int32, size: Int, path: String) throws -> ColumnStorage {
    func failure(_ verb: String) -> SearchError {
      SearchError(.io, "cannot \(verb) \(path): \(String(cString: strerror(errno)))")
    }
    guard size >= ColumnStorage.hugePageThreshold else {
      guard let mapping = ColumnStorage(mappingFile: descriptor, byteCount: size) else {
        throw failure("map")
      }
      return mapping
    }
    var ends = [UInt8](repeating: 0, count: IndexFile.headerSize + IndexFile.footerSize)
    let read = ends.withUnsafeMutableBytes { ends in
      pread(descriptor, ends.baseAddress!, IndexFile.headerSize, 0) == IndexFile.headerSize
        && pread(
          descriptor, ends.baseAddress! + IndexFile.headerSize, IndexFile.footerSize,
          off_t(size - IndexFile.footerSize)) == IndexFile.footerSize
    }
    guard read else { throw failure("read") }
    try ends.withUnsafeBytes { ends in
      try checkHeader(ends, path: path)
      _ = try footerWords(ends, fileSize: size, path: path)
    }
    guard let storage = ColumnStorage(mappingFileOnHugePages: descriptor, byteCount: size) else {
      throw failure("map")
    }
    return storage
  }

  /// The magic numbers at both ends, the format version and the byte order.
  private static func checkHeader(_ bytes: UnsafeRawBufferPointer, path: String) throws {
    guard bytes.prefix(8).elementsEqual(IndexFile.magic),
      bytes.suffix(8).elementsEqual(IndexFile.magic)
    else {
      throw SearchError(
        .corruptIndex,
        "\(path) is not a DiscoverSearch index file (or is truncated); rebuild it with `discover index`"
      )
    }
    let version = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
    guard IndexFile.readableVersions.contains(version) else {
      throw SearchError(
        .corruptIndex,
        "\(path) has index format \(version); this build reads formats \(IndexFile.readableVersions.lowerBound) to \(IndexFile.readableVersions.upperBound); rebuild the index"
      )
    }
    guard bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self) == IndexFile.byteOrderMark else {
      throw SearchError(
        .corruptIndex, "\(path) was written on a machine of the other byte order; rebuild it here")
    }
  }

  /// The section table's offset and length from the footer, checked against the file size,
  /// and the table's checksum verified.
  private static func readFooter(_ bytes: UnsafeRawBufferPointer, path: String) throws -> (
    tableOffset: Int, sectionCount: Int
  ) {
    let footer = bytes.count - IndexFile.footerSize
    let (tableOffset, sectionCount, tableChecksum) = try footerWords(
      bytes, fileSize: bytes.count, path: path)
    let table = UnsafeRawBufferPointer(rebasing: bytes[tableOffset..<footer])
    guard CRC32C.checksum(table) == tableChecksum else {
      throw SearchError(
        .corruptIndex, "\(path) fails its section table checksum; rebuild the index")
    }
    return (tableOffset, sectionCount)
  }

  /// The footer's words, from the last ``IndexFile/footerSize`` bytes of `bytes` (the end
  /// of a file of `fileSize` bytes): the table's offset and entry count, checked to lie
  /// between the header and the footer, and its checksum.
  private static func footerWords(
    _ bytes: UnsafeRawBufferPointer, fileSize: Int, path: String
  ) throws -> (tableOffset: Int, sectionCount: Int, checksum: UInt32) {
    let at = bytes.count - IndexFile.footerSize
    let footer = fileSize - IndexFile.footerSize
    let tableOffset = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    let sectionCount = UInt64(
      littleEndian: bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self))
    let checksum = UInt32(
      littleEndian: bytes.loadUnaligned(fromByteOffset: at + 16, as: UInt32.self))
    let reserved = bytes.loadUnaligned(fromByteOffset: at + 20, as: UInt32.self)
    // In UInt64 and bounded before any conversion: a damaged word never traps.
    guard reserved == 0, sectionCount < 1 << 20, tableOffset >= UInt64(IndexFile.headerSize),
      tableOffset <= UInt64(footer),
      UInt64(footer) - tableOffset == sectionCount * UInt64(IndexFile.tableEntrySize)
    else {
      throw SearchError(.corruptIndex, "\(path) has a damaged section table; rebuild the index")
    }
    return (Int(tableOffset), Int(sectionCount), checksum)
  }

  /// Entry `index` of the section table, checked to lie before the table, with its
  /// checksum verified when `verification` asks for it (``IndexVerification``).
  private static func readSection(
    _ index: Int, of bytes: UnsafeRawBufferPointer, tableOffset: Int,
    verification: IndexVerification, path: String
  ) throws -> (offset: Int, length: Int, elementSize: Int) {
    let entry = tableOffset + index * IndexFile.tableEntrySize
    let offset = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: entry, as: UInt64.self))
    let length = UInt64(
      littleEndian: bytes.loadUnaligned(fromByteOffset: entry + 8, as: UInt64.self))
    let elementSize = UInt32(
      littleEndian: bytes.loadUnaligned(fromByteOffset: entry + 16, as: UInt32.self))
    let checksum = UInt32(
      littleEndian: bytes.loadUnaligned(fromByteOffset: entry + 20, as: UInt32.self))
    guard offset % UInt64(IndexFile.alignment) == 0, offset <= UInt64(tableOffset),
      length <= UInt64(tableOffset) - offset, elementSize > 0, length % UInt64(elementSize) == 0
    else {
      throw SearchError(
        .corruptIndex, "\(path): section \(index) lies outside the file; rebuild the index")
    }
    let section = UnsafeRawBufferPointer(rebasing: bytes[Int(offset)..<Int(offset + length)])
    let checks = verification == .full || section.count <= IndexVerification.smallSectionBytes
    guard !checks || CRC32C.checksum(section) == checksum else {
      throw SearchError(
        .corruptIndex,
        "\(path): section \(index) fails its checksum (the file is damaged); rebuild the index")
    }
    return (Int(offset), Int(length), Int(elementSize))
  }

  /// The size of the file in bytes.
  var fileSize: Int { storage.byteCount }

  /// The error for a file whose `what` is damaged, naming the file and the remedy.
  func damaged(_ what: String) -> SearchError {
    SearchError(.corruptIndex, "\(path): \(what); rebuild the index")
  }

  /// The file's format version (checked to be one this build reads).
  var formatVersion: UInt32 {
    UInt32(
      littleEndian: UnsafeRawPointer(storage.base).loadUnaligned(fromByteOffset: 8, as: UInt32.self)
    )
  }

  /// The next section, as a column of `T`.
  mutating func column<T: BitwiseCopyable>(_: T.Type = T.self) throws -> Column<T> {
    guard next < sections.count else {
      throw SearchError(
        .corruptIndex, "\(path) has fewer sections than its format needs; rebuild the index")
    }
    let section = sections[next]
    next += 1
    guard section.elementSize == MemoryLayout<T>.stride else {
      throw SearchError(
        .corruptIndex,
        "\(path): section \(next - 1) holds \(section.elementSize)-byte values where \(MemoryLayout<T>.stride) were expected; rebuild the index"
      )
    }
    return Column(
      storage: storage, byteOffset: section.offset, count: section.length / section.elementSize)
  }

  mutating func array<T: BitwiseCopyable>(_: T.Type = T.self) throws -> [T] {
    try column(T.self).array
  }

  mutating func integers() throws -> IntegerColumn {
    let width = try array(UInt64.self)
    let storage = try column(UInt8.self)
    guard width.count == 1, let checkedWidth = Int(exactly: width[0]),
      let column = IntegerColumn(width: checkedWidth, storage: storage)
    else {
      throw SearchError(.corruptIndex, "\(path): an integer column is damaged; rebuild the index")
    }
    return column
  }

  mutating func strings() throws -> StringColumn {
    let bytes = try column(UInt8.self)
    let offsets = try column(UInt32.self)
    guard offsets.count >= 1, offsets[0] == 0, Int(offsets[offsets.count - 1]) <= bytes.count else {
      throw SearchError(.corruptIndex, "\(path): a string column is damaged; rebuild the index")
    }
    for index in 1..<offsets.count where offsets[index] < offsets[index - 1] {
      throw SearchError(.corruptIndex, "\(path): a string column is damaged; rebuild the index")
    }
    return StringColumn(bytes: bytes, offsets: offsets)
  }

  /// The next URL column, of `count` documents' URLs.
  mutating func urls(count: Int) throws -> URLColumn {
    let column = URLColumn(
      templateIndexes: try column(), templates: try strings(), literalDocuments: try column(),
      literals: try strings())
    func damaged() -> SearchError {
      SearchError(.corruptIndex, "\(path): a URL column is damaged; rebuild the index")
    }
    guard column.templateIndexes.count == count, column.templates.count % 2 == 0,
      column.literals.count == column.literalDocuments.count
    else { throw damaged() }
    for template in column.templateIndexes.buffer
    where template < URLColumn.literal && Int(template) * 2 + 1 >= column.templates.count {
      throw damaged()
    }
    let literalDocuments = column.literalDocuments.buffer
    for (index, document) in literalDocuments.enumerated()
    where Int(document) >= count || (index > 0 && document <= literalDocuments[index - 1]) {
      throw damaged()
    }
    return column
  }

  /// Whether every section was read.
  var isAtEnd: Bool { next == sections.count }
}
