/// Returns a sequence of arrays of the elements of any number of sequences, taken in step: the first of each, then
/// the second of each, and so on.
///
/// Use it when the number of inputs is known only at run time, such as one sensor per device:
///
/// ```swift
/// for await readings in zip(sensors.map(\.readings)) {
///   print(readings.reduce(0, +))
/// }
/// // sensor 0: 1 ----- 3 -----
/// // sensor 1: --- 10 ---- 30 -
/// // Prints 11, 33.
/// ```
///
/// Each array holds one element per base, in the collection's order. With one base, every element becomes a
/// one-element array; with none, the sequence finishes at once. While the consumer does not keep the previous
/// array, the next one reuses its storage. Otherwise it behaves as ``zip(_:_:)``; see ``AsyncZip2Sequence`` for how
/// it finishes, throws and cancels.
@inlinable
public func zip<Base: AsyncSequence & Sendable>(
  _ bases: some Collection<Base>
) -> AsyncZipSequence<Base> where Base.Element: Sendable {
  AsyncZipSequence(Array(bases))
}

/// Returns a sequence of arrays of the elements of any number of sequences of one type, written as arguments, taken
/// in step — AsyncExtensions' spelling of ``zip(_:)``:
///
/// ```swift
/// for await readings in zip(north, east, south, west) {
///   print(readings.reduce(0, +))
/// }
/// ```
///
/// Two or three arguments take ``zip(_:_:)`` and ``zip(_:_:_:)`` (swift-async-algorithms' forms, giving tuples),
/// which also take bases of different types; four or more, of one type, take this one (a variadic form of any count, as AsyncExtensions' `zip(_:)`, would make two
/// or three arguments of one type ambiguous). Otherwise it behaves as
/// ``AsyncZipSequence``.
@inlinable
public func zip<Base: AsyncSequence & Sendable>(
  _ base1: Base, _ base2: Base, _ base3: Base, _ base4: Base, _ more: Base...
) -> AsyncZipSequence<Base> where Base.Element: Sendable {
  AsyncZipSequence([base1, base2, base3, base4] + more)
}

/// An asynchronous sequence of arrays of the elements of any number of sequences, taken in step.
///
/// Create it with ``zip(_:)``; it behaves as ``AsyncZip2Sequence``.
public struct AsyncZipSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// One element of every base, in the order of the bases.
  public typealias Element = [Base.Element]
  /// The bases' common error type.
  public typealias Failure = Base.Failure
  @usableFromInline typealias Storage = _FanInStorage<_ZipPolicy<Base.Element, Element>, Failure>

  @usableFromInline let bases: [Base]

  @inlinable init(_ bases: [Base]) {
    self.bases = bases
  }

  /// Creates an iterator; each iterator iterates the bases anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    let policy = _ZipPolicy<Base.Element, Element>(count: bases.count) { previous, values in
      _fanInArray(&previous, from: values, changed: nil)
    }
    return Iterator(Storage.iteration(of: bases, policy: policy, name: "zip"))
  }

  /// The iterator of an ``AsyncZipSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _IterationHandle<Storage>

    @inlinable init(_ iteration: _IterationHandle<Storage>) {
      self.iteration = iteration
    }

    /// Returns the next array; `nil` once a base has finished or the consuming task is cancelled.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      try await iteration.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncZipSequence.Iterator: Sendable {}
