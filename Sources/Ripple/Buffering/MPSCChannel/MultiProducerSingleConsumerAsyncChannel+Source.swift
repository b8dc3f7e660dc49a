extension MultiProducerSingleConsumerAsyncChannel {
  /// The producers' end of a ``MultiProducerSingleConsumerAsyncChannel``: it sends elements and learns when to
  /// wait.
  ///
  /// Async code sends with ``send(_:)->()`` (it returns once more elements are wanted); code that cannot
  /// wait sends with ``send(_:)->_`` and, told ``SendResult/enqueueCallback(_:)``, enqueues a
  /// callback; or passes the callback along with ``send(_:onProduceMore:)``. Each producer holds a source of its
  /// own, from ``makeAdditionalSource()``; the channel finishes when one calls ``finish(throwing:)`` or when the
  /// last one goes away.
  ///
  /// ```swift
  /// var first = consume channelAndSource.source
  /// var second = first.makeAdditionalSource()
  /// try await first.send(1)
  /// _ = consume first  // the channel stays open: `second` is left
  /// try await second.send(2)
  /// _ = consume second  // the last source: the channel finishes after the buffered elements
  /// while let value = await channel.next() { print(value) }
  /// // Prints 1, 2.
  /// ```
  ///
  /// Elements from one source arrive in the order it sent them; sources sending at the same time interleave.
  public struct Source: ~Copyable {
    /// When producers must wait and when they resume: watermarks on the level of buffered elements.
    public struct BackpressureStrategy: Sendable {
      @usableFromInline let low: Int
      @usableFromInline let high: Int
      @usableFromInline let waterLevelForElement: (@Sendable (borrowing Element) -> Int)?

      /// Counts every buffered element as 1: a send that makes `high` elements buffered tells its producer to
      /// wait, and waiting producers resume once the consumer leaves fewer than `low` (at least 1) buffered.
      ///
      /// `low` must not be above `high`. Elements the consumer has taken but not yet returned from `next()`
      /// count as buffered. Several producers can together buffer more than `high`: up to `high - 1` plus one send
      /// of each (see <doc:MultiProducerSingleConsumerChannel>).
      public static func watermark(low: Int, high: Int) -> BackpressureStrategy {
        BackpressureStrategy(low: low, high: high, waterLevelForElement: nil)
      }

      /// As ``watermark(low:high:)``, with each element counting `waterLevelForElement(element)`, e.g. its byte
      /// count.
      ///
      /// The closure runs once when the element is sent (under the channel's lock) and once when it is returned,
      /// so it must be fast and give the same answer both times.
      public static func watermark(
        low: Int, high: Int, waterLevelForElement: @escaping @Sendable (borrowing Element) -> Int
      ) -> BackpressureStrategy {
        BackpressureStrategy(low: low, high: high, waterLevelForElement: waterLevelForElement)
      }
    }

    /// What a synchronous send tells its producer: go on, or wait for a callback.
    public enum SendResult: ~Copyable, Sendable {
      /// The way to learn when to produce again after ``SendResult/enqueueCallback(_:)``: call exactly one of
      /// ``enqueueCallback(onProduceMore:)`` and ``cancelCallback()``, once.
      public struct CallbackHandle: Sendable, Hashable {
        @usableFromInline let id: UInt64
        @usableFromInline let storage: _MPSCChannelStorage<Element, Failure>

        @usableFromInline
        init(id: UInt64, storage: _MPSCChannelStorage<Element, Failure>) {
          self.id = id
          self.storage = storage
        }

        /// Registers `onProduceMore`, called with success once the consumer has drained the channel below the
        /// low watermark since the send that returned this handle (at once if it already has), or with
        /// ``MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError`` once the channel ends, or with
        /// `CancellationError` after ``cancelCallback()``.
        ///
        /// The callback runs on the thread that resumes it (a consumer's `next()`, a `finish`), outside the
        /// channel's lock; it may send again.
        @inlinable
        public mutating func enqueueCallback(onProduceMore: sending @escaping (Result<Void, any Error>) -> Void) {
          storage.enqueue(token: id, onProduceMore)
        }

        /// Cancels the wait: an enqueued callback is called with `CancellationError`, and so is one enqueued
        /// after this. Once the callback was called, it does nothing.
        @inlinable
        public mutating func cancelCallback() {
          storage.cancelWait(token: id)
        }

        /// Whether two handles are for the same wait.
        @inlinable
        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id && lhs.storage === rhs.storage }

        /// Hashes the wait's identity.
        @inlinable
        public func hash(into hasher: inout Hasher) { hasher.combine(id) }
      }

      /// The channel wants more: send again when you have it.
      case produceMore
      /// The channel holds `high` or more: wait until the handle's callback is called.
      case enqueueCallback(CallbackHandle)
    }

    @usableFromInline let storage: _MPSCChannelStorage<Element, Failure>
    @usableFromInline let id: UInt64

    @usableFromInline
    init(_ storage: _MPSCChannelStorage<Element, Failure>) {
      self.storage = storage
      id = storage.sourceInitialized()
    }

    deinit {
      storage.sourceDeinitialized()
    }

    /// Sets the callback to call once the channel is over for the consumer: in its `next()` that returns `nil` or
    /// throws after the sources finished and it had returned every element, or when it goes away (a `next()` in a
    /// cancelled task; the channel, its `elements()` sequence or that sequence's iterator deinitialised). Called at
    /// once if that has happened; `nil` removes it; a second call replaces it. One callback per source.
    public func setOnTerminationCallback(_ callback: (@Sendable () -> Void)?) {
      storage.setOnTermination(source: id, callback)
    }

    /// A new source for another producer. The channel finishes by itself once every source is gone.
    public mutating func makeAdditionalSource() -> sending Self {
      Source(storage)
    }

    /// Sends the elements of `sequence`, in order, without waiting, and says whether to produce more.
    ///
    /// It resumes the consumer if it waits. The result is ``SendResult/enqueueCallback(_:)`` when the sequence
    /// brought the level to the high watermark or above: the elements are buffered all the same. It throws
    /// ``MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError``, sending nothing, once the channel no
    /// longer takes elements.
    @inlinable
    public mutating func send<S: Sequence<Element>>(
      contentsOf sequence: consuming sending S
    ) throws(MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError) -> SendResult {
      sendResult(try storage.send(contentsOf: sequence))
    }

    /// Sends one element without waiting; as ``send(contentsOf:)->_``.
    @inlinable
    public mutating func send(
      _ element: consuming sending Element
    ) throws(MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError) -> SendResult {
      sendResult(try storage.send(element))
    }

    @inlinable
    func sendResult(_ token: UInt64?) -> SendResult {
      guard let token else { return .produceMore }
      return .enqueueCallback(SendResult.CallbackHandle(id: token, storage: storage))
    }

    /// Sends the elements of `sequence` and calls `onProduceMore` when to produce again: at once when the channel
    /// wants more, else as ``SendResult/CallbackHandle/enqueueCallback(onProduceMore:)`` does; with the
    /// already-finished error when the channel no longer takes elements.
    @inlinable
    public mutating func send<S: Sequence<Element>>(
      contentsOf sequence: consuming sending S,
      onProduceMore: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
      do {
        switch try storage.send(contentsOf: sequence) {
        case .none: onProduceMore(.success(()))
        case .some(let token): storage.enqueue(token: token, onProduceMore)
        }
      } catch {
        onProduceMore(.failure(error))
      }
    }

    /// Sends one element and calls `onProduceMore` when to produce again; as
    /// ``send(contentsOf:onProduceMore:)``.
    @inlinable
    public mutating func send(
      _ element: consuming sending Element,
      onProduceMore: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
      do {
        switch try storage.send(element) {
        case .none: onProduceMore(.success(()))
        case .some(let token): storage.enqueue(token: token, onProduceMore)
        }
      } catch {
        onProduceMore(.failure(error))
      }
    }

    /// Sends the elements of `sequence` and returns once the channel wants more.
    ///
    /// The elements are buffered at once; when they bring the level to the high watermark, the call then waits
    /// until the consumer has drained the channel below the low watermark. It throws
    /// ``MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError`` when the channel no longer takes elements
    /// (sending nothing) or ends during the wait, and `CancellationError` when the task is cancelled during the
    /// wait (the elements stay sent). It runs on the caller's isolation.
    @inlinable
    public mutating nonisolated(nonsending) func send<S: Sequence<Element>>(
      contentsOf sequence: consuming sending S
    ) async throws {
      if let token = try storage.send(contentsOf: sequence) {
        try await storage.waitForDemand(token: token)
      }
    }

    /// Sends one element and returns once the channel wants more; as ``send(contentsOf:)-1vb9s``.
    ///
    /// ```swift
    /// for line in lines { try await source.send(line) }
    /// ```
    @inlinable
    public mutating nonisolated(nonsending) func send(_ element: consuming sending Element) async throws {
      if let token = try storage.send(element) {
        try await storage.waitForDemand(token: token)
      }
    }

    /// Sends every element of the asynchronous `sequence`, each as ``send(_:)->()``, and returns when it
    /// ends. It does not finish the channel; an error of the sequence is rethrown.
    @inlinable
    public mutating nonisolated(nonsending) func send<S: AsyncSequence & Sendable>(
      contentsOf sequence: consuming sending S
    ) async throws where S.Element == Element, Element: Sendable {
      for try await element in sequence {
        try await send(element)
      }
    }

    /// Ends production for every source: later sends throw, waiting producers throw
    /// ``MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError``, and the consumer gets the buffered
    /// elements, then `nil`, or throws `error` when one is given. Once the channel has ended, it does nothing.
    @inlinable
    public consuming func finish(throwing error: Failure? = nil) {
      storage.finish(error)
    }
  }
}
