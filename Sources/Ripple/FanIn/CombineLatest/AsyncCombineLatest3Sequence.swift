/// Returns a sequence of triples of the latest elements of three sequences, one each time any produces.
///
/// ```swift
/// for await (width, height, scale) in combineLatest(widths, heights, scales) {
///   print(width * height * scale)
/// }
/// // widths:  2 --------- 3 --
/// // heights: -- 5 -----------
/// // scales:  ---- 1 -- 10 ---
/// // Prints 10, 100, 150.
/// ```
///
/// It behaves as ``combineLatest(_:_:)``; see ``AsyncCombineLatest2Sequence`` for how it finishes, throws and
/// cancels.
@inlinable
public func combineLatest<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3
) -> AsyncCombineLatest3Sequence<Base1, Base2, Base3>
where
  Base1.Element: Sendable, Base2.Element: Sendable, Base3.Element: Sendable,
  Base2.Failure == Base1.Failure, Base3.Failure == Base1.Failure
{
  AsyncCombineLatest3Sequence(base1, base2, base3)
}

/// Returns ``combineLatest(_:_:_:)`` of bases whose error types differ: the sequence throws `any Error`.
///
/// Bases of one error type keep it (and non-throwing bases give a non-throwing sequence); this overload is chosen
/// only when the types differ, and widens each base's error to `any Error` with
/// ``_Concurrency/AsyncSequence/mapError(_:)``. Otherwise it behaves as ``AsyncCombineLatest3Sequence``.
@_documentation(visibility: internal)
@_disfavoredOverload
@inlinable
public func combineLatest<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3
) -> AsyncCombineLatest3Sequence<
  AsyncMapErrorSequence<Base1, any Error>, AsyncMapErrorSequence<Base2, any Error>,
  AsyncMapErrorSequence<Base3, any Error>
>
where Base1.Element: Sendable, Base2.Element: Sendable, Base3.Element: Sendable {
  combineLatest(base1._failingWithAnyError, base2._failingWithAnyError, base3._failingWithAnyError)
}

/// An asynchronous sequence of triples of the latest elements of three sequences.
///
/// Create it with ``combineLatest(_:_:_:)``; it behaves as ``AsyncCombineLatest2Sequence``.
public struct AsyncCombineLatest3Sequence<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable
>: AsyncSequence, Sendable
where
  Base1.Element: Sendable, Base2.Element: Sendable, Base3.Element: Sendable,
  Base2.Failure == Base1.Failure, Base3.Failure == Base1.Failure
{
  /// A triple of the latest elements of the three bases.
  public typealias Element = (Base1.Element, Base2.Element, Base3.Element)
  /// The bases' common error type.
  public typealias Failure = Base1.Failure
  @usableFromInline typealias Value = _FanInValue<Base1.Element, Base2.Element, Base3.Element>
  @usableFromInline typealias Storage = _FanInStorage<_CombineLatestPolicy<Value, Element>, Failure>

  @usableFromInline let bases: _FanInBases3<Base1, Base2, Base3>

  @inlinable init(_ base1: Base1, _ base2: Base2, _ base3: Base3) {
    bases = _FanInBases3(base1, base2, base3)
  }

  /// Creates an iterator; each iterator iterates the bases anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    let policy = _CombineLatestPolicy<Value, Element>(count: 3) { _, latest, _ in
      Value.triple(latest, operator: "combineLatest")
    }
    return Iterator(bases.iteration(policy: policy, name: "combineLatest", Value.first, Value.second, Value.third))
  }

  /// The iterator of an ``AsyncCombineLatest3Sequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _IterationHandle<Storage>

    @inlinable init(_ iteration: _IterationHandle<Storage>) {
      self.iteration = iteration
    }

    /// Returns the next triple; `nil` once the sequence has finished or the consuming task is cancelled.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      try await iteration.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncCombineLatest3Sequence.Iterator: Sendable {}
