extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Transforms each element with an asynchronous operation, cancelling the operation in flight when a newer
  /// element arrives, so only the latest element's result is ever delivered.
  ///
  /// Use it for derived work that is slow and depends only on the latest input: a search request per query, a
  /// calculation per edit. It is switch-to-latest (``AsyncFlatMapLatestSequence``, Combine's `map` +
  /// `switchToLatest`) for one value per element.
  ///
  /// ```swift
  /// for await sum in inputs.mapLatest({ input in await calculator.result(for: input) }) {
  ///   print(sum)
  /// }
  /// // Typing 1, 12 quickly: the calculation for 1 is cancelled; prints the result for 12 only.
  /// ```
  ///
  /// A superseded transform is cancelled and its result, or the `CancellationError` it throws, is discarded: a
  /// result for an element older than one already delivered never follows it. A consumer slower than the results
  /// gets the latest result.
  ///
  /// See <doc:MapLatest> for the timing diagrams, the design and a comparison with Combine and
  /// swift-async-algorithms.
  ///
  /// ## Finishing, throwing, cancellation
  /// When the base finishes, the transform in flight completes and its result is delivered, then the sequence
  /// finishes. An error from the base cancels the transform in flight and ends the sequence after any result
  /// already computed. An error thrown by the newest element's transform cancels the base and is what `next()`
  /// gives next; no later element is transformed. Cancelling the consuming task
  /// cancels the base and the transform, and `next()` returns `nil`.
  ///
  /// - Parameter transform: The operation, run in a task of its own per element, on the isolation it was written
  ///   in, as the body of `Task { }` is: written in `@MainActor` code it runs on the main actor and may read
  ///   main-actor state; written in nonisolated code it runs off any actor. (It is `@Sendable`: a superseded run
  ///   may still be winding down while the next one starts.)
  @inlinable
  public func mapLatest<Output: Sendable>(
    @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable (Element) async throws(Failure) -> Output
  ) -> AsyncMapLatestSequence<Self, Output, Failure> {
    AsyncMapLatestSequence(self, transform: transform, convertFailure: { $0 })
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
  /// Transforms each element with a throwing asynchronous operation, cancelling the operation in flight when a
  /// newer element arrives; the transform's errors (other than the `CancellationError` of a superseded run) end
  /// the sequence.
  ///
  /// ```swift
  /// for try await sum in inputs.mapLatest({ input in try await calculator.result(for: input) }) {
  ///   print(sum)
  /// }
  /// ```
  ///
  /// Otherwise the same as the non-throwing `mapLatest(_:)`.
  ///
  /// See <doc:MapLatest> for the timing diagrams, the design and a comparison with Combine and
  /// swift-async-algorithms.
  @inlinable
  @_disfavoredOverload  // a non-throwing transform keeps the sequence non-throwing
  public func mapLatest<Output: Sendable>(
    @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable (Element) async throws -> Output
  ) -> AsyncMapLatestSequence<Self, Output, any Error> {
    AsyncMapLatestSequence(self, transform: transform, convertFailure: _neverFails)
  }
}

/// The failure conversion of a base (or an inner sequence) that cannot fail.
@inlinable
func _neverFails<Failure: Error>(_ never: Never) -> Failure {}

/// An asynchronous sequence of the results of a transform of the latest element of a base sequence.
///
/// Created by ``_Concurrency/AsyncSequence/mapLatest(_:)->AsyncMapLatestSequence<Self,Output,Self.Failure>``; see
/// there for its semantics, and <doc:MapLatest> for its timing and design.
public struct AsyncMapLatestSequence<Base: AsyncSequence & Sendable, Output: Sendable, Failure: Error>: AsyncSequence,
  Sendable
where Base.Element: Sendable {
  /// The transform's results.
  public typealias Element = Output

  @usableFromInline typealias Storage = _LatestStorage<Base, _MapLatestPolicy<Base.Element, Output, Failure>>

  @usableFromInline let base: Base
  @usableFromInline let policy: _MapLatestPolicy<Base.Element, Output, Failure>
  @usableFromInline let convertFailure: @Sendable (Base.Failure) -> Failure

  @inlinable
  init(
    _ base: Base,
    transform: @escaping @isolated(any) @Sendable (Base.Element) async throws(Failure) -> Output,
    convertFailure: @escaping @Sendable (Base.Failure) -> Failure
  ) {
    self.base = base
    self.policy = _MapLatestPolicy(transform: transform)
    self.convertFailure = convertFailure
  }

  /// Creates an iterator; each iteration runs its own task over the base.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(Storage(base: base, policy: policy, convertFailure: convertFailure))
  }

  /// The iterator of ``AsyncMapLatestSequence``. Dropping it cancels the base and the transform in flight.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _IterationHandle<Storage>

    @inlinable
    init(_ storage: Storage) {
      iteration = _IterationHandle(storage)
    }

    /// The next result, `nil` when iteration ended, or the error that ended it.
    ///
    /// After the base finishes, it returns the result of the transform in flight, then `nil`. An error from the
    /// base is thrown after any result already computed; an error from the newest element's transform is thrown
    /// next. Then `nil` follows. When the consuming task is cancelled it cancels the base and the transform and returns `nil`.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Output? {
      try await iteration.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncMapLatestSequence.Iterator: Sendable {}
