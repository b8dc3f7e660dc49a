extension Sequence {
  /// This sequence's elements as an asynchronous sequence.
  ///
  /// Use it to feed a fixed list into an asynchronous API — an operator in a test, a `merge` with a live source, a
  /// first screen's worth of cached values before `chain`ing the live ones:
  ///
  /// ```swift
  /// for await value in [1, 1, 2, 3, 3].async.removeDuplicates() {
  ///   print(value)
  /// }
  /// // Prints 1, 2, 3.
  /// ```
  ///
  /// Each iterator walks the sequence anew, one element per `next()`, without suspending. It finishes when the
  /// sequence runs out, never throws, and finishes early when the consuming task is cancelled: a `next()` called in
  /// a cancelled task returns `nil`, so an endless sequence such as `(1...).async` ends with its consumer.
  @inlinable
  public var async: AsyncSyncSequence<Self> {
    AsyncSyncSequence(self)
  }
}

/// An asynchronous sequence of the elements of a synchronous one.
///
/// Create it with ``Swift/Sequence/async``, which shows an example. It is `Sendable` when the base sequence is.
public struct AsyncSyncSequence<Base: Sequence>: AsyncSequence {
  /// The base sequence's element type.
  public typealias Element = Base.Element
  /// It never throws.
  public typealias Failure = Never

  @usableFromInline let base: Base

  @inlinable init(_ base: Base) {
    self.base = base
  }

  /// Creates an iterator that walks the base sequence from its start.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base.makeIterator())
  }

  /// The iterator of an ``AsyncSyncSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    /// `nil` once the sequence ran out or the task was cancelled, so that it stays finished.
    @usableFromInline var base: Base.Iterator?

    @inlinable init(_ base: Base.Iterator) {
      self.base = base
    }

    /// Returns the next element of the base sequence; `nil` when it ran out or the consuming task is cancelled.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
      guard !Task.isCancelled, let element = base?.next() else {
        base = nil
        return nil
      }
      return element
    }
  }
}

extension AsyncSyncSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncSyncSequence.Iterator: Sendable {}

/// swift-async-algorithms' former name of ``AsyncSyncSequence``, so code that spells it compiles.
///
/// ``Swift/Sequence/async`` returns an ``AsyncSyncSequence``, which shows an example.
@available(*, deprecated, renamed: "AsyncSyncSequence")
public typealias AsyncLazySequence<Base: Sequence> = AsyncSyncSequence<Base>
