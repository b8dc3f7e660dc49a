extension AsyncSequence where Element: AsyncSequence {
  /// Returns a sequence of the elements of every inner sequence, one inner sequence after the other.
  ///
  /// See ``AsyncJoinedSequence`` for an example and how it finishes, throws and cancels.
  @inlinable
  public func joined() -> AsyncJoinedSequence<Self> where Element.Failure == Failure {
    AsyncJoinedSequence(self)
  }
}

// The overloads for other error types; `SendableMetatype` because they wrap the inner sequences in the standard
// library's `map`, whose closure is `@Sendable`.
extension AsyncSequence where Element: AsyncSequence & SendableMetatype {
  /// Returns ``_Concurrency/AsyncSequence/joined()`` of a base that cannot fail: the sequence fails as the inner
  /// sequences do.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func joined() -> AsyncJoinedSequence<AsyncMapErrorSequence<Self, Element.Failure>> where Failure == Never {
    AsyncJoinedSequence(_failing(as: Element.Failure.self))
  }

  /// Returns ``_Concurrency/AsyncSequence/joined()`` of inner sequences that cannot fail: the sequence fails as the
  /// base does.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func joined() -> AsyncJoinedSequence<AsyncMapSequence<Self, AsyncMapErrorSequence<Element, Failure>>>
  where Element.Failure == Never {
    AsyncJoinedSequence(_innersFailing(as: Failure.self))
  }

  /// Returns ``_Concurrency/AsyncSequence/joined()`` of a base and inner sequences of different error types: the
  /// sequence throws `any Error`, each error as it was thrown.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func joined() -> AsyncJoinedSequence<
    AsyncMapErrorSequence<AsyncMapSequence<Self, AsyncMapErrorSequence<Element, any Error>>, any Error>
  > {
    AsyncJoinedSequence(map { inner in inner._failingWithAnyError }._failingWithAnyError)
  }
}

/// An asynchronous sequence of the elements of a base's inner sequences, one inner sequence after the other.
///
/// Use it where the number of sequences to put one after the other is known only as they come — the pages of a
/// paginated API, the lines of each file of a list — where ``chain(_:_:)`` takes two or three known up front:
///
/// ```swift
/// let pages = [1, 2, 3].async.map { page in api.items(onPage: page) }
/// for try await item in pages.joined() {
///   print(item)
/// }
/// // Prints the items of page 1, then those of page 2, then those of page 3.
/// ```
///
/// The base is asked for its next inner sequence only once the current one has finished; nothing runs ahead, and
/// no task is started: the base and the inner sequences are iterated by the consuming task, on its isolation.
/// Each iterator iterates the base anew.
///
/// - The sequence finishes when the base finishes, after the last inner sequence; an empty inner sequence
///   contributes nothing.
/// - A base and inner sequences of one `Failure` type give the sequence that type, and non-throwing ones a
///   non-throwing sequence. When one of them cannot fail, the sequence fails as the other does; when their types
///   differ otherwise, it throws `any Error`. An error from the base or the current inner sequence is thrown as it
///   is, and then `next()` returns `nil`: neither is iterated again.
/// - Cancellation is the sequences' own: the consuming task's cancellation reaches the base or the inner sequence
///   being iterated.
///
/// ``_Concurrency/AsyncSequence/joined(separator:)`` puts the elements of a separator between the inner sequences.
/// See <doc:Joined> for the design and a comparison with Combine and swift-async-algorithms.
public struct AsyncJoinedSequence<Base: AsyncSequence>: AsyncSequence
where Base.Element: AsyncSequence, Base.Element.Failure == Base.Failure {
  /// The inner sequences' element type.
  public typealias Element = Base.Element.Element
  /// The error type of the base and the inner sequences.
  public typealias Failure = Base.Failure

  /// Joining without a separator is joining with an empty one: `joined(separator:)`'s iteration, whose separator
  /// ends at once the one time it is asked.
  @usableFromInline typealias NoSeparator = AsyncMapErrorSequence<AsyncSyncSequence<EmptyCollection<Element>>, Failure>

  @usableFromInline let joined: AsyncJoinedBySeparatorSequence<Base, NoSeparator>

  @inlinable init(_ base: Base) {
    joined = AsyncJoinedBySeparatorSequence(base, separator: EmptyCollection().async._failing(as: Failure.self))
  }

  /// Creates an iterator; each iterator iterates the base anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(joined.makeAsyncIterator())
  }

  /// The iterator of an ``AsyncJoinedSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var joining: AsyncJoinedBySeparatorSequence<Base, NoSeparator>.Iterator

    @inlinable init(_ joining: AsyncJoinedBySeparatorSequence<Base, NoSeparator>.Iterator) {
      self.joining = joining
    }

    /// Returns the next element of the current inner sequence, moving on to the base's next inner sequence when it
    /// finishes; `nil` once the base has finished, and after an error.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      try await joining.next(isolation: actor)
    }
  }
}

extension AsyncJoinedSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncJoinedSequence.Iterator: Sendable {}

extension AsyncSequence where Element: AsyncSequence & SendableMetatype, Element.Failure == Never {
  /// This sequence with inner sequences that cannot fail made ones that fail with `NewFailure`.
  @inlinable
  func _innersFailing<NewFailure: Error>(
    as _: NewFailure.Type
  ) -> AsyncMapSequence<Self, AsyncMapErrorSequence<Element, NewFailure>> {
    map { inner in inner._failing(as: NewFailure.self) }
  }
}
