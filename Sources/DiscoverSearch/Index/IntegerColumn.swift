/// Non-negative integers stored in the narrowest width (1, 2, 4 or 8 bytes) that holds the
/// largest of them: view counts that all fit in 32 bits take 4 bytes each, not 8.
struct IntegerColumn: Sendable {
  /// Bytes per value: 1, 2, 4 or 8.
  let width: Int
  /// The values, `width` bytes each, little-endian.
  let storage: Column<UInt8>
  let count: Int

  /// Packs `values` (all 0 or more).
  init(_ values: [Int]) {
    precondition(values.allSatisfy { $0 >= 0 }, "IntegerColumn holds non-negative values")
    let maximum = values.max() ?? 0
    let width =
      maximum <= Int(UInt8.max)
      ? 1 : maximum <= Int(UInt16.max) ? 2 : maximum <= Int(UInt32.max) ? 4 : 8
    var bytes = [UInt8](repeating: 0, count: values.count * width)
    bytes.withUnsafeMutableBytes { raw in
      for (index, value) in values.enumerated() {
        switch width {
        case 1: raw.storeBytes(of: UInt8(value), toByteOffset: index, as: UInt8.self)
        case 2:
          raw.storeBytes(of: UInt16(value).littleEndian, toByteOffset: index * 2, as: UInt16.self)
        case 4:
          raw.storeBytes(of: UInt32(value).littleEndian, toByteOffset: index * 4, as: UInt32.self)
        default:
          raw.storeBytes(of: UInt64(value).littleEndian, toByteOffset: index * 8, as: UInt64.self)
        }
      }
    }
    self.width = width
    storage = Column(bytes)
    count = values.count
  }

  /// A column of values read from a file: `nil` unless `width` is 1, 2, 4 or 8, the bytes
  /// hold whole values, and (for width 8) every value fits an `Int`.
  init?(width: Int, storage: Column<UInt8>) {
    guard [1, 2, 4, 8].contains(width), storage.count % width == 0 else { return nil }
    self.width = width
    self.storage = storage
    count = storage.count / width
    if width == 8 {
      let raw = UnsafeRawPointer(storage.base)
      for index in 0..<count
      where UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
        > UInt64(Int.max)
      {
        return nil
      }
    }
  }

  /// The largest value, 0 for none.
  var maximum: Int { (0..<count).reduce(0) { Swift.max($0, self[$1]) } }

  /// Value `index`.
  @inline(__always)
  subscript(index: Int) -> Int {
    assert(index >= 0 && index < count)
    let raw = UnsafeRawPointer(storage.base)
    switch width {
    case 1: return Int(raw.load(fromByteOffset: index, as: UInt8.self))
    case 2:
      return Int(
        UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self)))
    case 4:
      return Int(
        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))
    default:
      return Int(
        truncatingIfNeeded: UInt64(
          littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)))
    }
  }

  var byteCount: Int { storage.byteCount }
}

/// Optional dates, as seconds after the earliest date of the column plus one (0 for
/// unknown), packed in an ``IntegerColumn``: four bytes a date for any span under 136 years.
struct DateColumn: Sendable {
  /// The earliest date, in seconds since 1970.
  let base: Int64
  let offsets: IntegerColumn

  /// Packs seconds since 1970 (`nil` for unknown).
  init(_ seconds: [Int64?]) {
    let base = seconds.compactMap { $0 }.min() ?? 0
    self.base = base
    offsets = IntegerColumn(seconds.map { $0.map { Int($0 - base) + 1 } ?? 0 })
  }

  /// Packs seconds since 1970, where `missing` marks an unknown date, in `order`'s order
  /// (`order[new]` is the position in `seconds` of the date that goes to `new`): the
  /// writer's form, reordered and packed without an intermediate array per step.
  init(seconds: [Int64], missing: Int64, order: [UInt32]) {
    var base = Int64.max
    for value in seconds where value != missing { base = Swift.min(base, value) }
    if base == Int64.max { base = 0 }
    self.base = base
    offsets = IntegerColumn(
      order.map { old in
        let value = seconds[Int(old)]
        return value == missing ? 0 : Int(value - base) + 1
      })
  }

  /// Dates read from a file: `nil` unless every date is within ``limit`` seconds of 1970,
  /// so that no date arithmetic overflows.
  init?(validatingBase base: Int64, offsets: IntegerColumn) {
    guard (-Self.limit...Self.limit).contains(base), Int64(offsets.maximum) <= Self.limit else {
      return nil
    }
    self.base = base
    self.offsets = offsets
  }

  /// How far from 1970 a stored date may be, in seconds: 2^40, about 34,800 years.
  static let limit: Int64 = 1 << 40

  /// Seconds since 1970 of date `index`, or `nil` when unknown.
  @inline(__always)
  subscript(index: Int) -> Int64? {
    let offset = offsets[index]
    return offset == 0 ? nil : base + Int64(offset - 1)
  }

  var count: Int { offsets.count }
  var byteCount: Int { offsets.byteCount + 8 }
}
