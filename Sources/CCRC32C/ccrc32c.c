#include "ccrc32c.h"

#include <string.h>

#if defined(__x86_64__)
#include <nmmintrin.h>

int ccrc32c_has_hardware(void) { return __builtin_cpu_supports("sse4.2"); }

// Compiled for SSE 4.2 alone, and called only after the check above, so the package needs
// no compiler flags and runs on any x86-64 processor.
__attribute__((target("sse4.2")))
uint32_t ccrc32c_hardware(uint32_t crc, const void *data, size_t length) {
  const unsigned char *bytes = data;
  uint64_t running = crc;
  // Eight bytes per instruction; `memcpy` is the unaligned load the compiler turns into one
  // move.
  while (length >= 8) {
    uint64_t word;
    memcpy(&word, bytes, 8);
    running = _mm_crc32_u64(running, word);
    bytes += 8;
    length -= 8;
  }
  uint32_t result = (uint32_t)running;
  while (length > 0) {
    result = _mm_crc32_u8(result, *bytes);
    bytes += 1;
    length -= 1;
  }
  return result;
}

#else

int ccrc32c_has_hardware(void) { return 0; }

uint32_t ccrc32c_hardware(uint32_t crc, const void *data, size_t length) {
  (void)data;
  (void)length;
  return crc;
}

#endif
