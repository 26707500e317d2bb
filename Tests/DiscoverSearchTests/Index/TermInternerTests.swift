import Testing

@testable import DiscoverSearch

/// `TermInterner.reserveCapacity(_:)` and the geometric `Array.reserveCapacity(adding:)`
/// that the writer's batches use.
@Suite struct TermInternerTests {
  private func key(_ number: Int) -> [UInt8] { Array("term-\(number)".utf8) }

  @Test func reservingMidwayKeepsEveryIDAndFindsEveryKey() {
    var interner = TermInterner()
    for number in 0..<300 {
      #expect(key(number).withUnsafeBytes { interner.intern($0) } == UInt32(number))
    }
    // Far past the table's size: every slot moves to a new table at once.
    interner.reserveCapacity(50_000)
    for number in 300..<20_000 {
      #expect(key(number).withUnsafeBytes { interner.intern($0) } == UInt32(number))
    }
    // Less than it holds: nothing to do.
    interner.reserveCapacity(10)
    #expect(interner.count == 20_000)
    for number in stride(from: 0, to: 20_000, by: 7) {
      #expect(key(number).withUnsafeBytes { interner.find($0) } == UInt32(number))
      #expect(key(number).withUnsafeBytes { interner.intern($0) } == UInt32(number))
    }
    #expect(key(20_000).withUnsafeBytes { interner.find($0) } == nil)
  }

  /// The writer interns tokens with a padded prefix (whole-word loads, masked); lookups
  /// compute it byte by byte. Every key interned one way is found the other.
  @Test func paddedKeysAreFoundByPlainLookups() {
    var interner = TermInterner()
    var generator = SystemRandomNumberGenerator()
    var buffer = (0..<80).map { _ in UInt8.random(in: 1...255, using: &generator) }
    var ids: [(key: [UInt8], id: UInt32)] = []
    for length in 1...40 {
      buffer.withUnsafeBytes { raw in
        let key = UnsafeRawBufferPointer(rebasing: raw[3..<(3 + length)])
        let hash = ByteStringTable.hash(key)
        interner.makeTableUnique()
        let id = interner.internUnique(key, hash: hash, isWord: false, isPadded: true)
        ids.append((Array(key), id))
      }
      // A different byte after the next key's end, so that unmasked garbage would show.
      buffer[3 + length] ^= 0x5A
    }
    #expect(Set(ids.map(\.id)).count == 40)
    for (key, id) in ids {
      #expect(key.withUnsafeBytes { interner.find($0) } == id, "length \(key.count)")
      #expect(key.withUnsafeBytes { interner.intern($0) } == id)
    }
  }

  @Test func reservingBeforeEachSmallBatchGrowsGeometrically() {
    var values: [Int] = []
    var capacities: Set<Int> = []
    for value in 0..<10_000 {
      values.reserveCapacity(adding: 1)
      values.append(value)
      capacities.insert(values.capacity)
    }
    #expect(values == Array(0..<10_000))
    // Exact reservations would grow 10,000 times; doubling takes about log2(10,000).
    #expect(capacities.count <= 20)
  }
}

/// The writer's table of document ids.
@Suite struct DocumentIDTableTests {
  private func key(_ number: Int) -> [UInt8] { Array("video-\(number)".utf8) }

  @Test func numbersIDsInOrderAndRefusesNothingTwice() {
    var table = DocumentIDTable()
    for number in 0..<20_000 {
      let (id, isNew) = key(number).withUnsafeBytes { table.intern($0) }
      #expect(id == UInt32(number) && isNew)
      if number == 500 { table.reserveCapacity(60_000) }
    }
    #expect(table.count == 20_000)
    for number in stride(from: 0, to: 20_000, by: 7) {
      #expect(key(number).withUnsafeBytes { table.find($0) } == UInt32(number))
      let (id, isNew) = key(number).withUnsafeBytes { table.intern($0) }
      #expect(id == UInt32(number) && !isNew)
    }
    #expect(key(20_000).withUnsafeBytes { table.find($0) } == nil)
    // Ids of every length, the empty one included, and ids that are prefixes of others.
    for text in ["", "a", "ab", "video-1x", "a-much-longer-id-than-sixteen-bytes"] {
      let (id, isNew) = Array(text.utf8).withUnsafeBytes { table.intern($0) }
      #expect(isNew && id == UInt32(table.count - 1))
      #expect(Array(text.utf8).withUnsafeBytes { table.find($0) } == id)
    }
  }

  @Test func anEmptyIDInAnEmptyTableIsFound() {
    var table = DocumentIDTable()
    let (id, isNew) = [UInt8]().withUnsafeBytes { table.intern($0) }
    #expect(id == 0 && isNew)
    #expect([UInt8]().withUnsafeBytes { table.find($0) } == 0)
    #expect([UInt8]().withUnsafeBytes { table.intern($0) } == (0, false))
  }

  @Test func aCopySharesNothingOnceEitherAdds() {
    var original = DocumentIDTable()
    for number in 0..<100 { _ = key(number).withUnsafeBytes { original.intern($0) } }
    var copy = original
    let (added, _) = key(100).withUnsafeBytes { copy.intern($0) }
    #expect(added == 100)
    #expect(key(100).withUnsafeBytes { original.find($0) } == nil)
    let (other, isNew) = Array("elsewhere".utf8).withUnsafeBytes { original.intern($0) }
    #expect(other == 100 && isNew)
    #expect(Array("elsewhere".utf8).withUnsafeBytes { copy.find($0) } == nil)
    #expect(key(100).withUnsafeBytes { copy.find($0) } == 100)
    for number in 0..<100 {
      #expect(key(number).withUnsafeBytes { copy.find($0) } == UInt32(number))
      #expect(key(number).withUnsafeBytes { original.find($0) } == UInt32(number))
    }
  }
}
