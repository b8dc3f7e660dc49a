#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("the terminal front end needs a POSIX C library: Glibc, Musl or Darwin")
#endif

/// Every C library call the terminal front end makes, so that the differences between Glibc, Musl and Darwin
/// sit side by side in this one file and the rest of the module imports none of them.
///
/// The calls are thin: they do what the C function does, in Swift types. Those a signal handler uses
/// (``write(_:_:_:)``, ``setTerminalSettings(_:of:flushingInput:)``, ``sleep(microseconds:)``, ``errorNumber``,
/// ``exitImmediately(_:)``, ``raise(_:)``, ``SignalActions``) allocate nothing and call only async-signal-safe
/// functions.
enum Platform {
  // MARK: Descriptors

  static let standardInput: Int32 = STDIN_FILENO
  static let standardOutput: Int32 = STDOUT_FILENO
  static let standardError: Int32 = STDERR_FILENO

  /// `errno`, the calling thread's last error.
  static var errorNumber: Int32 {
    get { errno }
    set { errno = newValue }
  }

  /// Whether `code` means "try again": an interrupted call (`EINTR`) or nothing ready yet (`EAGAIN`).
  static func isTransient(_ code: Int32) -> Bool { code == EINTR || code == EAGAIN }

  /// Whether `code` is `EINTR`.
  static func isInterruption(_ code: Int32) -> Bool { code == EINTR }

  /// Whether `code` is `EPIPE`: the reader of a pipe went away.
  static func isBrokenPipe(_ code: Int32) -> Bool { code == EPIPE }

  /// The C library's words for the error `code` (`strerror`).
  static func errorDescription(_ code: Int32) -> String {
    strerror(code).map { String(cString: $0) } ?? "error \(code)"
  }

