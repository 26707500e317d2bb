// CICU: a small C shim over the system ICU (libicu 72).
//
// The header uses plain C types only. Importing ICU's own headers into Swift on Linux clashes
// with Foundation's private `_FoundationICU` module (duplicate `UErrorCode` and friends), and
// ICU's versioned symbol names (`unorm2_normalize_72`) hide behind macros Swift cannot import.
// The `.c` file includes `<unicode/...>`; Swift sees only the functions below.
#ifndef CICU_H
#define CICU_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Bit flags returned by `cicu_classify`.
#define CICU_LETTER 0x1             // general category L*
#define CICU_NUMBER 0x2             // general category N*
#define CICU_MARK 0x4               // general category M* (combining marks)
#define CICU_UPPERCASE 0x8          // Unicode Uppercase property (for camelCase splits)
#define CICU_SPACE 0x10             // White_Space
#define CICU_PICTOGRAPHIC 0x20      // Extended_Pictographic (emoji)
#define CICU_DICTIONARY_SCRIPT 0x40 // Thai, Lao, Khmer, Myanmar: words found by dictionary
#define CICU_CJ_SCRIPT 0x80         // Han, Hiragana, Katakana (and the prolonged sound mark)
#define CICU_HANGUL 0x100           // Hangul: words found by spaces
#define CICU_DIACRITIC 0x200        // a combining diacritic that folding removes
#define CICU_CONTEXT_FREE 0x400     // folding this code point alone equals folding it in context

/// Returns the `CICU_*` flags of one code point.
int32_t cicu_classify(uint32_t codePoint);

/// Folds UTF-8 text for matching: NFKC case folding, then removal of combining diacritics
/// (U+0300 to U+036F and the other combining diacritical mark blocks) and a few letters that
/// have no decomposition (ø, đ, ł, ı, ħ, ŧ, æ, œ, ð, þ), then NFC.
///
/// Returns the length of the folded text in bytes. If `destinationCapacity` is too small,
/// returns minus the capacity needed and writes nothing useful. Returns INT32_MIN on an ICU
/// error (for example ill-formed UTF-8).
int32_t cicu_fold_utf8(const uint8_t *source, int32_t sourceLength, uint8_t *destination,
                       int32_t destinationCapacity);

/// Splits UTF-8 text into words with ICU's word break iterator (which uses dictionaries for
/// Thai, Lao, Khmer, Myanmar, Chinese and Japanese).
///
/// Writes the byte offsets of each word-like segment (rule status other than "none") into
/// `starts` and `ends`. Returns the number of segments written, which is at most `capacity`
/// (text with more words is cut short), or -1 on an ICU error.
int32_t cicu_word_segments(const uint8_t *text, int32_t length, int32_t *starts, int32_t *ends,
                           int32_t capacity);

/// Writes the Unicode name of a code point (for example "FIRE" for U+1F525) as a
/// NUL-terminated ASCII string. Returns the name's length, 0 if it has none, or -1 on error.
int32_t cicu_char_name(uint32_t codePoint, char *buffer, int32_t capacity);

#ifdef __cplusplus
}
#endif

#endif
