extension AsyncSequence where Element: Sendable {
  /// Returns ``_Concurrency/AsyncSequence/reductions(_:)->AsyncInclusiveReductionsSequence<Self>`` with a transform
  /// that may throw any error.
  ///
  /// See ``AsyncThrowingInclusiveReductionsSequence`` for how it finishes, throws and cancels.
  ///
  /// - Parameter transform: The new result from the last one and the next element. It may `await` and throw.
  @inlinable
  @_disfavoredOverload  // a transform that throws only the base's error keeps the error type
  public func reductions(
    @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable (Element, Element) async throws -> Element
  ) -> AsyncThrowingInclusiveReductionsSequence<Self> {
    AsyncThrowingInclusiveReductionsSequence(self, step: .combine(transform))
  }
}

/// An asynchronous sequence of the running results of combining a base sequence's elements, the first element
/// being the first result, with a transform that may throw any error.
///
/// ```swift
/// let totals = amounts.reductions { total, amount in
///   let (sum, overflow) = total.addingReportingOverflow(amount)
///   if overflow { throw Overflow() }
///   return sum
/// }
/// // amounts of 1, 2, Int.max: 1, 3, then Overflow is thrown.
/// ```
///
/// The reductions of ``_Concurrency/AsyncSequence/reductions(_:)->AsyncThrowingInclusiveReductionsSequence<Self>``,
/// chosen only for a transform that throws something other than the base's `Failure`. It behaves as
/// ``AsyncInclusiveReductionsSequence`` does, but throws `any Error`: the base's errors and the transform's. After
/// an error `next()` returns `nil`; cancellation is the base's.
///
/// It is `Sendable` when its base is.
public struct AsyncThrowingInclusiveReductionsSequence<Base: AsyncSequence>: AsyncSequence
where Base.Element: Sendable {
  /// The base's element type, which is also the result's.
  public typealias Element = Base.Element
  /// Any error: the base's or the transform's.
  public typealias Failure = any Error

  /// The same reductions of the base with its errors widened to `any Error`, which the transform may then throw.
  @usableFromInline let reductions: AsyncInclusiveReductionsSequence<AsyncMapErrorSequence<Base, any Error>>

  @inlinable init(_ base: Base, step: _ReductionStep<Element, Element, any Error>) {
    reductions = AsyncInclusiveReductionsSequence(base._failingWithAnyError, step: step)
  }

  /// Creates an iterator that reduces the base's elements, starting from its first.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(reductions.makeAsyncIterator())
  }

  /// The iterator of an ``AsyncThrowingInclusiveReductionsSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var reductions: AsyncInclusiveReductionsSequence<AsyncMapErrorSequence<Base, any Error>>.Iterator

    @inlinable init(_ reductions: AsyncInclusiveReductionsSequence<AsyncMapErrorSequence<Base, any Error>>.Iterator) {
      self.reductions = reductions
    }

    /// Returns the base's first element, then the result of reducing each next one; `nil` when the base ends, and
    /// after an error.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> Element? {
      try await reductions.next(isolation: actor)
    }
  }
}

extension AsyncThrowingInclusiveReductionsSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncThrowingInclusiveReductionsSequence.Iterator: Sendable {}
