#include "cicu.h"

#include <stdlib.h>
#include <string.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uscript.h>
#include <unicode/ustring.h>
#include <unicode/utext.h>

// Combining diacritical mark blocks whose marks folding removes (as UTR #30 diacritic
// folding and Lucene's ICUFoldingFilter do for these blocks). Marks of other blocks (Indic
// vowel signs, the kana voicing marks U+3099/U+309A, Thai vowels) carry meaning and stay.
static int is_folded_diacritic(UChar32 c) {
  return (c >= 0x0300 && c <= 0x036F) || (c >= 0x1AB0 && c <= 0x1AFF) ||
         (c >= 0x1DC0 && c <= 0x1DFF) || (c >= 0x20D0 && c <= 0x20FF) ||
         (c >= 0xFE20 && c <= 0xFE2F);
}

// Letters that NFD does not decompose, mapped to their base letters. Returns the number of
// UTF-16 units written to `out` (0 if the letter is kept as is).
static int fold_letter(UChar32 c, UChar *out) {
  switch (c) {
  case 0x00F8: out[0] = 'o'; return 1;             // ø
  case 0x0111: out[0] = 'd'; return 1;             // đ
  case 0x00F0: out[0] = 'd'; return 1;             // ð
  case 0x0127: out[0] = 'h'; return 1;             // ħ
  case 0x0131: out[0] = 'i'; return 1;             // dotless ı
  case 0x0142: out[0] = 'l'; return 1;             // ł
  case 0x0167: out[0] = 't'; return 1;             // ŧ
  case 0x00E6: out[0] = 'a'; out[1] = 'e'; return 2; // æ
  case 0x0153: out[0] = 'o'; out[1] = 'e'; return 2; // œ
  case 0x00FE: out[0] = 't'; out[1] = 'h'; return 2; // þ
  default: return 0;
  }
}

int32_t cicu_classify(uint32_t codePoint) {
  UChar32 c = (UChar32)codePoint;
  if (c < 0 || c > 0x10FFFF) return 0;
  int32_t flags = 0;
  int8_t type = u_charType(c);
  switch (type) {
  case U_UPPERCASE_LETTER: case U_LOWERCASE_LETTER: case U_TITLECASE_LETTER:
  case U_MODIFIER_LETTER: case U_OTHER_LETTER:
    flags |= CICU_LETTER; break;
  case U_DECIMAL_DIGIT_NUMBER: case U_LETTER_NUMBER: case U_OTHER_NUMBER:
    flags |= CICU_NUMBER; break;
  case U_NON_SPACING_MARK: case U_ENCLOSING_MARK: case U_COMBINING_SPACING_MARK:
    flags |= CICU_MARK; break;
  default: break;
  }
  if (u_hasBinaryProperty(c, UCHAR_UPPERCASE)) flags |= CICU_UPPERCASE;
  if (u_isUWhiteSpace(c)) flags |= CICU_SPACE;
  if (u_hasBinaryProperty(c, UCHAR_EXTENDED_PICTOGRAPHIC)) flags |= CICU_PICTOGRAPHIC;
  UErrorCode status = U_ZERO_ERROR;
  UScriptCode script = uscript_getScript(c, &status);
  if (U_SUCCESS(status)) {
    switch (script) {
    case USCRIPT_THAI: case USCRIPT_LAO: case USCRIPT_KHMER: case USCRIPT_MYANMAR:
      flags |= CICU_DICTIONARY_SCRIPT; break;
    case USCRIPT_HAN: case USCRIPT_HIRAGANA: case USCRIPT_KATAKANA:
    case USCRIPT_KATAKANA_OR_HIRAGANA:
      flags |= CICU_CJ_SCRIPT; break;
    case USCRIPT_HANGUL:
      flags |= CICU_HANGUL; break;
    default: break;
    }
  }
  // The prolonged sound mark and iteration marks are Common script but live inside Japanese
  // words; the kana voicing marks are Inherited.
  if (c == 0x30FC || c == 0x3005 || c == 0x309D || c == 0x309E || c == 0x30FD || c == 0x30FE ||
      c == 0x3099 || c == 0x309A || c == 0xFF70 || c == 0xFF9E || c == 0xFF9F) {
    flags |= CICU_CJ_SCRIPT;
  }
  if (is_folded_diacritic(c)) flags |= CICU_DIACRITIC;
  // Folding one code point on its own gives the same result as folding it inside a word when
  // no composition can join it to a neighbour: it is not a mark (diacritics are removed either
  // way), not a Hangul jamo, and canonical composition never starts at it with a mark other
  // than a removed diacritic. Letters that only compose with removed diacritics ("e" + U+0301)
  // are context-free for our purposes because the diacritic is dropped either way.
  {
    int contextFree = 1;
    if ((flags & CICU_MARK) && !(flags & CICU_DIACRITIC)) contextFree = 0;
    if ((c >= 0x1100 && c <= 0x11FF) || (c >= 0xA960 && c <= 0xA97F) ||
        (c >= 0xD7B0 && c <= 0xD7FF) || (c >= 0x3130 && c <= 0x318F))
      contextFree = 0;
    if (u_getCombiningClass(c) != 0) contextFree = contextFree && (flags & CICU_DIACRITIC);
    if (c >= 0xD800 && c <= 0xDFFF) contextFree = 0;
    // Starters that compose with a following starter (Hangul LV + T, some Indic vowel signs
    // are Mc and already excluded). Hangul syllables LV compose with trailing jamo, which are
    // excluded above, so syllables stay context-free.
    if (contextFree) flags |= CICU_CONTEXT_FREE;
  }
  return flags;
}

