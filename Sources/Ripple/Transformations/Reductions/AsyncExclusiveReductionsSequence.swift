extension AsyncSequence where Element: Sendable {
  /// Returns a sequence of the running results of combining each element into a result that starts at `initial`.
  ///
  /// See ``AsyncExclusiveReductionsSequence`` for an example and how it finishes, throws and cancels;
  /// ``_Concurrency/AsyncSequence/reductions(into:_:)->AsyncExclusiveReductionsSequence<Self,Result>`` changes the
  /// result in place instead.
  ///
  /// - Parameters:
  ///   - initial: The result before the first element; it is not itself delivered.
  ///   - transform: The new result from the last one and the next element. It may `await`, and throw what the base
  ///     throws.
  @inlinable
  public func reductions<Result: Sendable>(
    _ initial: Result,
    @_inheritActorContext _ transform:
      @escaping @isolated(any) @Sendable (Result, Element) async throws(Failure) ->
      Result
  ) -> AsyncExclusiveReductionsSequence<Self, Result> {
    AsyncExclusiveReductionsSequence(self, initial: initial, step: .combine(transform))
  }

  /// Returns a sequence of the running results of updating, with each element, a result that starts at `initial`.
  ///
  /// Use it when the result is a collection or another value better changed in place than rebuilt — the last few
  /// searches, a histogram:
  ///
  /// ```swift
  /// let recent = queries.reductions(into: [String]()) { recent, query in
  ///   recent.append(query)
  ///   if recent.count > 3 { recent.removeFirst() }
  /// }
  /// // queries: a b c d  →  [a], [a, b], [a, b, c], [b, c, d]
  /// ```
  ///
  /// Otherwise the same as ``AsyncExclusiveReductionsSequence``, which shows how it finishes, throws and cancels.
  ///
  /// - Parameters:
  ///   - initial: The result before the first element; it is not itself delivered.
  ///   - transform: Changes the result with the next element. It may `await`, and throw what the base throws.
  @inlinable
  public func reductions<Result: Sendable>(
    into initial: Result,
    @_inheritActorContext _ transform:
      @escaping @isolated(any) @Sendable (inout Result, Element) async throws(Failure) -> Void
  ) -> AsyncExclusiveReductionsSequence<Self, Result> {
    AsyncExclusiveReductionsSequence(self, initial: initial, step: .update(transform))
  }
}

/// An asynchronous sequence of the running results of folding a base sequence's elements into an initial value:
/// Combine's `scan`.
///
/// Use it for state that accumulates from events: a running total, a count, the last few values, a model
/// reduced from actions.
///
/// ```swift
/// for await total in purchases.reductions(0, { total, purchase in total + purchase.price }) {
///   print(total)
/// }
/// // purchases priced 3, 1, 4: prints 3, 4, 8.
/// ```
///
/// The first element delivered is `transform(initial, first)`, each later one the transform of the one before and
/// the next element of the base; `initial` itself is not delivered, so an empty base gives an empty sequence.
/// (``_Concurrency/AsyncSequence/reductions(_:)->AsyncInclusiveReductionsSequence<Self>`` starts from the first
/// element instead.) The transform is called by the consumer's `next()`, one element at a time, and runs on the
/// isolation it was written in, as the body of `Task { }` does: written in `@MainActor` code it may read
/// main-actor state, and a main-actor consumer calls it without a hop. It is `async`, as in swift-async-algorithms,
/// so it may `await`; one that does not costs the same as a synchronous closure would (measured: see
/// <doc:Reductions>). No task, no lock, no allocation per element.
///
/// - The sequence finishes when the base finishes.
/// - The transform may throw only what the base throws (its `Failure`), so a non-throwing base with a non-throwing
///   transform gives a non-throwing sequence. A transform throwing another error gives an
///   ``AsyncThrowingExclusiveReductionsSequence``. An error — the base's or the transform's — comes after the
///   results before it; then `next()` returns `nil`.
/// - Cancellation is the base's: the operator neither checks for it nor has anything to cancel.
///
/// Create it with ``_Concurrency/AsyncSequence/reductions(_:_:)->AsyncExclusiveReductionsSequence<Self,Result>``
/// or ``_Concurrency/AsyncSequence/reductions(into:_:)->AsyncExclusiveReductionsSequence<Self,Result>``; see
/// <doc:Reductions>. It is `Sendable` when its base is.
public struct AsyncExclusiveReductionsSequence<Base: AsyncSequence, Element: Sendable>: AsyncSequence
where Base.Element: Sendable {
  /// The base's error type, which the transform may throw too.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let initial: Element
  @usableFromInline let step: _ReductionStep<Element, Base.Element, Failure>

  @inlinable init(_ base: Base, initial: Element, step: _ReductionStep<Element, Base.Element, Failure>) {
    self.base = base
    self.initial = initial
    self.step = step
  }

  /// Creates an iterator that reduces the base's elements, starting from the initial value.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base.makeAsyncIterator(), initial: initial, step: step)
  }

  /// The iterator of an ``AsyncExclusiveReductionsSequence``; one task iterates it.
  ///
  /// The inclusive reductions run it too, from the base's first element (`first(isolation:)`), and the throwing
  /// sequences run those over their base with its error widened to `any Error`, so that one `throws` type covers
  /// the base's errors and the closure's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    /// The running result. `nil` once the iteration is over — the base finished or something threw — and, for an
    /// inclusive reduction, before the base's first element.
    @usableFromInline var result: Element?
    @usableFromInline let step: _ReductionStep<Element, Base.Element, Failure>

    @inlinable init(_ base: Base.AsyncIterator, initial: Element?, step: _ReductionStep<Element, Base.Element, Failure>)
    {
      self.base = base
      self.result = initial
      self.step = step
    }

    /// Returns the result of reducing the base's next element; `nil` when the base ends, and after an error.
    @inlinable
    public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Element? {
      // Taken out first: a throw or the base's end leaves `nil`, which ends the iteration, and an update changes
      // the only copy in place once the consumer has let go of the last result it got.
      guard var running = result.take(), let element = try await base.next(isolation: actor) else { return nil }
      switch step {
      case .combine(let combine): running = try await combine(running, element)
      case .update(let update): try await update(&running, element)
      }
      result = running
      return running
    }

    /// Returns the base's first element as it is, the start of an inclusive reduction; `nil` when the base ends.
    @inlinable
    mutating func first(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element?
    where Element == Base.Element {
      result = try await base.next(isolation: actor)
      return result
    }
  }
}

extension AsyncExclusiveReductionsSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncExclusiveReductionsSequence.Iterator: Sendable {}

/// How a reductions sequence folds an element into its running result: AA's two closure shapes, a combine that
/// returns the new result and an update that changes it in place.
///
/// The closure is stored as it was given, not wrapped: a wrapping closure, written here, would be nonisolated and
/// add a hop off the consumer's actor to every element of a main-actor closure.
@usableFromInline
enum _ReductionStep<Result: Sendable, Element: Sendable, Failure: Error>: Sendable {
  case combine(@isolated(any) @Sendable (Result, Element) async throws(Failure) -> Result)
  case update(@isolated(any) @Sendable (inout Result, Element) async throws(Failure) -> Void)
}
