#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A growable array of plain values in manually managed memory, for the writer's hot loops.
///
/// An append is a capacity check and a store: no uniqueness check, no copy-on-write, no
/// generic `removeAll(keepingCapacity:)` path. The price is manual ownership: the owner
/// calls ``deallocate()`` exactly once (or hands the memory to a column with
/// ``makeColumn()``), and copies of the struct alias the same memory, so a buffer is never
/// copied out of the function or object that owns it. Debug builds check every index.
///
/// The memory comes from ``LargeMemory``: growing a large buffer remaps its pages instead
/// of copying them, and ``makeColumn()`` hands them to the column as they are.
struct UnsafeGrowableBuffer<Element: BitwiseCopyable> {
  private(set) var base: UnsafeMutablePointer<Element>
  private(set) var count = 0
  private(set) var capacity: Int

  /// Creates a buffer; with capacity 0 it allocates nothing until the first append.
  init(capacity: Int = 0) {
    self.capacity = capacity
    base =
      capacity > 0
      ? LargeMemory.allocate(Element.self, capacity: capacity)
      : UnsafeBufferCellSentinel.pointer(to: Element.self)
  }

  @inline(__always)
  mutating func append(_ element: Element) {
    if count == capacity { grow(toAtLeast: count + 1) }
    base[count] = element
    count &+= 1
  }

  @inline(__always)
  mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
    guard let source = elements.baseAddress, !elements.isEmpty else { return }
    let added = elements.count
    if count + added > capacity { grow(toAtLeast: count + added) }
    if added <= 16 {
      // Tokens are short: a loop beats a call to memcpy.
      for offset in 0..<added { base[count &+ offset] = source[offset] }
    } else {
      (base + count).update(from: source, count: added)
    }
    count &+= added
  }

  /// Makes room for `added` more elements, counts them in, and returns where they start:
  /// the caller must initialize all of them before reading them.
  @inline(__always)
  mutating func appendUninitialized(count added: Int) -> UnsafeMutablePointer<Element> {
    if count + added > capacity { grow(toAtLeast: count + added) }
    let start = base + count
    count &+= added
    return start
  }

  /// Makes room for at least `minimum` elements in all, without counting any in.
  @inline(__always)
  mutating func reserveCapacity(_ minimum: Int) {
    if minimum > capacity { grow(toAtLeast: minimum) }
  }

  /// Appends `count` copies of `element`.
  mutating func append(repeating element: Element, count added: Int) {
    if count + added > capacity { grow(toAtLeast: count + added) }
    (base + count).update(repeating: element, count: added)
    count &+= added
  }

  @inline(__always)
  subscript(index: Int) -> Element {
    get {
      assert(index >= 0 && index < count, "index \(index) out of 0..<\(count)")
      return base[index]
    }
    nonmutating set {
      assert(index >= 0 && index < count, "index \(index) out of 0..<\(count)")
      base[index] = newValue
    }
  }

  /// Forgets every element, keeping the memory.
  @inline(__always)
  mutating func removeAll() { count = 0 }

  /// Forgets the elements from `newCount` on.
  @inline(__always)
  mutating func truncate(to newCount: Int) {
    assert(newCount <= count)
    count = newCount
  }

  /// The elements, valid until the next append.
  @inline(__always)
  var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

  private mutating func grow(toAtLeast minimum: Int) {
    var newCapacity = Swift.max(capacity * 2, 16)
    while newCapacity < minimum { newCapacity *= 2 }
    // A buffer past a megabyte jumps to the size the C allocator always maps on its own
    // (``LargeMemory/alwaysMappedBytes``). Below it, glibc may serve the block from its heap,
    // and growing a heap block copies it into fresh pages; a mapped block grows by
    // remapping, and the pages it never touches cost nothing.
    let stride = MemoryLayout<Element>.stride
    if newCapacity * stride > LargeMemory.jumpBytes
      && newCapacity * stride < LargeMemory.alwaysMappedBytes
    {
      newCapacity = LargeMemory.alwaysMappedBytes / stride
    }
    base =
      capacity > 0
      ? LargeMemory.reallocate(base, capacity: newCapacity)
      : LargeMemory.allocate(Element.self, capacity: newCapacity)
    capacity = newCapacity
  }

  /// Hands the memory to a column, trimmed to the elements; the buffer must not be used
  /// (or deallocated) afterwards.
  func makeColumn() -> Column<Element> {
    guard capacity > 0 else { return Column() }
    return Column(
      adopting: LargeMemory.reallocate(base, capacity: Swift.max(count, 1)), count: count)
  }

  /// Frees the memory; the buffer must not be used afterwards.
  func deallocate() {
    if capacity > 0 { LargeMemory.deallocate(base) }
  }
}

