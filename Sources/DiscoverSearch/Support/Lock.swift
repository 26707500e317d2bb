import CSanitizer
import Synchronization

/// A value behind a lock: Synchronization's `Mutex`, with happens-before annotations for
/// the thread sanitizer.
///
/// On Linux `Mutex` waits on a futex, which the sanitizer does not see, so under
/// `-sanitize=thread` every value a `Mutex` guards was reported as raced on. This lock
/// tells it after taking and before releasing the lock (the lock's own address names it).
/// Without the sanitizer the annotations are a test of a null function pointer each.
///
/// `package`, and inlinable, for the package's other modules. Across a module boundary the
/// compiler may still call `withLock` unspecialized, looking up type metadata on every call:
/// `DiscoverService`'s rate limiter lost half its checks per second that way, so a hot path
/// in another module takes `Mutex` directly, with the same annotations.
package struct Lock<Value: ~Copyable>: ~Copyable {
  @usableFromInline let mutex: Mutex<Value>

  @inlinable
  package init(_ value: consuming sending Value) {
    mutex = Mutex(value)
  }

  /// Calls `body` with the value, holding the lock.
  @inlinable @inline(__always)
  package borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    // SAFETY: the address only names the lock to the sanitizer and is never dereferenced;
    // a noncopyable value is never moved while borrowed, so each call gets the same one.
    let address = withUnsafePointer(to: mutex) { UnsafeMutableRawPointer(mutating: $0) }
    return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
      csanitizer_acquire(address)
      defer { csanitizer_release(address) }
      return try body(&value)
    }
  }
}

extension Lock: @unchecked Sendable where Value: ~Copyable {}
