extension AsyncSequence {
  /// Returns a sequence that produces the elements of this sequence, then `element` once it has finished.
  ///
  /// See ``AsyncAppendSequence`` for an example and how it finishes, throws and cancels.
  @inlinable
  public func append(_ element: Element) -> AsyncAppendSequence<Self> {
    AsyncAppendSequence(self, suffix: [element])
  }

  /// Returns a sequence that produces the elements of this sequence, then those of `elements` once it has finished.
  ///
  /// `elements` is copied when the sequence is made. See ``AsyncAppendSequence``.
  @inlinable
  public func append(_ elements: some Sequence<Element>) -> AsyncAppendSequence<Self> {
    AsyncAppendSequence(self, suffix: Array(elements))
  }

  /// Returns a sequence that produces the elements of this sequence, then, once it has finished, those of `other`:
  /// ``chain(_:_:)`` with `other` second, as Combine's `append(_:)` of a publisher.
  ///
  /// ```swift
  /// for await step in setup.append(work) { print(step) }  // setup's steps, then work's
  /// ```
  ///
  /// An error of this sequence ends it, and `other` is then never iterated. See <doc:Prepend>.
  @inlinable
  public func append<Other: AsyncSequence>(
    _ other: Other
  ) -> AsyncChain2Sequence<Self, Other> where Other.Element == Element, Other.Failure == Failure {
    chain(self, other)
  }
}

/// An asynchronous sequence that produces the elements of a base sequence, then some more once it has finished.
///
/// Use it to end a sequence with a known value — a summary, a sentinel, the state after the last change:
///
/// ```swift
/// for await line in log.append("-- end of log --") {
///   print(line)
/// }
/// ```
///
/// The suffix goes out only after the base finished: when the base throws, the error is thrown and the suffix
/// never comes, and when the base ends because its task was cancelled, the suffix comes all the same (as after any
/// finish). After the suffix, `next()` returns `nil`. The sequence is `Sendable` when its base and elements are.
/// Appending an async sequence gives ``chain(_:_:)``.
///
/// Compared with Combine: `append(_:)` of values, a sequence or a publisher has these meanings. See <doc:Prepend>.
public struct AsyncAppendSequence<Base: AsyncSequence>: AsyncSequence {
  /// The base's element type.
  public typealias Element = Base.Element
  /// The base's error type.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let suffix: [Element]

  @inlinable init(_ base: Base, suffix: [Element]) {
    self.base = base
    self.suffix = suffix
  }

  /// Creates an iterator over the base, then the suffix.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base.makeAsyncIterator(), suffix: suffix)
  }

  /// The iterator of an ``AsyncAppendSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator?
    @usableFromInline let suffix: [Element]
    /// The index in `suffix` of the next element to return, once the base has finished.
    @usableFromInline var index = 0

    @inlinable init(_ base: Base.AsyncIterator, suffix: [Element]) {
      self.base = base
      self.suffix = suffix
    }

    /// Returns the base's next element, then, after its finish, the next element of the suffix.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      if base != nil {
        do throws(Failure) {
          if let element = try await base!.next(isolation: actor) { return element }
          base = nil
        } catch {
          // An error ends the sequence: the suffix is for a finish only.
          base = nil
          index = suffix.count
          throw error
        }
      }
      guard index < suffix.count else { return nil }
      defer { index += 1 }
      return suffix[index]
    }
  }
}

extension AsyncAppendSequence: Sendable where Base: Sendable, Element: Sendable {}

@available(*, unavailable)
extension AsyncAppendSequence.Iterator: Sendable {}
