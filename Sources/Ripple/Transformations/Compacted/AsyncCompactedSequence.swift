extension AsyncSequence {
  /// Returns a sequence of the non-`nil` elements of a sequence of optionals, unwrapped.
  ///
  /// Use it where `nil` means "nothing yet" or "not a valid input", such as a number field being edited.
  ///
  /// ```swift
  /// for await number in [1, nil, 2, nil, nil, 3].async.compacted() {
  ///   print(number)
  /// }
  /// // Prints 1, 2, 3.
  /// ```
  ///
  /// The sequence finishes when the base finishes, rethrows the base's error (its `Failure` is the base's,
  /// so a non-throwing base gives a non-throwing sequence), and reacts to cancellation as the base does.
  ///
  /// See <doc:Compacted> for the timing diagrams, the design and a comparison with Combine and
  /// swift-async-algorithms.
  @inlinable
  public func compacted<Unwrapped>() -> AsyncCompactedSequence<Self, Unwrapped> where Element == Unwrapped? {
    AsyncCompactedSequence(self)
  }
}

/// An asynchronous sequence of the non-`nil` elements of a base sequence of optionals.
///
/// Create it with ``_Concurrency/AsyncSequence/compacted()``; see <doc:Compacted>. It is `Sendable` when its base is.
public struct AsyncCompactedSequence<Base: AsyncSequence, Element>: AsyncSequence where Base.Element == Element? {
  /// The base's error type: the sequence throws only what the base throws.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base

  @inlinable init(_ base: Base) {
    self.base = base
  }

  /// Creates an iterator over the base's non-`nil` elements.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base.makeAsyncIterator())
  }

  /// The iterator of an ``AsyncCompactedSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator

    @inlinable init(_ base: Base.AsyncIterator) {
      self.base = base
    }

    /// Returns the base's next non-`nil` element, unwrapped; `nil` when the base ends.
    @inlinable @inline(__always)
    public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Element? {
      // Inlined into the caller (@inline(__always)): a call would cost an async frame and an executor
      // check per element.
      while let element = try await base.next(isolation: actor) {
        if let element { return element }
      }
      return nil
    }
  }
}

extension AsyncCompactedSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncCompactedSequence.Iterator: Sendable {}
