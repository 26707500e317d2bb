extension Array where Element == UInt64 {
  /// Sorts the keys ascending with a least-significant-digit radix sort (Knuth, *The Art of
  /// Computer Programming*, vol. 3, 2nd ed., 1998, section 5.2.5): one counting pass and one
  /// stable scatter per digit, up to the highest bit any key has set, skipping the digits
  /// that every key shares. A million keys of 47 bits take five passes of a few
  /// instructions per key, where a comparison sort takes some twenty comparisons per key.
  ///
  /// - Complexity: O(n · b / d) for n keys of b significant bits, with d = 8 for fewer
  ///   than 65,536 keys and 11 otherwise (the digits' counters stay in the L1 cache).
  mutating func radixSort() {
    let count = self.count
    guard count > 64 else {
      sort()
      return
    }
    let digitBits = count < 1 << 16 ? 8 : 11
    let digitMask = (UInt64(1) << UInt64(digitBits)) - 1
    let bits = UInt64.bitWidth - reduce(0, |).leadingZeroBitCount
    var scratch = [UInt64](repeating: 0, count: count)
    var buckets = [Int](repeating: 0, count: 1 << digitBits)
    var shift = 0
    while shift < bits {
      let digitShift = UInt64(shift)
      shift += digitBits
      let allShareTheDigit = withUnsafeBufferPointer { keys in
        buckets.withUnsafeMutableBufferPointer { buckets in
          buckets.update(repeating: 0)
          for key in keys { buckets[Int(truncatingIfNeeded: key >> digitShift & digitMask)] &+= 1 }
          guard !buckets.contains(count) else { return true }
          var total = 0
          for digit in buckets.indices {
            let size = buckets[digit]
            buckets[digit] = total
            total &+= size
          }
          scratch.withUnsafeMutableBufferPointer { scratch in
            for key in keys {
              let digit = Int(truncatingIfNeeded: key >> digitShift & digitMask)
              scratch[buckets[digit]] = key
              buckets[digit] &+= 1
            }
          }
          return false
        }
      }
      if !allShareTheDigit { swap(&self, &scratch) }
    }
  }
}
