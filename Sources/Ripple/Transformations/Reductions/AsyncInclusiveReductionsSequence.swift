extension AsyncSequence where Element: Sendable {
  /// Returns a sequence of the running results of combining each element with the result so far, starting from the
  /// first element.
  ///
  /// See ``AsyncInclusiveReductionsSequence`` for an example and how it finishes, throws and cancels.
  ///
  /// - Parameter transform: The new result from the last one and the next element. It may `await`, and throw what
  ///   the base throws.
  @inlinable
  public func reductions(
    @_inheritActorContext _ transform:
      @escaping @isolated(any) @Sendable (Element, Element) async throws(Failure) ->
      Element
  ) -> AsyncInclusiveReductionsSequence<Self> {
    AsyncInclusiveReductionsSequence(self, step: .combine(transform))
  }
}

/// An asynchronous sequence of the running results of combining a base sequence's elements, the first element
/// being the first result.
///
/// Use it where the elements themselves are what accumulates and there is no natural starting value: a running
/// maximum, a running sum.
///
/// ```swift
/// for await highest in [3, 1, 4, 1, 5].async.reductions(max) {
///   print(highest)
/// }
/// // Prints 3, 3, 4, 4, 5.
/// ```
///
/// The base's first element is delivered as it is, without calling the transform; each later one is the transform
/// of the result before and the next element. So an empty base gives an empty sequence and a one-element base that
/// element. The transform runs as
/// ``AsyncExclusiveReductionsSequence``'s does: called by the consumer's `next()`, on the isolation it was written
/// in, and it may `await`.
///
/// - The sequence finishes when the base finishes.
/// - The transform may throw only what the base throws (its `Failure`), so a non-throwing base with a non-throwing
///   transform gives a non-throwing sequence. A transform throwing another error gives an
///   ``AsyncThrowingInclusiveReductionsSequence``. An error — the base's or the transform's — comes after the
///   results before it; then `next()` returns `nil`.
/// - Cancellation is the base's: the operator neither checks for it nor has anything to cancel.
///
/// Create it with ``_Concurrency/AsyncSequence/reductions(_:)->AsyncInclusiveReductionsSequence<Self>``; see
/// <doc:Reductions>. It is `Sendable` when its base is.
public struct AsyncInclusiveReductionsSequence<Base: AsyncSequence>: AsyncSequence where Base.Element: Sendable {
  /// The base's element type, which is also the result's.
  public typealias Element = Base.Element
  /// The base's error type, which the transform may throw too.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let step: _ReductionStep<Element, Element, Failure>

  @inlinable init(_ base: Base, step: _ReductionStep<Element, Element, Failure>) {
    self.base = base
    self.step = step
  }

  /// Creates an iterator that reduces the base's elements, starting from its first.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(Exclusive.Iterator(base.makeAsyncIterator(), initial: nil, step: step))
  }

  /// The exclusive reductions' iterator, which this one starts from the base's first element.
  @usableFromInline typealias Exclusive = AsyncExclusiveReductionsSequence<Base, Element>

  /// The iterator of an ``AsyncInclusiveReductionsSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var reduction: Exclusive.Iterator
    @usableFromInline var started = false

    @inlinable init(_ reduction: Exclusive.Iterator) {
      self.reduction = reduction
    }

    /// Returns the base's first element, then the result of reducing each next one; `nil` when the base ends, and
    /// after an error.
    @inlinable
    public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Element? {
      guard started else {
        started = true
        return try await reduction.first(isolation: actor)
      }
      return try await reduction.next(isolation: actor)
    }
  }
}

extension AsyncInclusiveReductionsSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncInclusiveReductionsSequence.Iterator: Sendable {}
