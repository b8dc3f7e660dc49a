extension AsyncSequence {
  /// Returns a sequence of the same elements that throws `transform(error)` where the base throws `error`.
  ///
  /// Use it to give a pipeline the error type of the layer it belongs to, or to make bases of different error
  /// types agree before combining them:
  ///
  /// ```swift
  /// enum SearchError: Error { case offline, server(Int) }
  ///
  /// let results = api.results(for: query)          // throws URLError
  ///   .mapError { error in error.code == .notConnectedToInternet ? .offline : .server(error.errorCode) }
  /// do {
  ///   for try await page in results { show(page) }
  /// } catch .offline {
  ///   showOfflineBanner()
  /// } catch {
  ///   show(error)                                    // a SearchError
  /// }
  /// ```
  ///
  /// The sequence delivers the base's elements unchanged and finishes when the base does. When the base throws,
  /// `transform` runs once on its error and the sequence throws the result; after that `next()` returns `nil`.
  /// Cancellation is the base's: the sequence neither checks for it nor converts a `CancellationError` the base
  /// does not throw. `transform` runs on the isolation it was written in, as the body of `Task { }` does, so it
  /// may read the state of that isolation; it is not called for elements.
  ///
  /// `combineLatest`, `merge`, `zip` and `chain` use it when their bases' error types differ, to throw
  /// `any Error`.
  ///
  /// - Parameter transform: The error to throw in place of the base's.
  @inlinable
  public func mapError<MappedError: Error>(
    @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable (Failure) async -> MappedError
  ) -> AsyncMapErrorSequence<Self, MappedError> {
    AsyncMapErrorSequence(self, transform: transform)
  }
}

/// An asynchronous sequence of a base's elements that throws a transformed error where the base throws.
///
/// Create it with ``_Concurrency/AsyncSequence/mapError(_:)``, which shows an example. It is `Sendable` when its
/// base is.
public struct AsyncMapErrorSequence<Base: AsyncSequence, MappedError: Error>: AsyncSequence {
  /// The base's element type.
  public typealias Element = Base.Element
  /// The error type that the transform returns.
  public typealias Failure = MappedError
  @usableFromInline typealias Transform = @isolated(any) @Sendable (Base.Failure) async -> MappedError

  @usableFromInline let base: Base
  @usableFromInline let transform: Transform

  @inlinable init(_ base: Base, transform: @escaping Transform) {
    self.base = base
    self.transform = transform
  }

  /// Creates an iterator over the base's elements.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base.makeAsyncIterator(), transform: transform)
  }

  /// The iterator of an ``AsyncMapErrorSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let transform: Transform
    @usableFromInline var finished = false

    @inlinable init(_ base: Base.AsyncIterator, transform: @escaping Transform) {
      self.base = base
      self.transform = transform
    }

    /// Returns the base's next element; `nil` when the base ends and after an error, which it throws transformed.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(MappedError) -> Element?
    {
      guard !finished else { return nil }
      do throws(Base.Failure) {
        if let element = try await base.next(isolation: actor) { return element }
        finished = true
        return nil
      } catch {
        finished = true
        throw await transform(error)
      }
    }
  }
}

extension AsyncMapErrorSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncMapErrorSequence.Iterator: Sendable {}

extension AsyncSequence {
  /// This sequence with its error type widened to `any Error`: what the combining operators use when their bases'
  /// error types differ.
  @inlinable
  var _failingWithAnyError: AsyncMapErrorSequence<Self, any Error> {
    AsyncMapErrorSequence(self) { $0 }
  }
}

extension AsyncSequence where Failure == Never {
  /// This sequence, which cannot fail, typed as failing with `NewFailure`: what `joined` and the chunking signal
  /// forms use to make a part that cannot fail agree with the others.
  @inlinable
  func _failing<NewFailure: Error>(as _: NewFailure.Type) -> AsyncMapErrorSequence<Self, NewFailure> {
    AsyncMapErrorSequence(self, transform: _neverFails)
  }
}
