import Synchronization

/// The process's signal handlers while the form runs: restore the terminal before the process goes away, and
/// turn window resizes into bytes on a pipe the input thread polls.
///
/// - `SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT`: restore the terminal and exit with status 128 + the signal.
/// - `SIGSEGV`, `SIGBUS`, `SIGILL`, `SIGTRAP`, `SIGFPE`, `SIGABRT` (a crash): restore the terminal, then hand
///   the signal to the handler that was there before (the runtime's backtracer, or the default), so the crash
///   is still reported.
/// - `SIGWINCH`: write one byte to the descriptor given to ``notifyResizes(to:)``.
///
/// Handlers only call async-signal-safe functions. ``install()`` and ``uninstall()`` pair up; the previous
/// actions come back on uninstall.
enum SignalHandlers {
  private typealias Signal = Platform.Signal
  static let terminating: [Int32] = [Signal.interrupt, Signal.terminate, Signal.hangUp, Signal.quit]
  static let crashing: [Int32] = [
    Signal.segmentationFault, Signal.busError, Signal.illegalInstruction, Signal.trap, Signal.floatingPointError,
    Signal.abort,
  ]
  static let resize: Int32 = Signal.windowChanged

  /// The byte `SIGWINCH` writes.
  static let resizeByte = UInt8(ascii: "r")

  /// The previous action of each signal, by number; written only while the handlers are not installed.
  private static let previous = Platform.SignalActions()
  /// Where `SIGWINCH` writes, `-1` for nowhere.
  private static let resizeDescriptor = Atomic<Int32>(-1)
  /// Set by the `SIGCONT` handler: the shell continued the stopped process.
  private static let continued = Atomic<Bool>(false)

  /// Installs the handlers, remembering the actions they replace.
  static func install() {
    _ = previous  // initialise outside any handler
    // While a handler runs on a thread, the terminating signals wait: a second one cannot interrupt a restore
    // on the same thread.
    for signal in terminating { previous.install(terminate, for: signal, restart: false, blocking: terminating) }
    for signal in crashing { previous.install(crash, for: signal, restart: false, blocking: terminating) }
    previous.install(resized, for: resize, restart: true, blocking: terminating)
    previous.install(continuedHandler, for: Signal.continued, restart: true, blocking: terminating)
  }

  /// Stops the process as Ctrl-Z does outside raw mode (`SIGTSTP`, for the shell's job control), and returns once
  /// the shell has continued it (`SIGCONT`), or after 0.2 s when no stop came — in an orphaned process group the
  /// system discards the signal. The signal goes to the process (the thread calling may block it, as dispatch's
  /// threads do), so this thread waits until the stop has happened and ended rather than going on before it.
  static func stopUntilContinued() {
    continued.store(false, ordering: .sequentiallyConsistent)
    Platform.sendToProcess(Signal.terminalStop)
    var waited = 0
    while !continued.load(ordering: .sequentiallyConsistent) && waited < 200 {
      Platform.sleep(microseconds: 1_000)
      waited += 1
    }
  }

  /// Puts back the actions ``install()`` replaced.
  static func uninstall() {
    resizeDescriptor.store(-1, ordering: .sequentiallyConsistent)
    for signal in terminating + crashing + [resize, Signal.continued] { previous.restore(signal) }
  }

  /// Makes `SIGWINCH` write ``resizeByte`` to `descriptor` (`-1`: stop).
  static func notifyResizes(to descriptor: Int32) {
    resizeDescriptor.store(descriptor, ordering: .sequentiallyConsistent)
  }

  private static let terminate: Platform.SignalHandler = { signal, _, _ in
    TerminalRestorer.restore()
    Platform.exitImmediately(128 + signal)
  }

  private static let crash: Platform.SignalHandler = { signal, info, _ in
    TerminalRestorer.restore()
    SignalHandlers.previous.restore(signal)
    // Sent by kill or raise: returning would lose it, so send it again to the previous action. A fault recurs
    // by itself when the faulting instruction runs again.
    if Platform.wasSent(info) {
      Platform.raise(signal)
    }
  }

  private static let continuedHandler: Platform.SignalHandler = { _, _, _ in
    SignalHandlers.continued.store(true, ordering: .sequentiallyConsistent)
  }

  private static let resized: Platform.SignalHandler = { _, _, _ in
    let saved = Platform.errorNumber
    let descriptor = SignalHandlers.resizeDescriptor.load(ordering: .sequentiallyConsistent)
    if descriptor >= 0 {
      var byte = SignalHandlers.resizeByte
      _ = Platform.write(descriptor, &byte, 1)
    }
    Platform.errorNumber = saved
  }
}
