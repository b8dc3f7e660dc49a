#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output and standard error, written unbuffered with `write(2)`, so output interleaves in order and
/// nothing is lost when the program exits.
struct StandardStream: Sendable {
  let descriptor: Int32

  static let output = StandardStream(descriptor: STDOUT_FILENO)
  static let error = StandardStream(descriptor: STDERR_FILENO)

  /// Writes all of `text`, retrying after interruptions and short writes.
  func write(_ text: String) {
    var text = text
    text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
  }

  /// Writes all of `bytes`, retrying after interruptions and short writes. It allocates nothing and calls only
  /// `write(2)`, so a signal handler may use it.
  func write(_ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < bytes.count {
      let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
  }

  /// The lines of standard input, read on a thread of their own so that a slow pipe never blocks the main
  /// actor or a thread of the cooperative pool.
  static func inputLines() -> AsyncStream<String> {
    let (lines, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
    let box = Unmanaged.passRetained(LineSink(continuation)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { argument in
        let sink = Unmanaged<LineSink>.fromOpaque(argument!).takeRetainedValue()
        while let line = readLine(strippingNewline: true) {
          sink.continuation.yield(line)
        }
        sink.continuation.finish()
        return nil
      }, box)
    if started == 0 {
      pthread_detach(thread)
    } else {
      // No thread: read on the caller's, which only matters for a slow pipe.
      let sink = Unmanaged<LineSink>.fromOpaque(box).takeRetainedValue()
      while let line = readLine(strippingNewline: true) { sink.continuation.yield(line) }
      sink.continuation.finish()
    }
    return lines
  }
}

/// Hands the reading thread its end of the stream.
private final class LineSink: Sendable {
  let continuation: AsyncStream<String>.Continuation
  init(_ continuation: AsyncStream<String>.Continuation) { self.continuation = continuation }
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
