import DiscoverSearch
import Foundation

/// Number, size, time and text formatting for the human-readable output, independent of the
/// locale so that output is the same on every machine.
package enum TextFormatting {
  /// `1234567` as `1,234,567`.
  package static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return value < 0 ? "-" + result : result
  }

  /// A count with its noun, grouped and in the right number: `1 video`, `2,000 videos`.
  package static func counted(_ value: Int, _ singular: String, plural: String? = nil) -> String {
    "\(grouped(value)) \(value == 1 ? singular : plural ?? singular + "s")"
  }

  /// `value` with `decimals` digits after the point (`fixed(1.23456, 2)` is `1.23`).
  package static func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return String(value) }
    return String(format: "%.\(decimals)f", value)
  }

  /// A byte count in decimal units: `812 B`, `14.2 kB`, `3.1 MB`, `1.05 GB`.
  package static func bytes(_ count: Int) -> String {
    let units: [(Double, String)] = [(1e9, "GB"), (1e6, "MB"), (1e3, "kB")]
    for (size, unit) in units where Double(count) >= size {
      let value = Double(count) / size
      return "\(fixed(value, value < 10 ? 2 : 1)) \(unit)"
    }
    return "\(count) B"
  }

  /// A duration in seconds: `0.42 s`, `12.3 s`; under 10 ms in milliseconds.
  package static func seconds(_ duration: Duration) -> String {
    let seconds = secondsValue(duration)
    if seconds < 0.01 { return "\(fixed(seconds * 1000, 2)) ms" }
    return "\(fixed(seconds, seconds < 10 ? 2 : 1)) s"
  }

  /// The duration in seconds, as a `Double`.
  package static func secondsValue(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  /// The duration in whole microseconds, rounded down.
  package static func microseconds(_ duration: Duration) -> Int {
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
  package static func latencyTotals(_ latencies: [Int], singular: String, plural: String) -> String
  {
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
  package static func day(_ date: Date) -> String {
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
  package static func markingHighlights(in text: String, spans: [Range<Int>]) -> String {
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

  /// `text` on one line and safe to print on a terminal: line breaks and tabs become
  /// spaces, so a title cannot break the layout of a numbered list, and the other control
  /// characters (C0, DEL and C1, escape among them) are removed, so text from a corpus or a
  /// query cannot move the cursor, recolour the terminal or retitle its window.
  ///
  /// Only text output goes through this; JSON output keeps every character.
  ///
  /// - Complexity: O(*n*) in the length of `text`.
  package static func singleLine(_ text: String) -> String {
    func isControl(_ scalar: Unicode.Scalar) -> Bool {
      scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
        || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var scalars = String.UnicodeScalarView()
    var previous: Unicode.Scalar?
    for scalar in text.unicodeScalars {
      defer { previous = scalar }
      if !isControl(scalar) {
        scalars.append(scalar)
      } else if scalar.properties.isWhitespace && !(previous == "\r" && scalar == "\n") {
        // Line feed, carriage return (with its line feed), tab, vertical tab, form feed,
        // next line and the line and paragraph separators: one space, so words stay apart.
        scalars.append(" ")
      }
    }
    return String(scalars)
  }

  /// `text` made printable by ``singleLine(_:)`` and quoted for a header or a summary line:
  /// `"dance"`, or as typed when the text holds double quotes itself, so that a phrase query
  /// does not print as `""dance challenge""`: `"dance challenge"` stays, `"dance" party`
  /// becomes `'"dance" party'`.
  package static func quoted(_ text: String) -> String {
    let line = singleLine(text)
    guard line.contains("\"") else { return "\"\(line)\"" }
    if line.count >= 2 && line.hasPrefix("\"") && line.hasSuffix("\"") { return line }
    return line.contains("'") ? line : "'\(line)'"
  }

  /// Each line of `text` after `width` spaces, each ending with a line break: a multi-line
  /// block nested under a line of a list.
  package static func indented(_ text: String, by width: Int) -> String {
    let margin = String(repeating: " ", count: width)
    return text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { "\(margin)\($0)\n" }.joined()
  }

  /// A library message without the advice it ends with, from the last `marker` on, for a
  /// command that gives that advice itself in its own terms: `removingAdvice("; rebuild ",
  /// from: "index.dsearch is truncated; rebuild the index")` is `index.dsearch is truncated`.
  /// A message without `marker` is returned whole.
  package static func removingAdvice(_ marker: String, from message: String) -> String {
    guard let advice = message.range(of: marker, options: .backwards) else { return message }
    return String(message[..<advice.lowerBound])
  }

  /// A command line to print: `command`, its positional `argument` quoted for the shell, then
  /// `options` (already quoted). An argument that starts with a dash would read as an
  /// option, so it goes last, after `--`.
  package static func commandLine(_ command: String, argument: String, options: [String]) -> String
  {
    let quoted = shellQuoted(argument)
    let words =
      argument.hasPrefix("-") ? [command] + options + ["--", quoted] : [command, quoted] + options
    return words.joined(separator: " ")
  }

  /// `text` quoted for a POSIX shell when it needs quoting, so a printed command can be
  /// pasted back: `dance` stays, `dance challenge` becomes `'dance challenge'`.
  package static func shellQuoted(_ text: String) -> String {
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,")
    if !text.isEmpty && text.allSatisfy({ safe.contains($0) }) { return text }
    return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}
