/// Standard output and standard error, written unbuffered with `write(2)`, so output interleaves in order and
/// nothing is lost when the program exits.
struct StandardStream: Sendable {
  let descriptor: Int32

  static let output = StandardStream(descriptor: Platform.standardOutput)
  static let error = StandardStream(descriptor: Platform.standardError)

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
      let written = Platform.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if Platform.isInterruption(Platform.errorNumber) { continue }
        return
      }
      offset += written
    }
  }

  /// The lines of standard input, read on a thread of their own so that a slow pipe never blocks the main
  /// actor or a thread of the cooperative pool.
  static func inputLines() -> AsyncStream<String> {
    let (lines, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
    let readAll: @Sendable () -> Void = {
      while let line = readLine(strippingNewline: true) { continuation.yield(line) }
      continuation.finish()
    }
    switch Platform.startThread(readAll) {
    case .success(let thread): thread.detach()
    // No thread: read on the caller's, which only matters for a slow pipe.
    case .failure: readAll()
    }
    return lines
  }
}
