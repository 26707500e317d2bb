extension Array where Element == Double {
  /// The `rank`-th largest value (1 for the largest), reordering the array: Hoare's FIND
  /// (C. A. R. Hoare, "Algorithm 65: Find", Communications of the ACM 4(7), 1961), which
  /// partitions around a pivot and goes on in the one side holding the rank, with the
  /// median of three as the pivot. Expected O(n), against O(n log k) to keep the best k.
  ///
  /// - Precondition: `rank` is in `1...count` and no value is NaN.
  mutating func largest(rank: Int) -> Double {
    precondition((1...count).contains(rank), "rank \(rank) is outside 1...\(count)")
    let target = rank - 1
    return withUnsafeMutableBufferPointer { values in
      var low = 0
      var high = values.count - 1
      while low < high {
        let pivot = Self.medianOfThree(values[low], values[(low + high) / 2], values[high])
        // Hoare's partition, descending: values[low...j] >= pivot >= values[i...high].
        var i = low
        var j = high
        while i <= j {
          while values[i] > pivot { i += 1 }
          while values[j] < pivot { j -= 1 }
          if i <= j {
            values.swapAt(i, j)
            i += 1
            j -= 1
          }
        }
        if target <= j {
          high = j
        } else if target >= i {
          low = i
        } else {
          return values[target]
        }
      }
      return values[target]
    }
  }

  private static func medianOfThree(_ a: Double, _ b: Double, _ c: Double) -> Double {
    Swift.max(Swift.min(a, b), Swift.min(Swift.max(a, b), c))
  }
}
