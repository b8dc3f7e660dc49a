import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
  static let terminating: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
  static let crashing: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]
  static let resize: Int32 = SIGWINCH

  /// The byte `SIGWINCH` writes.
  static let resizeByte = UInt8(ascii: "r")

  /// The previous action of each signal, by number; written only while the handlers are not installed.
  nonisolated(unsafe) private static var previous: UnsafeMutablePointer<sigaction> = {
    let count = 65
    let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: count)
    actions.initialize(repeating: sigaction(), count: count)
    return actions
  }()
  /// Where `SIGWINCH` writes, `-1` for nowhere.
  private static let resizeDescriptor = Atomic<Int32>(-1)

  /// Installs the handlers, remembering the actions they replace.
  static func install() {
    _ = previous  // initialise outside any handler
    for signal in terminating { replace(signal, with: terminate, flags: 0) }
    for signal in crashing { replace(signal, with: crash, flags: 0) }
    replace(resize, with: resized, flags: Int32(SA_RESTART))
  }

  /// Puts back the actions ``install()`` replaced.
  static func uninstall() {
    resizeDescriptor.store(-1, ordering: .sequentiallyConsistent)
    for signal in terminating + crashing + [resize] {
      sigaction(signal, previous + Int(signal), nil)
    }
  }

  /// Makes `SIGWINCH` write ``resizeByte`` to `descriptor` (`-1`: stop).
  static func notifyResizes(to descriptor: Int32) {
    resizeDescriptor.store(descriptor, ordering: .sequentiallyConsistent)
  }

  private typealias Handler = @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void

  private static func replace(_ signal: Int32, with handler: Handler, flags: Int32) {
    var action = sigaction()
    #if canImport(Glibc)
    action.__sigaction_handler.sa_sigaction = handler
    #else
    action.__sigaction_u.__sa_sigaction = handler
    #endif
    action.sa_flags = flags | Int32(SA_SIGINFO)
    // While a handler runs on a thread, the terminating signals wait: a second one cannot interrupt a restore
    // on the same thread.
    sigemptyset(&action.sa_mask)
    for blocked in terminating { sigaddset(&action.sa_mask, blocked) }
    sigaction(signal, &action, previous + Int(signal))
  }

  private static let terminate: Handler = { signal, _, _ in
    TerminalRestorer.restore()
    _exit(128 + signal)
  }

  private static let crash: Handler = { signal, info, _ in
    TerminalRestorer.restore()
    sigaction(signal, SignalHandlers.previous + Int(signal), nil)
    // Sent by kill or raise: returning would lose it, so send it again to the previous action. A fault
    // (si_code > 0) recurs by itself when the faulting instruction runs again.
    if let info, info.pointee.si_code <= 0 {
      raise(signal)
    }
  }

  private static let resized: Handler = { _, _, _ in
    let saved = errno
    let descriptor = SignalHandlers.resizeDescriptor.load(ordering: .sequentiallyConsistent)
    if descriptor >= 0 {
      var byte = SignalHandlers.resizeByte
      _ = write(descriptor, &byte, 1)
    }
    errno = saved
  }
}
