#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The test process's environment variables.
enum Environment {
  /// The value of the variable `name`, or `nil` when it is not set.
  static func value(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
