/// The error a ``MultiProducerSingleConsumerAsyncChannel/Source`` throws from its `send` methods once the channel
/// no longer takes elements: a source finished it, every source went away, or the consumer did.
///
/// A producer catches it to stop producing:
///
/// ```swift
/// do {
///   for line in lines { try await source.send(line) }
/// } catch is MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError {
///   // The consumer is gone (or another source finished): stop reading.
/// }
/// ```
public struct MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError: Error {
  @usableFromInline init() {}
}

/// A channel from any number of producers to one consumer that buffers what the producers send, up to a high
/// watermark, and then makes them wait until the consumer has drained it below a low watermark.
///
/// Use it to feed one consumer faster than an `AsyncStream` can, with back-pressure: a send is one uncontended
/// lock, and the consumer takes everything buffered at once and returns it element by element without the lock.
/// The channel and its ``Source`` are `~Copyable`: take the channel to the consumer and the source (or
/// ``Source/makeAdditionalSource()`` copies) to the producers.
///
/// ```swift
/// var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(
///   of: Int.self, backpressureStrategy: .watermark(low: 64, high: 256))
/// var channel = channelAndSource.takeChannel()
/// var source = consume channelAndSource.source
/// try await source.send(contentsOf: [1, 2, 3])  // returns at once: 3 buffered is below 256
/// source.finish()
/// while let value = await channel.next() { print(value) }
/// // Prints 1, 2, 3.
/// ```
///
/// A producer task must own its source (a source is `~Copyable`: a `var` captured from the enclosing scope would
/// live as long as that scope): hand it over as a `consuming sending` parameter, as the guide shows.
///
/// ## Finishing, failing, cancellation
/// ``Source/finish(throwing:)`` on any source ends production for all of them, and so does the last source going
/// away: sends throw ``MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError``, waiting producers too, and
/// the consumer first gets every buffered element, then `nil` or the error. A `next()` whose task is cancelled
/// returns `nil` and ends the channel for everyone, as the consumer going away (the channel, its ``elements()``
/// sequence or that sequence's iterator deinitialised) does: the buffered elements are dropped, sends and waiting
/// producers throw the already-finished error, and every source's termination callback runs.
///
/// See <doc:MultiProducerSingleConsumerChannel> for the design, the watermarks in detail and a comparison with
/// `AsyncStream` and swift-async-algorithms.
public struct MultiProducerSingleConsumerAsyncChannel<Element, Failure: Error>: ~Copyable {
  @usableFromInline let storage: _MPSCChannelStorage<Element, Failure>

  // Frozen so that other modules may `consume channelAndSource.source` (a partial consume).
  /// The channel and its first source, as ``makeChannel(of:throwing:backpressureStrategy:)`` returns them: take the
  /// channel with ``takeChannel()`` and the source with `consume channelAndSource.source`.
  @frozen
  public struct ChannelAndStream: ~Copyable {
    @usableFromInline var channel: MultiProducerSingleConsumerAsyncChannel?
    /// The first source; ``Source/makeAdditionalSource()`` makes more.
    public var source: Source

    @usableFromInline
    init(channel: consuming MultiProducerSingleConsumerAsyncChannel, source: consuming Source) {
      self.channel = .some(channel)
      self.source = source
    }

    /// Takes the channel out; calling it a second time is a precondition failure.
    @inlinable
    public mutating func takeChannel() -> sending MultiProducerSingleConsumerAsyncChannel {
      guard let channel = channel.take() else {
        preconditionFailure("MultiProducerSingleConsumerAsyncChannel.ChannelAndStream: takeChannel() was called twice")
      }
      // `makeChannel` returned the pair as `sending`, and the channel leaves it once.
      return _Transfer(channel).take()
    }
  }

  /// Creates a channel and its first source; see ``MultiProducerSingleConsumerAsyncChannel`` for an example.
  ///
  /// - Parameters:
  ///   - elementType: The type of the elements.
  ///   - failureType: The error `next()` can throw after ``Source/finish(throwing:)``; `Never` by default.
  ///   - backpressureStrategy: When producers must wait, and when they resume.
  public static func makeChannel(
    of elementType: Element.Type = Element.self,
    throwing failureType: Failure.Type,
    backpressureStrategy: Source.BackpressureStrategy
  ) -> sending ChannelAndStream {
    let storage = _MPSCChannelStorage<Element, Failure>(
      low: backpressureStrategy.low, high: backpressureStrategy.high,
      waterLevel: backpressureStrategy.waterLevelForElement)
    return ChannelAndStream(channel: MultiProducerSingleConsumerAsyncChannel(storage), source: Source(storage))
  }

