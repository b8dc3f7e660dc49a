/// Returns a sequence of arrays of the latest elements of any number of sequences, one array each time any of
/// them produces.
///
/// Use it when the number of inputs is known only at run time, such as one field per row of a form:
///
/// ```swift
/// for await values in combineLatest(fields.map(\.values)) {
///   print(values.reduce(0, +))
/// }
/// // field 0: 1 ------ 3 ---
/// // field 1: --- 10 -------
/// // Prints 11, 13.
/// ```
///
/// Each array holds one element per base, in the collection's order. With one base, every element becomes a
/// one-element array; with none, the sequence finishes at once. While the consumer does not keep the previous
/// array, the next one reuses its storage. Otherwise it behaves as ``combineLatest(_:_:)``; see
/// ``AsyncCombineLatest2Sequence`` for how it finishes, throws and cancels.
@inlinable
public func combineLatest<Base: AsyncSequence & Sendable>(
  _ bases: some Collection<Base>
) -> AsyncCombineLatestSequence<Base> where Base.Element: Sendable {
  AsyncCombineLatestSequence(Array(bases))
}

/// An asynchronous sequence of arrays of the latest elements of any number of sequences.
///
/// Create it with ``combineLatest(_:)``; it behaves as ``AsyncCombineLatest2Sequence``.
public struct AsyncCombineLatestSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// The latest element of every base, in the order of the bases.
  public typealias Element = [Base.Element]
  /// The bases' common error type.
  public typealias Failure = Base.Failure
  @usableFromInline typealias Storage = _FanInStorage<_CombineLatestPolicy<Base.Element, Element>, Failure>

  @usableFromInline let bases: [Base]

  @inlinable init(_ bases: [Base]) {
    self.bases = bases
  }

  /// Creates an iterator; each iterator iterates the bases anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    let policy = _CombineLatestPolicy<Base.Element, Element>(count: bases.count) { previous, latest, changed in
      _fanInArray(&previous, from: latest, changed: changed)
    }
    return Iterator(Storage.iteration(of: bases, policy: policy, name: "combineLatest"))
  }

  /// The iterator of an ``AsyncCombineLatestSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _IterationHandle<Storage>

    @inlinable init(_ iteration: _IterationHandle<Storage>) {
      self.iteration = iteration
    }

    /// Returns the next array of latest elements; `nil` once the sequence has finished or the consuming task is
    /// cancelled.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      try await iteration.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncCombineLatestSequence.Iterator: Sendable {}