// Stack buffers cover almost every call; longer text falls back to the heap.
enum { STACK_UNITS = 512 };

int32_t cicu_fold_utf8(const uint8_t *source, int32_t sourceLength, uint8_t *destination,
                       int32_t destinationCapacity) {
  UErrorCode status = U_ZERO_ERROR;
  const UNormalizer2 *nfkcCasefold = unorm2_getNFKCCasefoldInstance(&status);
  const UNormalizer2 *nfd = unorm2_getNFDInstance(&status);
  const UNormalizer2 *nfc = unorm2_getNFCInstance(&status);
  if (U_FAILURE(status)) return INT32_MIN;

  UChar stackA[STACK_UNITS], stackB[STACK_UNITS];
  UChar *a = stackA, *b = stackB;
  int32_t capacity = STACK_UNITS;
  int32_t result = INT32_MIN;
  // The UTF-16 result: `a` after the last step, or `b` when the shortcut below skips them.
  const UChar *folded = a;

  // NFKC case folding can expand text (up to 18 units for one code point in theory; about 3
  // in practice), so size the buffers generously up front.
  int32_t needed = sourceLength * 4 + 16;
  if (needed > capacity) {
    capacity = needed;
    a = (UChar *)malloc(sizeof(UChar) * (size_t)capacity);
    b = (UChar *)malloc(sizeof(UChar) * (size_t)capacity);
    if (!a || !b) goto done;
    folded = a;
  }

  int32_t length = 0;
  u_strFromUTF8(a, capacity, &length, (const char *)source, sourceLength, &status);
  if (U_FAILURE(status)) goto done;
  length = unorm2_normalize(nfkcCasefold, a, length, b, capacity, &status);
  if (U_FAILURE(status)) goto done;
  // When the folded text is already both NFD and NFC (the quick checks say yes for all of
  // it) and holds no diacritic to remove or letter to map, the steps below would give it
  // back unchanged: convert it as it is. Thai, Devanagari, Arabic and the like (whose marks
  // send words here) then cost one normalization instead of three.
  if (unorm2_spanQuickCheckYes(nfd, b, length, &status) == length &&
      unorm2_spanQuickCheckYes(nfc, b, length, &status) == length && U_SUCCESS(status)) {
    int unchanged = 1;
    for (int32_t i = 0; i < length && unchanged;) {
      UChar32 c;
      UChar mapped[2];
      U16_NEXT(b, i, length, c);
      if (is_folded_diacritic(c) || fold_letter(c, mapped) > 0) unchanged = 0;
    }
    if (unchanged) {
      folded = b;
      goto convert;
    }
  }
  status = U_ZERO_ERROR;
  length = unorm2_normalize(nfd, b, length, a, capacity, &status);
  if (U_FAILURE(status)) goto done;

  // Remove diacritics and map undecomposable letters, from `a` into `b`.
  int32_t out = 0;
  for (int32_t i = 0; i < length;) {
    UChar32 c;
    U16_NEXT(a, i, length, c);
    if (is_folded_diacritic(c)) continue;
    UChar mapped[2];
    int n = fold_letter(c, mapped);
    if (n > 0) {
      if (out + n > capacity) goto done;
      for (int k = 0; k < n; k++) b[out++] = mapped[k];
    } else {
      if (out + U16_LENGTH(c) > capacity) goto done;
      U16_APPEND_UNSAFE(b, out, c);
    }
  }
  length = unorm2_normalize(nfc, b, out, a, capacity, &status);
  if (U_FAILURE(status)) goto done;

convert:;
  int32_t written = 0;
  u_strToUTF8((char *)destination, destinationCapacity, &written, folded, length, &status);
  if (status == U_BUFFER_OVERFLOW_ERROR) {
    result = -written;
  } else if (U_FAILURE(status)) {
    result = INT32_MIN;
  } else {
    result = written;
  }
done:
  if (a != stackA) free(a);
  if (b != stackB) free(b);
  return result;
}

