extension AsyncSequence where Element: Sendable, Failure == Never {
  /// Returns ``_Concurrency/AsyncSequence/interspersed(every:with:)-4xvdb`` with
  /// separators made by a closure that may throw any error, for a base that does not throw.
  ///
  /// A throwing base's own `interspersed(every:with:)` takes a closure that throws its `Failure` — any error when
  /// that is `any Error`; for another error type, `mapError(_:)` the base first. See
  /// ``AsyncThrowingInterspersedSequence`` for how it finishes, throws and cancels.
  ///
  /// - Parameters:
  ///   - every: How many elements go between two separators; at least 1, and 1 by default.
  ///   - separator: Makes a separator, each time one is due; synchronous or `async`.
  @inlinable
  public func interspersed(
    every: Int = 1,
    @_inheritActorContext with separator: @escaping @isolated(any) @Sendable () async throws -> Element
  ) -> AsyncThrowingInterspersedSequence<Self> {
    AsyncThrowingInterspersedSequence(self, every: every, separator: .produce(separator))
  }

  /// Returns ``_Concurrency/AsyncSequence/interspersed(every:with:)->AsyncThrowingInterspersedSequence<Self>`` with a
  /// synchronous separator closure, called without an `async` frame.
  @_documentation(visibility: internal)
  @inlinable
  public func interspersed(
    every: Int = 1,
    @_inheritActorContext with separator: @escaping @isolated(any) @Sendable () throws -> Element
  ) -> AsyncThrowingInterspersedSequence<Self> {
    AsyncThrowingInterspersedSequence(self, every: every, separator: .make(separator))
  }
}

/// An asynchronous sequence of a base sequence's elements with separators, made by a closure that may throw any
/// error, between them.
///
/// ```swift
/// for try await line in entries.interspersed(with: { try await renderer.divider() }) {
///   print(line)
/// }
/// // entries a, b and a renderer that fails: prints a, then the renderer's error is thrown.
/// ```
///
/// Made by ``_Concurrency/AsyncSequence/interspersed(every:with:)->AsyncThrowingInterspersedSequence<Self>`` with a throwing
/// closure, over a base that does not throw. It behaves as ``AsyncInterspersedSequence`` does, but throws the
/// closure's error, as `any Error`; after it `next()` returns `nil`, and the element that would have followed the
/// separator is dropped. Cancellation is the base's.
///
/// It is `Sendable` when its base is.
public struct AsyncThrowingInterspersedSequence<Base: AsyncSequence>: AsyncSequence where Base.Element: Sendable {
  /// The base's element type, which the separators share.
  public typealias Element = Base.Element
  /// Any error: the base's or the separator closure's.
  public typealias Failure = any Error

  /// The same sequence over the base with its errors widened to `any Error`, which the separator closure may then
  /// throw.
  @usableFromInline let interspersed: AsyncInterspersedSequence<AsyncMapErrorSequence<Base, any Error>>

  @inlinable init(_ base: Base, every: Int, separator: _Separator<Element, any Error>) {
    interspersed = AsyncInterspersedSequence(base._failingWithAnyError, every: every, separator: separator)
  }

  /// Creates an iterator over the base's elements and the separators between them.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(interspersed.makeAsyncIterator())
  }

  /// The iterator of an ``AsyncThrowingInterspersedSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var interspersing: AsyncInterspersedSequence<AsyncMapErrorSequence<Base, any Error>>.Iterator

    @inlinable init(_ interspersing: AsyncInterspersedSequence<AsyncMapErrorSequence<Base, any Error>>.Iterator) {
      self.interspersing = interspersing
    }

    /// Returns the base's next element or a separator before it; `nil` when the base ends, and after an error.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> Element? {
      try await interspersing.next(isolation: actor)
    }
  }
}

extension AsyncThrowingInterspersedSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncThrowingInterspersedSequence.Iterator: Sendable {}
