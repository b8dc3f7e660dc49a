import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("RippleTesting needs POSIX: Glibc, Musl or Darwin")
#endif

/// The operating-system calls of the lockstep executor, so that the differences between Glibc, Musl and Darwin
/// sit side by side in this one file.
enum _Platform {
  /// A number naming the calling thread, never 0: the address or number of its `pthread_t`.
  static func currentThreadID() -> UInt {
    #if canImport(Glibc)
    UInt(pthread_self())
    #elseif canImport(Musl)
    UInt(bitPattern: pthread_self())  // an `OpaquePointer`
    #elseif canImport(Darwin)
    UInt(bitPattern: pthread_self())  // an `UnsafeMutablePointer<_opaque_pthread_t>`
    #endif
  }

  /// The address of the global variable `name` in the process's loaded images, or `nil` when none exports it.
  static func globalVariable(named name: String) -> UnsafeMutableRawPointer? {
    #if canImport(Darwin)
    // `RTLD_DEFAULT`, which Darwin's header defines as `((void *) -2)`, a macro Swift does not import:
    // search every image, in load order.
    dlsym(UnsafeMutableRawPointer(bitPattern: -2), name)
    #else
    // The handle of the program itself, whose lookup scope holds the libraries it loaded (the concurrency
    // runtime among them).
    dlsym(dlopen(nil, RTLD_NOW), name)
    #endif
  }

  /// Writes `text` to standard error, unbuffered.
  static func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      var rest = UnsafeRawBufferPointer(bytes)
      while !rest.isEmpty {
        let written = write(2, rest.baseAddress, rest.count)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        rest = UnsafeRawBufferPointer(rebasing: rest[written...])
      }
    }
  }

  /// Runs `body` on the main dispatch queue, after the blocks already queued there.
  static func runOnMainQueue(_ body: @escaping @Sendable () -> Void) {
    DispatchQueue.main.async(execute: body)
  }
}
