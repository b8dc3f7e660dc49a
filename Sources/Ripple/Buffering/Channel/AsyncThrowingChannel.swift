/// A channel that passes elements from sending tasks to iterating tasks one at a time, with back-pressure, and that
/// can end with an error.
///
/// Use it as ``AsyncChannel`` when the producer can fail and the consumers must learn why:
///
/// ```swift
/// let responses = AsyncThrowingChannel<Int, any Error>()
/// Task {
///   await responses.send(200)
///   responses.fail(HTTPError.timeout)
/// }
/// do {
///   for try await status in responses { print(status) }
/// } catch {
///   print(error)
/// }
/// // Prints 200, then timeout.
/// ```
///
/// Sending, several consumers and several senders, ``finish()``, cancellation and dropping an iterator behave as
/// in ``AsyncChannel``. `Failure` is the error type `next()` throws: `any Error` as in swift-async-algorithms, or a
/// concrete error type for typed throws.
///
/// ## Failing
/// ``fail(_:)`` ends the channel like ``finish()``, except for the consumers: every consumer waiting in `next()`
/// throws the error; when none waits, the next `next()` throws it. After the error was thrown, `next()` returns
/// `nil`. Once the channel has ended, `fail(_:)` and `finish()` do nothing.
///
/// See <doc:Channel> for the design and a comparison with Combine and swift-async-algorithms.
public final class AsyncThrowingChannel<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
  /// The type of the channel's iterators.
  public typealias AsyncIterator = Iterator

  @usableFromInline let storage = _ChannelStorage<Element, Failure>()

  /// Creates an open channel with no waiting senders or consumers.
  @inlinable public init() {}

  /// Sends an element to a consumer, waiting until one has taken it.
  ///
  /// It returns once a consumer's `next()` has the element, or, without delivering, when the channel has ended
  /// or the calling task is cancelled (then the element is dropped).
  @inlinable
  public func send(_ element: Element) async {
    await storage.send(element)
  }

  /// Ends the channel with `error`: waiting senders return; waiting consumers throw `error`, or the next `next()`
  /// does when none waits; after that `next()` returns `nil`. Once the channel has ended, it does nothing.
  @inlinable
  public func fail(_ error: Failure) {
    storage.fail(error)
  }

  /// Ends the channel: waiting senders return, waiting and later `next()` calls return `nil`, later sends return
  /// at once. Once the channel has ended, it does nothing.
  @inlinable
  public func finish() {
    storage.finish()
  }

  /// Creates an iterator; every iterator of a channel takes from the same senders.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(storage)
  }

  /// The iterator of ``AsyncThrowingChannel``. Dropping it ends nothing: the channel serves its other iterators.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let storage: _ChannelStorage<Element, Failure>

    @inlinable init(_ storage: _ChannelStorage<Element, Failure>) {
      self.storage = storage
    }

    /// The next element sent, waiting for a sender if none waits; `nil` once the channel is finished or when the
    /// calling task is cancelled (then no element is taken). Throws the channel's error once (see
    /// ``AsyncThrowingChannel/fail(_:)``).
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      try await storage.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncThrowingChannel.Iterator: Sendable {}
