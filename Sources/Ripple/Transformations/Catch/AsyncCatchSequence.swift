extension AsyncSequence {
  /// Returns a sequence that, when this one throws, goes on with the elements of a fallback sequence made from the
  /// error.
  ///
  /// See ``AsyncCatchSequence`` for an example and how it finishes, throws and cancels.
  ///
  /// - Parameter handler: Makes the sequence to go on with from the error thrown.
  @inlinable
  public func `catch`<Fallback: AsyncSequence>(
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Failure) async -> sending Fallback
  ) -> AsyncCatchSequence<Self, Fallback> where Fallback.Element == Element {
    AsyncCatchSequence(self, handler: handler)
  }
}

/// An asynchronous sequence of a base's elements that, when the base throws, goes on with a fallback sequence made
/// from the error.
///
/// Use it to recover from a failure with other elements — a cached copy when the network fails, a default, another
/// source:
///
/// ```swift
/// let pages = network.pages(for: query)       // throws URLError
///   .catch { error in cache.pages(for: query) }  // a sequence that cannot fail
/// for await page in pages {                   // so no `try`
///   show(page)
/// }
/// ```
///
/// The sequence delivers the base's elements. When the base throws, `handler` runs once with the error, and the
/// sequence goes on with the elements of the sequence it returns, and finishes, throws and reacts to cancellation
/// as that sequence does; the fallback's own error is thrown, not caught again. When the base finishes, the
/// handler never runs. The sequence's error type is the fallback's, so a fallback that cannot fail gives a
/// sequence that cannot fail. The handler runs on the isolation it was written in, as the body of `Task { }` does.
/// Cancellation is the base's: a base that throws `CancellationError` when its task is cancelled has it caught
/// like any error.
///
/// Compared with Combine: `catch(_:)` has this meaning (Combine's handler gets the upstream's error and returns
/// a publisher of the same output). Combine's `tryCatch` corresponds to a fallback sequence that throws. See
/// <doc:Catch>.
public struct AsyncCatchSequence<Base: AsyncSequence, Fallback: AsyncSequence>: AsyncSequence
where Fallback.Element == Base.Element {
  /// The base's element type.
  public typealias Element = Base.Element
  /// The fallback's error type.
  public typealias Failure = Fallback.Failure
  @usableFromInline typealias Handler = @isolated(any) @Sendable (Base.Failure) async -> sending Fallback

  @usableFromInline let base: Base
  @usableFromInline let handler: Handler

  @inlinable init(_ base: Base, handler: @escaping Handler) {
    self.base = base
    self.handler = handler
  }

  /// Creates an iterator over the base, then, after an error, a fallback.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base.makeAsyncIterator(), handler: handler)
  }

  /// The iterator of an ``AsyncCatchSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    /// Which sequence is being iterated.
    @usableFromInline
    enum Phase {
      case base(Base.AsyncIterator)
      case fallback(Fallback.AsyncIterator)
      case finished
    }

    @usableFromInline var phase: Phase
    @usableFromInline let handler: Handler

    @inlinable init(_ base: Base.AsyncIterator, handler: @escaping Handler) {
      phase = .base(base)
      self.handler = handler
    }

    /// Returns the base's next element, or after its error the fallback's; throws the fallback's error.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      if case .base(var base) = phase {
        do throws(Base.Failure) {
          guard let element = try await base.next(isolation: actor) else {
            phase = .finished
            return nil
          }
          phase = .base(base)
          return element
        } catch {
          phase = .fallback(await handler(error).makeAsyncIterator())
        }
      }
      guard case .fallback(var fallback) = phase else { return nil }
      do throws(Failure) {
        guard let element = try await fallback.next(isolation: actor) else {
          phase = .finished
          return nil
        }
        phase = .fallback(fallback)
        return element
      } catch {
        phase = .finished
        throw error
      }
    }
  }
}

extension AsyncCatchSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncCatchSequence.Iterator: Sendable {}
