extension AsyncSequence {
  /// Returns a sequence that produces `element` when this one finishes without producing anything.
  ///
  /// See ``AsyncReplaceEmptySequence`` for an example and how it finishes, throws and cancels.
  @inlinable
  public func replaceEmpty(with element: Element) -> AsyncReplaceEmptySequence<Self> {
    AsyncReplaceEmptySequence(self, replacement: element)
  }
}

/// An asynchronous sequence of a base's elements that produces a given element when the base finishes empty.
///
/// Use it where "nothing" should still show as a value — an empty search as a "no results" row:
///
/// ```swift
/// for try await row in results.replaceEmpty(with: .noResults) {
///   show(row)
/// }
/// ```
///
/// The sequence delivers the base's elements; when the base finishes without having produced any, the next `next()`
/// returns the replacement, and the one after it `nil`. An error is thrown as the base throws it, with no
/// replacement. Cancellation is the base's: a base that ends empty because its task was cancelled gives the
/// replacement too.
///
/// Compared with Combine: `replaceEmpty(with:)` has this meaning. See <doc:ReplaceEmpty>.
public struct AsyncReplaceEmptySequence<Base: AsyncSequence>: AsyncSequence {
  /// The base's element type.
  public typealias Element = Base.Element
  /// The base's error type.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let replacement: Element

  @inlinable init(_ base: Base, replacement: Element) {
    self.base = base
    self.replacement = replacement
  }

  /// Creates an iterator over the base's elements.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base.makeAsyncIterator(), replacement: replacement)
  }

  /// The iterator of an ``AsyncReplaceEmptySequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator?
    /// The replacement, until the base produced an element or it was returned.
    @usableFromInline var replacement: Element?

    @inlinable init(_ base: Base.AsyncIterator, replacement: Element) {
      self.base = base
      self.replacement = replacement
    }

    /// Returns the base's next element; the replacement after a finish without any, then `nil`.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      guard base != nil else { return replacement.take() }
      do throws(Failure) {
        guard let element = try await base!.next(isolation: actor) else {
          base = nil
          return replacement.take()
        }
        replacement = nil
        return element
      } catch {
        base = nil
        replacement = nil
        throw error
      }
    }
  }
}

extension AsyncReplaceEmptySequence: Sendable where Base: Sendable, Element: Sendable {}

@available(*, unavailable)
extension AsyncReplaceEmptySequence.Iterator: Sendable {}
