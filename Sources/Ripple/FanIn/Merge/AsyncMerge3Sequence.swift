/// Returns a sequence of the elements of three sequences, interleaved as they arrive.
///
/// ```swift
/// for await event in merge(keys, resizes, ticks) {
///   print(event)
/// }
/// // keys:    -- a ----------
/// // resizes: ------ r ------
/// // ticks:   ---------- t --
/// // Prints a, r, t.
/// ```
///
/// It behaves as ``merge(_:_:)``; see ``AsyncMerge2Sequence`` for how it finishes, throws and cancels.
@inlinable
public func merge<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3
) -> AsyncMerge3Sequence<Base1, Base2, Base3>
where
  Base1.Element: Sendable, Base2.Element == Base1.Element, Base3.Element == Base1.Element,
  Base2.Failure == Base1.Failure, Base3.Failure == Base1.Failure
{
  AsyncMerge3Sequence(base1, base2, base3)
}

/// Returns ``merge(_:_:_:)`` of bases whose error types differ: the sequence throws `any Error`.
///
/// Bases of one error type keep it (and non-throwing bases give a non-throwing sequence); this overload is chosen
/// only when the types differ, and widens each base's error to `any Error` with
/// ``_Concurrency/AsyncSequence/mapError(_:)``. Otherwise it behaves as ``AsyncMerge3Sequence``.
@_documentation(visibility: internal)
@_disfavoredOverload
@inlinable
public func merge<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3
) -> AsyncMerge3Sequence<
  AsyncMapErrorSequence<Base1, any Error>, AsyncMapErrorSequence<Base2, any Error>,
  AsyncMapErrorSequence<Base3, any Error>
>
where Base1.Element: Sendable, Base2.Element == Base1.Element, Base3.Element == Base1.Element {
  merge(base1._failingWithAnyError, base2._failingWithAnyError, base3._failingWithAnyError)
}

/// An asynchronous sequence of the elements of three sequences, interleaved as they arrive.
///
/// Create it with ``merge(_:_:_:)``; it behaves as ``AsyncMerge2Sequence``.
public struct AsyncMerge3Sequence<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable
>: AsyncSequence, Sendable
where
  Base1.Element: Sendable, Base2.Element == Base1.Element, Base3.Element == Base1.Element,
  Base2.Failure == Base1.Failure, Base3.Failure == Base1.Failure
{
  /// The bases' common element type.
  public typealias Element = Base1.Element
  /// The bases' common error type.
  public typealias Failure = Base1.Failure
  @usableFromInline typealias Storage = _FanInStorage<_MergePolicy<Element>, Failure>

  @usableFromInline let bases: _FanInBases3<Base1, Base2, Base3>

  @inlinable init(_ base1: Base1, _ base2: Base2, _ base3: Base3) {
    bases = _FanInBases3(base1, base2, base3)
  }

  /// Creates an iterator; each iterator iterates the bases anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(bases.iteration(policy: _MergePolicy(), name: "merge", { $0 }, { $0 }, { $0 }))
  }

  /// The iterator of an ``AsyncMerge3Sequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _IterationHandle<Storage>

    @inlinable init(_ iteration: _IterationHandle<Storage>) {
      self.iteration = iteration
    }

    /// Returns the next element of any base; `nil` once all finished or the consuming task is cancelled.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      try await iteration.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncMerge3Sequence.Iterator: Sendable {}
