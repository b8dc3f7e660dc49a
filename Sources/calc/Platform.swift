#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("calc needs a POSIX C library: Glibc, Musl or Darwin")
#endif

/// The C library calls `calc`'s entry point makes: Glibc, Musl and Darwin side by side, as in every module.
enum Platform {
  /// Ends the process with `status` (`exit(3)`), the same call on all three.
  static func exit(_ status: Int32) -> Never {
    #if canImport(Glibc)
    Glibc.exit(status)
    #elseif canImport(Musl)
    Musl.exit(status)
    #elseif canImport(Darwin)
    Darwin.exit(status)
    #endif
  }
}
