// ThreadSanitizer annotations for Ripple's locks; see `_Mutex` in Sources/InternalRippleUtilities/_Mutex.swift.
//
// On Linux, `Synchronization.Mutex` hands a contended lock over in code ThreadSanitizer does not see: a spin of
// uninstrumented compare-exchanges and the `FUTEX_LOCK_PI` system call, both inside libswiftSynchronization.so.
// ThreadSanitizer then reports every access made under such a lock as a race. These functions tell it about the
// hand-over. They are weak references to the sanitizer's runtime: in a program built without ThreadSanitizer
// the runtime is absent, the references are null and the functions do nothing.
//
// Darwin's Mutex is an `os_unfair_lock`, which ThreadSanitizer intercepts, so there they compile to nothing.

#ifndef RIPPLE_TSAN_H
#define RIPPLE_TSAN_H

#if defined(__linux__)
extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));
#endif

/// Tells ThreadSanitizer that the lock identified by `address` was just taken.
static inline __attribute__((always_inline)) void _ripple_tsan_acquire(void *address) {
#if defined(__linux__)
  if (__tsan_acquire) __tsan_acquire(address);
#endif
}

/// Tells ThreadSanitizer that the lock identified by `address` is about to be released.
static inline __attribute__((always_inline)) void _ripple_tsan_release(void *address) {
#if defined(__linux__)
  if (__tsan_release) __tsan_release(address);
#endif
}

#endif
