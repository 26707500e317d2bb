#ifndef CCRC32C_H
#define CCRC32C_H

#include <stddef.h>
#include <stdint.h>

// CRC-32C with the processor's own instruction (SSE 4.2 `crc32` on x86-64), which Swift has
// no intrinsic for. The Swift side keeps a portable table-driven version for processors
// without it and checks that both agree.

/// Whether this processor has the instruction `ccrc32c_hardware` uses.
int ccrc32c_has_hardware(void);

/// Continues a CRC-32C over `length` bytes at `data`: `crc` is the running value as the
/// instruction keeps it (the bitwise complement of a finished checksum), and so is the
/// result. Only call it when `ccrc32c_has_hardware()` is true.
uint32_t ccrc32c_hardware(uint32_t crc, const void *data, size_t length);

#endif
