import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts the terminal back exactly once — from the scoped helper's exit or from a signal handler, whichever
/// comes first.
///
/// A signal handler may only call async-signal-safe functions, so everything it needs (the descriptors, the
/// saved settings, the bytes to write) is prepared by ``arm(input:output:original:)`` before any handler is
/// installed, and ``restore()`` does nothing but `write(2)` and `tcsetattr(3)` guarded by an atomic flag.
enum TerminalRestorer {
  /// What to restore; written by ``arm(input:output:original:)`` only while no handler can run.
  private struct Record {
    var input: Int32
    var output: Int32
    var original: termios
  }

  /// Read by signal handlers; only written before the handlers are installed or after they are removed.
  nonisolated(unsafe) private static var record = Record(input: -1, output: -1, original: termios())
  /// The restore sequence, allocated once, as handlers cannot allocate.
  nonisolated(unsafe) private static var bytes: UnsafeMutableBufferPointer<UInt8> = {
    // CAN first: it aborts an escape sequence a killed writer left half-written.
    let text = [UInt8(0x18)] + Array(ANSI.restore.utf8)
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
    _ = buffer.initialize(from: text)
    return buffer
  }()
  /// Whether the terminal is in the prepared state and still owes a restore.
  private static let armed = Atomic<Bool>(false)

  /// Records the settings to restore; call before entering raw mode and before installing handlers.
  static func arm(input: Int32, output: Int32, original: termios) {
    _ = bytes  // initialise outside any handler
    record = Record(input: input, output: output, original: original)
    armed.store(true, ordering: .sequentiallyConsistent)
  }

  /// Whether a restore is owed.
  static var isArmed: Bool { armed.load(ordering: .sequentiallyConsistent) }

  /// Restores the terminal if it has not been restored yet: the normal screen, a visible cursor, plain text,
  /// and the settings saved by ``arm(input:output:original:)``. Async-signal-safe.
  static func restore() {
    guard armed.exchange(false, ordering: .sequentiallyConsistent) else { return }
    var offset = 0
    while offset < bytes.count {
      let written = write(record.output, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        break
      }
      offset += written
    }
    var original = record.original
    while tcsetattr(record.input, TCSADRAIN, &original) != 0 && errno == EINTR {}
  }
}
