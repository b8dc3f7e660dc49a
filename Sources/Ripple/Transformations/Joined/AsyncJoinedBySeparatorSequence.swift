extension AsyncSequence where Element: AsyncSequence {
  /// Returns a sequence of the elements of every inner sequence, one inner sequence after the other, with the
  /// elements of `separator` between each two.
  ///
  /// See ``AsyncJoinedBySeparatorSequence`` for an example and how it finishes, throws and cancels.
  ///
  /// - Parameter separator: The elements to put between two inner sequences; iterated once, at the first gap, and
  ///   replayed at the others.
  @inlinable
  public func joined<Separator: AsyncSequence>(
    separator: Separator
  ) -> AsyncJoinedBySeparatorSequence<Self, Separator>
  where Element.Failure == Failure, Separator.Failure == Failure {
    AsyncJoinedBySeparatorSequence(self, separator: separator)
  }
}

// The overloads for other error types; `SendableMetatype` because they wrap the inner sequences in the standard
// library's `map`, whose closure is `@Sendable`.
extension AsyncSequence where Element: AsyncSequence & SendableMetatype {
  /// Returns ``_Concurrency/AsyncSequence/joined(separator:)`` with a separator that cannot fail.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func joined<Separator: AsyncSequence>(
    separator: Separator
  ) -> AsyncJoinedBySeparatorSequence<Self, AsyncMapErrorSequence<Separator, Failure>>
  where Element.Failure == Failure, Separator.Failure == Never {
    AsyncJoinedBySeparatorSequence(self, separator: separator._failing(as: Failure.self))
  }

  /// Returns ``_Concurrency/AsyncSequence/joined(separator:)`` of a base that cannot fail, with a separator that
  /// fails as the inner sequences do.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func joined<Separator: AsyncSequence>(
    separator: Separator
  ) -> AsyncJoinedBySeparatorSequence<AsyncMapErrorSequence<Self, Element.Failure>, Separator>
  where Failure == Never, Separator.Failure == Element.Failure {
    AsyncJoinedBySeparatorSequence(_failing(as: Element.Failure.self), separator: separator)
  }

  /// Returns ``_Concurrency/AsyncSequence/joined(separator:)`` of a base and a separator that cannot fail.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func joined<Separator: AsyncSequence>(
    separator: Separator
  ) -> AsyncJoinedBySeparatorSequence<
    AsyncMapErrorSequence<Self, Element.Failure>, AsyncMapErrorSequence<Separator, Element.Failure>
  >
  where Failure == Never, Separator.Failure == Never {
    AsyncJoinedBySeparatorSequence(
      _failing(as: Element.Failure.self), separator: separator._failing(as: Element.Failure.self))
  }

  /// Returns ``_Concurrency/AsyncSequence/joined(separator:)`` of inner sequences that cannot fail, with a separator
  /// that fails as the base does.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func joined<Separator: AsyncSequence>(
    separator: Separator
  ) -> AsyncJoinedBySeparatorSequence<AsyncMapSequence<Self, AsyncMapErrorSequence<Element, Failure>>, Separator>
  where Element.Failure == Never, Separator.Failure == Failure {
    AsyncJoinedBySeparatorSequence(_innersFailing(as: Failure.self), separator: separator)
  }

  /// Returns ``_Concurrency/AsyncSequence/joined(separator:)`` of inner sequences and a separator that cannot fail.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func joined<Separator: AsyncSequence>(
    separator: Separator
  ) -> AsyncJoinedBySeparatorSequence<
    AsyncMapSequence<Self, AsyncMapErrorSequence<Element, Failure>>, AsyncMapErrorSequence<Separator, Failure>
  >
  where Element.Failure == Never, Separator.Failure == Never {
    AsyncJoinedBySeparatorSequence(_innersFailing(as: Failure.self), separator: separator._failing(as: Failure.self))
  }

  /// Returns ``_Concurrency/AsyncSequence/joined(separator:)`` of a base and inner sequences that cannot fail, with a
  /// separator that can.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func joined<Separator: AsyncSequence>(
    separator: Separator
  ) -> AsyncJoinedBySeparatorSequence<
    AsyncMapSequence<AsyncMapErrorSequence<Self, Separator.Failure>, AsyncMapErrorSequence<Element, Separator.Failure>>,
    Separator
  >
  where Failure == Never, Element.Failure == Never {
    AsyncJoinedBySeparatorSequence(
      _failing(as: Separator.Failure.self)._innersFailing(as: Separator.Failure.self), separator: separator)
  }

  /// Returns ``_Concurrency/AsyncSequence/joined(separator:)`` of a base, inner sequences and a separator of
  /// different error types: the sequence throws `any Error`, each error as it was thrown.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func joined<Separator: AsyncSequence>(
    separator: Separator
  ) -> AsyncJoinedBySeparatorSequence<
    AsyncMapErrorSequence<AsyncMapSequence<Self, AsyncMapErrorSequence<Element, any Error>>, any Error>,
    AsyncMapErrorSequence<Separator, any Error>
  > {
    AsyncJoinedBySeparatorSequence(
      map { inner in inner._failingWithAnyError }._failingWithAnyError, separator: separator._failingWithAnyError)
  }
}

