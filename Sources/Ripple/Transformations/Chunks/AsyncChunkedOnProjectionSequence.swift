extension AsyncSequence where Element: Sendable {
  /// Returns a sequence of runs of the base's consecutive elements with equal projections, each with its
  /// projection, gathered into collections.
  ///
  /// Use it when each element carries what its group is — a date, a first letter, a section id:
  ///
  /// ```swift
  /// let names = ["Ada", "Alan", "Barbara", "Grace", "Guido"].async
  /// for await (letter, group) in names.chunked(into: ContiguousArray.self, on: { $0.first! }) {
  ///   print(letter, Array(group))
  /// }
  /// // Prints A ["Ada", "Alan"], B ["Barbara"], G ["Grace", "Guido"].
  /// ```
  ///
  /// A group ends where the projection of an element differs from that of the group's first element; it is
  /// delivered, with that projection, once the first element of the next group has arrived or the base has
  /// finished. Over a base sorted by the projection each projection comes once, so the pairs can fill a
  /// `Dictionary(uniqueKeysWithValues:)`.
  ///
  /// `projection` runs once per element, on the isolation it was written in, as the predicate of
  /// ``_Concurrency/AsyncSequence/removeDuplicates(by:)-(_)->AsyncRemoveDuplicatesByPredicateSequence<Self>`` does (see <doc:RemoveDuplicates>), so the sequence is
  /// `Sendable` when its base is. It may throw what the base throws (its `Failure`), and a non-throwing base gives a
  /// non-throwing sequence. The base's or the projection's error is thrown as it is, the group gathered so far
  /// dropped; after it `next()` returns `nil`. It starts no task: cancellation is the base's. See <doc:Chunked>.
  ///
  /// - Parameters:
  ///   - into: The type of collection to gather into.
  ///   - projection: What an element's group is; consecutive elements with equal projections form one group.
  @inlinable
  public func chunked<Subject: Equatable & Sendable, Collected: RangeReplaceableCollection>(
    into: Collected.Type,
    @_inheritActorContext on projection: @escaping @isolated(any) @Sendable (Element) throws(Failure) -> Subject
  ) -> AsyncChunkedOnProjectionSequence<Self, Subject, Collected> where Collected.Element == Element {
    AsyncChunkedOnProjectionSequence(self, projection: projection)
  }

  /// Returns a sequence of runs of the base's consecutive elements with equal projections, each with its
  /// projection, gathered into arrays.
  ///
  /// ```swift
  /// for await (letter, names) in ["Ada", "Alan", "Grace"].async.chunked(on: { $0.first! }) {
  ///   print(letter, names)
  /// }
  /// // Prints A ["Ada", "Alan"], G ["Grace"].
  /// ```
  ///
  /// See ``_Concurrency/AsyncSequence/chunked(into:on:)`` for when a group is delivered, how it finishes, throws
  /// and cancels.
  @inlinable
  public func chunked<Subject: Equatable & Sendable>(
    @_inheritActorContext on projection: @escaping @isolated(any) @Sendable (Element) throws(Failure) -> Subject
  ) -> AsyncChunkedOnProjectionSequence<Self, Subject, [Element]> {
    AsyncChunkedOnProjectionSequence(self, projection: projection)
  }
}

/// An asynchronous sequence of runs of a base's consecutive elements with equal projections, each with its
/// projection.
///
/// Create it with ``_Concurrency/AsyncSequence/chunked(into:on:)``; see <doc:Chunked>. It is `Sendable` when its
/// base is.
public struct AsyncChunkedOnProjectionSequence<
  Base: AsyncSequence, Subject: Equatable, Collected: RangeReplaceableCollection
>: AsyncSequence where Collected.Element == Base.Element, Base.Element: Sendable, Subject: Sendable {
  /// A group's projection, and the group.
  public typealias Element = (Subject, Collected)
  /// The base's error type, which the projection may throw too.
  public typealias Failure = Base.Failure
  @usableFromInline typealias Projection = @isolated(any) @Sendable (Base.Element) throws(Failure) -> Subject
  @usableFromInline typealias Chunking = _ChunkingIterator<
    Base.AsyncIterator, _ChunkOnProjection<Base.Element, Subject, Failure>, Collected
  >

  @usableFromInline let base: Base
  @usableFromInline let rule: _ChunkOnProjection<Base.Element, Subject, Failure>

  @inlinable init(_ base: Base, projection: @escaping Projection) {
    self.base = base
    rule = _ChunkOnProjection(projection)
  }

  /// Creates an iterator over the groups.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(Chunking(base.makeAsyncIterator(), rule: rule))
  }

  /// The iterator of an ``AsyncChunkedOnProjectionSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var chunking: Chunking

    @inlinable init(_ chunking: Chunking) {
      self.chunking = chunking
    }

    /// Returns the next group and its projection, once the element after it has arrived or the base has ended;
    /// `nil` once the base has ended with no element left over, and after an error.
    @inlinable
    public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> (Subject, Collected)? {
      try await chunking.next(isolation: actor)
    }
  }
}

extension AsyncChunkedOnProjectionSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncChunkedOnProjectionSequence.Iterator: Sendable {}
