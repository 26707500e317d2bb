extension Array {
  /// Makes room for `added` more elements, and at least doubles the capacity when it grows:
  /// reserving before each of many small batches then stays linear, as appending is.
  mutating func reserveCapacity(adding added: Int) {
    let required = count + added
    guard required > capacity else { return }
    reserveCapacity(Swift.max(required, capacity * 2))
  }
}
