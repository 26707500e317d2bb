import Foundation
import Testing

@testable import DiscoverSearch

/// Large writer buffers stay in one mapping, which is what lets them grow by `mremap`.
@Suite struct LargeMemoryTests {
  #if os(Linux)
    /// The address range of the mapping in `/proc/self/maps` that holds `address`.
    static func mapping(holding address: UInt) throws -> ClosedRange<UInt>? {
      let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
      for line in maps.split(separator: "\n") {
        let bounds = line.prefix { $0 != " " }.split(separator: "-")
        guard bounds.count == 2, let start = UInt(bounds[0], radix: 16),
          let end = UInt(bounds[1], radix: 16)
        else { continue }
        if start <= address && address < end { return start...(end - 1) }
      }
      return nil
    }

    /// Huge-page advice used to split a large allocation's mapping into three areas (header
    /// page, inner pages, last page); glibc's `realloc` then could not `mremap` it and
    /// copied every byte into fresh pages at each doubling.
    ///
    /// The check is for that split: the mappings that hold the first and the last byte must
    /// reach past their own page into the rest of the allocation. The kernel may split an
    /// area elsewhere while other tests of the process map and advise memory beside it
    /// (seen once in a parallel run of the whole suite: the first byte's area ended 16 MB
    /// before the last byte), which is not this bug.
    @Test func adviceKeepsALargeAllocationInOneMapping() throws {
      var capacity = 9 << 20
      var pointer = LargeMemory.allocate(UInt32.self, capacity: capacity)
      defer { LargeMemory.deallocate(pointer) }
      for _ in 0..<3 {
        pointer[0] = 7
        pointer[capacity - 1] = 9
        let first = UInt(bitPattern: pointer)
        let last = first + UInt(capacity * MemoryLayout<UInt32>.stride) - 1
        let page: UInt = 4096
        let firstArea = try #require(try Self.mapping(holding: first))
        let lastArea = try #require(try Self.mapping(holding: last))
        #expect(
          firstArea.upperBound >= (first | (page - 1)) + page,
          "the first byte's page is an area of its own")
        #expect(
          lastArea.lowerBound + page <= last & ~(page - 1),
          "the last byte's page is an area of its own")
        let oldCapacity = capacity
        capacity *= 2
        pointer = LargeMemory.reallocate(pointer, capacity: capacity)
        #expect(pointer[0] == 7)
        #expect(pointer[oldCapacity - 1] == 9)
      }
    }
  #endif

  @Test func aGrowableBufferKeepsItsElementsAcrossGrowth() {
    var buffer = UnsafeGrowableBuffer<UInt64>()
    defer { buffer.deallocate() }
    for value in 0..<(3 << 20) { buffer.append(UInt64(value) &* 0x9E37_79B9) }
    #expect(buffer.count == 3 << 20)
    #expect(buffer.indices.allSatisfy { buffer[$0] == UInt64($0) &* 0x9E37_79B9 })
  }

  /// Past a megabyte a buffer jumps to the size glibc always maps on its own, so that it
  /// grows by remapping from then on instead of by copying heap blocks.
  @Test func aBufferPastAMegabyteJumpsToAMappedSize() {
    var buffer = UnsafeGrowableBuffer<UInt32>()
    defer { buffer.deallocate() }
    let elementsPerMegabyte = (1 << 20) / MemoryLayout<UInt32>.stride
    for value in 0..<elementsPerMegabyte { buffer.append(UInt32(value)) }
    #expect(buffer.capacity == elementsPerMegabyte)
    buffer.append(UInt32(elementsPerMegabyte))
    #expect(buffer.capacity == LargeMemory.alwaysMappedBytes / MemoryLayout<UInt32>.stride)
    let past = buffer.capacity
    for value in (elementsPerMegabyte + 1)...past { buffer.append(UInt32(value)) }
    #expect(buffer.capacity == 2 * past)
    #expect(buffer.indices.allSatisfy { buffer[$0] == UInt32($0) })
  }
}
