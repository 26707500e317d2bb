/// A growable array of plain values in manually managed memory, for the writer's hot loops.
///
/// An append is a capacity check and a store: no uniqueness check, no copy-on-write, no
/// generic `removeAll(keepingCapacity:)` path. The price is manual ownership: the owner
/// calls ``deallocate()`` exactly once (or hands the memory to a column with
/// ``makeColumn()``), and copies of the struct alias the same memory, so a buffer is never
/// copied out of the function or object that owns it. Debug builds check every index.
struct UnsafeGrowableBuffer<Element: BitwiseCopyable> {
  private(set) var base: UnsafeMutablePointer<Element>
  private(set) var count = 0
  private(set) var capacity: Int

  /// Creates a buffer; with capacity 0 it allocates nothing until the first append.
  init(capacity: Int = 0) {
    self.capacity = capacity
    base =
      capacity > 0
      ? UnsafeMutablePointer<Element>.allocate(capacity: capacity)
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
    let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    if capacity > 0 { base.deallocate() }
    base = newBase
    capacity = newCapacity
  }

  /// Copies the elements into a column.
  func makeColumn() -> Column<Element> {
    Column(buffer)
  }

  /// Frees the memory; the buffer must not be used afterwards.
  func deallocate() {
    if capacity > 0 { base.deallocate() }
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
