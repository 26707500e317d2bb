/// Usernames (`dance_queen`, `chef.mario`, `cat_lover_92`) that are unique by construction and
/// computable from a user's ordinal alone.
///
/// A username is `first`, a separator (`_` or `.`), `second`, and for later users a number
/// (`_92`, `_4821`). `first` is one of the ``firstWordCount`` most frequent ASCII words;
/// `second` is a role (`queen`, `lover`, `chef`: 40% of the choices) or a frequent ASCII word;
/// function words (``Lexicon/functionWords``) are left out of both.
/// Ordinals map to (first, second, number) through an affine bijection
/// `x = (ordinal * p + offset) mod M` with `p = 2^31 - 1` prime and larger than `M`, so `p` is a
/// unit modulo `M`. Words hold neither separators nor digits, so distinct triples spell distinct
/// usernames. The first `M` users get no number (early accounts took the clean handles), the
/// next `90 M` a two-digit number, later ones a four-digit number.
struct UsernameScheme: Sendable {
  /// How many frequent ASCII words can open a username.
  static let firstWordCount = 5_000
  /// How many frequent ASCII words can close a username, besides the roles.
  static let secondWordCount = 90

  /// The parts of one username.
  struct Parts {
    /// The index into ``UsernameScheme/firstWords``.
    var first: Int
    /// The index into ``UsernameScheme/secondWords``.
    var second: Int
    /// `_` or `.`, as an ASCII byte.
    var separator: UInt8
    /// The number suffix, or nil.
    var number: Int?
  }

  /// The words that open usernames, lower-case ASCII.
  let firstWords: [String]
  /// The words that open usernames, capitalized for display names.
  let capitalizedFirstWords: [String]
  /// The roles and words that close usernames, lower-case ASCII.
  let secondWords: [String]
  /// The roles and words that close usernames, capitalized.
  let capitalizedSecondWords: [String]
  private let pairCount: Int
  private let offset: Int

  init(vocabulary: Vocabulary, seed: UInt64) {
    let ascii = vocabulary.ranksByScript[Int(WordScript.latin.rawValue)].lazy.map { Int($0) }
      .filter { !Lexicon.functionWords.contains(vocabulary[$0].word) }
    let first = Array(ascii.prefix(Self.firstWordCount))
    let roles = Set(Lexicon.usernameRoles)
    let extra = ascii.filter { !roles.contains(vocabulary[$0].word) }.prefix(Self.secondWordCount)
    firstWords = first.map { vocabulary[$0].word }
    capitalizedFirstWords = first.map { vocabulary[$0].capitalized }
    secondWords = Lexicon.usernameRoles + extra.map { vocabulary[$0].word }
    capitalizedSecondWords = secondWords.map { $0.prefix(1).uppercased() + $0.dropFirst() }
    pairCount = firstWords.count * secondWords.count
    offset = Int(seed % UInt64(pairCount))
  }

  /// The parts of the username of the user with `ordinal`.
  func parts(ofUser ordinal: Int) -> Parts {
    var index = ordinal
    var number: Int? = nil
    var layerSize = pairCount
    var numberRange = 0..<1
    // Layer 0: no number; layer 1: 10...99; layer 2: 1000...9999.
    for range in [0..<1, 10..<100, 1000..<10_000] {
      layerSize = pairCount * range.count
      numberRange = range
      if index < layerSize { break }
      index -= layerSize
    }
    precondition(index < layerSize, "user ordinal \(ordinal) exceeds the username space")
    let permuted = (index * 2_147_483_647 + offset) % layerSize
    let (pair, digits) = permuted.quotientAndRemainder(dividingBy: numberRange.count)
    if numberRange.lowerBound > 0 { number = numberRange.lowerBound + digits }
    let (first, second) = pair.quotientAndRemainder(dividingBy: secondWords.count)
    // The separator comes from a hash of the ordinal; uniqueness rests on the triple alone.
    let separator = SplitMix64.mix(UInt64(ordinal)) % 4 == 0 ? UInt8(ascii: ".") : UInt8(ascii: "_")
    return Parts(first: first, second: second, separator: separator, number: number)
  }

  /// The username of the user with `ordinal`.
  func username(ofUser ordinal: Int) -> String {
    var bytes: [UInt8] = []
    appendUsername(ofUser: ordinal, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the UTF-8 bytes of the username of the user with `ordinal` to `bytes`.
  func appendUsername(ofUser ordinal: Int, to bytes: inout [UInt8]) {
    let parts = parts(ofUser: ordinal)
    bytes.append(contentsOf: firstWords[parts.first].utf8)
    bytes.append(parts.separator)
    bytes.append(contentsOf: secondWords[parts.second].utf8)
    if let number = parts.number {
      bytes.append(UInt8(ascii: "_"))
      UTF8Text.appendDecimal(number, to: &bytes)
    }
  }
}
