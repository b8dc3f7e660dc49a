extension AsyncSequence where Element: Sendable {
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
  /// `predicate(previous, next)` runs on the isolation it was written in, as the body of `Task { }` does:
  /// written in `@MainActor` code it may read main-actor state and capture non-`Sendable` values of that
  /// isolation, and a consumer on that isolation calls it without an executor hop. So the sequence is
  /// `Sendable` when its base is, and composes with `combineLatest`, `debounce` and the other operators. The
  /// predicate may `await` (as swift-async-algorithms' does); one that does not costs the same as a synchronous
  /// call. It may throw only what the base throws (its `Failure`): a non-throwing base takes a non-throwing
  /// predicate and gives a non-throwing sequence. A predicate that throws another error picks
  /// ``_Concurrency/AsyncSequence/removeDuplicates(by:)-(_)->AsyncThrowingRemoveDuplicatesSequence<Self>`` instead.
  ///
  /// The first element always passes. The sequence finishes when the base finishes, rethrows the base's or
  /// the predicate's error — after which `next()` returns `nil` — and reacts to cancellation as the base does.
  ///
  /// See <doc:RemoveDuplicates> for the timing diagrams, the design and a comparison with Combine and
  /// swift-async-algorithms.
  ///
  /// - Parameter predicate: Whether the second element repeats the first, the last one delivered.
  @inlinable
  public func removeDuplicates(
    @_inheritActorContext by predicate:
      @escaping @isolated(any) @Sendable (Element, Element) async throws(Failure) -> Bool
  ) -> AsyncRemoveDuplicatesByPredicateSequence<Self> {
    AsyncRemoveDuplicatesByPredicateSequence(self, predicate: predicate)
  }
}

/// An asynchronous sequence that skips elements a predicate calls duplicates of the one delivered before.
///
/// Create it with ``_Concurrency/AsyncSequence/removeDuplicates(by:)-(_)->AsyncRemoveDuplicatesByPredicateSequence<Self>``; see <doc:RemoveDuplicates>. It is
/// `Sendable` when its base is.
public struct AsyncRemoveDuplicatesByPredicateSequence<Base: AsyncSequence>: AsyncSequence
where Base.Element: Sendable {
  /// The elements of the base, without consecutive duplicates.
  public typealias Element = Base.Element
  /// The base's error type, which the predicate may throw too.
  public typealias Failure = Base.Failure
  @usableFromInline typealias Predicate = @isolated(any) @Sendable (Element, Element) async throws(Failure) -> Bool

  @usableFromInline let base: Base
  @usableFromInline let predicate: Predicate

  @inlinable init(_ base: Base, predicate: @escaping Predicate) {
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
    @usableFromInline let predicate: Predicate
    @usableFromInline var last: Element?
    @usableFromInline var finished = false

    @inlinable init(_ base: Base.AsyncIterator, predicate: @escaping Predicate) {
      self.base = base
      self.predicate = predicate
    }

    /// Returns the base's next element that the predicate does not call a duplicate of the last one
    /// returned; `nil` when the base ends, and after an error.
    @inlinable @inline(__always)
    public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Element? {
      // Inlined into the caller (@inline(__always)): a call would cost an async frame and an executor
      // check per element.
      guard !finished else { return nil }
      do throws(Failure) {
        while let element = try await base.next(isolation: actor) {
          // On the predicate's own isolation (the usual case) this is a call without a hop.
          if let last, try await predicate(last, element) { continue }
          last = element
          return element
        }
      } catch {
        finished = true
        throw error
      }
      finished = true
      return nil
    }
  }
}

extension AsyncRemoveDuplicatesByPredicateSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncRemoveDuplicatesByPredicateSequence.Iterator: Sendable {}
