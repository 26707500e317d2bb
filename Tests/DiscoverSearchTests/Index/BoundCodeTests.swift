import Testing

@testable import DiscoverSearch

/// Block score bounds in one byte: a code must stand for at least the value it encodes, and
/// be the smallest that does, or pruning either drops hits or prunes less.
@Suite struct BoundCodeTests {
  /// The smallest code whose value is at least `value`, by a walk over every code.
  private func reference(_ value: Float) -> UInt8 {
    guard value > 0 else { return 0 }
    for code in 1..<256 where BoundCode.values[code] >= value { return UInt8(code) }
    return 255
  }

  @Test func codesAreTheSmallestThatBoundTheValue() {
    var values: [Float] = [0, -1, .nan, .infinity, 1e-9, 1e9, .greatestFiniteMagnitude]
    for code in 1..<255 {
      let exact = BoundCode.values[code]
      values += [exact, exact.nextUp, exact.nextDown]
    }
    var generator = SystemRandomNumberGenerator()
    values += (0..<2000).map { _ in Float.random(in: 0...50, using: &generator) }
    for value in values {
      let code = BoundCode.code(roundingUp: value)
      #expect(code == reference(value), "\(value)")
      if value > 0 { #expect(BoundCode.values[Int(code)] >= value, "\(value)") }
    }
  }
}
