/// A uniform random sample of at most ``capacity`` elements from a stream of unknown length.
///
/// Vitter's Algorithm R ("Random Sampling with a Reservoir", ACM TOMS 11(1), 1985, where it is
/// credited to Waterman): keep the first `capacity` elements; afterwards the `n`-th element
/// replaces a uniformly chosen slot with probability `capacity / n`. Every element seen so far
/// is then in the sample with equal probability, and memory stays at `capacity` elements
/// however long the stream.
struct ReservoirSample<Element: Sendable>: Sendable {
  /// The most elements kept.
  let capacity: Int
  /// The sample, in no particular order.
  private(set) var elements: [Element] = []
  /// How many elements the stream has offered.
  private(set) var seenCount = 0
  private var generator: Xoshiro256StarStar

  /// Creates an empty sample; `seed` makes the choice of elements deterministic.
  init(capacity: Int, seed: UInt64) {
    precondition(capacity > 0, "a reservoir needs a positive capacity, got \(capacity)")
    self.capacity = capacity
    self.generator = Xoshiro256StarStar(seed: seed)
  }

  /// Offers the next element of the stream.
  ///
  /// - Complexity: O(1).
  mutating func add(_ element: Element) {
    seenCount += 1
    if elements.count < capacity {
      elements.append(element)
    } else {
      let slot = generator.nextInt(below: seenCount)
      if slot < capacity { elements[slot] = element }
    }
  }

  /// Whether the sample is empty.
  var isEmpty: Bool { elements.isEmpty }
}
