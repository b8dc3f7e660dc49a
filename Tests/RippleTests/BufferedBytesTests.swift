import Synchronization
import Testing

@testable import Ripple

@Suite("AsyncBufferedByteIterator", .timeLimit(.minutes(1)))
struct BufferedBytesTests {
  @Test(
    "every byte, in order, reading a block only when the buffer is empty",
    arguments: [(0, 4), (1, 4), (4, 4), (5, 4), (10, 3), (1000, 64), (7, 1)])
  func readsInBlocks(count: Int, capacity: Int) async throws {
    let source = ByteSource(Array((0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) }))
    var iterator = source.iterator(capacity: capacity)
    var bytes: [UInt8] = []
    var readsSeen: [Int] = []
    while let byte = try await iterator.next() {
      bytes.append(byte)
      readsSeen.append(source.reads)
    }
    #expect(bytes == source.bytes)
    // Full blocks, then the read that returns 0.
    #expect(source.reads == (count + capacity - 1) / capacity + 1)
    // The n-th byte was returned after exactly n / capacity + 1 reads: none ahead of need.
    #expect(readsSeen == (0..<count).map { $0 / capacity + 1 })
  }

  @Test("after a read of 0 bytes it returns nil without reading again")
  func finishesOnZero() async throws {
    let source = ByteSource([1, 2])
    var iterator = source.iterator(capacity: 8)
    #expect(try await iterator.next() == 1)
    #expect(try await iterator.next() == 2)
    #expect(try await iterator.next() == nil)
    #expect(try await iterator.next() == nil)
    #expect(source.reads == 2)
  }

  @Test("an error of the read function is thrown after the bytes before it, then nil without reading again")
  func readError() async throws {
    let source = ByteSource([1, 2, 3], failingAfter: 1)
    var iterator = source.iterator(capacity: 2)
    #expect(try await iterator.next() == 1)
    #expect(try await iterator.next() == 2)
    await #expect(throws: Boom.boom) { _ = try await iterator.next() }
    #expect(try await iterator.next() == nil)
    #expect(source.reads == 2)
  }

  @Test("cancellation: the bytes in the buffer, then CancellationError instead of a read, then nil")
  func cancellation() async throws {
    let source = ByteSource([1, 2, 3, 4, 5])
    let task = Task {
      var iterator = source.iterator(capacity: 3)
      var bytes: [UInt8] = []
      bytes.append(try await iterator.next()!)
      withUnsafeCurrentTask { $0?.cancel() }
      do {
        while let byte = try await iterator.next() { bytes.append(byte) }
        Issue.record("no CancellationError")
      } catch {
        #expect(error is CancellationError)
      }
      #expect(try await iterator.next() == nil)
      return bytes
    }
    #expect(try await task.value == [1, 2, 3])
    #expect(source.reads == 1)
  }

  @Test("a copy keeps the bytes it holds when the original reads the next block")
  func copiesDoNotShareReads() async throws {
    let source = ByteSource(Array(0..<6))
    var original = source.iterator(capacity: 3)
    #expect(try await original.next() == 0)
    var copy = original
    #expect(try await original.next() == 1)
    #expect(try await original.next() == 2)
    #expect(try await original.next() == 3)
    #expect(try await copy.next() == 1)
    #expect(try await copy.next() == 2)
  }

  @Test("a sequence of bytes built on it, iterated on the main actor")
  @MainActor
  func asTheIteratorOfASequence() async throws {
    let bytes = Bytes(source: ByteSource(Array("hello".utf8)))
    var text = ""
    for try await byte in bytes { text.append(Character(Unicode.Scalar(byte))) }
    #expect(text == "hello")
    #expect(try await Array(Bytes(source: ByteSource(Array("hi".utf8)))) == Array("hi".utf8))
  }

  @Test("a capacity of 0 or less stops the program, naming it")
  func capacityPrecondition() async {
    let zero = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = AsyncBufferedByteIterator(capacity: 0) { _ in 0 }
    }
    let message = String(decoding: zero?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("capacity above 0, got 0"))
    await #expect(processExitsWith: .failure) {
      _ = AsyncBufferedByteIterator(capacity: -1) { _ in 0 }
    }
  }

  @Test("a read function that claims more bytes than the buffer holds stops the program")
  func readCountPrecondition() async {
    await #expect(processExitsWith: .failure) {
      var iterator = AsyncBufferedByteIterator(capacity: 4) { _ in 5 }
      _ = try await iterator.next()
    }
  }
}

/// Bytes that a read function copies out block by block, counting its calls.
private final class ByteSource: Sendable {
  let bytes: [UInt8]
  let failingAfter: Int?
  private let state = Mutex((offset: 0, reads: 0))

  init(_ bytes: [UInt8], failingAfter: Int? = nil) {
    self.bytes = bytes
    self.failingAfter = failingAfter
  }

  var reads: Int { state.withLock { $0.reads } }

  func iterator(capacity: Int) -> AsyncBufferedByteIterator {
    AsyncBufferedByteIterator(capacity: capacity) { buffer in try self.read(into: buffer) }
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(Boom) -> Int {
    try state.withLock { state throws(Boom) in
      state.reads += 1
      if let failingAfter, state.reads > failingAfter { throw .boom }
      let count = min(buffer.count, bytes.count - state.offset)
      buffer.copyBytes(from: bytes[state.offset..<(state.offset + count)])
      state.offset += count
      return count
    }
  }
}

/// The shape the iterator is for: a sequence of bytes read from a source.
private struct Bytes: AsyncSequence, Sendable {
  let source: ByteSource

  func makeAsyncIterator() -> AsyncBufferedByteIterator {
    source.iterator(capacity: 2)
  }
}
