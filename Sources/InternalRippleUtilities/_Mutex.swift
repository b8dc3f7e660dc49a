import Synchronization
import _RippleTSan

/// A `Mutex` that ThreadSanitizer can follow: Ripple's lock for state shared between tasks.
///
/// Use it exactly as `Mutex`, stored in a `let` of a class: `withLock` runs its body with the state locked.
///
/// ```swift
/// final class Counter: Sendable {
///   private let count = _Mutex(0)
///   func increment() -> Int { count.withLock { $0 += 1; return $0 } }
/// }
/// ```
///
/// On Linux the toolchain's `Mutex` hands a contended lock from one thread to the next inside
/// libswiftSynchronization.so — a spin of compare-exchanges and the `FUTEX_LOCK_PI` system call — where
/// ThreadSanitizer cannot see it, so `swift test --sanitize=thread` reports every access made under the lock as a
/// data race. `_Mutex` tells the sanitizer that the lock was taken and released; without the sanitizer that is a
/// test of a null weak symbol, and on Darwin, whose `Mutex` the sanitizer understands, nothing. Ripple's own
/// code, and the modules built on it, use `_Mutex` so that a sanitizer report always means a real race.
@usableFromInline
package struct _Mutex<Value: ~Copyable>: ~Copyable, Sendable {
  @usableFromInline let mutex: Mutex<Value>

  /// Creates a lock around `initialValue`.
  @inlinable
  package init(_ initialValue: consuming sending Value) {
    mutex = Mutex(initialValue)
  }

  /// Runs `body` with exclusive access to the value, and returns what it returns.
  ///
  /// The body must not suspend, block on another lock held in the opposite order, or call `withLock` on the same
  /// lock.
  @inlinable
  package borrowing func withLock<Result, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
      // The lock's own address names it to the sanitizer; taking it reads nothing the body writes.
      let address = withUnsafePointer(to: self) { UnsafeMutableRawPointer(mutating: $0) }
      _ripple_tsan_acquire(address)
      defer { _ripple_tsan_release(address) }
      return try body(&value)
    }
  }
}
