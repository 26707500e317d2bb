import CSanitizer
import Synchronization

extension Mutex where Value: ~Copyable {
  /// `withLock`, telling the thread sanitizer that this thread holds the lock.
  ///
  /// On Linux `Mutex` waits on a futex, which the sanitizer does not see, so it would report
  /// every value the mutex guards as raced on (see CSanitizer). DiscoverSearch's `Lock` does
  /// the same for that module; this module takes `Mutex` directly because across a module
  /// boundary the compiler called `Lock.withLock` unspecialized, looking up type metadata on
  /// every call: the rate limiter's checks per second fell by more than half. The result
  /// cache takes it too, so that the module has one way to lock.
  @inlinable @inline(__always)
  borrowing func withAnnotatedLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    // SAFETY: the address only names the lock to the sanitizer and is never dereferenced;
    // a noncopyable value is never moved while borrowed, so each call gets the same one.
    let address = withUnsafePointer(to: self) { UnsafeMutableRawPointer(mutating: $0) }
    return try withLock { (value: inout sending Value) throws(E) -> sending Result in
      csanitizer_acquire(address)
      defer { csanitizer_release(address) }
      return try body(&value)
    }
  }
}
