extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Transforms each element into an inner sequence and delivers the elements of the newest one: a new element
  /// cancels the inner sequence in flight.
  ///
  /// The base and the inner sequences share one `Failure` type, the sequence's. See ``AsyncFlatMapLatestSequence``
  /// for an example and how it finishes, throws and reacts to cancellation.
  ///
  /// - Parameter transform: Makes the inner sequence of an element, on the isolation it was written in, as the body
  ///   of `Task { }` runs: written in `@MainActor` code it runs on the main actor and may read main-actor state.
  @inlinable
  public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable (Element) -> Inner
  ) -> AsyncFlatMapLatestSequence<Self, Inner, Failure> where Inner.Element: Sendable, Inner.Failure == Failure {
    AsyncFlatMapLatestSequence(
      self, transform: _typedThrows(transform), convertBaseFailure: { $0 }, convertInnerFailure: { $0 })
  }

  /// Transforms each element into an inner sequence that cannot fail and delivers the elements of the newest one;
  /// the sequence fails as the base does.
  ///
  /// Otherwise the same as ``AsyncFlatMapLatestSequence``'s other entry points; see there for an example.
  @inlinable
  @_disfavoredOverload
  public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable (Element) -> Inner
  ) -> AsyncFlatMapLatestSequence<Self, Inner, Failure> where Inner.Element: Sendable, Inner.Failure == Never {
    AsyncFlatMapLatestSequence(
      self, transform: _typedThrows(transform), convertBaseFailure: { $0 }, convertInnerFailure: _neverFails)
  }

  /// Transforms each element of a base that cannot fail into an inner sequence and delivers the elements of the
  /// newest one; the sequence fails as the inner sequences do.
  ///
  /// Otherwise the same as ``AsyncFlatMapLatestSequence``'s other entry points; see there for an example.
  @inlinable
  @_disfavoredOverload
  public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable (Element) -> Inner
  ) -> AsyncFlatMapLatestSequence<Self, Inner, Inner.Failure> where Inner.Element: Sendable, Failure == Never {
    AsyncFlatMapLatestSequence(
      self, transform: _typedThrows(transform), convertBaseFailure: _neverFails, convertInnerFailure: { $0 })
  }

  /// Transforms each element into an inner sequence of another error type and delivers the elements of the newest
  /// one; the sequence fails with `any Error`, as the other operators over bases of different error types do.
  ///
  /// Otherwise the same as ``AsyncFlatMapLatestSequence``'s other entry points; see there for an example.
  @inlinable
  @_disfavoredOverload
  public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable (Element) -> Inner
  ) -> AsyncFlatMapLatestSequence<Self, Inner, any Error> where Inner.Element: Sendable {
    AsyncFlatMapLatestSequence(self, transform: transform, convertBaseFailure: { $0 }, convertInnerFailure: { $0 })
  }

  /// Transforms each element with a throwing, asynchronous operation into an inner sequence and delivers the
  /// elements of the newest one — AsyncExtensions' spelling; the sequence fails with `any Error`.
  ///
  /// ```swift
  /// let pages = queries.flatMapLatest { query in try await api.pageStream(for: query) }
  /// for try await page in pages { show(page) }
  /// ```
  ///
  /// The transform runs in the inner's task, so a newer element cancels it too; its error (other than the
  /// `CancellationError` of a superseded run) ends the sequence as an inner's error does. Otherwise the same as
  /// ``AsyncFlatMapLatestSequence``'s other entry points; see there for an example.
  @_documentation(visibility: internal)
  @inlinable
  public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable (Element) async throws -> Inner
  ) -> AsyncFlatMapLatestSequence<Self, Inner, any Error> where Inner.Element: Sendable {
    AsyncFlatMapLatestSequence(self, transform: transform, convertBaseFailure: { $0 }, convertInnerFailure: { $0 })
  }

  /// Transforms each element with an asynchronous operation into one element, cancelling the operation in flight
  /// when a newer element arrives — AsyncExtensions' spelling of
  /// ``_Concurrency/AsyncSequence/mapLatest(_:)->AsyncMapLatestSequence<Self,Output,Self.Failure>``, which it returns
  /// (an ``AsyncMapLatestSequence``):
  ///
  /// ```swift
  /// for await sum in inputs.flatMapLatest({ input in await calculator.sum(input) }) { print(sum) }
  /// ```
  @inlinable
  @_disfavoredOverload
  public func flatMapLatest<Output: Sendable>(
    @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable (Element) async throws(Failure) -> Output
  ) -> AsyncMapLatestSequence<Self, Output, Failure> {
    mapLatest(transform)
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
  /// AsyncExtensions' element-returning `flatMapLatest(_:)` over a base that cannot fail, so that a transform that
  /// cannot fail keeps the sequence non-throwing (an ``AsyncMapLatestSequence``).
  @_documentation(visibility: internal)
  @inlinable
  @_disfavoredOverload
  public func flatMapLatest<Output: Sendable>(
    @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable (Element) async -> Output
  ) -> AsyncMapLatestSequence<Self, Output, Never> {
    mapLatest(transform)
  }

  /// Transforms each element with a throwing asynchronous operation into one element, cancelling the operation in
  /// flight when a newer element arrives — AsyncExtensions' spelling of
  /// ``_Concurrency/AsyncSequence/mapLatest(_:)->AsyncMapLatestSequence<Self,Output,Error>``, which it returns
  /// (an ``AsyncMapLatestSequence``):
  ///
  /// ```swift
  /// for try await sum in inputs.flatMapLatest({ input in try await calculator.result(for: input) }) { print(sum) }
  /// ```
  @inlinable
  @_disfavoredOverload
  public func flatMapLatest<Output: Sendable>(
    @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable (Element) async throws -> Output
  ) -> AsyncMapLatestSequence<Self, Output, any Error> {
    mapLatest(transform)
  }
}

