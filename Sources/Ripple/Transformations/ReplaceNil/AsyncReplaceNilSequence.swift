extension AsyncSequence {
  /// Returns a sequence of this sequence's optional elements with `nil` replaced by `element`.
  ///
  /// See ``AsyncReplaceNilSequence`` for an example.
  @inlinable
  public func replaceNil<Wrapped>(with element: Wrapped) -> AsyncReplaceNilSequence<Self, Wrapped>
  where Element == Wrapped? {
    AsyncReplaceNilSequence(self, replacement: element)
  }
}

/// An asynchronous sequence of a base's optional elements, with each `nil` replaced by a given element.
///
/// Use it where an absent value has a meaningful default — an empty field counting as zero:
///
/// ```swift
/// for await a in Observed({ form.a }).replaceNil(with: 0) {  // form.a: Int?
///   print(a)
/// }
/// // form.a: 1 -- nil -- 3
/// // Prints 1, 0, 3.
/// ```
///
/// It finishes, throws and reacts to cancellation as the base does; to drop the `nil`s instead, use
/// ``_Concurrency/AsyncSequence/compacted()``.
///
/// Compared with Combine: `replaceNil(with:)` has this meaning. See <doc:ReplaceNil>.
public struct AsyncReplaceNilSequence<Base: AsyncSequence, Wrapped>: AsyncSequence where Base.Element == Wrapped? {
  /// The base's elements, unwrapped.
  public typealias Element = Wrapped
  /// The base's error type.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let replacement: Wrapped

  @inlinable init(_ base: Base, replacement: Wrapped) {
    self.base = base
    self.replacement = replacement
  }

  /// Creates an iterator over the base's elements.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base.makeAsyncIterator(), replacement: replacement)
  }

  /// The iterator of an ``AsyncReplaceNilSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let replacement: Wrapped

    @inlinable init(_ base: Base.AsyncIterator, replacement: Wrapped) {
      self.base = base
      self.replacement = replacement
    }

    /// Returns the base's next element, or the replacement where it is `nil`.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Wrapped? {
      guard let element = try await base.next(isolation: actor) else { return nil }
      return element ?? replacement
    }
  }
}

extension AsyncReplaceNilSequence: Sendable where Base: Sendable, Wrapped: Sendable {}

@available(*, unavailable)
extension AsyncReplaceNilSequence.Iterator: Sendable {}
