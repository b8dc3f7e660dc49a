extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Iterates the base ahead of the consumer in a task of its own, keeping the elements the consumer has not taken
  /// yet as `policy` says.
  ///
  /// Use it to decouple a producer from a slower or burstier consumer: a parser that should not wait while each
  /// line is written to disk, a sensor whose readings must not be lost while the UI is busy.
  ///
  /// ```swift
  /// for await line in socket.lines.buffer(policy: .bounded(100)) {
  ///   await store.save(line)  // meanwhile, up to 100 more lines are read
  /// }
  /// ```
  ///
  /// See ``AsyncBufferSequence`` for how each policy buffers, finishes, throws and reacts to cancellation, and
  /// <doc:Buffer> for the design and a comparison with Combine and swift-async-algorithms.
  @inlinable
  public func buffer(policy: AsyncBufferSequencePolicy) -> AsyncBufferSequence<Self> {
    AsyncBufferSequence(self, policy: policy)
  }
}

/// An asynchronous sequence of the elements of a base sequence, iterated ahead of the consumer into a buffer.
///
/// Created by ``_Concurrency/AsyncSequence/buffer(policy:)``:
///
/// ```swift
/// let readings = sensor.readings.buffer(policy: .bufferingLatest(2))
/// // sensor:    1 2 3 4 5 ------|
/// // consumer:  takes one reading, then is busy while 2, 3, 4, 5 arrive, then takes the rest
/// // Gets 1, 4, 5: the newest two readings were kept.
/// ```
///
/// On the first `next()` a task of the operator's own starts iterating the base, and each element goes to the
/// waiting consumer or into the buffer: ``AsyncBufferSequencePolicy/bounded(_:)`` stops pulling from the base
/// while `limit` elements wait; ``AsyncBufferSequencePolicy/unbounded`` never stops;
/// ``AsyncBufferSequencePolicy/bufferingLatest(_:)`` drops the oldest buffered element to make room, and
/// ``AsyncBufferSequencePolicy/bufferingOldest(_:)`` drops the new one. Each iterator iterates the base anew.
///
/// A limit of 0, under any policy, means no buffer at all, as in swift-async-algorithms: the consumer's `next()`
/// calls the base's `next()` directly, on its own task, and nothing is ever dropped.
///
/// ## Finishing, throwing, cancellation
/// When the base finishes, the buffered elements are delivered, then `nil`. When the base throws, the elements
/// buffered before the error are delivered, then the error is thrown, then `nil` follows. Cancelling the
/// consuming task, or dropping the iterator, cancels the base's task and drops the buffered elements; `next()`
/// returns `nil`. With a limit of 0 there is no task: the base's `next()` runs in the consuming task and sees its
/// cancellation itself, so a cancelled `next()` returns what the base returns then.
public struct AsyncBufferSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// The base's elements.
  public typealias Element = Base.Element
  /// The base's error type.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let policy: AsyncBufferSequencePolicy

  @inlinable
  init(_ base: Base, policy: AsyncBufferSequencePolicy) {
    self.base = base
    self.policy = policy
  }

  /// Creates an iterator; each iteration runs its own task over the base (none for a limit of 0).
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    switch policy.storage {
    case .bounded(0), .bufferingLatest(0), .bufferingOldest(0):
      return Iterator(direct: base.makeAsyncIterator())
    case let storage:
      return Iterator(buffered: _BufferStorage(base: base, policy: storage))
    }
  }

  /// The iterator of ``AsyncBufferSequence``. Dropping it cancels the base's task.
  public struct Iterator: AsyncIteratorProtocol {
    /// The base's own iterator, for a limit of 0.
    @usableFromInline var direct: Base.AsyncIterator?
    @usableFromInline let iteration: _IterationHandle<_BufferStorage<Base>>?

    @inlinable
    init(direct: Base.AsyncIterator) {
      self.direct = direct
      iteration = nil
    }

    @inlinable
    init(buffered storage: _BufferStorage<Base>) {
      direct = nil
      iteration = _IterationHandle(storage)
    }

    /// The oldest buffered element, waiting for the base if none is; `nil` after the base finished and the buffer
    /// is empty, or once the consuming task is cancelled (with a limit of 0, what the base's `next()` returns in a
    /// cancelled task). Throws the base's error after the elements buffered before it.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      if let iteration {
        return try await iteration.next(isolation: actor)
      }
      // Without a buffer, the base's own iterator, dropped once it ended so that `nil` follows the end as it
      // does with a buffer.
      do throws(Failure) {
        guard let element = try await direct?.next(isolation: actor) else {
          direct = nil
          return nil
        }
        return element
      } catch {
        direct = nil
        throw error
      }
    }
  }
}

@available(*, unavailable)
extension AsyncBufferSequence.Iterator: Sendable {}
