extension AsyncSequence where Element: Equatable {
  /// Returns a sequence that skips an element equal to the one it delivered just before.
  ///
  /// Use it where only changes matter: a value re-published unchanged, an input field set to what it
  /// already holds.
  ///
  /// ```swift
  /// for await value in [1, 1, 2, 2, 2, 1, 3, 3].async.removeDuplicates() {
  ///   print(value)
  /// }
  /// // Prints 1, 2, 1, 3.
  /// ```
  ///
  /// The first element always passes. The sequence finishes when the base finishes, rethrows the base's
  /// error (its `Failure` is the base's, so a non-throwing base gives a non-throwing sequence), and reacts
  /// to cancellation as the base does. It stores only the last delivered element.
  ///
  /// See <doc:RemoveDuplicates> for the timing diagrams, the design and a comparison with Combine and
  /// swift-async-algorithms.
  @inlinable
  public func removeDuplicates() -> AsyncRemoveDuplicatesSequence<Self> {
    AsyncRemoveDuplicatesSequence(self)
  }
}

/// An asynchronous sequence that skips elements equal to the one delivered just before them.
///
/// Create it with ``_Concurrency/AsyncSequence/removeDuplicates()``; see <doc:RemoveDuplicates>. It is `Sendable`
/// when its base is.
public struct AsyncRemoveDuplicatesSequence<Base: AsyncSequence>: AsyncSequence where Base.Element: Equatable {
  /// The elements of the base, without consecutive repeats.
  public typealias Element = Base.Element
  /// The base's error type: the sequence throws only what the base throws.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base

  @inlinable init(_ base: Base) {
    self.base = base
  }

  /// Creates an iterator over the base's elements without consecutive repeats.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base.makeAsyncIterator())
  }

  /// The iterator of an ``AsyncRemoveDuplicatesSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline var last: Element?

    @inlinable init(_ base: Base.AsyncIterator) {
      self.base = base
    }

    /// Returns the base's next element that differs from the last one returned; `nil` when the base ends.
    @inlinable @inline(__always)
    public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Element? {
      // Inlined into the caller (@inline(__always)): a call would cost an async frame and an executor
      // check per element.
      while let element = try await base.next(isolation: actor) {
        if let last, last == element { continue }
        last = element
        return element
      }
      return nil
    }
  }
}

extension AsyncRemoveDuplicatesSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncRemoveDuplicatesSequence.Iterator: Sendable {}
