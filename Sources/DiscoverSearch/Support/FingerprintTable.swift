import CPrefetch

/// A key of a ``FingerprintTable``: a value whose 64-bit fingerprint is already well mixed.
protocol FingerprintKey: Equatable, Sendable {
  /// Well-mixed bits: the table picks a key's slot from them without hashing again.
  var fingerprint: UInt64 { get }
  /// A key no real one equals: it marks an empty slot.
  static var vacant: Self { get }
}

/// A value a ``FingerprintTable`` can leave in an empty slot.
protocol TableFiller {
  /// The value of an empty slot.
  static var filler: Self { get }
}

/// A hash map from fingerprinted keys to values, each pair in one slot of one contiguous
/// array: one cache miss per lookup, and a load kept between 78% and 90% so that a slot of
/// `s` bytes costs at most `s / 0.78` bytes per entry.
///
/// Open addressing with linear probing and Robin Hood insertion (Celis, Larson and Munro,
/// "Robin Hood Hashing", FOCS 1985): an entry displaces a resident nearer its home slot, so
/// probe lengths stay short at high load, and a lookup stops as soon as it has probed further
/// than the resident it meets. Deletion shifts the following run back by one slot instead of
/// leaving tombstones (backward-shift deletion). A key's home slot is the high half of its
/// fingerprint times the slot count (Lemire, "A fast alternative to the modulo reduction",
/// 2016), so the slot count need not be a power of two and the table can grow by 15%.
///
/// Unlike Swift's `Dictionary`, it does not hash with a per-process seed: keys are already
/// fingerprints (`ContentKey`), which keeps lookups to a multiply and a compare.
struct FingerprintTable<Key: FingerprintKey, Value: TableFiller & Sendable>: Sendable {
  fileprivate struct Slot: Sendable {
    var key: Key
    var value: Value
  }

  /// The largest share of slots in use before the table grows.
  let maximumLoad: Double
  /// How much a full table grows.
  let growthFactor: Double

  fileprivate var slots: ContiguousArray<Slot> = []
  /// The entries held.
  private(set) var count = 0

  /// Creates an empty table.
  ///
  /// The defaults, a load of 90% growing by 15% (to 78%), suit a table read far more often
  /// than it gains keys: linear probing walks to the end of a run to insert, about
  /// `(1 + 1 / (1 - load)²) / 2` slots (Knuth, TAOCP vol. 3, section 6.4), 50 at 90% and 5 at
  /// 60%, so a table that gains a key on most writes wants a lower load.
  init(maximumLoad: Double = 0.9, growthFactor: Double = 1.15, minimumCapacity: Int = 0) {
    precondition(maximumLoad > 0 && maximumLoad < 1, "a table's load must be between 0 and 1")
    precondition(growthFactor > 1, "a table must grow when full")
    self.maximumLoad = maximumLoad
    self.growthFactor = growthFactor
    reserveCapacity(minimumCapacity)
  }

  /// How many entries fit before the table grows.
  var capacity: Int { Int(Double(slots.count) * maximumLoad) }

  /// The bytes the slots take.
  var allocatedBytes: Int { slots.count * MemoryLayout<Slot>.stride }

  // MARK: Lookup

  /// The value of `key`, or `nil`; setting `nil` removes it.
  subscript(key: Key) -> Value? {
    get { index(of: key).map { slots[$0].value } }
    set {
      if let newValue {
        updateValue(newValue, forKey: key)
      } else if let index = index(of: key) {
        remove(at: index)
      }
    }
  }

  /// The value of `key`, or `defaultValue` when missing; changing it inserts the key.
  subscript(key: Key, default defaultValue: @autoclosure () -> Value) -> Value {
    get { index(of: key).map { slots[$0].value } ?? defaultValue() }
    _modify {
      let index = slot(for: key, inserting: defaultValue()).index
      yield &slots[index].value
    }
  }