extension UnsafeGrowableBuffer where Element == UInt8 {
  /// Appends the run of ASCII letters and digits of `text` that starts at `start`,
  /// lowercased, and returns where the run ends.
  ///
  /// Eight bytes at a time while eight remain: each byte is classified and lowercased with
  /// word-wide arithmetic (the SWAR byte-range test, "determine if a word has a byte between
  /// m and n", Anderson's *Bit Twiddling Hacks*), all eight are stored, and the count moves
  /// past those in the run. A byte-at-a-time loop mispredicted its exit once per word.
  @inline(__always)
  mutating func appendLowercasedAlphanumericRun(
    of text: UnsafeBufferPointer<UInt8>, from start: Int
  ) -> Int {
    let end = text.count
    // Room for the whole rest of the text and an eight-byte store past it.
    if count &+ (end &- start) &+ 8 > capacity { grow(toAtLeast: count &+ (end &- start) &+ 8) }
    let source = UnsafeRawPointer(text.baseAddress!)
    var index = start
    while index &+ 8 <= end {
      let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      let alphanumeric = ASCII.alphanumericBytes(word)
      UnsafeMutableRawPointer(base + count).storeBytes(
        of: ASCII.lowercased(word), as: UInt64.self)
      if alphanumeric == ASCII.highBits {
        index &+= 8
        count &+= 8
        continue
      }
      let length = ASCII.leadingMarkedBytes(alphanumeric)
      count &+= length
      return index &+ length
    }
    while index < end && ASCII.isAlphanumeric(text[index]) {
      base[count] = ASCII.lowercase(text[index])
      count &+= 1
      index &+= 1
    }
    return index
  }
}

extension UnsafeGrowableBuffer: RandomAccessCollection {
  @inline(__always) var startIndex: Int { 0 }
  @inline(__always) var endIndex: Int { count }
}

/// One ``UnsafeGrowableBuffer`` in a fixed heap cell, for classes that own buffers.
///
/// A class's stored `var` is checked for exclusive access at run time on every
/// modification, which costs more than the append itself; a `let` pointer to the buffer is
/// not. Owners read and modify the buffer through ``value`` and call ``deallocate()`` in
/// their `deinit`.
struct UnsafeBufferCell<Element: BitwiseCopyable> {
  private let cell: UnsafeMutablePointer<UnsafeGrowableBuffer<Element>>

  init(capacity: Int) {
    cell = .allocate(capacity: 1)
    cell.initialize(to: UnsafeGrowableBuffer(capacity: capacity))
  }

  /// The buffer.
  var value: UnsafeGrowableBuffer<Element> {
    @inline(__always) get { cell.pointee }
    @inline(__always) nonmutating _modify { yield &cell.pointee }
  }

  /// Frees the buffer and the cell.
  func deallocate() {
    cell.pointee.deallocate()
    cell.deallocate()
  }
}

/// The non-null placeholder an empty ``UnsafeGrowableBuffer`` points at before its first
/// allocation; it is never read or written (the buffer's count is 0).
enum UnsafeBufferCellSentinel {
  nonisolated(unsafe) private static let storage = UnsafeMutableRawPointer.allocate(
    byteCount: 64, alignment: 64)

