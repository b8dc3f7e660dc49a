extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Returns a sequence that pairs each element of this sequence with the latest elements of two others.
  ///
  /// ```swift
  /// for await (_, query, sort) in submits.withLatest(from: queries, sorts) {
  ///   print("search", query, sort)
  /// }
  /// ```
  ///
  /// It behaves as ``withLatest(from:)``, waiting for both others; see ``AsyncWithLatestFromSequence`` for how it
  /// finishes, throws and cancels.
  @inlinable
  public func withLatest<Other1: AsyncSequence & Sendable, Other2: AsyncSequence & Sendable>(
    from other1: Other1, _ other2: Other2
  ) -> AsyncWithLatestFrom2Sequence<Self, Other1, Other2>
  where
    Other1.Element: Sendable, Other2.Element: Sendable, Other1.Failure == Failure, Other2.Failure == Failure
  {
    AsyncWithLatestFrom2Sequence(self, other1, other2)
  }

  /// Returns ``withLatest(from:_:)`` of sequences whose error types differ: the sequence throws `any Error`.
  ///
  /// Chosen only when the types differ; otherwise it behaves as ``AsyncWithLatestFrom2Sequence``.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func withLatest<Other1: AsyncSequence & Sendable, Other2: AsyncSequence & Sendable>(
    from other1: Other1, _ other2: Other2
  ) -> AsyncWithLatestFrom2Sequence<
    AsyncMapErrorSequence<Self, any Error>, AsyncMapErrorSequence<Other1, any Error>,
    AsyncMapErrorSequence<Other2, any Error>
  > where Other1.Element: Sendable, Other2.Element: Sendable {
    AsyncWithLatestFrom2Sequence(_failingWithAnyError, other1._failingWithAnyError, other2._failingWithAnyError)
  }
}

/// An asynchronous sequence that pairs each element of a base sequence with the latest elements of two others.
///
/// Create it with ``_Concurrency/AsyncSequence/withLatest(from:_:)``; it behaves as
/// ``AsyncWithLatestFromSequence``: a base element is dropped until both others have produced.
public struct AsyncWithLatestFrom2Sequence<
  Base: AsyncSequence & Sendable, Other1: AsyncSequence & Sendable, Other2: AsyncSequence & Sendable
>: AsyncSequence, Sendable
where
  Base.Element: Sendable, Other1.Element: Sendable, Other2.Element: Sendable,
  Other1.Failure == Base.Failure, Other2.Failure == Base.Failure
{
  /// An element of the base and the latest elements of the two others.
  public typealias Element = (Base.Element, Other1.Element, Other2.Element)
  /// The sequences' common error type.
  public typealias Failure = Base.Failure
  @usableFromInline typealias Value = _FanInValue<Base.Element, Other1.Element, Other2.Element>
  @usableFromInline typealias Storage = _FanInStorage<_WithLatestPolicy<Value, Element>, Failure>

  @usableFromInline let bases: _FanInBases3<Base, Other1, Other2>

  @inlinable init(_ base: Base, _ other1: Other1, _ other2: Other2) {
    bases = _FanInBases3(base, other1, other2)
  }

  /// Creates an iterator; each iterator iterates the three sequences anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    let policy = _WithLatestPolicy<Value, Element>(count: 3) { element, latest in
      guard case .first(let element) = element, case .second(let first)? = latest[1],
        case .third(let second)? = latest[2]
      else {
        preconditionFailure("withLatest: an element of the wrong sequence (state: running)")
      }
      return (element, first, second)
    }
    return Iterator(bases.iteration(policy: policy, name: "withLatest", Value.first, Value.second, Value.third))
  }

  /// The iterator of an ``AsyncWithLatestFrom2Sequence``; one task iterates it.
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
extension AsyncWithLatestFrom2Sequence.Iterator: Sendable {}
