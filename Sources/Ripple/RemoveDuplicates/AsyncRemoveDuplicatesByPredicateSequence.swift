extension AsyncSequence {
  /// Returns a sequence that skips an element the predicate calls a duplicate of the one delivered just
  /// before.
  ///
  /// Use it when "unchanged" means something other than `==`: the same identifier, a value within a
  /// tolerance, a field of a larger value.
  ///
  /// ```swift
  /// let words = ["apple", "avocado", "banana", "blueberry", "cherry"].async
  /// for await word in words.removeDuplicates(by: { $0.first == $1.first }) {
  ///   print(word)
  /// }
  /// // Prints apple, banana, cherry.
  /// ```
  ///
  /// `predicate(previous, next)` is synchronous and runs on the consumer's isolation (the iterator's
  /// `next(isolation:)`), so it may read the consumer's state and need not be `@Sendable`; for the same
  /// reason the sequence is not `Sendable`. (swift-async-algorithms takes an `async` predicate; a closure
  /// that does not `await` moves over unchanged.) It may throw only what the base throws (its `Failure`): a non-throwing base takes a
  /// non-throwing predicate and gives a non-throwing sequence.
  ///
  /// The first element always passes. The sequence finishes when the base finishes, rethrows the base's or
  /// the predicate's error, and reacts to cancellation as the base does.
  ///
  /// See <doc:RemoveDuplicates> for the timing diagrams, the design and a comparison with Combine and
  /// swift-async-algorithms.
  ///
  /// - Parameter predicate: Whether the second element repeats the first, the last one delivered.
  @inlinable
  public func removeDuplicates(
    by predicate: @escaping (Element, Element) throws(Failure) -> Bool
  ) -> AsyncRemoveDuplicatesByPredicateSequence<Self> {
    AsyncRemoveDuplicatesByPredicateSequence(self, predicate: predicate)
  }
}

/// An asynchronous sequence that skips elements a predicate calls duplicates of the one delivered before.
///
/// Create it with ``_Concurrency/AsyncSequence/removeDuplicates(by:)``. It holds a closure that runs on
/// the consumer's isolation, so it is not `Sendable`; for a `Sendable` sequence over `Equatable` elements
/// use ``_Concurrency/AsyncSequence/removeDuplicates()``. See <doc:RemoveDuplicates>.
public struct AsyncRemoveDuplicatesByPredicateSequence<Base: AsyncSequence>: AsyncSequence {
  /// The elements of the base, without consecutive duplicates.
  public typealias Element = Base.Element
  /// The base's error type, which the predicate may throw too.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let predicate: (Element, Element) throws(Failure) -> Bool

  @inlinable init(_ base: Base, predicate: @escaping (Element, Element) throws(Failure) -> Bool) {
    self.base = base
    self.predicate = predicate
  }

  /// Creates an iterator over the base's elements without consecutive duplicates.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base.makeAsyncIterator(), predicate: predicate)
  }

  /// The iterator of an ``AsyncRemoveDuplicatesByPredicateSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let predicate: (Element, Element) throws(Failure) -> Bool
    @usableFromInline var last: Element?

    @inlinable init(_ base: Base.AsyncIterator, predicate: @escaping (Element, Element) throws(Failure) -> Bool) {
      self.base = base
      self.predicate = predicate
    }

    /// Returns the base's next element that the predicate does not call a duplicate of the last one
    /// returned; `nil` when the base ends.
    @inlinable
    public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Element? {
      while let element = try await base.next(isolation: actor) {
        if let last, try predicate(last, element) { continue }
        last = element
        return element
      }
      return nil
    }
  }
}

@available(*, unavailable)
extension AsyncRemoveDuplicatesByPredicateSequence.Iterator: Sendable {}
