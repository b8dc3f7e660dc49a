/// Returns a sequence of the elements of any number of sequences, interleaved as they arrive.
///
/// Use it when the number of sources is known only at run time, such as one stream per connection:
///
/// ```swift
/// for await message in merge(connections.map(\.messages)) {
///   print(message)
/// }
/// // connection 0: -- hello ----------
/// // connection 1: --------- bye -----
/// // Prints hello, bye.
/// ```
///
/// With one base the sequence delivers that base's elements; with none, it finishes at once. Otherwise it behaves
/// as ``merge(_:_:)``; see ``AsyncMerge2Sequence`` for how it finishes, throws and cancels.
@inlinable
public func merge<Base: AsyncSequence & Sendable>(
  _ bases: some Collection<Base>
) -> AsyncMergeSequence<Base> where Base.Element: Sendable {
  AsyncMergeSequence(Array(bases))
}

/// Returns a sequence of the elements of any number of sequences of one type, written as arguments —
/// AsyncExtensions' spelling of ``merge(_:)``:
///
/// ```swift
/// for await event in merge(keys, clicks, ticks, resizes) {
///   handle(event)
/// }
/// ```
///
/// Two or three arguments take ``merge(_:_:)`` and ``merge(_:_:_:)`` (swift-async-algorithms' forms), which also
/// take bases of different types; four or more, of one type, take this one (a variadic form of any count, as AsyncExtensions' `merge(_:)`, would make two
/// or three arguments of one type ambiguous). Otherwise it behaves as
/// ``AsyncMergeSequence``.
@inlinable
public func merge<Base: AsyncSequence & Sendable>(
  _ base1: Base, _ base2: Base, _ base3: Base, _ base4: Base, _ more: Base...
) -> AsyncMergeSequence<Base> where Base.Element: Sendable {
  AsyncMergeSequence([base1, base2, base3, base4] + more)
}

/// An asynchronous sequence of the elements of any number of sequences, interleaved as they arrive.
///
/// Create it with ``merge(_:)``; it behaves as ``AsyncMerge2Sequence``.
public struct AsyncMergeSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// The bases' common element type.
  public typealias Element = Base.Element
  /// The bases' common error type.
  public typealias Failure = Base.Failure
  @usableFromInline typealias Storage = _FanInStorage<_MergePolicy<Element>, Failure>

  @usableFromInline let bases: [Base]

  @inlinable init(_ bases: [Base]) {
    self.bases = bases
  }

  /// Creates an iterator; each iterator iterates the bases anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(Storage.iteration(of: bases, policy: _MergePolicy(), name: "merge"))
  }

  /// The iterator of an ``AsyncMergeSequence``; one task iterates it.
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
extension AsyncMergeSequence.Iterator: Sendable {}
