extension AsyncSequence {
  /// Returns a sequence that, when this one throws, produces `element` and finishes instead.
  ///
  /// See ``AsyncReplaceErrorSequence`` for an example and how it finishes and cancels.
  @inlinable
  public func replaceError(with element: Element) -> AsyncReplaceErrorSequence<Self> {
    AsyncReplaceErrorSequence(self, replacement: element)
  }
}

/// An asynchronous sequence of a base's elements that, where the base throws, produces a replacement element and
/// finishes.
///
/// Use it where a failure should show as a value — a placeholder, a zero, an "unavailable" state — and the rest of
/// the pipeline should not have to handle errors:
///
/// ```swift
/// for await price in quotes.replaceError(with: .unavailable) {  // no `try`
///   show(price)
/// }
/// // quotes: 1.0 -- 1.2 -- ^
/// // Prints 1.0, 1.2, unavailable.
/// ```
///
/// The sequence cannot fail: when the base throws, the next `next()` returns the replacement, and the one after it
/// `nil`. When the base finishes, so does the sequence, without the replacement. Cancellation is the base's; a
/// `CancellationError` the base throws is replaced like any error.
///
/// Compared with Combine: `replaceError(with:)` has this meaning. See <doc:ReplaceError>.
public struct AsyncReplaceErrorSequence<Base: AsyncSequence>: AsyncSequence {
  /// The base's element type.
  public typealias Element = Base.Element
  /// The sequence cannot fail.
  public typealias Failure = Never

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

  /// The iterator of an ``AsyncReplaceErrorSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator?
    @usableFromInline let replacement: Element

    @inlinable init(_ base: Base.AsyncIterator, replacement: Element) {
      self.base = base
      self.replacement = replacement
    }

    /// Returns the base's next element; the replacement in place of its error, then `nil`.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
      guard base != nil else { return nil }
      do throws(Base.Failure) {
        if let element = try await base!.next(isolation: actor) { return element }
        base = nil
        return nil
      } catch {
        base = nil
        return replacement
      }
    }
  }
}

extension AsyncReplaceErrorSequence: Sendable where Base: Sendable, Element: Sendable {}

@available(*, unavailable)
extension AsyncReplaceErrorSequence.Iterator: Sendable {}
