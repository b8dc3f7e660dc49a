/// Reads the terminal on a thread of its own and reports keys, resizes and the end of input.
///
/// The thread blocks in `poll(2)` on standard input and on a wake-up pipe, so it uses no CPU while nothing
/// happens. `SIGWINCH` writes to the pipe (see ``SignalHandlers``), which the thread reports as
/// ``TerminalEvent/resized(_:)`` with the new size; ``stop()`` writes to it too, ending the thread. A read that
/// ends inside an escape sequence waits up to ``pendingTimeout`` for the rest, then releases what it has.
///
/// ```swift
/// let reader = try InputReader.start(input: Platform.standardInput) { event in continuation.yield(.terminal(event)) }
/// defer { reader.stop() }
/// ```
@MainActor
final class InputReader {
  /// How long the thread waits for the rest of an escape sequence split across reads, in milliseconds.
  nonisolated static let pendingTimeout: Int32 = 30

  private let wakeWrite: Int32
  private let wakeRead: Int32
  private var thread: Platform.Thread?

  private init(wakeRead: Int32, wakeWrite: Int32) {
    self.wakeRead = wakeRead
    self.wakeWrite = wakeWrite
  }

  /// Starts reading `input`, calling `report` on the reading thread for every event; resizes are reported while
  /// the reader runs.
  static func start(input: Int32, report: @escaping @Sendable (TerminalEvent) -> Void) throws -> InputReader {
    guard let wake = Platform.makePipe(nonBlockingWrite: true) else {
      throw TerminalError.systemCall("pipe", Platform.errorNumber)
    }
    let reader = InputReader(wakeRead: wake.read, wakeWrite: wake.write)
    let context = ReaderContext(input: input, wake: wake.read, report: report)
    switch Platform.startThread({ context.run() }) {
    case .success(let thread): reader.thread = thread
    case .failure(let error):
      reader.closePipe()
      throw TerminalError.systemCall("pthread_create", error.code)
    }
    SignalHandlers.notifyResizes(to: wake.write)
    return reader
  }

  /// Ends the reading thread and waits for it; no event is reported afterwards.
  func stop() {
    guard let thread else { return }
    self.thread = nil
    SignalHandlers.notifyResizes(to: -1)
    var byte = ReaderContext.stopByte
    _ = Platform.write(wakeWrite, &byte, 1)
    thread.join()
    closePipe()
  }

  private func closePipe() {
    Platform.close(wakeRead)
    Platform.close(wakeWrite)
  }
}

/// The reading thread's state; only that thread touches it after start.
private final class ReaderContext: @unchecked Sendable {  // owned by the one reading thread
  static let stopByte = UInt8(ascii: "s")

  let input: Int32
  let wake: Int32
  let report: @Sendable (TerminalEvent) -> Void
  var decoder = KeyDecoder()

  init(input: Int32, wake: Int32, report: @escaping @Sendable (TerminalEvent) -> Void) {
    self.input = input
    self.wake = wake
    self.report = report
  }

  /// The reading thread's loop (not main-actor code: the thread runs on no actor).
  func run() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let timeout = decoder.hasPending ? InputReader.pendingTimeout : -1
      let (inputReady, wakeReady): (Bool, Bool)
      switch Platform.poll(input, wake, timeout: timeout) {
      case .failed(let code):
        if Platform.isTransient(code) { continue }
        return report(.inputEnded)
      case .timedOut:
        for key in decoder.flush() { report(.key(key)) }
        continue
      case .ready(let first, let second): (inputReady, wakeReady) = (first, second)
      }
      if wakeReady {
        let count = buffer.withUnsafeMutableBytes { Platform.read(wake, $0.baseAddress, $0.count) }
        let bytes = buffer.prefix(max(count, 0))
        if bytes.contains(Self.stopByte) { return }
        if bytes.contains(SignalHandlers.resizeByte) { report(.resized(TerminalSize.of(descriptor: input))) }
      }
      if inputReady {
        let count = buffer.withUnsafeMutableBytes { Platform.read(input, $0.baseAddress, $0.count) }
        if count > 0 {
          for key in decoder.decode(buffer.prefix(count)) { report(.key(key)) }
        } else if count == 0 || !Platform.isTransient(Platform.errorNumber) {
          for key in decoder.flush() { report(.key(key)) }
          return report(.inputEnded)
        }
      }
    }
  }
}
