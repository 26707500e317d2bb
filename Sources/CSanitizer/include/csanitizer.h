#ifndef CSANITIZER_H
#define CSANITIZER_H

// Happens-before annotations for the thread sanitizer, which Swift cannot declare weakly.
//
// The sanitizer sees pthread locks, but not the futex-based `Mutex` of Swift's
// Synchronization library on Linux, so it reports a race on every value such a lock
// guards. A lock that calls `csanitizer_acquire` after locking and `csanitizer_release`
// before unlocking, on one address per lock, tells it the truth. The sanitizer's runtime
// defines the two functions; elsewhere the weak declarations are null and the calls are a
// test and a branch.

void __tsan_acquire(void *address) __attribute__((weak));
void __tsan_release(void *address) __attribute__((weak));

/// Tells the thread sanitizer, when it runs, that this thread now holds the lock at `address`.
static inline void csanitizer_acquire(void *address) {
  if (__tsan_acquire) __tsan_acquire(address);
}

/// Tells the thread sanitizer, when it runs, that this thread releases the lock at `address`.
static inline void csanitizer_release(void *address) {
  if (__tsan_release) __tsan_release(address);
}

#endif
