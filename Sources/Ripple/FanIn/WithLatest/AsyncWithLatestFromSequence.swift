extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Returns a sequence that pairs each element of this sequence with the latest element of `other`.
  ///
  /// See ``AsyncWithLatestFromSequence`` for an example and how it finishes, throws and cancels.
  @inlinable
  public func withLatest<Other: AsyncSequence & Sendable>(
    from other: Other
  ) -> AsyncWithLatestFromSequence<Self, Other> where Other.Element: Sendable, Other.Failure == Failure {
    AsyncWithLatestFromSequence(self, other)
  }

  /// Returns ``withLatest(from:)`` of sequences whose error types differ: the sequence throws `any Error`.
  ///
  /// Sequences of one error type keep it (and non-throwing ones give a non-throwing sequence); this overload is
  /// chosen only when the types differ. Otherwise it behaves as ``AsyncWithLatestFromSequence``.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func withLatest<Other: AsyncSequence & Sendable>(
    from other: Other
  ) -> AsyncWithLatestFromSequence<AsyncMapErrorSequence<Self, any Error>, AsyncMapErrorSequence<Other, any Error>>
  where Other.Element: Sendable {
    AsyncWithLatestFromSequence(_failingWithAnyError, other._failingWithAnyError)
  }
}

/// An asynchronous sequence that pairs each element of a base sequence with the latest element of another.
///
/// Use it when one sequence says *when* and another says *what*: a button's taps sampled with the form's current
/// input, a refresh signal with the latest settings. Unlike ``combineLatest(_:_:)``, only the base's elements make
/// outputs; the other's elements only update the value they are paired with:
///
/// ```swift
/// for await (_, query) in submits.withLatest(from: queries) {
///   print("search", query)
/// }
/// // submits: ------ s ------ s --
/// // queries: -- a --- ab --------
/// // Prints "search a", "search ab".
/// ```
///
/// Both sequences are iterated in a task of the operator's own, started on the first `next()`. The other is
/// read as fast as it produces, keeping only its latest element. A base element that comes before the other has
/// produced anything is dropped. A base element the consumer does not take at once waits (the base is asked for
/// the next one only once it is taken, so a slow consumer slows the base down) and is paired with the other's
/// latest element when the consumer takes it.
///
/// - The sequence finishes when the base finishes, cancelling the other; the other's finish does not end it (its
///   last element stays the one paired).
/// - Sequences of one `Failure` type give the sequence that type, and non-throwing ones a non-throwing sequence;
///   sequences of different types give `any Error`. An error from either ends the sequence at once, cancelling
///   the other: it is thrown to the waiting consumer, or by the next `next()`; then the sequence finishes.
/// - Cancelling the consuming task, or dropping the iterator, cancels both; `next()` returns `nil`.
///
/// ``withLatest(from:_:)`` pairs with two others. <doc:WithLatest> has the timing diagrams and a comparison with
/// Combine.
///
/// Compared with Combine: Combine has no `withLatestFrom` (CombineExt and RxSwift have one); AsyncExtensions'
/// `withLatest(from:)` has these labels and element type, and delivers another's error with the next base element
/// rather than at once.
public struct AsyncWithLatestFromSequence<Base: AsyncSequence & Sendable, Other: AsyncSequence & Sendable>:
  AsyncSequence, Sendable
where Base.Element: Sendable, Other.Element: Sendable, Other.Failure == Base.Failure {
  /// An element of the base and the latest element of the other.
  public typealias Element = (Base.Element, Other.Element)
  /// The sequences' common error type.
  public typealias Failure = Base.Failure
  @usableFromInline typealias Value = _FanInValue<Base.Element, Other.Element, Never>
  @usableFromInline typealias Storage = _FanInStorage<_WithLatestPolicy<Value, Element>, Failure>

  @usableFromInline let bases: _FanInBases2<Base, Other>

  @inlinable init(_ base: Base, _ other: Other) {
    bases = _FanInBases2(base, other)
  }

  /// Creates an iterator; each iterator iterates both sequences anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    let policy = _WithLatestPolicy<Value, Element>(count: 2) { element, latest in
      guard case .first(let element) = element, case .second(let other)? = latest[1] else {
        preconditionFailure("withLatest: an element of the wrong sequence (state: running)")
      }
      return (element, other)
    }
    return Iterator(bases.iteration(policy: policy, name: "withLatest", Value.first, Value.second))
  }

  /// The iterator of an ``AsyncWithLatestFromSequence``; one task iterates it.
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
extension AsyncWithLatestFromSequence.Iterator: Sendable {}
