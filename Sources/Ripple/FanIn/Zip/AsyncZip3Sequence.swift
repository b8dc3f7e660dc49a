/// Returns a sequence of triples of the elements of three sequences, taken in step.
///
/// ```swift
/// for await (name, age, city) in zip(names, ages, cities) {
///   print(name, age, city)
/// }
/// // names:  Ada ---- Bob ---|
/// // ages:   -- 36 ---- 41 --|
/// // cities: ---- Rome ---- Oslo
/// // Prints Ada 36 Rome, Bob 41 Oslo.
/// ```
///
/// It behaves as ``zip(_:_:)``; see ``AsyncZip2Sequence`` for how it finishes, throws and cancels.
@inlinable
public func zip<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3
) -> AsyncZip3Sequence<Base1, Base2, Base3>
where
  Base1.Element: Sendable, Base2.Element: Sendable, Base3.Element: Sendable,
  Base2.Failure == Base1.Failure, Base3.Failure == Base1.Failure
{
  AsyncZip3Sequence(base1, base2, base3)
}

/// Returns ``zip(_:_:_:)`` of bases whose error types differ: the sequence throws `any Error`.
///
/// Bases of one error type keep it (and non-throwing bases give a non-throwing sequence); this overload is chosen
/// only when the types differ, and widens each base's error to `any Error` with
/// ``_Concurrency/AsyncSequence/mapError(_:)``. Otherwise it behaves as ``AsyncZip3Sequence``.
@_documentation(visibility: internal)
@_disfavoredOverload
@inlinable
public func zip<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3
) -> AsyncZip3Sequence<
  AsyncMapErrorSequence<Base1, any Error>, AsyncMapErrorSequence<Base2, any Error>,
  AsyncMapErrorSequence<Base3, any Error>
>
where Base1.Element: Sendable, Base2.Element: Sendable, Base3.Element: Sendable {
  zip(base1._failingWithAnyError, base2._failingWithAnyError, base3._failingWithAnyError)
}

/// An asynchronous sequence of triples of the elements of three sequences, taken in step.
///
/// Create it with ``zip(_:_:_:)``; it behaves as ``AsyncZip2Sequence``.
public struct AsyncZip3Sequence<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable
>: AsyncSequence, Sendable
where
  Base1.Element: Sendable, Base2.Element: Sendable, Base3.Element: Sendable,
  Base2.Failure == Base1.Failure, Base3.Failure == Base1.Failure
{
  /// A triple of elements, one of each base, taken in step.
  public typealias Element = (Base1.Element, Base2.Element, Base3.Element)
  /// The bases' common error type.
  public typealias Failure = Base1.Failure
  @usableFromInline typealias Value = _FanInValue<Base1.Element, Base2.Element, Base3.Element>
  @usableFromInline typealias Storage = _FanInStorage<_ZipPolicy<Value, Element>, Failure>

  @usableFromInline let bases: _FanInBases3<Base1, Base2, Base3>

  @inlinable init(_ base1: Base1, _ base2: Base2, _ base3: Base3) {
    bases = _FanInBases3(base1, base2, base3)
  }

  /// Creates an iterator; each iterator iterates the bases anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    let policy = _ZipPolicy<Value, Element>(count: 3) { _, values in Value.triple(values, operator: "zip") }
    return Iterator(bases.iteration(policy: policy, name: "zip", Value.first, Value.second, Value.third))
  }

  /// The iterator of an ``AsyncZip3Sequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _IterationHandle<Storage>

    @inlinable init(_ iteration: _IterationHandle<Storage>) {
      self.iteration = iteration
    }

    /// Returns the next triple; `nil` once a base has finished or the consuming task is cancelled.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      try await iteration.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncZip3Sequence.Iterator: Sendable {}
