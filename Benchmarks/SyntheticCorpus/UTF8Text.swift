/// Building text as UTF-8 bytes in a reusable scratch buffer, turned into a `String` once.
///
/// Generating a corpus is mostly making strings. `String` concatenation and `Int.description`
/// cost several hundred instructions each; appending bytes to a buffer that is reused for every
/// field of every document and decoding once costs a fraction of that. Each field is appended
/// after the previous ones and decoded from where it starts; the buffer is emptied once per
/// document (emptying it per field showed up in profiles).
enum UTF8Text {
  /// Appends the decimal digits of a non-negative `number` to `bytes`, most significant first.
  ///
  /// Digits come out least significant first (division by the constant 10 compiles to a
  /// multiply and shift) and are then reversed in place.
  static func appendDecimal(_ number: Int, to bytes: inout [UInt8]) {
    precondition(number >= 0, "appendDecimal needs a non-negative number, got \(number)")
    let start = bytes.count
    var rest = number
    repeat {
      let (quotient, digit) = rest.quotientAndRemainder(dividingBy: 10)
      bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digit))
      rest = quotient
    } while rest > 0
    var low = start
    var high = bytes.count - 1
    while low < high {
      bytes.swapAt(low, high)
      low += 1
      high -= 1
    }
  }

  /// `prefix` followed by the decimal digits of `number`, such as `v123`.
  static func makeID(_ prefix: UInt8, _ number: Int, scratch: inout [UInt8]) -> String {
    let start = scratch.count
    scratch.append(prefix)
    appendDecimal(number, to: &scratch)
    return string(from: scratch, startingAt: start)
  }

  /// Decodes the bytes of `scratch` from `start` on.
  static func string(from scratch: [UInt8], startingAt start: Int) -> String {
    String(decoding: scratch[start...], as: UTF8.self)
  }
}
