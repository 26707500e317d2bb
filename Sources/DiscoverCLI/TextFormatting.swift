import DiscoverSearch
import Foundation

/// Number, size, time and text formatting for the human-readable output, independent of the
/// locale so that output is the same on every machine.
enum TextFormatting {
  /// `1234567` as `1,234,567`.
  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return value < 0 ? "-" + result : result
  }

  /// A count with its noun, grouped and in the right number: `1 video`, `2,000 videos`.
  static func counted(_ value: Int, _ singular: String, plural: String? = nil) -> String {
    "\(grouped(value)) \(value == 1 ? singular : plural ?? singular + "s")"
  }

  /// `value` with `decimals` digits after the point (`fixed(1.23456, 2)` is `1.23`).
  static func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return String(value) }
    return String(format: "%.\(decimals)f", value)
  }

  /// A byte count in decimal units: `812 B`, `14.2 kB`, `3.1 MB`, `1.05 GB`.
  static func bytes(_ count: Int) -> String {
    let units: [(Double, String)] = [(1e9, "GB"), (1e6, "MB"), (1e3, "kB")]
    for (size, unit) in units where Double(count) >= size {
      let value = Double(count) / size
      return "\(fixed(value, value < 10 ? 2 : 1)) \(unit)"
    }
    return "\(count) B"
  }

  /// A duration in seconds: `0.42 s`, `12.3 s`; under 10 ms in milliseconds.
  static func seconds(_ duration: Duration) -> String {
    let seconds = secondsValue(duration)
    if seconds < 0.01 { return "\(fixed(seconds * 1000, 2)) ms" }
    return "\(fixed(seconds, seconds < 10 ? 2 : 1)) s"
  }

  /// The duration in seconds, as a `Double`.
  static func secondsValue(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  /// The duration in whole microseconds, rounded down.
  static func microseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000)
  }

  /// The closing line of a batch run: how many queries ran, their total time and their
  /// latency percentiles: `3 searches in 0.2 ms: p50 42 µs, p95 90 µs, max 90 µs`, or
  /// `No searches in the query file.` when none ran.
  ///
  /// - Parameters:
  ///   - latencies: each query's time in microseconds.
  ///   - singular: the noun for one query ("search").
  ///   - plural: the noun for several ("searches").
  /// - Complexity: O(*n* log *n*) for *n* latencies.
  static func latencyTotals(_ latencies: [Int], singular: String, plural: String) -> String {
    guard !latencies.isEmpty else { return "No \(plural) in the query file." }
    let sorted = latencies.sorted()
    // Nearest-rank percentile, as the benchmark computes it.
    func percentile(_ fraction: Double) -> Int {
      let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
      return sorted[min(max(rank, 0), sorted.count - 1)]
    }
    let total = sorted.reduce(0, +)
    return "\(counted(sorted.count, singular, plural: plural)) in "
      + "\(fixed(Double(total) / 1000, 1)) ms: p50 \(grouped(percentile(0.5))) µs, "
      + "p95 \(grouped(percentile(0.95))) µs, max \(grouped(sorted.last!)) µs"
  }

  /// The date's day in UTC: `2026-10-01`.
  static func day(_ date: Date) -> String {
    String(ISO8601.string(from: date).prefix(10))
  }

  /// `text` with each highlighted span wrapped in `**`, Markdown's strong emphasis.
  ///
  /// Spans are UTF-8 offsets into `text`; overlapping spans, and spans apart only by spaces,
  /// merge; a span
  /// that is out of bounds or would cut a character's UTF-8 bytes apart is left unmarked
  /// rather than produce invalid text.
  ///
  /// - Complexity: O(*n* + *h* log *h*) for a text of *n* bytes and *h* spans.
  static func markingHighlights(in text: String, spans: [Range<Int>]) -> String {
    let bytes = Array(text.utf8)
    func isBoundary(_ offset: Int) -> Bool {
      offset == bytes.count || (offset >= 0 && offset < bytes.count && bytes[offset] & 0xC0 != 0x80)
    }
    var merged: [Range<Int>] = []
    for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound })
    where !span.isEmpty && span.lowerBound >= 0 && span.upperBound <= bytes.count
      && isBoundary(span.lowerBound) && isBoundary(span.upperBound)
    {
      // Spans apart only by spaces merge too: `**Bruno Mars**` reads better than
      // `**Bruno** **Mars**`.
      if let last = merged.last,
        span.lowerBound <= last.upperBound
          || bytes[last.upperBound..<span.lowerBound].allSatisfy({ $0 == UInt8(ascii: " ") })
      {
        merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
      } else {
        merged.append(span)
      }
    }
    guard !merged.isEmpty else { return text }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count + merged.count * 4)
    var position = 0
    let marker = Array("**".utf8)
    for span in merged {
      output.append(contentsOf: bytes[position..<span.lowerBound])
      output.append(contentsOf: marker)
      output.append(contentsOf: bytes[span])
      output.append(contentsOf: marker)
      position = span.upperBound
    }
    output.append(contentsOf: bytes[position...])
    return String(decoding: output, as: UTF8.self)
  }

  /// `text` on one line: line breaks and tabs become spaces, so a title cannot break the
  /// layout of a numbered list.
  static func singleLine(_ text: String) -> String {
    guard text.contains(where: { $0.isNewline || $0 == "\t" }) else { return text }
    return String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
  }

  /// Each line of `text` after `width` spaces, each ending with a line break: a multi-line
  /// block nested under a line of a list.
  static func indented(_ text: String, by width: Int) -> String {
    let margin = String(repeating: " ", count: width)
    return text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { "\(margin)\($0)\n" }.joined()
  }

  /// `text` quoted for a POSIX shell when it needs quoting, so a printed command can be
  /// pasted back: `dance` stays, `dance challenge` becomes `'dance challenge'`.
  static func shellQuoted(_ text: String) -> String {
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,")
    if !text.isEmpty && text.allSatisfy({ safe.contains($0) }) { return text }
    return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}
