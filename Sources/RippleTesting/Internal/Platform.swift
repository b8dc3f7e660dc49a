#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("RippleTesting needs POSIX threads: Glibc, Musl or Darwin")
#endif

/// The POSIX thread calls of the lockstep executor, so that the differences between Glibc, Musl and Darwin sit
/// side by side in this one file.
enum _Platform {
  /// A thread's identity, comparable with `pthread_equal`.
  struct ThreadID: Equatable, @unchecked Sendable {  // a thread handle, compared from any thread
    fileprivate let handle: pthread_t

    static func == (lhs: ThreadID, rhs: ThreadID) -> Bool { pthread_equal(lhs.handle, rhs.handle) != 0 }
  }

  /// The calling thread.
  static func currentThread() -> ThreadID { ThreadID(handle: pthread_self()) }

  /// Starts a detached thread with a stack of `stackSize` bytes running `body`; returns `pthread_create`'s
  /// result, 0 on success.
  static func startDetachedThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) -> Int32 {
    let box = Unmanaged.passRetained(_ThreadBody(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    pthread_attr_setstacksize(&attributes, stackSize)
    #if canImport(Glibc)
    var handle: pthread_t = 0  // an integer
    #else
    var handle: pthread_t?  // an opaque pointer that `pthread_create` fills in (on Darwin it has no zero value)
    #endif
    #if canImport(Darwin)
    // The start routine's argument is non-null on Darwin, optional on Glibc and Musl.
    let result = pthread_create(&handle, &attributes, { _ThreadBody.run($0) }, box)
    #else
    let result = pthread_create(&handle, &attributes, { $0.flatMap(_ThreadBody.run) }, box)
    #endif
    if result != 0 { Unmanaged<_ThreadBody>.fromOpaque(box).release() }
    return result
  }
}

/// A POSIX mutex and one condition variable, allocated once so that they never move.
final class _ConditionLock: @unchecked Sendable {  // the pthread objects synchronise themselves
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func lock() { pthread_mutex_lock(mutex) }
  func unlock() { pthread_mutex_unlock(mutex) }
  /// With the mutex held: releases it until ``signal()``, then takes it again.
  func wait() { pthread_cond_wait(condition, mutex) }
  /// Wakes one thread in ``wait()``.
  func signal() { pthread_cond_signal(condition) }
}

/// What a thread started by ``_Platform/startDetachedThread(stackSize:_:)`` runs.
private final class _ThreadBody: Sendable {
  let body: @Sendable () -> Void
  init(_ body: @escaping @Sendable () -> Void) { self.body = body }

  /// A new thread's start routine: runs the body `argument` holds (retained for it) and releases it.
  static func run(_ argument: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Unmanaged<_ThreadBody>.fromOpaque(argument).takeRetainedValue().body()
    return nil
  }
}
