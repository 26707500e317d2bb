#ifndef CPREFETCH_H
#define CPREFETCH_H

// Cache prefetch hints, which Swift has no intrinsic for.
//
// A hint asks the processor to start loading the cache line that holds `address`, and
// returns at once: unlike a load, it never holds up the instructions after it, so the
// misses of many independent lookups can be in flight together. A hint never faults, even
// for an address outside any mapping.

/// Prefetches the line at `address` into every cache level (`__builtin_prefetch`, GCC and
/// Clang), for data about to be written.
static inline void cprefetch_for_writing(const void *address) {
  __builtin_prefetch(address, 1, 3);
}

/// Prefetches the line at `address` into every cache level, for data about to be read.
static inline void cprefetch_for_reading(const void *address) {
  __builtin_prefetch(address, 0, 3);
}

/// Prefetches, for reading, every cache line (64 bytes) that the `count` bytes at `start`
/// touch; nothing when `count` is 0 or less.
static inline void cprefetch_range_for_reading(const void *start, long count) {
  if (count <= 0) return;
  const char *line = (const char *)((unsigned long)start & ~63UL);
  const char *last = (const char *)start + count - 1;
  for (; line <= last; line += 64) __builtin_prefetch(line, 0, 3);
}

#endif