/// An asynchronous sequence of the elements of a base's inner sequences, one inner sequence after the other, with
/// the elements of a separator between each two.
///
/// Use it to mark where one inner sequence ends and the next begins — a rule between the lines of two files, a
/// blank line between paragraphs:
///
/// ```swift
/// let files = ["a.txt", "b.txt"].async.map { name in lines(of: name) }
/// for try await line in files.joined(separator: ["----"].async) {
///   print(line)
/// }
/// // Prints the lines of a.txt, then ----, then the lines of b.txt.
/// ```
///
/// The separator comes between every two inner sequences the base produces, empty ones included, and neither
/// before the first nor after the last: as the standard library's `joined(separator:)`. It is iterated once, at the
/// first gap, and its elements are kept and replayed at the following gaps, so a separator that can be iterated only
/// once, or that does work, gives the same elements every time. The base is asked for its next inner sequence only
/// once the current one has finished, and the separator comes only once there is a next one. No task is started:
/// everything is iterated by the consuming task, on its isolation. Each iterator iterates the base and the
/// separator anew.
///
/// - The sequence finishes when the base finishes, after the last inner sequence.
/// - A base, inner sequences and a separator of one `Failure` type give the sequence that type, and non-throwing
///   ones a non-throwing sequence. Those that cannot fail do not count: the sequence fails as the others do when they
///   share a type, and throws `any Error` when their types differ. An error is thrown as it is, and then `next()`
///   returns `nil`.
/// - Cancellation is the sequences' own: the consuming task's cancellation reaches the base, the inner sequence or
///   the separator being iterated.
///
/// See <doc:Joined> for the design and a comparison with Combine and swift-async-algorithms.
public struct AsyncJoinedBySeparatorSequence<Base: AsyncSequence, Separator: AsyncSequence>: AsyncSequence
where
  Base.Element: AsyncSequence, Separator.Element == Base.Element.Element, Base.Element.Failure == Base.Failure,
  Separator.Failure == Base.Failure
{
  /// The inner sequences' element type, which the separator shares.
  public typealias Element = Base.Element.Element
  /// The error type of the base, the inner sequences and the separator.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let separator: Separator

  @inlinable init(_ base: Base, separator: Separator) {
    self.base = base
    self.separator = separator
  }

  /// Creates an iterator; each iterator iterates the base and the separator anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base.makeAsyncIterator(), separator: separator)
  }

  /// The iterator of an ``AsyncJoinedBySeparatorSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    /// The base's iterator, until it has finished or thrown.
    @usableFromInline var outer: Base.AsyncIterator?
    /// The current inner sequence's iterator, between its first and its last element.
    @usableFromInline var inner: Base.Element.AsyncIterator?
    /// The inner sequence that follows the separator being delivered.
    @usableFromInline var following: Base.Element?
    /// The separator, until its first gap.
    @usableFromInline var separator: Separator?
    /// The separator's iterator during the first gap.
    @usableFromInline var separatorIterator: Separator.AsyncIterator?
    /// The separator's elements, kept during the first gap and replayed at the others.
    @usableFromInline var separatorElements: ContiguousArray<Element> = []
    /// The index of the next separator element to replay.
    @usableFromInline var replayed = 0

    @inlinable init(_ outer: Base.AsyncIterator, separator: Separator) {
      self.outer = outer
      self.separator = separator
    }

    /// Returns the next element of the current inner sequence, then of the separator, then of the base's next inner
    /// sequence; `nil` once the base has finished, and after an error.
    @inlinable @inline(__always)
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      // Inlined into the caller (@inline(__always)), `joined()`'s `next()` included: a call would cost an async
      // frame and an executor check per element.
      do throws(Failure) {
        while true {
          if inner != nil {
            if let element = try await inner!.next(isolation: actor) { return element }
            inner = nil
            // The separator comes only between two inner sequences: it waits for the next one.
            guard let sequence = try await outer!.next(isolation: actor) else { break }
            following = sequence
            if let separator = separator.take() { separatorIterator = separator.makeAsyncIterator() }
          }
          if following != nil {
            if let element = try await nextSeparatorElement(isolation: actor) { return element }
            inner = following.take()!.makeAsyncIterator()
            continue
          }
          guard outer != nil, let sequence = try await outer!.next(isolation: actor) else { break }
          inner = sequence.makeAsyncIterator()
        }
      } catch {
        end()
        throw error
      }
      end()
      return nil
    }

    /// The separator's next element in the current gap: live at the first gap, replayed at the others.
    @inlinable
    mutating func nextSeparatorElement(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      if separatorIterator != nil {
        if let element = try await separatorIterator!.next(isolation: actor) {
          separatorElements.append(element)
          return element
        }
        separatorIterator = nil
        return nil
      }
      guard replayed < separatorElements.count else {
        replayed = 0
        return nil
      }
      defer { replayed += 1 }
      return separatorElements[replayed]
    }

    @inlinable
    mutating func end() {
      outer = nil
      inner = nil
      following = nil
      separator = nil
      separatorIterator = nil
      separatorElements = []
    }
  }
}

extension AsyncJoinedBySeparatorSequence: Sendable where Base: Sendable, Separator: Sendable {}

@available(*, unavailable)
extension AsyncJoinedBySeparatorSequence.Iterator: Sendable {}
