import Synchronization

/// Standard output and standard error, written unbuffered with `write(2)`, so output interleaves in order and
/// nothing is lost when the program exits.
struct StandardStream: Sendable {
  let descriptor: Int32

  static let output = StandardStream(descriptor: Platform.standardOutput)
  static let error = StandardStream(descriptor: Platform.standardError)

  /// The `errno` of the first write to standard output that failed, 0 while none has.
  private static let outputFailure = Atomic<Int32>(0)
  /// The `errno` of a failed read of standard input, 0 while none has failed.
  private static let inputFailure = Atomic<Int32>(0)

  /// Why output or input failed, in words, or `nil` when nothing did (or only a closed pipe stopped the output,
  /// which is how a reader such as `head` says it has seen enough).
  static var failure: String? {
    let output = outputFailure.load(ordering: .acquiring)
    if output != 0, !Platform.isBrokenPipe(output) {
      return "cannot write to standard output: \(Platform.errorDescription(output))"
    }
    let input = inputFailure.load(ordering: .acquiring)
    if input != 0 { return "cannot read standard input: \(Platform.errorDescription(input))" }
    return nil
  }

  /// Writes all of `text`, retrying after interruptions and short writes.
  func write(_ text: String) {
    var text = text
    let failed = text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    if let failed, descriptor == Platform.standardOutput {
      _ = Self.outputFailure.compareExchange(expected: 0, desired: failed, ordering: .releasing)
    }
  }

  /// Writes all of `bytes`, retrying after interruptions and short writes; returns the `errno` of a failure.
  /// It allocates nothing and calls only `write(2)`, so a signal handler may use it.
  @discardableResult
  func write(_ bytes: UnsafeRawBufferPointer) -> Int32? {
    var offset = 0
    while offset < bytes.count {
      let written = Platform.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        let code = Platform.errorNumber
        if Platform.isInterruption(code) { continue }
        return code
      }
      offset += written
    }
    return nil
  }

  /// The lines of standard input, read on a thread of their own so that a slow pipe never blocks the main
  /// actor or a thread of the cooperative pool.
  ///
  /// The thread hands over every line one `read(2)` brought in at once, so a fast pipe costs one resumption of
  /// the consumer per 64 KiB, not one per line.
  static func inputLines() -> InputLines {
    let (batches, continuation) = AsyncStream.makeStream(of: [String].self, bufferingPolicy: .unbounded)
    let readAll: @Sendable () -> Void = {
      // `read(2)` itself, not `readLine`, which answers `nil` both at the end and on an error (standard input
      // is a directory, say).
      if let code = readLines(from: Platform.standardInput, into: { continuation.yield($0) }) {
        inputFailure.store(code, ordering: .releasing)
      }
      continuation.finish()
    }
    switch Platform.startThread(readAll) {
    case .success(let thread): thread.detach()
    // No thread: read on the caller's, which only matters for a slow pipe.
    case .failure: readAll()
    }
    return InputLines(batches: batches)
  }

  /// The lines of standard input, as ``inputLines()`` reads them.
  struct InputLines: AsyncSequence {
    let batches: AsyncStream<[String]>

    func makeAsyncIterator() -> Iterator { Iterator(batches: batches.makeAsyncIterator()) }

    struct Iterator: AsyncIteratorProtocol {
      var batches: AsyncStream<[String]>.Iterator
      var batch: IndexingIterator<[String]> = [].makeIterator()

      mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> String? {
        while true {
          if let line = batch.next() { return line }
          guard let next = await batches.next(isolation: actor) else { return nil }
          batch = next.makeIterator()
        }
      }
    }
  }

  /// Reads `descriptor` to its end and hands over the lines of each `read(2)`, each without its `\n` (or
  /// `\r\n`), a byte that is not UTF-8 written `\xff` (``decode(_:)``); a last line without a newline counts too.
  /// Returns the `errno` of a failed read, `nil` at the end.
  static func readLines(from descriptor: Int32, into yield: ([String]) -> Void) -> Int32? {
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var lines: [String] = []
    func emit(_ line: ArraySlice<UInt8>) {
      lines.append(decode(line.last == UInt8(ascii: "\r") ? line.dropLast() : line))
    }
    while true {
      let count = buffer.withUnsafeMutableBytes { Platform.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        let code = Platform.errorNumber
        if Platform.isInterruption(code) { continue }
        return code
      }
      if count == 0 { break }
      var start = 0
      for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
        if pending.isEmpty {
          emit(buffer[start..<index])
        } else {
          pending += buffer[start..<index]
          emit(pending[...])
          pending.removeAll(keepingCapacity: true)
        }
        start = index + 1
      }
      pending += buffer[start..<count]
      if !lines.isEmpty {
        yield(lines)
        lines = []
      }
    }
    if !pending.isEmpty {
      emit(pending[...])
      yield(lines)
    }
    return nil
  }

  /// `bytes` as text, each byte that is not part of valid UTF-8 written as `\x` and two hex digits, so a message
  /// that quotes the line shows the bytes that were there (`'a \xff'`) rather than `�`. Such a line is never a
  /// command: a backslash is in none.
  ///
  /// ```swift
  /// StandardStream.decode([0x61, 0x20, 0xFF][...])  // "a \\xff"
  /// ```
  static func decode(_ bytes: ArraySlice<UInt8>) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    var text = ""
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let lead = bytes[index]
      let length =
        switch lead {
        case 0x00..<0x80: 1
        case 0xC2..<0xE0: 2
        case 0xE0..<0xF0: 3
        case 0xF0..<0xF5: 4
        default: 0
        }
      if length > 0, index + length <= bytes.endIndex,
        let scalar = String(validating: bytes[index..<index + length], as: UTF8.self)
      {
        text += scalar
        index += length
      } else {
        let hex = String(lead, radix: 16)
        text += "\\x" + (hex.count == 1 ? "0" : "") + hex
        index += 1
      }
    }
    return text
  }
}