// One word break iterator per thread: opening one loads the dictionaries and is expensive,
// and an iterator must not be shared between threads.
static _Thread_local UBreakIterator *threadBreakIterator = NULL;

// UTF-16 copies of short runs, with each unit's UTF-8 byte offset: ICU's break iterators
// and dictionary engines work in UTF-16, and reading a UTF-8 UText costs a conversion at
// every access. Longer runs go through a UTF-8 UText.
#define SEGMENT_UNITS 512
static _Thread_local UChar threadUnits[SEGMENT_UNITS + 1];
static _Thread_local int32_t threadOffsets[SEGMENT_UNITS + 1];

int32_t cicu_word_segments(const uint8_t *text, int32_t length, int32_t *starts, int32_t *ends,
                           int32_t capacity) {
  UErrorCode status = U_ZERO_ERROR;
  if (threadBreakIterator == NULL) {
    threadBreakIterator = ubrk_open(UBRK_WORD, "", NULL, 0, &status);
    if (U_FAILURE(status)) {
      threadBreakIterator = NULL;
      return -1;
    }
  }
  // Decode to UTF-16 when the run fits, remembering where each unit's code point starts. A
  // code point never takes more UTF-16 units than UTF-8 bytes (an ill-formed sequence
  // becomes one U+FFFD for at least one byte), so `length` bytes fit in `length` units.
  int32_t units = 0;
  int fits = length <= SEGMENT_UNITS;
  for (int32_t index = 0; fits && index < length;) {
    UChar32 c;
    int32_t start = index;
    U8_NEXT(text, index, length, c);
    if (c < 0) c = 0xFFFD;
    threadOffsets[units] = start;
    if (U_IS_BMP(c)) {
      threadUnits[units++] = (UChar)c;
    } else {
      threadUnits[units++] = U16_LEAD(c);
      threadOffsets[units] = start;
      threadUnits[units++] = U16_TRAIL(c);
    }
  }
  UText *utext;
  if (fits) {
    threadOffsets[units] = length;
    utext = utext_openUChars(NULL, threadUnits, units, &status);
  } else {
    utext = utext_openUTF8(NULL, (const char *)text, length, &status);
  }
  if (U_FAILURE(status)) return -1;
  ubrk_setUText(threadBreakIterator, utext, &status);
  if (U_FAILURE(status)) {
    utext_close(utext);
    return -1;
  }
  int32_t count = 0;
  int32_t start = ubrk_first(threadBreakIterator);
  for (int32_t end = ubrk_next(threadBreakIterator); end != UBRK_DONE && count < capacity;
       start = end, end = ubrk_next(threadBreakIterator)) {
    if (ubrk_getRuleStatus(threadBreakIterator) >= UBRK_WORD_NONE_LIMIT) {
      starts[count] = fits ? threadOffsets[start] : start;
      ends[count] = fits ? threadOffsets[end] : end;
      count++;
    }
  }
  utext_close(utext);
  return count;
}

int32_t cicu_char_name(uint32_t codePoint, char *buffer, int32_t capacity) {
  UErrorCode status = U_ZERO_ERROR;
  int32_t length = u_charName((UChar32)codePoint, U_UNICODE_CHAR_NAME, buffer, capacity, &status);
  if (U_FAILURE(status)) return -1;
  return length;
}