  static func pointer<Element>(to: Element.Type) -> UnsafeMutablePointer<Element> {
    storage.assumingMemoryBound(to: Element.self)
  }
}

/// The C allocator, for buffers that grow to hundreds of megabytes while an index is built.
///
/// glibc serves allocations above its mapping threshold (at most 32 MB) with their own
/// mappings and grows them with `mremap`, which moves page tables rather than bytes
/// (glibc manual, "Malloc Tunable Parameters"; mremap(2)). Growing by doubling then costs
/// no copy and no second round of page faults on fresh memory, which a copy into a new
/// allocation pays for every byte. Large allocations are also offered for transparent huge
/// pages (``adviseHugePages(_:byteCount:)``, which ``ColumnStorage`` uses too): the writer's
/// scatter and the encoder's appends touch them all over, and with 4 KB pages most such
/// touches miss the TLB.
enum LargeMemory {
  /// The size from which glibc always maps an allocation on its own: its mapping threshold
  /// adapts to the blocks a program frees, but never above 32 MB on 64-bit systems
  /// (`DEFAULT_MMAP_THRESHOLD_MAX`; mallopt(3), `M_MMAP_THRESHOLD`).
  static let alwaysMappedBytes = 32 << 20
  /// The size past which a growing ``UnsafeGrowableBuffer`` jumps to
  /// ``alwaysMappedBytes``.
  static let jumpBytes = 1 << 20

  static func allocate<Element>(_: Element.Type, capacity: Int) -> UnsafeMutablePointer<Element> {
    let byteCount = capacity * MemoryLayout<Element>.stride
    guard let pointer = malloc(Swift.max(byteCount, 1)) else {
      fatalError("out of memory allocating \(byteCount) bytes")
    }
    adviseHugePages(pointer, byteCount: byteCount)
    return pointer.bindMemory(to: Element.self, capacity: capacity)
  }

  /// Resizes memory from ``allocate(_:capacity:)``, keeping its first elements; the old
  /// pointer must not be used afterwards.
  static func reallocate<Element>(_ pointer: UnsafeMutablePointer<Element>, capacity: Int)
    -> UnsafeMutablePointer<Element>
  {
    let byteCount = capacity * MemoryLayout<Element>.stride
    guard let resized = realloc(pointer, Swift.max(byteCount, 1)) else {
      fatalError("out of memory allocating \(byteCount) bytes")
    }
    adviseHugePages(resized, byteCount: byteCount)
    return resized.bindMemory(to: Element.self, capacity: capacity)
  }

  /// Frees memory from ``allocate(_:capacity:)`` or ``reallocate(_:capacity:)``.
  static func deallocate(_ pointer: UnsafeMutablePointer<some Any>) {
    free(pointer)
  }

  /// Offers the pages the `byteCount` bytes at `pointer` touch for transparent huge pages,
  /// when they are at least ``ColumnStorage/hugePageThreshold`` bytes (Linux only).
  ///
  /// The advice covers every page the allocation touches, rounded outward, not just the
  /// pages wholly inside it. glibc maps a large allocation on its own, with a 16-byte
  /// header at the start of the first page, and grows it with `mremap`, which fails with
  /// `EFAULT` when the mapping has been split into areas with different flags (mremap(2)).
  /// Advice on the inner pages alone split it into three, so every growth fell back to
  /// allocating, copying and faulting in a new block. The pages outside the allocation that
  /// rounding takes in belong to the same mapping, or to the heap, where the advice is only
  /// a hint.
  static func adviseHugePages(_ pointer: UnsafeMutableRawPointer, byteCount: Int) {
    #if os(Linux)
      guard byteCount >= ColumnStorage.hugePageThreshold else { return }
      let page = 4096
      let start = Int(bitPattern: pointer) & ~(page - 1)
      let end = (Int(bitPattern: pointer) + byteCount + page - 1) & ~(page - 1)
      guard let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
      _ = madvise(aligned, end - start, MADV_HUGEPAGE)
    #endif
  }
}
