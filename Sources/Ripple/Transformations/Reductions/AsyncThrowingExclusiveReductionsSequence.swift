extension AsyncSequence where Element: Sendable {
  /// Returns ``_Concurrency/AsyncSequence/reductions(_:_:)->AsyncExclusiveReductionsSequence<Self,Result>`` with a
  /// transform that may throw any error.
  ///
  /// ```swift
  /// let balances = payments.reductions(0) { balance, payment in
  ///   guard balance + payment.amount >= 0 else { throw Overdrawn() }
  ///   return balance + payment.amount
  /// }
  /// ```
  ///
  /// See ``AsyncThrowingExclusiveReductionsSequence`` for how it finishes, throws and cancels.
  ///
  /// - Parameters:
  ///   - initial: The result before the first element; it is not itself delivered.
  ///   - transform: The new result from the last one and the next element. It may `await` and throw.
  @inlinable
  @_disfavoredOverload  // a transform that throws only the base's error keeps the error type
  public func reductions<Result: Sendable>(
    _ initial: Result,
    @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable (Result, Element) async throws -> Result
  ) -> AsyncThrowingExclusiveReductionsSequence<Self, Result> {
    AsyncThrowingExclusiveReductionsSequence(self, initial: initial, step: .combine(transform))
  }

  /// Returns ``_Concurrency/AsyncSequence/reductions(into:_:)->AsyncExclusiveReductionsSequence<Self,Result>`` with
  /// a transform that may throw any error.
  ///
  /// See ``AsyncThrowingExclusiveReductionsSequence`` for how it finishes, throws and cancels.
  ///
  /// - Parameters:
  ///   - initial: The result before the first element; it is not itself delivered.
  ///   - transform: Changes the result with the next element. It may `await` and throw.
  @inlinable
  @_disfavoredOverload  // a transform that throws only the base's error keeps the error type
  public func reductions<Result: Sendable>(
    into initial: Result,
    @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable (inout Result, Element) async throws -> Void
  ) -> AsyncThrowingExclusiveReductionsSequence<Self, Result> {
    AsyncThrowingExclusiveReductionsSequence(self, initial: initial, step: .update(transform))
  }
}

/// An asynchronous sequence of the running results of folding a base sequence's elements into an initial value
/// with a transform that may throw any error: Combine's `tryScan`.
///
/// ```swift
/// let balances = payments.reductions(0) { balance, payment in
///   guard balance + payment.amount >= 0 else { throw Overdrawn() }
///   return balance + payment.amount
/// }
/// // payments of 5, -3, -4: 5, 2, then Overdrawn is thrown.
/// ```
///
/// The reductions with a throwing transform of ``_Concurrency/AsyncSequence/reductions(_:_:)->AsyncThrowingExclusiveReductionsSequence<Self,Result>``
/// and ``_Concurrency/AsyncSequence/reductions(into:_:)->AsyncThrowingExclusiveReductionsSequence<Self,Result>``;
/// they are chosen only for a transform that throws something other than the base's `Failure`. It behaves as
/// ``AsyncExclusiveReductionsSequence`` does, but throws `any Error`: the base's errors and the transform's. After
/// an error `next()` returns `nil`; cancellation is the base's.
///
/// It is `Sendable` when its base is.
public struct AsyncThrowingExclusiveReductionsSequence<Base: AsyncSequence, Element: Sendable>: AsyncSequence
where Base.Element: Sendable {
  /// Any error: the base's or the transform's.
  public typealias Failure = any Error

  /// The same reductions of the base with its errors widened to `any Error`, which the transform may then throw.
  @usableFromInline typealias Reductions = AsyncExclusiveReductionsSequence<
    AsyncMapErrorSequence<Base, any Error>, Element
  >

  @usableFromInline let reductions: AsyncExclusiveReductionsSequence<AsyncMapErrorSequence<Base, any Error>, Element>

  @inlinable init(_ base: Base, initial: Element, step: _ReductionStep<Element, Base.Element, any Error>) {
    reductions = AsyncExclusiveReductionsSequence(base._failingWithAnyError, initial: initial, step: step)
  }

  /// Creates an iterator that reduces the base's elements, starting from the initial value.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(reductions.makeAsyncIterator())
  }

  /// The iterator of an ``AsyncThrowingExclusiveReductionsSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var reductions:
      AsyncExclusiveReductionsSequence<AsyncMapErrorSequence<Base, any Error>, Element>.Iterator

    @inlinable init(
      _ reductions: AsyncExclusiveReductionsSequence<AsyncMapErrorSequence<Base, any Error>, Element>.Iterator
    ) {
      self.reductions = reductions
    }

    /// Returns the result of reducing the base's next element; `nil` when the base ends, and after an error.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> Element? {
      try await reductions.next(isolation: actor)
    }
  }
}

extension AsyncThrowingExclusiveReductionsSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncThrowingExclusiveReductionsSequence.Iterator: Sendable {}
