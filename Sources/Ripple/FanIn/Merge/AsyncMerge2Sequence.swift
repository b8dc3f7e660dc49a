/// Returns a sequence of the elements of two sequences, interleaved as they arrive.
///
/// See ``AsyncMerge2Sequence`` for an example and how it finishes, throws and cancels.
@inlinable
public func merge<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2
) -> AsyncMerge2Sequence<Base1, Base2>
where Base1.Element: Sendable, Base2.Element == Base1.Element, Base2.Failure == Base1.Failure {
  AsyncMerge2Sequence(base1, base2)
}

/// Returns ``merge(_:_:)`` of bases whose error types differ: the sequence throws `any Error`.
///
/// Bases of one error type keep it (and non-throwing bases give a non-throwing sequence); this overload is chosen
/// only when the types differ, and widens each base's error to `any Error` with
/// ``_Concurrency/AsyncSequence/mapError(_:)``. Otherwise it behaves as ``AsyncMerge2Sequence``.
@_documentation(visibility: internal)
@_disfavoredOverload
@inlinable
public func merge<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2
) -> AsyncMerge2Sequence<AsyncMapErrorSequence<Base1, any Error>, AsyncMapErrorSequence<Base2, any Error>>
where Base1.Element: Sendable, Base2.Element == Base1.Element {
  merge(base1._failingWithAnyError, base2._failingWithAnyError)
}

/// An asynchronous sequence of the elements of two sequences, interleaved as they arrive.
///
/// Use it to handle events from two sources in one loop, such as key presses and timer ticks:
///
/// ```swift
/// for await event in merge(keys.map(Event.key), ticks.map { Event.tick }) {
///   print(event)
/// }
/// // keys:  -- a ------ b --
/// // ticks: ------ t -------
/// // Prints key(a), tick, key(b).
/// ```
///
/// Each element is delivered exactly once, and the elements of one base keep their order. The bases are iterated
/// in a task of the operator's own, started on the first `next()`; each base is asked for its next element only
/// once the consumer has taken its previous one, and bases with an element waiting are served in turn, so a fast
/// base cannot starve a slow one. A base that is a ``MultiProducerSingleConsumerAsyncChannel``'s `elements()`
/// hands over what the channel's consumer side already holds (up to 256) with each element, in one step
/// (<doc:Merge> says more). Each iterator iterates the bases anew.
///
/// - The sequence finishes when both bases have finished.
/// - Bases of one `Failure` type give the sequence that type, and non-throwing bases a non-throwing sequence; bases
///   of different types give `any Error`, each base's error thrown as it is. An error
///   from either base cancels the other and is thrown once, by the next `next()`; then the sequence finishes.
/// - Cancelling the consuming task, or dropping the iterator, cancels both bases; `next()` returns `nil`.
///
/// ``merge(_:_:_:)`` and ``merge(_:)`` behave the same for three bases and for any number. See <doc:Merge> for
/// the timing diagrams, the design and a comparison with Combine and swift-async-algorithms.
public struct AsyncMerge2Sequence<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>:
  AsyncSequence, Sendable
where Base1.Element: Sendable, Base2.Element == Base1.Element, Base2.Failure == Base1.Failure {
  /// The bases' common element type.
  public typealias Element = Base1.Element
  /// The bases' common error type.
  public typealias Failure = Base1.Failure
  @usableFromInline typealias Storage = _FanInStorage<_MergePolicy<Element>, Failure>

  @usableFromInline let bases: _FanInBases2<Base1, Base2>

  @inlinable init(_ base1: Base1, _ base2: Base2) {
    bases = _FanInBases2(base1, base2)
  }

  /// Creates an iterator; each iterator iterates the bases anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(bases.iteration(policy: _MergePolicy(), name: "merge", { $0 }, { $0 }))
  }

  /// The iterator of an ``AsyncMerge2Sequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _IterationHandle<Storage>

    @inlinable init(_ iteration: _IterationHandle<Storage>) {
      self.iteration = iteration
    }

    /// Returns the next element of either base; `nil` once both finished or the consuming task is cancelled.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      try await iteration.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncMerge2Sequence.Iterator: Sendable {}