  /// `write(2)`: the number of bytes written, or -1.
  static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    // `ssize_t` and `size_t` are `Int` on all three C libraries, for `read` too.
    systemWrite(descriptor, bytes, count)
  }

  /// `read(2)`: the number of bytes read, 0 at the end, or -1.
  static func read(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    systemRead(descriptor, bytes, count)
  }

  /// `isatty(3)`.
  static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) != 0 }

  /// Sends `signal` to the whole process, as `kill(1)` does; another thread may take it.
  static func sendToProcess(_ signal: Int32) { _ = kill(getpid(), signal) }

  /// The environment variable `name`, or `nil` when it is not set.
  static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// A pipe (`pipe(2)`), its write end made non-blocking with `nonBlockingWrite`; `nil` with ``errorNumber`` set.
  static func makePipe(nonBlockingWrite: Bool) -> (read: Int32, write: Int32)? {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    if nonBlockingWrite { _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK) }
    return (ends[0], ends[1])
  }

  /// `close(2)`.
  static func close(_ descriptor: Int32) { _ = systemClose(descriptor) }

  /// `usleep(3)`.
  static func sleep(microseconds: UInt32) { _ = usleep(microseconds) }

  // MARK: Polling

  /// What ``poll(_:_:timeout:)`` saw.
  enum PollResult: Equatable {
    /// Which of the two descriptors has input (or an error, or its end).
    case ready(first: Bool, second: Bool)
    /// `timeout` passed with nothing to read.
    case timedOut
    /// `poll(2)` failed with `errno` `code`.
    case failed(Int32)
  }

  /// `poll(2)` for input on two descriptors, waiting `timeout` milliseconds (-1: forever).
  static func poll(_ first: Int32, _ second: Int32, timeout: Int32) -> PollResult {
    var descriptors = [
      pollfd(fd: first, events: Int16(POLLIN), revents: 0), pollfd(fd: second, events: Int16(POLLIN), revents: 0),
    ]
    // `nfds_t` is `UInt` on Glibc and Musl, `UInt32` on Darwin.
    let ready = systemPoll(&descriptors, nfds_t(descriptors.count), timeout)
    if ready < 0 { return .failed(errno) }
    if ready == 0 { return .timedOut }
    return .ready(first: descriptors[0].revents != 0, second: descriptors[1].revents != 0)
  }

  // MARK: Terminal settings

  /// A terminal's settings (`struct termios`).
  struct TerminalSettings: @unchecked Sendable {  // a plain C struct of numbers
    fileprivate var value = termios()

    /// Settings with every field zero, for storage that is filled in later.
    static let zero = TerminalSettings()

    /// Raw input as `cfmakeraw` sets it — no echo, no line editing, no signals from keys, no translation of
    /// CR — with output processing left on, so a stray newline still returns the carriage.
    mutating func makeRaw() {
      // `tcflag_t` is `UInt32` on Glibc and Musl, `UInt` on Darwin; the flags convert to it on each.
      value.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
      value.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
      value.c_cflag &= ~tcflag_t(CSIZE | PARENB)
      value.c_cflag |= tcflag_t(CS8)
      withUnsafeMutableBytes(of: &value.c_cc) { characters in
        characters[Int(VMIN)] = 1
        characters[Int(VTIME)] = 0
      }
    }
  }

  /// The settings of the terminal on `descriptor` (`tcgetattr(3)`), or `nil` when it is not a terminal.
  static func terminalSettings(of descriptor: Int32) -> TerminalSettings? {
    var settings = TerminalSettings()
    guard tcgetattr(descriptor, &settings.value) == 0 else { return nil }
    return settings
  }

  /// Applies `settings` to the terminal on `descriptor` (`tcsetattr(3)`): after pending output is written and
  /// pending input discarded (`TCSAFLUSH`), or at once (`TCSANOW`). Returns whether it worked.
  static func setTerminalSettings(_ settings: TerminalSettings, of descriptor: Int32, flushingInput: Bool) -> Bool {
    var value = settings.value
    return tcsetattr(descriptor, flushingInput ? TCSAFLUSH : TCSANOW, &value) == 0
  }

  /// The window size of the terminal on `descriptor` (`TIOCGWINSZ`), or `nil` when it cannot say.
  static func windowSize(of descriptor: Int32) -> (rows: Int, columns: Int)? {
    var window = winsize()
    // The request is `Int32` on Glibc and Musl and `UInt` on Darwin; `ioctl` takes `UInt` on each.
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0 else { return nil }
    return (Int(window.ws_row), Int(window.ws_col))
  }

  // MARK: Threads

  /// A POSIX thread, joinable until joined or detached.
  struct Thread: @unchecked Sendable {  // a thread handle, usable from any thread
    fileprivate let handle: pthread_t

    /// Waits for the thread to end (`pthread_join(3)`).
    func join() { _ = pthread_join(handle, nil) }

    /// Lets the thread end on its own (`pthread_detach(3)`).
    func detach() { _ = pthread_detach(handle) }
  }

  /// Starts a thread running `body`; returns it, or the error code of `pthread_create(3)`.
  static func startThread(_ body: @escaping @Sendable () -> Void) -> Result<Thread, ThreadError> {
    let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    #if canImport(Glibc)
    var handle: pthread_t = 0  // an integer
    #else
    var handle: pthread_t?  // an opaque pointer that `pthread_create` fills in (on Darwin it has no zero value)
    #endif
    #if canImport(Darwin)
    // The start routine's argument is non-null on Darwin, optional on Glibc and Musl.
    let result = pthread_create(&handle, nil, { ThreadBody.run($0) }, box)
    #else
    let result = pthread_create(&handle, nil, { $0.flatMap(ThreadBody.run) }, box)
    #endif
    #if canImport(Glibc)
    let thread = result == 0 ? Thread(handle: handle) : nil
    #else
    let thread = handle.map(Thread.init(handle:))
    #endif
    guard result == 0, let thread else {
      Unmanaged<ThreadBody>.fromOpaque(box).release()
      return .failure(ThreadError(code: result))
    }
    return .success(thread)
  }

  /// `pthread_create(3)` failed with `code`.
  struct ThreadError: Error, Equatable {
    var code: Int32
  }

  /// A number naming the calling thread, never 0 or 1: the address or number of its `pthread_t`.
  static func currentThreadID() -> UInt {
    #if canImport(Glibc)
    UInt(pthread_self())
    #elseif canImport(Musl)
    UInt(bitPattern: pthread_self())  // an `OpaquePointer`
    #elseif canImport(Darwin)
    UInt(bitPattern: pthread_self())  // an `UnsafeMutablePointer<_opaque_pthread_t>`
    #endif
  }

  // MARK: Signals

  /// The signals the terminal front end handles.
  enum Signal {
    static let interrupt = SIGINT
    static let terminate = SIGTERM
    static let hangUp = SIGHUP
    static let quit = SIGQUIT
    static let segmentationFault = SIGSEGV
    static let busError = SIGBUS
    static let illegalInstruction = SIGILL
    static let trap = SIGTRAP
    static let floatingPointError = SIGFPE
    static let abort = SIGABRT
    static let windowChanged = SIGWINCH
    /// Ctrl-Z's signal outside raw mode: stop, for the shell's job control.
    static let terminalStop = SIGTSTP
    /// What the shell's `fg` and `bg` send to a stopped job.
    static let continued = SIGCONT
  }

  /// What the kernel says about a signal (`siginfo_t`).
  typealias SignalInfo = siginfo_t

  /// A signal handler installed with `SA_SIGINFO`.
  typealias SignalHandler = @convention(c) (Int32, UnsafeMutablePointer<SignalInfo>?, UnsafeMutableRawPointer?) -> Void

  /// Whether the signal `info` describes was sent by a process (`kill`, `raise`, `sigqueue`) rather than raised
  /// by a fault, which recurs by itself when the faulting instruction runs again.
  static func wasSent(_ info: UnsafeMutablePointer<SignalInfo>?) -> Bool {
    guard let info else { return false }
    #if canImport(Darwin)
    // Darwin's codes for a sent signal are positive (`SI_USER` is 0x10001, `SI_QUEUE` 0x10002).
    return info.pointee.si_code == SI_USER || info.pointee.si_code == SI_QUEUE
    #else
    // Glibc and Musl: `SI_USER` is 0 and every other code of a sent signal is negative; faults are positive.
    return info.pointee.si_code <= 0
    #endif
  }

  /// Ends the process at once with `status`, running nothing (`_exit(2)`).
  static func exitImmediately(_ status: Int32) -> Never { _exit(status) }

  /// Sends `signal` to the calling thread (`raise(3)`).
  static func raise(_ signal: Int32) { _ = systemRaise(signal) }

  /// Signal actions, one slot per signal number, for saving the action a handler replaces and putting it back.
  /// Allocated once and never freed, so a signal handler may use it.
  struct SignalActions: @unchecked Sendable {  // written only while the handlers are not installed
    private static let count = 65
    private let actions: UnsafeMutablePointer<sigaction>

    init() {
      actions = .allocate(capacity: Self.count)
      actions.initialize(repeating: sigaction(), count: Self.count)
    }

    /// Installs `handler` for `signal`, saving the action it replaces; while it runs, the signals in `blocking`
    /// wait. With `restart`, calls it interrupts restart (`SA_RESTART`).
    func install(_ handler: SignalHandler, for signal: Int32, restart: Bool, blocking: [Int32]) {
      var action = sigaction()
      #if canImport(Glibc)
      action.__sigaction_handler.sa_sigaction = handler
      #elseif canImport(Musl)
      action.__sa_handler.sa_sigaction = handler
      #elseif canImport(Darwin)
      action.__sigaction_u.__sa_sigaction = handler
      #endif
      action.sa_flags = Int32(SA_SIGINFO) | (restart ? Int32(SA_RESTART) : 0)
      sigemptyset(&action.sa_mask)
      for blocked in blocking { sigaddset(&action.sa_mask, blocked) }
      sigaction(signal, &action, actions + Int(signal))
    }

    /// Puts back the action saved for `signal`.
    func restore(_ signal: Int32) {
      sigaction(signal, actions + Int(signal), nil)
    }
  }
}

/// What a thread started by ``Platform/startThread(_:)`` runs, passed through `pthread_create`'s argument.
private final class ThreadBody: Sendable {
  let body: @Sendable () -> Void
  init(_ body: @escaping @Sendable () -> Void) { self.body = body }

  /// A new thread's start routine: runs the body `argument` holds (retained for it) and releases it.
  static func run(_ argument: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue().body()
    return nil
  }
}

// The C functions under names of their own, so the wrappers above, named like them, call the C library.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, bytes, count)
}
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func systemRaise(_ signal: Int32) -> Int32 { raise(signal) }
private func systemPoll(_ descriptors: UnsafeMutablePointer<pollfd>, _ count: nfds_t, _ timeout: Int32) -> Int32 {
  poll(descriptors, count, timeout)
}
