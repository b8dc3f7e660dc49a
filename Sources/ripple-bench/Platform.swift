#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("ripple-bench needs a POSIX C library: Glibc, Musl or Darwin")
#endif

// The benchmark's only C library calls, with Glibc, Musl and Darwin side by side; `write` and `exit` have the same
// shape on all three.

/// Writes a line to standard error.
func printError(_ message: String) {
  var line = message + "\n"
  line.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
}

/// Ends the process with `status`.
func terminate(_ status: Int32) -> Never {
  exit(status)
}
