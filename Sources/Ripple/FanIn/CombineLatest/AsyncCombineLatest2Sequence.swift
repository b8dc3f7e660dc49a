/// Returns a sequence of pairs of the latest elements of two sequences, one pair each time either produces.
///
/// See ``AsyncCombineLatest2Sequence`` for an example and how it finishes, throws and cancels.
@inlinable
public func combineLatest<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2
) -> AsyncCombineLatest2Sequence<Base1, Base2>
where Base1.Element: Sendable, Base2.Element: Sendable, Base2.Failure == Base1.Failure {
  AsyncCombineLatest2Sequence(base1, base2)
}

/// Returns ``combineLatest(_:_:)`` of bases whose error types differ: the sequence throws `any Error`.
///
/// Bases of one error type keep it (and non-throwing bases give a non-throwing sequence); this overload is chosen
/// only when the types differ, and widens each base's error to `any Error` with
/// ``_Concurrency/AsyncSequence/mapError(_:)``. Otherwise it behaves as ``AsyncCombineLatest2Sequence``.
@_documentation(visibility: internal)
@_disfavoredOverload
@inlinable
public func combineLatest<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2
) -> AsyncCombineLatest2Sequence<AsyncMapErrorSequence<Base1, any Error>, AsyncMapErrorSequence<Base2, any Error>>
where Base1.Element: Sendable, Base2.Element: Sendable {
  combineLatest(base1._failingWithAnyError, base2._failingWithAnyError)
}

/// An asynchronous sequence of pairs of the latest elements of two sequences, one pair each time either produces.
///
/// Use it to derive a value from several changing inputs, such as the sum of two fields:
///
/// ```swift
/// Task { @MainActor in
///   let a = Observed { form.a }
///   let b = Observed { form.b }
///   for await sum in combineLatest(a, b).map(+) {
///     print(sum)
///   }
/// }
/// // a: 1 ----- 2 --------
/// // b: ---- 10 ---- 20 --
/// // Prints 11, 12, 22.
/// ```
///
/// The first pair comes once both bases have produced an element, and takes each base's latest element: until
/// then, a base that has produced is asked again at once, so its error or end is seen without waiting for the
/// other. After that, every element of either base makes a pair with the latest element of the other. The bases
/// are iterated in a task of the operator's own, started on the first `next()`; after the first pair each base is
/// asked for its next element only once its previous one has been combined into a pair the consumer took, so a
/// slow consumer slows the bases down instead of collecting a backlog. A base that is a
/// ``MultiProducerSingleConsumerAsyncChannel``'s `elements()` hands over what the channel's consumer side already
/// holds (up to 256) with each element, in one step (<doc:CombineLatest> says more). Each iterator iterates the
/// bases anew.
///
/// - The sequence finishes when both bases have finished, or as soon as one finishes without ever producing.
/// - Bases of one `Failure` type give the sequence that type, and non-throwing bases a non-throwing sequence; bases
///   of different types give `any Error`, each base's error thrown as it is. An error
///   from either base cancels the other and is thrown once, by the next `next()`; then the sequence finishes.
/// - Cancelling the consuming task, or dropping the iterator, cancels both bases; `next()` returns `nil`.
///
/// ``combineLatest(_:_:_:)`` and ``combineLatest(_:)`` behave the same for three bases and for any number. See
/// <doc:CombineLatest> for the timing diagrams, the design and a comparison with Combine and
/// swift-async-algorithms.
public struct AsyncCombineLatest2Sequence<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>:
  AsyncSequence, Sendable
where Base1.Element: Sendable, Base2.Element: Sendable, Base2.Failure == Base1.Failure {
  /// A pair of the latest elements of the two bases.
  public typealias Element = (Base1.Element, Base2.Element)
  /// The bases' common error type.
  public typealias Failure = Base1.Failure
  @usableFromInline typealias Value = _FanInValue<Base1.Element, Base2.Element, Never>
  @usableFromInline typealias Storage = _FanInStorage<_CombineLatestPolicy<Value, Element>, Failure>

  @usableFromInline let bases: _FanInBases2<Base1, Base2>

  @inlinable init(_ base1: Base1, _ base2: Base2) {
    bases = _FanInBases2(base1, base2)
  }

  /// Creates an iterator; each iterator iterates the bases anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    let policy = _CombineLatestPolicy<Value, Element>(count: 2) { _, latest, _ in
      Value.pair(latest, operator: "combineLatest")
    }
    return Iterator(bases.iteration(policy: policy, name: "combineLatest", Value.first, Value.second))
  }

  /// The iterator of an ``AsyncCombineLatest2Sequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _IterationHandle<Storage>

    @inlinable init(_ iteration: _IterationHandle<Storage>) {
      self.iteration = iteration
    }

    /// Returns the next pair; `nil` once the sequence has finished or the consuming task is cancelled.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      try await iteration.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncCombineLatest2Sequence.Iterator: Sendable {}
