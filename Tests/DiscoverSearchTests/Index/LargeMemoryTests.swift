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
    @Test func adviceKeepsALargeAllocationInOneMapping() throws {
      var capacity = 9 << 20
      var pointer = LargeMemory.allocate(UInt32.self, capacity: capacity)
      defer { LargeMemory.deallocate(pointer) }
      for _ in 0..<3 {
        pointer[0] = 7
        pointer[capacity - 1] = 9
        let first = UInt(bitPattern: pointer)
        let last = first + UInt(capacity * MemoryLayout<UInt32>.stride) - 1
        let area = try #require(try Self.mapping(holding: first))
        #expect(area.contains(last), "the allocation spans more than one mapping")
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
}
