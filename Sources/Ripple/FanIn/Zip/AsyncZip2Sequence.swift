/// Returns a sequence of pairs of the elements of two sequences, the first of each, then the second of each, and so
/// on.
///
/// See ``AsyncZip2Sequence`` for an example and how it finishes, throws and cancels.
@inlinable
public func zip<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2
) -> AsyncZip2Sequence<Base1, Base2>
where Base1.Element: Sendable, Base2.Element: Sendable, Base2.Failure == Base1.Failure {
  AsyncZip2Sequence(base1, base2)
}

/// Returns ``zip(_:_:)`` of bases whose error types differ: the sequence throws `any Error`.
///
/// Bases of one error type keep it (and non-throwing bases give a non-throwing sequence); this overload is chosen
/// only when the types differ, and widens each base's error to `any Error` with
/// ``_Concurrency/AsyncSequence/mapError(_:)``. Otherwise it behaves as ``AsyncZip2Sequence``.
@_documentation(visibility: internal)
@_disfavoredOverload
@inlinable
public func zip<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2
) -> AsyncZip2Sequence<AsyncMapErrorSequence<Base1, any Error>, AsyncMapErrorSequence<Base2, any Error>>
where Base1.Element: Sendable, Base2.Element: Sendable {
  zip(base1._failingWithAnyError, base2._failingWithAnyError)
}

/// An asynchronous sequence of pairs of the elements of two sequences, taken in step.
///
/// Use it to pair up two sequences element by element — requests with their responses, frames with their
/// timestamps:
///
/// ```swift
/// for await (request, response) in zip(requests, responses) {
///   print(request, response)
/// }
/// // requests:  a ---- b ------- c --|
/// // responses: -- 1 ------ 2 -------|
/// // Prints a 1, b 2.
/// ```
///
/// The bases are iterated in a task of the operator's own, started on the first `next()`, one child task per base;
/// each base is at most one element ahead of the pairs the consumer took, so memory stays bounded when one base is
/// faster; a base that is a ``MultiProducerSingleConsumerAsyncChannel``'s `elements()` hands over what the
/// channel's consumer side already holds (up to 256) with each element, in one step (<doc:Zip> says more). Each
/// iterator iterates the bases anew.
///
/// - The sequence finishes as soon as either base finishes, as no further pair can be complete; the other base is
///   cancelled and an element it had ready is dropped.
/// - Bases of one `Failure` type give the sequence that type, and non-throwing bases a non-throwing sequence; bases
///   of different types give `any Error`, each base's error thrown as it is. An error
///   from either base cancels the other and is thrown once, by the next `next()`; then the sequence finishes.
/// - Cancelling the consuming task, or dropping the iterator, cancels both bases; `next()` returns `nil`.
///
/// ``zip(_:_:_:)`` and ``zip(_:)`` behave the same for three bases and for any number.
public struct AsyncZip2Sequence<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>:
  AsyncSequence, Sendable
where Base1.Element: Sendable, Base2.Element: Sendable, Base2.Failure == Base1.Failure {
  /// A pair of elements, one of each base, taken in step.
  public typealias Element = (Base1.Element, Base2.Element)
  /// The bases' common error type.
  public typealias Failure = Base1.Failure
  @usableFromInline typealias Value = _FanInValue<Base1.Element, Base2.Element, Never>
  @usableFromInline typealias Storage = _FanInStorage<_ZipPolicy<Value, Element>, Failure>

  @usableFromInline let bases: _FanInBases2<Base1, Base2>

  @inlinable init(_ base1: Base1, _ base2: Base2) {
    bases = _FanInBases2(base1, base2)
  }

  /// Creates an iterator; each iterator iterates the bases anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    let policy = _ZipPolicy<Value, Element>(count: 2) { _, values in Value.pair(values, operator: "zip") }
    return Iterator(bases.iteration(policy: policy, name: "zip", Value.first, Value.second))
  }

  /// The iterator of an ``AsyncZip2Sequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _IterationHandle<Storage>

    @inlinable init(_ iteration: _IterationHandle<Storage>) {
      self.iteration = iteration
    }

    /// Returns the next pair; `nil` once a base has finished or the consuming task is cancelled.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      try await iteration.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncZip2Sequence.Iterator: Sendable {}
