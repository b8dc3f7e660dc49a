/// A channel that passes elements from sending tasks to iterating tasks one at a time, each `send` waiting until a
/// consumer has taken its element.
///
/// Use it to hand work from one task to another with back-pressure: a producer can never run ahead of its
/// consumers, so nothing piles up in between. It is the async counterpart of an unbuffered Go channel.
///
/// ```swift
/// let channel = AsyncChannel<String>()
/// Task {
///   for line in ["a", "b", "c"] { await channel.send(line) }  // each waits for the loop below
///   channel.finish()
/// }
/// for await line in channel { print(line) }
/// // Prints a, b, c.
/// ```
///
/// Several tasks may iterate one channel: each element goes to exactly one of them, to the consumer that has
/// waited longest. Several tasks may send: the senders that wait are served in the order they began waiting. It
/// is not a broadcast; to give every consumer every element, iterate once and ``_Concurrency/AsyncSequence/share(bufferingPolicy:)`` the sequence.
///
/// ## Finishing, cancellation
/// ``finish()`` ends the channel: every waiting `send` returns (its element is dropped), every waiting and later
/// `next()` returns `nil`, and later sends return at once. A `send` whose task is cancelled returns at once
/// without delivering: its element is dropped. A `next()` whose task is cancelled returns `nil` and takes no
/// element; the channel and its other consumers go on. Dropping an iterator ends nothing either.
///
/// See <doc:Channel> for the design and a comparison with Combine and swift-async-algorithms;
/// ``AsyncThrowingChannel`` can also end with an error.
public final class AsyncChannel<Element: Sendable>: AsyncSequence, Sendable {
  /// A channel never throws.
  public typealias Failure = Never
  /// The type of the channel's iterators.
  public typealias AsyncIterator = Iterator

  @usableFromInline let storage = _ChannelStorage<Element, Never>()

  /// Creates an open channel with no waiting senders or consumers.
  @inlinable public init() {}

  /// Sends an element to a consumer, waiting until one has taken it.
  ///
  /// It returns once a consumer's `next()` has the element, or, without delivering, when the channel is finished
  /// or the calling task is cancelled (then the element is dropped).
  @inlinable
  public func send(_ element: Element) async {
    await storage.send(element)
  }

  /// Ends the channel: waiting senders return, waiting and later `next()` calls return `nil`, later sends return
  /// at once. Calling it again does nothing.
  @inlinable
  public func finish() {
    storage.finish()
  }

  /// Creates an iterator; every iterator of a channel takes from the same senders.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(storage)
  }

  /// The iterator of ``AsyncChannel``. Dropping it ends nothing: the channel serves its other iterators.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let storage: _ChannelStorage<Element, Never>

    @inlinable init(_ storage: _ChannelStorage<Element, Never>) {
      self.storage = storage
    }

    /// The next element sent, waiting for a sender if none waits; `nil` once the channel is finished or when the
    /// calling task is cancelled (then no element is taken).
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
      await storage.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncChannel.Iterator: Sendable {}
