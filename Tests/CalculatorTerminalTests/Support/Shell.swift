import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Running shell commands and finding the built `calc`, for the tests that run it as a user would.
enum Shell {
  /// `text` quoted for `sh`.
  static func quote(_ text: String) -> String {
    "'" + text.replacing("'", with: "'\\''") + "'"
  }

  /// Runs `command` with `sh -c`; returns its exit status and standard output.
  static func run(_ command: String) -> (status: Int32, output: String) {
    guard let pipe = popen(command, "r") else { return (-1, "") }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = fread(&buffer, 1, buffer.count, pipe)
      if count <= 0 { break }
      bytes += buffer.prefix(count)
    }
    let status = pclose(pipe)
    return ((status >> 8) & 0xff, String(decoding: bytes, as: UTF8.self))
  }

  /// The contents of the file at `path`, or `nil` when it cannot be read.
  static func readFile(_ path: String) -> String? {
    guard let stream = fopen(path, "r") else { return nil }
    defer { fclose(stream) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = fread(&buffer, 1, buffer.count, stream)
      if count <= 0 { break }
      bytes += buffer.prefix(count)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The built `calc`: it sits in the build products directory, next to the test bundle that runs this code.
  /// (Found through `/proc/self/exe` where it exists; elsewhere — macOS has no `/proc` — through the test bundle's
  /// path in the arguments, or the default build directory of the package this file is in.)
  static func calcExecutable() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    var executables = CommandLine.arguments.filter { $0.contains(".xctest") }
    if length > 0 {
      executables.insert(String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self), at: 0)
    }
    var candidates: [String] = []
    for executable in executables {
      // …/debug/RipplePackageTests.xctest (Linux), or …/debug/X.xctest/Contents/MacOS/X: try every ancestor.
      var directory = executable
      while let slash = directory.lastIndex(of: "/"), slash != directory.startIndex {
        directory = String(directory[..<slash])
        candidates.append(directory + "/calc")
      }
    }
    let package = #filePath.split(separator: "/").dropLast(4).joined(separator: "/")
    candidates.append("/\(package)/.build/debug/calc")
    return candidates.first { access($0, X_OK) == 0 }
  }
}