  /// Creates a channel that never throws, and its first source; as
  /// ``makeChannel(of:throwing:backpressureStrategy:)``.
  ///
  /// A declaration of its own rather than a `throwing:` default of `Never.self`: the strategy's type already names
  /// `Failure`, so Swift 6 warns about that default.
  public static func makeChannel(
    of elementType: Element.Type = Element.self,
    backpressureStrategy: Source.BackpressureStrategy
  ) -> sending ChannelAndStream where Failure == Never {
    makeChannel(of: elementType, throwing: Never.self, backpressureStrategy: backpressureStrategy)
  }

  @usableFromInline
  init(_ storage: _MPSCChannelStorage<Element, Failure>) {
    self.storage = storage
  }

  deinit {
    storage.channelDeinitialized()
  }

  /// The next element, waiting while none is buffered; `nil` once the channel has ended.
  ///
  /// After ``Source/finish(throwing:)`` it returns the buffered elements, then `nil`, or throws the error once
  /// (then returns `nil`). In a cancelled task it returns `nil` and ends the channel.
  @inlinable
  public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
    try await storage.next(isolation: actor)
  }

  /// The channel as an asynchronous sequence, for `for await` (`for try await` when `Failure` is not `Never`).
  ///
  /// The sequence makes one iterator: a second `makeAsyncIterator()` is a precondition failure. Dropping the
  /// sequence before iterating it, or its iterator, ends the channel as a cancelled consumer does.
  ///
  /// ```swift
  /// for await value in channel.elements() { print(value) }
  /// ```
  @inlinable
  public consuming func elements() -> some (AsyncSequence<Element, Failure> & Sendable) {
    _MPSCChannelElements(_MPSCChannelElements.Backing(storage))
  }
}

/// The sequence of ``MultiProducerSingleConsumerAsyncChannel/elements()``.
@usableFromInline
struct _MPSCChannelElements<Element, Failure: Error>: AsyncSequence, Sendable {
  /// Tells the channel when the last copy of the sequence is gone.
  @usableFromInline
  final class Backing: Sendable {
    @usableFromInline let storage: _MPSCChannelStorage<Element, Failure>

    @usableFromInline
    init(_ storage: _MPSCChannelStorage<Element, Failure>) {
      self.storage = storage
      storage.sequenceInitialized()
    }

    deinit { storage.sequenceDeinitialized() }
  }

  @usableFromInline let backing: Backing

  @inlinable init(_ backing: Backing) { self.backing = backing }

  @inlinable
  func makeAsyncIterator() -> Iterator {
    Iterator(Iterator.Backing(backing.storage))
  }

  @usableFromInline
  struct Iterator: AsyncIteratorProtocol {
    /// Tells the channel when the last copy of the iterator is gone.
    @usableFromInline
    final class Backing {
      @usableFromInline let storage: _MPSCChannelStorage<Element, Failure>

      @usableFromInline
      init(_ storage: _MPSCChannelStorage<Element, Failure>) {
        self.storage = storage
        storage.iteratorInitialized()
      }

      deinit { storage.iteratorDeinitialized() }
    }

    @usableFromInline let backing: Backing

    @inlinable init(_ backing: Backing) { self.backing = backing }

    @inlinable @inline(__always)
    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      // Inlined into the caller (@inline(__always)): a call would cost an async frame and an executor
      // check per element.
      try await backing.storage.next(isolation: actor)
    }
  }
}

extension _MPSCChannelElements.Iterator: _FanInBatchingIterator {
  /// Passes up to `limit` of the elements the consumer already took out of the channel to `body`, without waiting:
  /// `merge`, `combineLatest` and `zip` over the channel hand them over in one step instead of one each.
  @inlinable
  mutating func takeBuffered(upTo limit: Int, _ body: (Element) -> Void) {
    backing.storage.takeBuffered(upTo: limit, body)
  }
}

@available(*, unavailable)
extension _MPSCChannelElements.Iterator: Sendable {}
