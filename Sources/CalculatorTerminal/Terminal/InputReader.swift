#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the terminal on a thread of its own and reports keys, resizes and the end of input.
///
/// The thread blocks in `poll(2)` on standard input and on a wake-up pipe, so it uses no CPU while nothing
/// happens. `SIGWINCH` writes to the pipe (see ``SignalHandlers``), which the thread reports as
/// ``TerminalEvent/resized(_:)`` with the new size; ``stop()`` writes to it too, ending the thread. A read that
/// ends inside an escape sequence waits up to ``pendingTimeout`` for the rest, then releases what it has.
///
/// ```swift
/// let reader = try InputReader.start(input: STDIN_FILENO) { event in continuation.yield(.terminal(event)) }
/// defer { reader.stop() }
/// ```
@MainActor
final class InputReader {
  /// How long the thread waits for the rest of an escape sequence split across reads, in milliseconds.
  nonisolated static let pendingTimeout: Int32 = 30

  private let wakeWrite: Int32
  private let wakeRead: Int32
  private var thread: pthread_t?

  private init(wakeRead: Int32, wakeWrite: Int32) {
    self.wakeRead = wakeRead
    self.wakeWrite = wakeWrite
  }

  /// Starts reading `input`, calling `report` on the reading thread for every event; resizes are reported while
  /// the reader runs.
  static func start(input: Int32, report: @escaping @Sendable (TerminalEvent) -> Void) throws -> InputReader {
    var pipeEnds: [Int32] = [-1, -1]
    guard pipe(&pipeEnds) == 0 else { throw TerminalError.systemCall("pipe", errno) }
    let reader = InputReader(wakeRead: pipeEnds[0], wakeWrite: pipeEnds[1])
    _ = fcntl(pipeEnds[1], F_SETFL, fcntl(pipeEnds[1], F_GETFL) | O_NONBLOCK)
    let context = ReaderContext(input: input, wake: pipeEnds[0], report: report)
    let thread: pthread_t
    do {
      thread = try context.startThread()
    } catch {
      reader.closePipe()
      throw error
    }
    reader.thread = thread
    SignalHandlers.notifyResizes(to: pipeEnds[1])
    return reader
  }

  /// Ends the reading thread and waits for it; no event is reported afterwards.
  func stop() {
    guard let thread else { return }
    self.thread = nil
    SignalHandlers.notifyResizes(to: -1)
    var byte = ReaderContext.stopByte
    _ = write(wakeWrite, &byte, 1)
    pthread_join(thread, nil)
    closePipe()
  }

  private func closePipe() {
    close(wakeRead)
    close(wakeWrite)
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

  /// Starts the thread that runs ``run()``. Not main-actor code: the thread's entry point runs on no actor.
  func startThread() throws -> pthread_t {
    let retained = Unmanaged.passRetained(self)
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { argument in
        Unmanaged<ReaderContext>.fromOpaque(argument!).takeRetainedValue().run()
        return nil
      }, retained.toOpaque())
    guard started == 0 else {
      retained.release()
      throw TerminalError.systemCall("pthread_create", started)
    }
    return thread
  }

  func run() {
    var descriptors = [
      pollfd(fd: input, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
    ]
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let timeout = decoder.hasPending ? InputReader.pendingTimeout : -1
      let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
      if ready < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return report(.inputEnded)
      }
      if ready == 0 {
        for key in decoder.flush() { report(.key(key)) }
        continue
      }
      if descriptors[1].revents != 0 {
        let count = buffer.withUnsafeMutableBytes { read(wake, $0.baseAddress, $0.count) }
        let bytes = buffer.prefix(max(count, 0))
        if bytes.contains(Self.stopByte) { return }
        if bytes.contains(SignalHandlers.resizeByte) { report(.resized(TerminalSize.of(descriptor: input))) }
      }
      if descriptors[0].revents != 0 {
        let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if count > 0 {
          for key in decoder.decode(buffer.prefix(count)) { report(.key(key)) }
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
          for key in decoder.flush() { report(.key(key)) }
          return report(.inputEnded)
        }
      }
    }
  }
}
