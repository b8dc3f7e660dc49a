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

  @usableFromInline let base: Base
  @usableFromInline let initial: Element
  @usableFromInline let step: _ReductionStep<Element, Base.Element, any Error>

  @inlinable init(_ base: Base, initial: Element, step: _ReductionStep<Element, Base.Element, any Error>) {
    self.base = base
    self.initial = initial
    self.step = step
  }

  /// Creates an iterator that reduces the base's elements, starting from the initial value.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(_ReductionsIterator(base._failingWithAnyError.makeAsyncIterator(), initial: initial, step: step))
  }

  /// The iterator of an ``AsyncThrowingExclusiveReductionsSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var reduction: _ReductionsIterator<AsyncMapErrorSequence<Base, any Error>, Element>

    @inlinable init(_ reduction: _ReductionsIterator<AsyncMapErrorSequence<Base, any Error>, Element>) {
      self.reduction = reduction
    }

    /// Returns the result of reducing the base's next element; `nil` when the base ends, and after an error.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> Element? {
      try await reduction.next(isolation: actor)
    }
  }
}

extension AsyncThrowingExclusiveReductionsSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncThrowingExclusiveReductionsSequence.Iterator: Sendable {}