  /// Sets the value of `key`.
  ///
  /// - Returns: The value it replaced, or `nil` when the key is new.
  @discardableResult
  mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
    let (index, isNew) = slot(for: key, inserting: value)
    if isNew { return nil }
    let previous = slots[index].value
    slots[index].value = value
    return previous
  }

  /// Changes the value of `key` in place, inserting `newValue` first when the key is missing.
  ///
  /// - Returns: What `body` returns; its second argument says whether the key was inserted.
  mutating func modifyValue<Result>(
    forKey key: Key, inserting newValue: @autoclosure () -> Value,
    _ body: (inout Value, _ isNew: Bool) throws -> Result
  ) rethrows -> Result {
    let (index, isNew) = slot(for: key, inserting: newValue())
    return try body(&slots[index].value, isNew)
  }

  /// Changes the value of `key` in place when it is present.
  ///
  /// - Returns: What `body` returns, or `nil` when the key is missing.
  @discardableResult
  mutating func modifyValueIfPresent<Result>(
    forKey key: Key, _ body: (inout Value) throws -> Result
  ) rethrows -> Result? {
    guard let index = index(of: key) else { return nil }
    return try body(&slots[index].value)
  }

  /// Removes `key`.
  ///
  /// - Returns: Its value, or `nil` when it was missing.
  @discardableResult
  mutating func removeValue(forKey key: Key) -> Value? {
    guard let index = index(of: key) else { return nil }
    let value = slots[index].value
    remove(at: index)
    return value
  }

  /// Makes room for `capacity` entries without growing again.
  mutating func reserveCapacity(_ capacity: Int) {
    let needed = Int((Double(capacity) / maximumLoad).rounded(.up))
    if needed > slots.count { resize(to: Swift.max(needed, 8)) }
  }

  /// Starts loading the home slot of `key` into the cache, for a lookup soon after: issued
  /// for a batch of keys before their lookups, the batch's cache misses overlap instead of
  /// each lookup waiting for its own (group prefetching: Chen, Ailamaki, Gibbons and Mowry,
  /// "Improving Hash Join Performance through Prefetching", ICDE 2004).
  @inline(__always)
  func prefetch(_ key: Key) {
    guard !slots.isEmpty else { return }
    let home = home(key.fingerprint)
    slots.withUnsafeBufferPointer { slots in
      // SAFETY: `home` is below `slots.count` (the high half of a product with it), so the
      // address is inside the buffer; a prefetch never faults in any case.
      assert(home < slots.count)
      cprefetch_for_writing(slots.baseAddress! + home)
    }
  }

  // MARK: Bulk changes

  /// Removes every entry.
  mutating func removeAll() {
    slots = []
    count = 0
  }

  /// Removes the entries `shouldBeRemoved` picks.
  ///
  /// - Complexity: O(n) in the slots.
  mutating func removeAll(where shouldBeRemoved: (Key, Value) throws -> Bool) rethrows {
    var kept = FingerprintTable(
      maximumLoad: maximumLoad, growthFactor: growthFactor, minimumCapacity: count)
    for (key, value) in self where try !shouldBeRemoved(key, value) {
      kept.insertNew(key, value)
    }
    self = kept
  }

  /// Changes every value in place, removing those `body` says not to keep.
  ///
  /// - Complexity: O(n) in the slots.
  mutating func updateEach(_ body: (Key, inout Value) throws -> Bool) rethrows {
    var removesAny = false
    for index in slots.indices where slots[index].key != Key.vacant {
      if try !body(slots[index].key, &slots[index].value) {
        slots[index].key = Key.vacant
        removesAny = true
      }
    }
    // Clearing keys breaks the probe runs: put the rest back in fresh slots.
    if removesAny { resize(to: slots.count) }
  }

  // MARK: Slots

  /// The home slot of a fingerprint: its high bits scaled to the slot count.
  @inline(__always)
  private func home(_ fingerprint: UInt64) -> Int {
    Int(truncatingIfNeeded: fingerprint.multipliedFullWidth(by: UInt64(slots.count)).high)
  }

  /// How far the resident of `index` sits past its home slot.
  @inline(__always)
  private func displacement(at index: Int) -> Int {
    let home = home(slots[index].key.fingerprint)
    return index >= home ? index - home : index + slots.count - home
  }

  @inline(__always)
  private func next(_ index: Int) -> Int {
    index + 1 == slots.count ? 0 : index + 1
  }

  /// Walks the run of `key` from its home: to its slot when held, else to the slot where it
  /// belongs, with how far that is from home.
  ///
  /// Robin Hood order: had the key been held, it would sit before any resident nearer its
  /// home than the key is to its own, so the walk stops at the first such resident.
  @inline(__always)
  private func probe(_ key: Key) -> (index: Int, found: Bool, probed: Int) {
    var index = home(key.fingerprint)
    var probed = 0
    while true {
      let resident = slots[index].key
      if resident == key { return (index, true, probed) }
      if resident == Key.vacant || displacement(at: index) < probed {
        return (index, false, probed)
      }
      index = next(index)
      probed += 1
    }
  }

  /// The slot holding `key`, or `nil`.
  private func index(of key: Key) -> Int? {
    guard count > 0 else { return nil }
    let found = probe(key)
    return found.found ? found.index : nil
  }

  /// The slot of `key`, inserting it with `value` when missing, in one walk of its run.
  @inline(__always)
  private mutating func slot(for key: Key, inserting value: @autoclosure () -> Value)
    -> (index: Int, isNew: Bool)
  {
    growIfFull()
    let found = probe(key)
    if found.found { return (found.index, false) }
    return (place(key, value(), at: found.index, probed: found.probed), true)
  }

  /// Below this many slots a full table doubles: small tables cost little memory either
  /// way, and growing by 15% from 8 slots would rehash 25 times on the way to 4,096.
  private static var doublingLimit: Int { 1 << 12 }

  private mutating func growIfFull() {
    if Double(count + 1) > Double(slots.count) * maximumLoad {
      let factor = slots.count < Self.doublingLimit ? Swift.max(2, growthFactor) : growthFactor
      resize(to: Swift.max(8, Int(Double(slots.count) * factor) + 1))
    }
  }

  /// Inserts a key known to be missing.
  private mutating func insertNew(_ key: Key, _ value: Value) {
    growIfFull()
    let found = probe(key)
    place(key, value, at: found.index, probed: found.probed)
  }

  /// Puts a missing key in the slot where its run's walk stopped, moving each resident from
  /// there on one slot further (the Robin Hood displacement) up to the next empty slot.
  ///
  /// - Returns: The key's slot.
  @discardableResult
  private mutating func place(_ key: Key, _ value: Value, at index: Int, probed: Int) -> Int {
    precondition(key != Key.vacant, "the vacant key marks empty slots and cannot be stored")
    var carried = Slot(key: key, value: value)
    var index = index
    var probed = probed
    var landed: Int?
    while true {
      if slots[index].key == Key.vacant {
        slots[index] = carried
        count += 1
        return landed ?? index
      }
      let resident = displacement(at: index)
      if resident < probed || landed == nil {
        swap(&carried, &slots[index])
        if landed == nil { landed = index }
        probed = resident
      }
      index = next(index)
      probed += 1
    }
  }

  /// Empties the slot at `index`, shifting the run after it back by one.
  private mutating func remove(at index: Int) {
    var hole = index
    var following = next(hole)
    while slots[following].key != Key.vacant, displacement(at: following) > 0 {
      slots[hole] = slots[following]
      hole = following
      following = next(hole)
    }
    slots[hole] = Slot(key: Key.vacant, value: Value.filler)
    count -= 1
  }

  /// Moves every entry into `slotCount` fresh slots.
  private mutating func resize(to slotCount: Int) {
    let old = slots
    slots = ContiguousArray(
      repeating: Slot(key: Key.vacant, value: Value.filler), count: slotCount)
    count = 0
    for slot in old where slot.key != Key.vacant { insertNew(slot.key, slot.value) }
  }
}

extension FingerprintTable: Sequence {
  struct Iterator: IteratorProtocol {
    fileprivate let slots: ContiguousArray<Slot>
    fileprivate var index = 0

    mutating func next() -> (key: Key, value: Value)? {
      while index < slots.count {
        defer { index += 1 }
        if slots[index].key != Key.vacant { return (slots[index].key, slots[index].value) }
      }
      return nil
    }
  }

  func makeIterator() -> Iterator { Iterator(slots: slots) }

  var underestimatedCount: Int { count }

  /// The keys, in slot order.
  var keys: [Key] { map(\.key) }
  /// The values, in slot order.
  var values: [Value] { map(\.value) }
}

extension FingerprintTable: Equatable where Value: Equatable {
  /// Whether both hold the same keys with the same values, whatever their slots.
  static func == (lhs: FingerprintTable, rhs: FingerprintTable) -> Bool {
    lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.key] == $0.value }
  }
}

extension Int32: TableFiller {
  static var filler: Int32 { 0 }
}

extension UInt64: TableFiller {
  static var filler: UInt64 { 0 }
}
