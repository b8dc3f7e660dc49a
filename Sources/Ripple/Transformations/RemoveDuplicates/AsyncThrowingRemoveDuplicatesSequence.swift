extension AsyncSequence where Element: Sendable {
  /// Returns a sequence that skips an element a throwing predicate calls a duplicate of the one delivered just
  /// before, and fails with the predicate's error.
  ///
  /// The overload for a predicate that throws an error its base does not — a check that may fail over a
  /// non-throwing sequence. A predicate that throws nothing, or only the base's `Failure`, gets
  /// ``_Concurrency/AsyncSequence/removeDuplicates(by:)-(_)->AsyncRemoveDuplicatesByPredicateSequence<Self>``,
  /// whose sequence keeps the base's error type.
  ///
  /// ```swift
  /// struct Unreadable: Error {}
  /// let readings = [1, 1, 2, -1, 3].async
  /// do {
  ///   for try await reading in readings.removeDuplicates(by: { last, next in
  ///     guard next >= 0 else { throw Unreadable() }
  ///     return last == next
  ///   }) {
  ///     print(reading)
  ///   }
  /// } catch {
  ///   print(error)
  /// }
  /// // Prints 1, 2, then Unreadable().
  /// ```
  ///
  /// An error of the predicate or of the base is thrown by the `next()` that met it and ends the sequence:
  /// `next()` returns `nil` afterwards, as the standard library's `filter` does (swift-async-algorithms' throwing
  /// variant goes on iterating the base). Isolation, `Sendable` and cancellation are as for the non-throwing
  /// overload.
  ///
  /// - Parameter predicate: Whether the second element repeats the first, the last one delivered.
  @inlinable @_disfavoredOverload
  public func removeDuplicates(
    @_inheritActorContext by predicate: @escaping @isolated(any) @Sendable (Element, Element) async throws -> Bool
  ) -> AsyncThrowingRemoveDuplicatesSequence<Self> {
    AsyncThrowingRemoveDuplicatesSequence(self, predicate: predicate)
  }
}

/// An asynchronous sequence that skips elements a throwing predicate calls duplicates of the one delivered before,
/// failing with `any Error`.
///
/// Create it with
/// ``_Concurrency/AsyncSequence/removeDuplicates(by:)-(_)->AsyncThrowingRemoveDuplicatesSequence<Self>``; see
/// <doc:RemoveDuplicates>. It is `Sendable` when its base is.
public struct AsyncThrowingRemoveDuplicatesSequence<Base: AsyncSequence>: AsyncSequence where Base.Element: Sendable {
  /// The elements of the base, without consecutive duplicates.
  public typealias Element = Base.Element
  /// The predicate's or the base's error.
  public typealias Failure = any Error
  // One core: the predicate sequence over the base with its error widened to `any Error`.
  @usableFromInline typealias Core = AsyncRemoveDuplicatesByPredicateSequence<AsyncMapErrorSequence<Base, any Error>>

  @usableFromInline let core: Core

  @inlinable init(
    _ base: Base, predicate: @escaping @isolated(any) @Sendable (Element, Element) async throws -> Bool
  ) {
    core = Core(base._failingWithAnyError, predicate: predicate)
  }

  /// Creates an iterator over the base's elements without consecutive duplicates.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(core.makeAsyncIterator())
  }

  /// The iterator of an ``AsyncThrowingRemoveDuplicatesSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var core: Core.Iterator

    @inlinable init(_ core: Core.Iterator) {
      self.core = core
    }

    /// Returns the base's next element that the predicate does not call a duplicate of the last one returned;
    /// `nil` when the base ends, and after an error.
    @inlinable @inline(__always)
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> Element? {
      // Inlined into the caller (@inline(__always)): a call would cost an async frame and an executor
      // check per element.
      try await core.next(isolation: actor)
    }
  }
}

extension AsyncThrowingRemoveDuplicatesSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncThrowingRemoveDuplicatesSequence.Iterator: Sendable {}