/// An asynchronous sequence of the elements of the inner sequence of the latest element of a base sequence.
///
/// Created by `flatMapLatest(_:)`. Use it when each input starts a stream of results and only the newest input's
/// stream matters: the messages of the selected channel, the progress of the latest request, live results of the
/// current query.
///
/// ```swift
/// let messages = selectedChannel.flatMapLatest { channel in chat.messages(in: channel) }
/// for await message in messages {
///   print(message.text)
/// }
/// // Selecting #general, then #random: prints #general's messages until #random is selected, then #random's only.
/// ```
///
/// The base is iterated in a task of the operator's own, started by the first `next()`, as fast as it produces:
/// each element cancels the inner sequence in flight and starts iterating its own in a new task. An inner element
/// is never delivered after an element of a newer inner sequence. An inner sequence is at most two elements ahead
/// of the consumer — one held for it, the next in the inner's hand until that one is taken — so a slow consumer gets
/// no backlog. `mapLatest(_:)` is the case of one result per element.
/// See <doc:FlatMapLatest> for the timing diagrams and the design.
///
/// - It finishes when the base has finished and the last inner sequence has finished, after its elements.
/// - An error from the base cancels the inner sequence in flight, an error from the newest inner sequence cancels
///   the base; either is thrown after an element already held for the consumer (an older inner's element is
///   dropped by an inner's error). Then `next()` returns `nil`. The `CancellationError` of a superseded inner
///   sequence is discarded.
/// - Cancelling the consuming task, or dropping the iterator, cancels the base and the inner sequence; `next()`
///   returns `nil`.
public struct AsyncFlatMapLatestSequence<
  Base: AsyncSequence & Sendable, Inner: AsyncSequence & Sendable, Failure: Error
>:
  AsyncSequence, Sendable
where Base.Element: Sendable, Inner.Element: Sendable {
  /// The elements of the inner sequences.
  public typealias Element = Inner.Element
  @usableFromInline typealias Policy = _FlatMapLatestPolicy<Base.Element, Inner, Failure>
  @usableFromInline typealias Storage = _LatestStorage<Base, Policy>

  @usableFromInline let base: Base
  @usableFromInline let policy: Policy
  @usableFromInline let convertFailure: @Sendable (Base.Failure) -> Failure

  @inlinable
  init(
    _ base: Base,
    transform: @escaping @isolated(any) @Sendable (Base.Element) async throws(Failure) -> Inner,
    convertBaseFailure: @escaping @Sendable (Base.Failure) -> Failure,
    convertInnerFailure: @escaping @Sendable (Inner.Failure) -> Failure
  ) {
    self.base = base
    policy = Policy(transform: transform, convertFailure: convertInnerFailure)
    convertFailure = convertBaseFailure
  }

  /// Creates an iterator; each iterator iterates the base anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(_IterationHandle(Storage(base: base, policy: policy, convertFailure: convertFailure)))
  }

  /// The iterator of an ``AsyncFlatMapLatestSequence``; one task iterates it. Dropping it cancels the base and the
  /// inner sequence.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _IterationHandle<Storage>

    @inlinable init(_ iteration: _IterationHandle<Storage>) {
      self.iteration = iteration
    }

    /// The next element of the newest inner sequence; `nil` once the base and the last inner sequence have
    /// finished, after an error, or when the consuming task is cancelled.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      try await iteration.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncFlatMapLatestSequence.Iterator: Sendable {}

/// `transform`, which cannot throw, typed as throwing `Failure`: what the policy stores. (Swift converts a function
/// that cannot throw to one throwing a concrete error type, but not to one throwing a generic `Failure`.)
@inlinable
func _typedThrows<Input: Sendable, Output: Sendable, Failure: Error>(
  _ transform: @escaping @isolated(any) @Sendable (Input) -> Output
) -> @Sendable (Input) async throws(Failure) -> Output {
  { (input: Input) async throws(Failure) -> Output in await transform(input) }
}
