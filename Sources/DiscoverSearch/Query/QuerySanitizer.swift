/// Cleans raw query text from a search bar before analysis.
///
/// - Control characters become spaces; invisible characters are removed: format characters
///   such as zero-width spaces, bidirectional controls, the byte order mark and soft
///   hyphens, except the zero-width joiner (U+200D) and variation selectors that emoji
///   sequences need.
/// - Runs of whitespace collapse to one space; leading and trailing whitespace goes.
/// - The result is cut to ``maximumLength`` characters (grapheme clusters).
/// - `#`, `@`, quotes and letters of every script stay; case and accents are folded later,
///   by analysis, the same way as for documents.
public enum QuerySanitizer {
  /// The longest query kept, in characters: longer input is cut. 256 is far beyond what a
  /// person types into a search bar and keeps a hostile query's cost bounded.
  public static let maximumLength = 256

  /// Returns the cleaned query; empty when nothing searchable is left.
  ///
  /// - Complexity: O(n) in the length of `text`, reading at most a few thousand scalars.
  public static func sanitize(_ text: String) -> String {
    if let clean = sanitizeASCII(text) { return clean }
    var output = String.UnicodeScalarView()
    var pendingSpace = false
    var scalarsKept = 0
    // A character is at most a handful of scalars in practice; stop once far past the cap.
    // Only kept scalars count, so padding of invisible characters cannot hide the query;
    // reading is linear in the input either way.
    let scalarLimit = maximumLength * 8
    for scalar in text.unicodeScalars {
      if scalarsKept > scalarLimit { break }
      let value = scalar.value
      if isSpaceOrControl(value) {
        pendingSpace = !output.isEmpty
        continue
      }
      if isInvisible(value) { continue }
      if pendingSpace {
        output.append(" ")
        pendingSpace = false
      }
      output.append(scalar)
      scalarsKept += 1
    }
    let result = String(output)
    if result.count <= maximumLength { return result }
    let cut = String(result.prefix(maximumLength))
    return cut.hasSuffix(" ") ? String(cut.dropLast()) : cut
  }

  /// The common case, printable ASCII without runs of spaces: trimmed on bytes. `nil` when
  /// the text needs the full pass.
  private static func sanitizeASCII(_ text: String) -> String? {
    let utf8 = text.utf8
    guard utf8.count <= maximumLength else { return nil }
    var previousIsSpace = true
    for byte in utf8 {
      guard byte >= 0x20 && byte < 0x7F else { return nil }
      if byte == 0x20 && previousIsSpace { return nil }
      previousIsSpace = byte == 0x20
    }
    if previousIsSpace && !text.isEmpty { return nil }
    return text
  }

  private static func isSpaceOrControl(_ value: UInt32) -> Bool {
    switch value {
    case 0x00...0x20, 0x7F...0xA0: true
    case 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
    default: false
    }
  }

  private static func isInvisible(_ value: UInt32) -> Bool {
    switch value {
    case 0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E: true
    case 0x200B, 0x200C, 0x200E, 0x200F: true  // zero-width space and non-joiner, marks
    case 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x206F: true  // bidi controls, joiners
    case 0xFEFF, 0xFFF9...0xFFFB, 0x3164, 0xFFA0: true
    case 0x1D173...0x1D17A, 0xE0001: true
    default: false
    }
  }
}
