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
///
/// Everything the form draws goes through ``write(_:)``, the gate that keeps a frame off the shell's screen: a
/// frame is written only while a restore is owed, and a restore waits for a frame that another thread is in the
/// middle of writing. Without the gate, a signal handled on one thread while the renderer draws on another lets
/// the rest of a spinner frame land on the normal screen after the restore.
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
  /// The thread inside ``write(_:)`` now, or 0: a restore on another thread waits for it to finish.
  private static let writer = Atomic<UInt>(0)
  /// How long a restore waits for a frame in progress: a terminal that stopped reading cannot hold an exit.
  private static let longestWait = 500

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
    // From here no frame starts (`write` sees `armed` false); wait for one another thread already started. A
    // frame this thread was writing when a signal interrupted it is left unfinished: the CAN below ends it.
    let me = currentThread()
    var waited = 0
    while waited < longestWait {
      let busy = writer.load(ordering: .sequentiallyConsistent)
      if busy == 0 || busy == me { break }
      _ = poll(nil, 0, 1)  // a millisecond's sleep that is async-signal-safe
      waited += 1
    }
    var offset = 0
    while offset < bytes.count {
      let written = systemWrite(record.output, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        break
      }
      offset += written
    }
    var original = record.original
    while tcsetattr(record.input, TCSADRAIN, &original) != 0 && errno == EINTR {}
  }

  /// Writes `text` to the terminal if it is still in the prepared state; after a restore it writes nothing.
  ///
  /// Use it for everything drawn between ``arm(input:output:original:)`` and the restore. (Announcing the writer
  /// before checking `armed`, while ``restore()`` clears `armed` before reading the writer, means that of a frame
  /// and a restore racing on two threads, either the frame sees the restore and is dropped or the restore sees
  /// the frame and waits for it.)
  static func write(_ text: String) {
    writer.store(currentThread(), ordering: .sequentiallyConsistent)
    defer { writer.store(0, ordering: .sequentiallyConsistent) }
    guard armed.load(ordering: .sequentiallyConsistent) else { return }
    StandardStream(descriptor: record.output).write(text)
  }

  /// A number naming the calling thread, never 0.
  private static func currentThread() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
  }
}

/// `write(2)`, under a name that ``TerminalRestorer/write(_:)`` does not hide.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
