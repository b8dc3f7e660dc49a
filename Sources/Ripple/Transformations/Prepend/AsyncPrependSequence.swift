extension AsyncSequence {
  /// Returns a sequence that produces `element`, then the elements of this sequence.
  ///
  /// See ``AsyncPrependSequence`` for an example and how it finishes, throws and cancels.
  @inlinable
  public func prepend(_ element: Element) -> AsyncPrependSequence<Self> {
    AsyncPrependSequence(self, prefix: [element])
  }

  /// Returns a sequence that produces the elements of `elements`, then the elements of this sequence.
  ///
  /// `elements` is copied when the sequence is made. See ``AsyncPrependSequence``.
  @inlinable
  public func prepend(_ elements: some Sequence<Element>) -> AsyncPrependSequence<Self> {
    AsyncPrependSequence(self, prefix: Array(elements))
  }

  /// Returns a sequence that produces the elements of `other`, then, once it has finished, the elements of this
  /// sequence: ``chain(_:_:)`` with `other` first, as Combine's `prepend(_:)` of a publisher.
  ///
  /// ```swift
  /// for await message in live.prepend(history) { show(message) }  // history's messages, then the live ones
  /// ```
  ///
  /// `other` is iterated to its end first; its error ends the sequence, and this one is then never iterated. See
  /// <doc:Prepend>.
  @inlinable
  public func prepend<Other: AsyncSequence>(
    _ other: Other
  ) -> AsyncChain2Sequence<Other, Self> where Other.Element == Element, Other.Failure == Failure {
    chain(other, self)
  }
}

/// An asynchronous sequence that produces some elements, then the elements of a base sequence.
///
/// Use it to start a sequence with a value that is known already — a placeholder, the cached result, the current
/// state before the changes:
///
/// ```swift
/// for await status in updates.prepend(.loading) {
///   show(status)
/// }
/// // updates: ---- ready --|
/// // Prints loading, ready.
/// ```
///
/// ``_Concurrency/AsyncSequence/prepend(_:)-(Self.Element)`` puts one element first,
/// ``_Concurrency/AsyncSequence/prepend(_:)-(Sequence<Self.Element>)`` the elements of a collection, in order;
/// the first `next()` returns the first of them without asking the base, which is asked from the first `next()`
/// after them. It then finishes, throws and reacts to cancellation as the base does: the prefix goes out even in a
/// cancelled task. The sequence is `Sendable` when its base and elements are. Prepending an async sequence gives
/// ``chain(_:_:)``.
///
/// Compared with Combine: `prepend(_:)` of values, a sequence or a publisher has these meanings; AsyncExtensions'
/// `prepend(_:)` of an element returns `nil` at once in a cancelled task, where Ripple delivers the element. See
/// <doc:Prepend>.
public struct AsyncPrependSequence<Base: AsyncSequence>: AsyncSequence {
  /// The base's element type.
  public typealias Element = Base.Element
  /// The base's error type.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let prefix: [Element]

  @inlinable init(_ base: Base, prefix: [Element]) {
    self.base = base
    self.prefix = prefix
  }

  /// Creates an iterator over the prefix, then the base.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base.makeAsyncIterator(), prefix: prefix)
  }

  /// The iterator of an ``AsyncPrependSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let prefix: [Element]
    /// The index in `prefix` of the next element to return; past its end, the base's turn.
    @usableFromInline var index = 0

    @inlinable init(_ base: Base.AsyncIterator, prefix: [Element]) {
      self.base = base
      self.prefix = prefix
    }

    /// Returns the next element of the prefix, then the base's next element.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      guard index == prefix.count else {
        defer { index += 1 }
        return prefix[index]
      }
      return try await base.next(isolation: actor)
    }
  }
}

extension AsyncPrependSequence: Sendable where Base: Sendable, Element: Sendable {}

@available(*, unavailable)
extension AsyncPrependSequence.Iterator: Sendable {}
