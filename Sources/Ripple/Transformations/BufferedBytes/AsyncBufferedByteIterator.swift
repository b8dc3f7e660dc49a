/// An iterator of bytes that reads them in blocks, through an asynchronous read function, into a buffer of its own.
///
/// Use it to write the iterator of an `AsyncSequence` of `UInt8` over a file descriptor, a socket or any source that
/// reads into memory: most calls of `next()` return a byte from the buffer without suspending, and the read function
/// runs only when the buffer is empty.
///
/// ```swift
/// struct Bytes: AsyncSequence {
///   let file: ReadableFile
///
///   func makeAsyncIterator() -> AsyncBufferedByteIterator {
///     AsyncBufferedByteIterator(capacity: 16_384) { buffer in
///       try await file.read(into: buffer)  // once per 16 384 bytes at most
///     }
///   }
/// }
/// ```
///
/// - The read function fills the start of the buffer it is given and returns how many bytes it wrote, from 1 to the
///   capacity; 0 means the source has ended, and the iterator then finishes: `next()` returns `nil` from then on
///   without calling the read function again.
/// - An error of the read function is thrown by `next()`; then `next()` returns `nil`.
/// - Cancellation is checked before each call of the read function, not on every byte: `next()` of a cancelled task
///   returns the bytes already in the buffer, then throws `CancellationError` where it would read; then it returns
///   `nil`.
///
/// The buffer is allocated once, by `init(capacity:readFunction:)`. A copy of the iterator shares it until one of
/// the two reads again; that one reads into a buffer of its own, so copies never see each other's bytes change.
/// See <doc:BufferedBytes>.
public struct AsyncBufferedByteIterator: AsyncIteratorProtocol, Sendable {
  /// A byte.
  public typealias Element = UInt8
  /// The read function's errors and `CancellationError`.
  public typealias Failure = any Error
  @usableFromInline typealias ReadFunction = @Sendable (UnsafeMutableRawBufferPointer) async throws -> Int

  @usableFromInline var storage: _ByteBufferStorage
  /// The offset in the buffer of the next byte to return.
  @usableFromInline var position = 0
  /// The number of bytes the last read put in the buffer.
  @usableFromInline var end = 0
  @usableFromInline var finished = false
  @usableFromInline let readFunction: ReadFunction

  /// Creates an iterator that reads through `readFunction` into a buffer of `capacity` bytes.
  ///
  /// - Parameters:
  ///   - capacity: The size of the buffer, the most bytes one call of `readFunction` may read; above 0.
  ///   - readFunction: Reads bytes into the start of the buffer it is given and returns how many, 0 at the end.
  /// - Precondition: `capacity` is above 0.
  public init(
    capacity: Int,
    readFunction: @Sendable @escaping (UnsafeMutableRawBufferPointer) async throws -> Int
  ) {
    precondition(capacity > 0, "AsyncBufferedByteIterator(capacity:) needs a capacity above 0, got \(capacity)")
    storage = _ByteBufferStorage(capacity: capacity)
    self.readFunction = readFunction
  }

  /// Returns the next byte: from the buffer when it holds one, otherwise after reading; `nil` once the read function
  /// has returned 0, and after an error.
  @inlinable @inline(__always)
  public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> UInt8? {
    if _fastPath(position < end) {
      defer { position += 1 }
      return storage.bytes.load(fromByteOffset: position, as: UInt8.self)
    }
    return try await refillAndNext()
  }

  /// Returns the next byte, as ``next(isolation:)`` does.
  @inlinable @inline(__always)
  public mutating func next() async throws -> UInt8? {
    try await next(isolation: nil)
  }

  /// Reads the next block into the buffer and returns its first byte: the slow path, once per block.
  @usableFromInline @inline(never)
  mutating func refillAndNext() async throws -> UInt8? {
    guard !finished else { return nil }
    do {
      try Task.checkCancellation()
      // A copy of this iterator may still be reading the old bytes: read into a buffer of our own.
      if !isKnownUniquelyReferenced(&storage) { storage = _ByteBufferStorage(capacity: storage.bytes.count) }
      let count = try await readFunction(storage.bytes)
      precondition(
        (0...storage.bytes.count).contains(count),
        "AsyncBufferedByteIterator's read function returned \(count), not a count from 0 to its capacity "
          + "\(storage.bytes.count)")
      guard count > 0 else {
        finish()
        return nil
      }
      position = 1
      end = count
      return storage.bytes.load(fromByteOffset: 0, as: UInt8.self)
    } catch {
      finish()
      throw error
    }
  }

  @usableFromInline
  mutating func finish() {
    finished = true
    position = 0
    end = 0
  }
}

/// The buffer of an ``AsyncBufferedByteIterator``, allocated once and freed with the last iterator holding it.
///
/// `@unchecked Sendable`: its bytes are written only by the read function of an iterator holding the only reference
/// to it (checked before each read), so no two tasks touch them at once.
@usableFromInline
final class _ByteBufferStorage: @unchecked Sendable {
  @usableFromInline let bytes: UnsafeMutableRawBufferPointer

  @usableFromInline
  init(capacity: Int) {
    bytes = .allocate(byteCount: capacity, alignment: MemoryLayout<UInt>.alignment)
  }

  deinit {
    bytes.deallocate()
  }
}
