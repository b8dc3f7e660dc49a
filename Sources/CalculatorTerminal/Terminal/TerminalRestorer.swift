import Synchronization

/// Puts the terminal back exactly once — from the scoped helper's exit or from a signal handler, whichever
/// comes first.
///
/// A signal handler may only call async-signal-safe functions, so everything it needs (the descriptors, the
/// saved settings, the bytes to write) is prepared by ``arm(input:output:original:)`` before any handler is
/// installed, and ``restore()`` does nothing but `write(2)`, `tcsetattr(3)` and `usleep(3)` (on glibc and Darwin
/// a `nanosleep`) guarded by an atomic state.
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
    var original: Platform.TerminalSettings
  }

  /// Read by signal handlers; only written before the handlers are installed or after they are removed.
  nonisolated(unsafe) private static var record = Record(input: -1, output: -1, original: .zero)
  /// The restore sequence, allocated once, as handlers cannot allocate.
  nonisolated(unsafe) private static var bytes: UnsafeMutableBufferPointer<UInt8> = {
    // CAN first: it aborts an escape sequence a killed writer left half-written.
    let text = [UInt8(0x18)] + Array(ANSI.restore.utf8)
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
    _ = buffer.initialize(from: text)
    return buffer
  }()
  /// Where the terminal stands: ``idle`` (nothing owed), ``owed`` (prepared, a restore is owed), or the
  /// number of the thread that is restoring it now. One word, so taking the restore and naming its thread are
  /// one step.
  private static let state = Atomic<UInt>(idle)
  private static let idle: UInt = 0
  private static let owed: UInt = 1
  /// The thread inside ``write(_:)`` now, or 0: a restore on another thread waits for it to finish.
  private static let writer = Atomic<UInt>(0)
  /// How many milliseconds a restore waits for another thread — a frame in progress, or a restore under way —
  /// so that a terminal that stopped reading cannot hold an exit. (Computed, so a handler never runs a lazy
  /// initialiser.)
  private static var longestWait: Int { 500 }

  /// Records the settings to restore; call before entering raw mode and before installing handlers.
  static func arm(input: Int32, output: Int32, original: Platform.TerminalSettings) {
    // Initialise the lazily created statics here, outside any handler.
    _ = bytes
    _ = writer.load(ordering: .sequentiallyConsistent)
    record = Record(input: input, output: output, original: original)
    state.store(owed, ordering: .sequentiallyConsistent)
  }

  /// Whether a restore is owed.
  static var isArmed: Bool { state.load(ordering: .sequentiallyConsistent) == owed }

  /// Restores the terminal if it is owed a restore: the normal screen, a visible cursor, plain text, and the
  /// settings saved by ``arm(input:output:original:)``. Async-signal-safe.
  ///
  /// Whichever call comes first does the work. A call made while another thread is restoring waits until it is
  /// done (a second signal must not exit under a half-restored terminal); a call made on the restoring thread
  /// itself — a signal that interrupted the scoped helper's restore — does the work again, since the
  /// interrupted restore will not resume before the process exits. Restoring twice is harmless.
  static func restore() {
    let me = currentThread()
    let (won, current) = state.compareExchange(
      expected: owed, desired: me, ordering: .sequentiallyConsistent)
    guard won else {
      if current == me {
        putBack()
      } else if current != idle {
        waitWhile { state.load(ordering: .sequentiallyConsistent) != idle }
      }
      return
    }
    // From here no frame starts (`write` sees no restore owed); wait for one another thread already started. A
    // frame this thread was writing when a signal interrupted it is left unfinished: the CAN that `putBack`
    // writes first ends it.
    waitWhile {
      let busy = writer.load(ordering: .sequentiallyConsistent)
      return busy != 0 && busy != me
    }
    putBack()
    state.store(idle, ordering: .sequentiallyConsistent)
  }

  /// Writes the restore sequence and puts the saved settings back.
  private static func putBack() {
    StandardStream(descriptor: record.output).write(UnsafeRawBufferPointer(bytes))
    // At once (TCSANOW): the bytes above are already queued, and waiting for them to drain could wait forever on
    // a terminal that stopped reading.
    while !Platform.setTerminalSettings(record.original, of: record.input, flushingInput: false)
      && Platform.isInterruption(Platform.errorNumber)
    {}
  }

  /// Sleeps a millisecond at a time while `condition` holds, for at most ``longestWait`` milliseconds.
  private static func waitWhile(_ condition: () -> Bool) {
    var waited = 0
    while waited < longestWait && condition() {
      Platform.sleep(microseconds: 1_000)
      waited += 1
    }
  }

  /// Writes `text` to the terminal if it is still in the prepared state; after a restore it writes nothing.
  ///
  /// Use it for everything drawn between ``arm(input:output:original:)`` and the restore. It is main-actor
  /// isolated because the gate tracks one writer at a time. (Announcing the writer before checking the state,
  /// while ``restore()`` takes the state before reading the writer, means that of a frame and a restore racing
  /// on two threads, either the frame sees the restore and is dropped or the restore sees the frame and waits
  /// for it.)
  @MainActor
  static func write(_ text: String) {
    writer.store(currentThread(), ordering: .sequentiallyConsistent)
    defer { writer.store(0, ordering: .sequentiallyConsistent) }
    guard state.load(ordering: .sequentiallyConsistent) == owed else { return }
    StandardStream(descriptor: record.output).write(text)
  }

  /// A number naming the calling thread, never 0 or 1.
  private static func currentThread() -> UInt { Platform.currentThreadID() }
}
