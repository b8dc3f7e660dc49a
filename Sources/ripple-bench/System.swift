#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a line to standard error.
func printError(_ message: String) {
  var line = message + "\n"
  line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

/// Ends the process with `status`.
func terminate(_ status: Int32) -> Never {
  exit(status)
}
