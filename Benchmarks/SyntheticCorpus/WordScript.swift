/// The writing system of a generated vocabulary word.
///
/// The vocabulary mixes these in fixed proportions (see ``Vocabulary``), so that an index sees
/// the same kinds of text a short-video app does: English-like words, accented Latin, several
/// non-Latin scripts, and emoji with skin tones and zero-width-joiner sequences.
public enum WordScript: UInt8, Sendable, Hashable, CaseIterable {
  /// Plain ASCII letters (`dance`, `brolen`).
  case latin
  /// Latin letters with diacritics (`café`, `niño`, `über`).
  case accented
  /// Cyrillic (`танцы`).
  case cyrillic
  /// Greek (`χορός`).
  case greek
  /// Japanese kana and kanji (`ダンス`, `東京`).
  case japanese
  /// Simplified Chinese (`跳舞`, `音乐`).
  case chinese
  /// Korean Hangul (`댄스`, `고양이`).
  case korean
  /// Thai (`แมว`, `เต้น`).
  case thai
  /// Emoji, possibly with skin-tone modifiers or ZWJ sequences (`🔥`, `💃🏽`, `👩‍🍳`).
  case emoji

  /// Whether the script writes words without spaces between them (Japanese, Chinese, Thai), so
  /// a title may run several words together.
  public var isSpaceless: Bool {
    switch self {
    case .japanese, .chinese, .thai: true
    default: false
    }
  }

  /// Whether the script is something other than Latin letters (accented Latin counts as Latin).
  public var isNonLatin: Bool {
    switch self {
    case .latin, .accented: false
    default: true
    }
  }
}
