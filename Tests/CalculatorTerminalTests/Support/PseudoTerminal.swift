#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pseudo-terminal pair for tests: the program side (`terminal`, a real terminal device) and the controller
/// side (`controller`), which reads what the program wrote.
final class PseudoTerminal {
  private(set) var controller: Int32
  let terminal: Int32

  init?() {
    // The Glibc module does not import the XSI pseudo-terminal functions; look them up in libc instead.
    guard let openController = Self.function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self),
      let grant = Self.function("grantpt", as: (@convention(c) (Int32) -> Int32).self),
      let unlock = Self.function("unlockpt", as: (@convention(c) (Int32) -> Int32).self),
      let name = Self.function(
        "ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32).self)
    else { return nil }
    let controller = openController(O_RDWR | O_NOCTTY)
    var path = [CChar](repeating: 0, count: 128)
    guard controller >= 0, grant(controller) == 0, unlock(controller) == 0,
      name(controller, &path, path.count) == 0
    else { return nil }
    let terminal = open(path, O_RDWR | O_NOCTTY)
    guard terminal >= 0 else {
      close(controller)
      return nil
    }
    self.controller = controller
    self.terminal = terminal
  }

  private static func function<F>(_ name: String, as type: F.Type) -> F? {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
    return unsafeBitCast(symbol, to: type)
  }

  deinit {
    close(terminal)
    if controller >= 0 { close(controller) }
  }

  /// Closes the controller side, as a terminal window closing does: the program's reads fail.
  func hangUp() {
    close(controller)
    controller = -1
  }

  /// Types `text` as a user would: the program reads it from `terminal`.
  func type(_ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
  }

  /// Sets the window size the program sees.
  func resize(rows: Int, columns: Int) {
    var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(terminal, UInt(TIOCSWINSZ), &size)
  }

  /// The terminal's current settings.
  var settings: termios {
    var settings = termios()
    tcgetattr(terminal, &settings)
    return settings
  }

  /// Reads what the program wrote until `expected` has arrived (the kernel passes pty data on asynchronously) or
  /// `timeoutMilliseconds` pass without new data; returns everything read.
  func read(until expected: String, timeoutMilliseconds: Int32 = 5000) -> String {
    var bytes: [UInt8] = []
    var descriptor = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
    while !String(decoding: bytes, as: UTF8.self).contains(expected), poll(&descriptor, 1, timeoutMilliseconds) > 0 {
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = buffer.withUnsafeMutableBytes { Glibc.read(controller, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      bytes += buffer.prefix(count)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension termios {
  /// The flags and control characters, for comparing settings.
  var comparable: [UInt64] {
    var copy = self
    let characters = withUnsafeBytes(of: &copy.c_cc) { $0.map(UInt64.init) }
    return [UInt64(c_iflag), UInt64(c_oflag), UInt64(c_cflag), UInt64(c_lflag)] + characters
  }
}
