extension AsyncSequence where Element: Sendable {
  /// Returns a sequence of runs of the base's consecutive elements that a predicate puts in one group, gathered
  /// into collections.
  ///
  /// Use it to cut a stream where consecutive elements stop belonging together — a rising run of readings, the
  /// lines of one paragraph:
  ///
  /// ```swift
  /// let readings = [10, 20, 30, 10, 40, 40, 10, 20].async
  /// for await run in readings.chunked(into: ContiguousArray.self, by: { $0 <= $1 }) {
  ///   print(Array(run))
  /// }
  /// // Prints [10, 20, 30], [10, 40, 40], [10, 20].
  /// ```
  ///
  /// `belongInSameGroup(previous, next)` is asked of each element and the one before it; `false` delivers the
  /// group gathered so far and starts a new one with `next`. So a group is delivered only once the first element
  /// of the next one has arrived, or the base has finished: the last group comes then. The predicate runs on the
  /// isolation it was written in, as in ``_Concurrency/AsyncSequence/removeDuplicates(by:)-(_)->AsyncRemoveDuplicatesByPredicateSequence<Self>`` (see
  /// <doc:RemoveDuplicates>), so the sequence is `Sendable` when its base is; it may throw what the base throws
  /// (its `Failure`), and a non-throwing base gives a non-throwing sequence. (swift-async-algorithms takes a
  /// non-throwing predicate, which moves over unchanged.)
  ///
  /// The base's or the predicate's error is thrown as it is, the group gathered so far dropped; after it `next()`
  /// returns `nil`. It starts no task: cancellation is the base's. See <doc:Chunked>.
  ///
  /// - Parameters:
  ///   - into: The type of collection to gather into.
  ///   - belongInSameGroup: Whether the second element belongs in the group of the first, the one before it.
  @inlinable
  public func chunked<Collected: RangeReplaceableCollection>(
    into: Collected.Type,
    @_inheritActorContext by belongInSameGroup:
      @escaping @isolated(any) @Sendable (Element, Element) throws(Failure) -> Bool
  ) -> AsyncChunkedByGroupSequence<Self, Collected> where Collected.Element == Element {
    AsyncChunkedByGroupSequence(self, belongInSameGroup: belongInSameGroup)
  }

  /// Returns a sequence of runs of the base's consecutive elements that a predicate puts in one group, gathered
  /// into arrays.
  ///
  /// ```swift
  /// for await run in [10, 20, 30, 10, 40, 40, 10, 20].async.chunked(by: { $0 <= $1 }) {
  ///   print(run)
  /// }
  /// // Prints [10, 20, 30], [10, 40, 40], [10, 20].
  /// ```
  ///
  /// See ``_Concurrency/AsyncSequence/chunked(into:by:)`` for when a group is delivered, how it finishes, throws
  /// and cancels.
  @inlinable
  public func chunked(
    @_inheritActorContext by belongInSameGroup:
      @escaping @isolated(any) @Sendable (Element, Element) throws(Failure) -> Bool
  ) -> AsyncChunkedByGroupSequence<Self, [Element]> {
    AsyncChunkedByGroupSequence(self, belongInSameGroup: belongInSameGroup)
  }
}

/// An asynchronous sequence of runs of a base's consecutive elements that a predicate puts in one group.
///
/// Create it with ``_Concurrency/AsyncSequence/chunked(into:by:)``; see <doc:Chunked>. It is `Sendable` when its
/// base is.
public struct AsyncChunkedByGroupSequence<Base: AsyncSequence, Collected: RangeReplaceableCollection>: AsyncSequence
where Collected.Element == Base.Element, Base.Element: Sendable {
  /// A group of consecutive elements of the base.
  public typealias Element = Collected
  /// The base's error type, which the predicate may throw too.
  public typealias Failure = Base.Failure
  @usableFromInline typealias Predicate = @isolated(any) @Sendable (Base.Element, Base.Element) throws(Failure) -> Bool
  @usableFromInline typealias Chunking = _ChunkingIterator<
    Base.AsyncIterator, _ChunkByPredicate<Base.Element, Failure>, Collected
  >

  @usableFromInline let base: Base
  @usableFromInline let rule: _ChunkByPredicate<Base.Element, Failure>

  @inlinable init(_ base: Base, belongInSameGroup: @escaping Predicate) {
    self.base = base
    rule = _ChunkByPredicate(belongInSameGroup)
  }

  /// Creates an iterator over the groups.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(Chunking(base.makeAsyncIterator(), rule: rule))
  }

  /// The iterator of an ``AsyncChunkedByGroupSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var chunking: Chunking

    @inlinable init(_ chunking: Chunking) {
      self.chunking = chunking
    }

    /// Returns the next group, once the element after it has arrived or the base has ended; `nil` once the base
    /// has ended with no element left over, and after an error.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Collected? {
      // The mark of a group by predicate is its last element, which the caller does not want.
      try await chunking.next(isolation: actor)?.1
    }
  }
}

extension AsyncChunkedByGroupSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncChunkedByGroupSequence.Iterator: Sendable {}
