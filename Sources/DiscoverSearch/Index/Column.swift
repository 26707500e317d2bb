import CPrefetch

/// Memory that a ``Column`` views; freed when the last column viewing it goes away.
final class ColumnStorage: @unchecked Sendable {
  // Invariant that makes this Sendable: the bytes are written only before the storage is
  // shared (while building a column or reading an index file) and never after.
  let base: UnsafeMutableRawPointer
  let byteCount: Int
  private enum Owner {
    /// Swift's allocator.
    case swift
    /// The C allocator (`posix_memalign` for huge pages, or adopted).
    case malloc
    /// A private mapping of a file, unmapped when the storage goes.
    case mapping
  }
  private let owner: Owner

  /// Storage this large is aligned to 2 MB and offered to the kernel for transparent huge
  /// pages: searches touch an index at random, and with 4 KB pages nearly every access to a
  /// large index also misses the TLB.
  static let hugePageThreshold = 4 << 20
  static let hugePageSize = 2 << 20

  /// Takes over memory from `malloc` (``LargeMemory``), freed with `free`.
  init(adopting base: UnsafeMutableRawPointer, byteCount: Int) {
    self.base = base
    self.byteCount = byteCount
    owner = .malloc
  }

  /// Maps the first `byteCount` bytes of the file open on `descriptor`, privately: the
  /// pages are read from the file as they are touched (opening costs no read of the
  /// whole file), and the file is never written. The mapping outlives the descriptor.
  ///
  /// The file must not shrink while mapped (a read past its new end raises `SIGBUS`): index
  /// files are written once under a temporary name and never changed in place.
  init?(mappingFile descriptor: Int32, byteCount: Int) {
    guard byteCount > 0,
      let pointer = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE, descriptor, 0),
      pointer != MAP_FAILED
    else { return nil }
    base = pointer
    self.byteCount = byteCount
    owner = .mapping
  }

  /// Maps the first `byteCount` bytes of the file open on `descriptor` as
  /// ``init(mappingFile:byteCount:)`` does, at an address aligned to 2 MB and offered to
  /// transparent huge pages: where the page cache holds the file in 2 MB folios (after it
  /// was read, on kernels whose file systems cache in large folios), the kernel maps them
  /// with 2 MB entries, so searches keep the TLB reach of huge pages without the file being
  /// copied into fresh memory the kernel must first zero.
  init?(mappingFileOnHugePages descriptor: Int32, byteCount: Int) {
    let alignment = Self.hugePageSize
    guard byteCount > 0,
      let reserved = mmap(
        nil, byteCount + alignment, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      reserved != MAP_FAILED
    else { return nil }
    let start = Int(bitPattern: reserved)
    let aligned = (start + alignment - 1) & ~(alignment - 1)
    guard let address = UnsafeMutableRawPointer(bitPattern: aligned),
      let pointer = mmap(
        address, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, descriptor, 0),
      pointer != MAP_FAILED
    else {
      munmap(reserved, byteCount + alignment)
      return nil
    }
    // The reservation's parts before and after the mapping go back.
    if aligned > start { munmap(reserved, aligned - start) }
    let tail = aligned + byteCount
    let reservedEnd = start + byteCount + alignment
    if reservedEnd > tail, let after = UnsafeMutableRawPointer(bitPattern: tail) {
      munmap(after, reservedEnd - tail)
    }
    #if os(Linux)
      _ = madvise(pointer, byteCount, MADV_HUGEPAGE)
    #endif
    base = pointer
    self.byteCount = byteCount
    owner = .mapping
  }

  init(byteCount: Int, alignment: Int = 16) {
    self.byteCount = byteCount
    #if os(Linux)
      if byteCount >= ColumnStorage.hugePageThreshold,
        let pointer = Self.allocateHugePages(byteCount)
      {
        base = pointer
        owner = .malloc
        return
      }
    #endif
    base = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: alignment)
    owner = .swift
  }

  /// `byteCount` bytes from the C allocator, aligned to a huge page and offered to the
  /// kernel for transparent huge pages (freed with `free`), or `nil` when it cannot give
  /// that much.
  private static func allocateHugePages(_ byteCount: Int) -> UnsafeMutableRawPointer? {
    var pointer: UnsafeMutableRawPointer?
    guard posix_memalign(&pointer, hugePageSize, byteCount) == 0, let pointer else { return nil }
    LargeMemory.adviseHugePages(pointer, byteCount: byteCount)
    return pointer
  }

  deinit {
    switch owner {
    case .swift: base.deallocate()
    case .malloc: free(base)
    case .mapping: munmap(base, byteCount)
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An immutable contiguous array of plain values, shared by reference.
///
/// Snapshots keep their postings, norms and columns in these so that query code reads them
/// through stable pointers, without nested `withUnsafeBufferPointer` closures, and so that a
/// whole index file read into one buffer is used in place. This is the one place the index
/// holds raw pointers; every access is bounds-checked in debug builds.
struct Column<Element: BitwiseCopyable>: @unchecked Sendable {
  // Invariant that makes this Sendable: `base` points into `storage`, which is immutable
  // once a column exists and lives as long as any column viewing it.
  private let storage: ColumnStorage
  /// The first element.
  let base: UnsafePointer<Element>
  /// The number of elements.
  let count: Int

  /// Copies an array into a new column.
  init(_ array: [Element]) {
    self = array.withUnsafeBufferPointer { Column($0) }
  }

  /// Copies a buffer into a new column.
  init(_ source: UnsafeBufferPointer<Element>) {
    let stride = MemoryLayout<Element>.stride
    storage = ColumnStorage(byteCount: source.count * stride, alignment: 16)
    let typed = storage.base.bindMemory(to: Element.self, capacity: max(source.count, 1))
    if let sourceBase = source.baseAddress {
      typed.update(from: sourceBase, count: source.count)
    }
    base = UnsafePointer(typed)
    count = source.count
  }

  /// A new column of `count` copies of `value`, which `update` may change before the column
  /// is shared: a table made in the memory it keeps, with no array to copy it from.
  init(
    count: Int, repeating value: Element,
    updating update: (UnsafeMutableBufferPointer<Element>) -> Void
  ) {
    storage = ColumnStorage(byteCount: count * MemoryLayout<Element>.stride, alignment: 16)
    let typed = storage.base.bindMemory(to: Element.self, capacity: max(count, 1))
    typed.initialize(repeating: value, count: count)
    update(UnsafeMutableBufferPointer(start: typed, count: count))
    base = UnsafePointer(typed)
    self.count = count
  }

  /// Takes over `count` elements in memory from ``LargeMemory`` (aligned to 16 bytes, as
  /// `malloc` aligns).
  init(adopting pointer: UnsafeMutablePointer<Element>, count: Int) {
    storage = ColumnStorage(
      adopting: UnsafeMutableRawPointer(pointer), byteCount: count * MemoryLayout<Element>.stride)
    base = UnsafePointer(pointer)
    self.count = count
  }

  /// Views `count` elements at `byteOffset` of `storage` (which must be suitably aligned).
  init(storage: ColumnStorage, byteOffset: Int, count: Int) {
    precondition(byteOffset % MemoryLayout<Element>.alignment == 0, "misaligned column")
    precondition(byteOffset + count * MemoryLayout<Element>.stride <= storage.byteCount)
    self.storage = storage
    base = UnsafePointer(
      (storage.base + byteOffset).bindMemory(to: Element.self, capacity: max(count, 1)))
    self.count = count
  }

  /// An empty column.
  init() {
    self.init([])
  }

  @inline(__always)
  subscript(index: Int) -> Element {
    assert(index >= 0 && index < count, "column index \(index) out of 0..<\(count)")
    return base[index]
  }

  /// The bytes the elements take.
  var byteCount: Int { count * MemoryLayout<Element>.stride }

  /// The elements as a buffer.
  var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

  /// The elements copied into an array.
  var array: [Element] { Array(buffer) }
}

/// Strings stored back to back as UTF-8, with `count + 1` offsets.
struct StringColumn: Sendable {
  var bytes: Column<UInt8>
  var offsets: Column<UInt32>

  /// The number of strings.
  var count: Int { offsets.count - 1 }

  init(bytes: Column<UInt8>, offsets: Column<UInt32>) {
    self.bytes = bytes
    self.offsets = offsets
  }

  /// String `index`.
  func string(at index: Int) -> String {
    let start = Int(offsets[index])
    let end = Int(offsets[index + 1])
    return String(
      decoding: UnsafeBufferPointer(start: bytes.base + start, count: end - start), as: UTF8.self)
  }

  /// Loads string `index`'s offset (`includingBytes` false) or its first byte, and returns
  /// it, so that a caller can bring many strings into the cache with independent loads.
  @inline(__always)
  func touch(_ index: Int, includingBytes: Bool) -> UInt32 {
    let start = offsets[index]
    guard includingBytes, Int(start) < bytes.count else { return start }
    return UInt32(bytes[Int(start)])
  }

  /// Starts loading string `index`'s offset (`includingBytes` false), or its first bytes
  /// (true; this reads the offset, which an earlier call without bytes brought close), and
  /// returns at once, so that the misses of many strings overlap.
  @inline(__always)
  func prefetch(_ index: Int, includingBytes: Bool) {
    // SAFETY: the index is checked against the offsets; a prefetch never faults in any case.
    precondition(index >= 0 && index < count, "string \(index) is outside 0..<\(count)")
    if includingBytes {
      let start = Int(offsets[index])
      guard start < bytes.count else { return }
      cprefetch_for_reading(bytes.base + start)
    } else {
      cprefetch_for_reading(offsets.base + index)
    }
  }

  /// The UTF-8 bytes of string `index`.
  @inline(__always)
  func utf8(at index: Int) -> UnsafeBufferPointer<UInt8> {
    let start = Int(offsets[index])
    let end = Int(offsets[index + 1])
    return UnsafeBufferPointer(start: bytes.base + start, count: end - start)
  }

  var byteCount: Int { bytes.byteCount + offsets.byteCount }
}

/// Builds a ``StringColumn``.
struct StringColumnBuilder: Sendable {
  /// The strings' bytes, one after another: a writer's titles reach hundreds of megabytes,
  /// which a ``GrowableStore`` grows without copying.
  private var store = GrowableStore<UInt8>()
  private(set) var offsets: [UInt32] = [0]

  mutating func append(_ string: String?) {
    if let string {
      GrowableStore.makeUnique(&store)
      var string = string
      let store = store
      string.withUTF8 { store.buffer.append(contentsOf: $0) }
    }
    offsets.append(UInt32(truncatingIfNeeded: byteCount))
  }

  /// Appends one string made of `parts`, each followed by the byte `terminator`: a list of
  /// strings as one entry (see ``StringListColumn``).
  ///
  /// - Complexity: O(n) in the parts' total length.
  mutating func append(_ parts: [String], eachFollowedBy terminator: UInt8) {
    if !parts.isEmpty {
      GrowableStore.makeUnique(&store)
      let store = store
      for part in parts {
        var part = part
        part.withUTF8 { store.buffer.append(contentsOf: $0) }
        store.buffer.append(terminator)
      }
    }
    offsets.append(UInt32(truncatingIfNeeded: byteCount))
  }

  /// Makes room for `added` more strings' offsets.
  mutating func reserveCapacity(adding added: Int) {
    offsets.reserveCapacity(adding: added)
  }

  var count: Int { offsets.count - 1 }

  /// The number of bytes of all strings.
  var byteCount: Int { store.buffer.count }

  /// Whether the text still fits the 32-bit offsets.
  var fitsOffsets: Bool { byteCount <= Int(UInt32.max) }

  /// Calls `body` with the bytes of all strings, one after another.
  func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try withExtendedLifetime(store) { try body(store.buffer.buffer) }
  }

  func build() -> StringColumn {
    StringColumn(bytes: withBytes { Column($0) }, offsets: Column(offsets))
  }
}

/// Thumbnail URLs, stored as a template and the document's id when the URL contains it.
///
/// CDN URLs differ only in the id (`https://cdn.example.com/t/v123.jpg`), so storing
/// `https://cdn.example.com/t/{id}.jpg` once and a two-byte template number per document
/// saves tens of bytes per video; other URLs are stored whole.
struct URLColumn: Sendable {
  /// Template number per document: `none`, `literal`, or an index into `templates`.
  var templateIndexes: Column<UInt16>
  /// Prefix and suffix around the id, per template, as strings `2t` and `2t + 1`.
  var templates: StringColumn
  /// The documents whose template index is `literal`, ascending, and their whole URLs.
  var literalDocuments: Column<UInt32>
  var literals: StringColumn

  static let none: UInt16 = 0xFFFF
  static let literal: UInt16 = 0xFFFE
  /// At most this many templates; further URL shapes are stored whole.
  static let maximumTemplates = 4096

  /// The URL of document `index`, whose id is `id`.
  func url(at index: Int, id: String) -> String? {
    let template = templateIndexes[index]
    switch template {
    case URLColumn.none: return nil
    case URLColumn.literal:
      // Binary search: literal URLs are the exception.
      var low = 0
      var high = literalDocuments.count
      while low < high {
        let middle = (low + high) / 2
        if Int(literalDocuments[middle]) < index { low = middle + 1 } else { high = middle }
      }
      return low < literalDocuments.count && Int(literalDocuments[low]) == index
        ? literals.string(at: low) : nil
    default:
      // One allocation and one validation for the three parts, not one per part and per
      // concatenation.
      let prefix = templates.utf8(at: Int(template) * 2)
      let suffix = templates.utf8(at: Int(template) * 2 + 1)
      var id = id
      return id.withUTF8 { id in
        String(unsafeUninitializedCapacity: prefix.count + id.count + suffix.count) { buffer in
          var end = buffer.initialize(fromContentsOf: prefix)
          end = buffer[end...].initialize(fromContentsOf: id)
          return buffer[end...].initialize(fromContentsOf: suffix)
        }
      }
    }
  }

  var byteCount: Int {
    templateIndexes.byteCount + templates.byteCount + literalDocuments.byteCount
      + literals.byteCount
  }
}

/// Builds a ``URLColumn``.
struct URLColumnBuilder: Sendable {
  private var templateIndexes: [UInt16] = []
  /// Each template as `prefix, 0, suffix`; its id is its template number.
  private var templateKeys = ByteStringTable(capacity: 16)
  private var literalDocuments: [UInt32] = []
  private var literals = StringColumnBuilder()
  private var key: [UInt8] = []
  /// The key of the template the last templated URL used (empty before the first), where
  /// its id starts, and its number: consecutive documents nearly always share their CDN's
  /// template, and comparing with it in place skips building the key and looking it up.
  private var lastKey: [UInt8] = []
  private var lastPrefixCount = 0
  private var lastNumber: UInt16 = 0

  /// Makes room for `added` more documents' template numbers.
  mutating func reserveCapacity(adding added: Int) {
    templateIndexes.reserveCapacity(adding: added)
  }

  /// Adds the URL of the next document, whose id is `id`.
  ///
  /// - Complexity: O(n) in the URL's length.
  mutating func append(_ url: String?, id: String) {
    guard var url else {
      templateIndexes.append(URLColumn.none)
      return
    }
    var id = id
    // The id's last occurrence splits the URL into the template's prefix and suffix.
    let split: (start: Int, idCount: Int, isLast: Bool)? = url.withUTF8 { urlBytes in
      id.withUTF8 { idBytes in
        guard let start = URLColumnBuilder.lastOccurrence(of: idBytes, in: urlBytes) else {
          return nil
        }
        return (
          start, idBytes.count, matchesLastKey(urlBytes, idStart: start, idCount: idBytes.count)
        )
      }
    }
    guard let split else {
      appendLiteral(url)
      return
    }
    if split.isLast {
      templateIndexes.append(lastNumber)
      return
    }
    var key = self.key
    self.key = []
    defer { self.key = key }
    key.removeAll(keepingCapacity: true)
    url.withUTF8 { urlBytes in
      key.append(contentsOf: UnsafeBufferPointer(rebasing: urlBytes[..<split.start]))
      key.append(0)
      key.append(
        contentsOf: UnsafeBufferPointer(rebasing: urlBytes[(split.start + split.idCount)...]))
    }
    let found = key.withUnsafeBytes { templateKeys.find($0) }
    guard
      let number = found
        ?? (templateKeys.count < URLColumn.maximumTemplates
          ? key.withUnsafeBytes { templateKeys.intern($0).id } : nil)
    else {
      appendLiteral(url)
      return
    }
    templateIndexes.append(UInt16(number))
    lastKey = key
    lastPrefixCount = split.start
    lastNumber = UInt16(number)
  }

  /// Whether `url` with the id at `idStart` has the last templated URL's template: the bytes
  /// before the id are that template's prefix and the bytes after it its suffix.
  private func matchesLastKey(_ url: UnsafeBufferPointer<UInt8>, idStart: Int, idCount: Int)
    -> Bool
  {
    let suffixStart = idStart + idCount
    guard !lastKey.isEmpty, idStart == lastPrefixCount,
      url.count - suffixStart == lastKey.count - lastPrefixCount - 1
    else { return false }
    return lastKey.withUnsafeBufferPointer { key in
      memcmp(url.baseAddress!, key.baseAddress!, idStart) == 0
        && memcmp(
          url.baseAddress! + suffixStart, key.baseAddress! + idStart + 1, url.count - suffixStart)
          == 0
    }
  }

  private mutating func appendLiteral(_ url: String) {
    literalDocuments.append(UInt32(templateIndexes.count))
    templateIndexes.append(URLColumn.literal)
    literals.append(url)
  }

  /// Where `needle` last occurs in `haystack` (ids sit near the end of CDN paths).
  private static func lastOccurrence(
    of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>
  ) -> Int? {
    guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
    var start = haystack.count - needle.count
    while start >= 0 {
      if haystack[start] == needle[0]
        && UnsafeBufferPointer(rebasing: haystack[start..<(start + needle.count)]).elementsEqual(
          needle)
      {
        return start
      }
      start -= 1
    }
    return nil
  }

  func build() -> URLColumn {
    var templates = StringColumnBuilder()
    for number in 0..<UInt32(templateKeys.count) {
      templateKeys.withBytes(of: number) { bytes in
        let separator = bytes.firstIndex(of: 0) ?? bytes.count
        templates.append(String(decoding: bytes[..<separator], as: UTF8.self))
        templates.append(String(decoding: bytes[min(separator + 1, bytes.count)...], as: UTF8.self))
      }
    }
    return URLColumn(
      templateIndexes: Column(templateIndexes), templates: templates.build(),
      literalDocuments: Column(literalDocuments), literals: literals.build())
  }
}
