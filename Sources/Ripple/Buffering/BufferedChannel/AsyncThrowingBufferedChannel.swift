/// An ``AsyncBufferedChannel`` that can end with an error as well as finish.
///
/// Use it for events that must not be lost before anyone listens and that one consumer handles: a queue of jobs,
/// the messages of a socket, user actions a worker processes in order. `send(_:)` is synchronous and never waits, so
/// a button action, a nonisolated delegate method or a C callback's thread can call it; the elements wait in the
/// channel until a consumer takes them, however many. It stands in for an unbounded `AsyncStream` (several times
/// faster, see <doc:BufferedChannel>) and for AsyncExtensions' type of the same name. Where every listener must see
/// every element, use ``AsyncPassthroughSubject``; where the sender must wait for the consumer, ``AsyncChannel``;
/// for back-pressure, ``MultiProducerSingleConsumerAsyncChannel``.
///
/// ```swift
/// let jobs = AsyncThrowingBufferedChannel<String, any Error>()
/// jobs.send("resize")               // kept until someone takes it
/// jobs.send("upload")
/// jobs.finish()
/// for try await job in jobs { print(job) }  // resize, upload
/// ```
///
/// Elements come out first in, first out. Several iterators share the elements: each element goes to exactly one,
/// and consumers waiting in `next()` are served in the order they began to wait. Each `next()` takes one element, so
/// an element no `next()` has returned yet is there for any iterator, including one made later.
///
/// ## Finishing, throwing, cancellation
/// After `finish()`, or `fail(_:)`, sends are dropped, and each iterator takes
/// what is still buffered, then returns `nil`, or throws the error of `fail(_:)` once and then returns `nil`.
/// Cancelling a consuming task ends that iterator only (its `next()` returns `nil`); the channel goes on for the
/// others. When the last reference to the channel goes away its iterators finish, after what is buffered: nothing could
/// send any more.
public final class AsyncThrowingBufferedChannel<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
  @usableFromInline let storage = _BufferedChannelStorage<Element, Failure>()

  /// Creates an empty channel.
  public init() {}

  deinit {
    storage.terminate(nil)
  }

  /// Adds `element` at the end of the channel, or hands it to the consumer that has waited longest; never waits.
  /// Dropped after the channel ended.
  @inlinable
  public func send(_ element: Element) {
    storage.send(element)
  }

  /// Ends the channel: each iterator takes what is buffered, then returns `nil`. Later sends are dropped.
  public func finish() {
    storage.terminate(nil)
  }

  /// Ends the channel with `error`: each iterator takes what is buffered, then throws `error` once, then returns
  /// `nil`. The first end counts; later sends are dropped.
  public func fail(_ error: Failure) {
    storage.terminate(error)
  }

  /// Creates an iterator that takes its elements from the channel, sharing them with the other iterators.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(_BufferedChannelConsumer(storage))
  }

  /// The iterator of ``AsyncThrowingBufferedChannel``. It holds no element: each `next()` takes one from the channel,
  /// so an element no `next()` has returned is there for every iterator.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let consumer: _BufferedChannelConsumer<Element, Failure>

    @inlinable init(_ consumer: _BufferedChannelConsumer<Element, Failure>) {
      self.consumer = consumer
    }

    /// The next element, waiting for one to be sent; `nil` once the channel ended and is empty (after throwing the
    /// failure once), or when the consuming task is cancelled.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      try await consumer.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncThrowingBufferedChannel.Iterator: Sendable {}
