import Foundation

@testable import DiscoverSearch

// The fuzz targets' shared code lives in the test target, so that the regression tests feed
// their saved inputs through the very functions the fuzzers run (Scripts/fuzz.sh compiles
// these files into each libFuzzer target too). No file here may import Testing.

/// The bytes of one fuzz input, read from the front: option bytes first, then the payload.
///
/// Reading past the end gives zeros and empty arrays, so any input, even an empty one, is a
/// valid sequence of choices, and libFuzzer never wastes a run on a malformed header.
struct FuzzInput {
  private var bytes: ArraySlice<UInt8>

  init(_ bytes: [UInt8]) {
    self.bytes = bytes[...]
  }

  /// The next byte, or 0 past the end.
  mutating func byte() -> UInt8 {
    bytes.popFirst() ?? 0
  }

  /// The next `count` bytes, fewer at the end.
  mutating func take(_ count: Int) -> [UInt8] {
    let taken = bytes.prefix(count)
    bytes = bytes.dropFirst(count)
    return Array(taken)
  }

  /// The next little-endian integer of `T`, zero-filled past the end.
  mutating func integer<T: FixedWidthInteger>(_: T.Type = T.self) -> T {
    var value = T.zero
    for (offset, byte) in take(MemoryLayout<T>.size).enumerated() {
      value |= T(truncatingIfNeeded: byte) << (8 * offset)
    }
    return value
  }

  /// Everything not read yet.
  mutating func rest() -> [UInt8] {
    defer { bytes = [] }
    return Array(bytes)
  }

  /// Everything not read yet, as text, invalid UTF-8 repaired as a String from a request
  /// would be.
  mutating func restAsText() -> String {
    String(decoding: rest(), as: UTF8.self)
  }
}

/// What one run of a fuzz target found wrong; empty when every rule held.
///
/// The rule of the project: input from outside never traps and never loses data; each
/// problem gets a typed ``SearchError`` whose message says what to fix. A trap stops the
/// process by itself; the rest is collected here, and the fuzzer stops on it as on a crash.
struct FuzzFindings {
  private(set) var problems: [String] = []

  /// Records a broken rule.
  mutating func fail(_ problem: String) {
    problems.append(problem)
  }

  /// Runs `body`, which takes outside input: it may succeed or throw a `SearchError` whose
  /// message says what to fix; any other error, an empty message or an internal error is a
  /// finding.
  ///
  /// - Returns: The result, or the typed error thrown.
  @discardableResult
  mutating func expectTypedErrors<Value>(_ what: String, _ body: () throws -> Value) -> Result<
    Value, SearchError
  > {
    do {
      return .success(try body())
    } catch let error as SearchError {
      check(error, what)
      return .failure(error)
    } catch {
      fail("\(what) threw \(type(of: error)), not SearchError: \(error)")
      return .failure(SearchError(.internal, "\(error)"))
    }
  }

  /// Checks that a typed error explains itself and is not an internal fault.
  mutating func check(_ error: SearchError, _ what: String) {
    if error.message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      fail("\(what) threw \(error.code) with an empty message")
    }
    if error.code == .internal {
      fail("\(what) threw an internal error: \(error)")
    }
  }
}
