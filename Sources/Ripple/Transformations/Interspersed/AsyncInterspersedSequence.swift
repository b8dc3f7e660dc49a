extension AsyncSequence where Element: Sendable {
  /// Returns a sequence of this sequence's elements with `separator` between each `every` of them and the next.
  ///
  /// See ``AsyncInterspersedSequence`` for an example and how it finishes, throws and cancels.
  ///
  /// - Parameters:
  ///   - every: How many elements go between two separators; 1, the default, puts one between every two
  ///     elements. It must be at least 1: a smaller value stops the program.
  ///   - separator: The value to put between the elements.
  @inlinable
  @_disfavoredOverload  // so that a closure literal is a separator closure, never an element of type `Any`
  public func interspersed(every: Int = 1, with separator: Element) -> AsyncInterspersedSequence<Self> {
    AsyncInterspersedSequence(self, every: every, separator: .value(separator))
  }

  /// Returns a sequence of this sequence's elements with a separator that `separator` makes between each `every` of
  /// them and the next.
  ///
  /// Use it when each separator is made afresh — from state at the time, numbered, timestamped:
  ///
  /// ```swift
  /// @MainActor func transcript(of chat: Chat) -> some AsyncSequence<String, Never> {
  ///   chat.messages.interspersed { chat.dividerStyle.text }  // reads main-actor state, no await
  /// }
  /// ```
  ///
  /// The closure may be synchronous or `async`, and may throw what the base throws; a synchronous one is called as
  /// it is, without an `async` frame. Otherwise the same as ``AsyncInterspersedSequence``, which shows how it
  /// finishes, throws and cancels.
  ///
  /// - Parameters:
  ///   - every: How many elements go between two separators; at least 1, and 1 by default.
  ///   - separator: Makes a separator, each time one is due.
  @inlinable
  public func interspersed(
    every: Int = 1,
    @_inheritActorContext with separator: @escaping @isolated(any) @Sendable () async throws(Failure) -> Element
  ) -> AsyncInterspersedSequence<Self> {
    AsyncInterspersedSequence(self, every: every, separator: .produce(separator))
  }

  /// Returns ``_Concurrency/AsyncSequence/interspersed(every:with:)-4xvdb`` with a
  /// synchronous separator closure, called without an `async` frame.
  @_documentation(visibility: internal)
  @inlinable
  public func interspersed(
    every: Int = 1,
    @_inheritActorContext with separator: @escaping @isolated(any) @Sendable () throws(Failure) -> Element
  ) -> AsyncInterspersedSequence<Self> {
    AsyncInterspersedSequence(self, every: every, separator: .make(separator))
  }
}

// Overload resolution only. With a base that does not throw, a non-throwing closure would match both the
// `throws(Failure)` overloads above and the throwing ones of `AsyncThrowingInterspersedSequence`, which are
// constrained to such bases; these, as constrained and more specific than both, settle it.
extension AsyncSequence where Element: Sendable, Failure == Never {
  /// Returns ``_Concurrency/AsyncSequence/interspersed(every:with:)-4xvdb`` with a
  /// separator closure that does not throw, for a base that does not throw.
  @_documentation(visibility: internal)
  @inlinable
  public func interspersed(
    every: Int = 1,
    @_inheritActorContext with separator: @escaping @isolated(any) @Sendable () async -> Element
  ) -> AsyncInterspersedSequence<Self> {
    AsyncInterspersedSequence(self, every: every, separator: .produce(separator))
  }

  /// Returns ``_Concurrency/AsyncSequence/interspersed(every:with:)-4xvdb`` with a
  /// synchronous separator closure that does not throw, for a base that does not throw.
  @_documentation(visibility: internal)
  @inlinable
  public func interspersed(
    every: Int = 1,
    @_inheritActorContext with separator: @escaping @isolated(any) @Sendable () -> Element
  ) -> AsyncInterspersedSequence<Self> {
    AsyncInterspersedSequence(self, every: every, separator: .make(separator))
  }
}

/// An asynchronous sequence of a base sequence's elements with a separator between them.
///
/// Use it to put a marker between items — a divider between messages, a comma between words, a pause between
/// notes:
///
/// ```swift
/// for await word in ["one", "two", "three"].async.interspersed(with: ", ") {
///   print(word, terminator: "")
/// }
/// // Prints one, two, three
/// ```
///
/// A separator goes only *between* elements, never before the first or after the last: with `every: n` one comes
/// after each `n` elements of the base, and only once the base has produced the element after it — so a separator
/// and the element that follows arrive together, and a base that ends after a multiple of `n` elements ends with an
/// element. A separator made by a closure is made when it is due, by the consumer's `next()`, on the isolation the
/// closure was written in (as the body of `Task { }` runs); it may be synchronous or `async`, as in
/// swift-async-algorithms. No task, no lock, no allocation per element.
///
/// - The sequence finishes when the base finishes; an empty base gives an empty sequence, a one-element base that
///   element.
/// - It throws what the base throws; a separator closure may throw the base's `Failure` too, so a non-throwing base
///   gives a non-throwing sequence (over such a base, a closure throwing any error gives an
///   ``AsyncThrowingInterspersedSequence``).
///   An error comes after the elements before it, and without a separator before it; then `next()` returns `nil`.
///   An error of the separator closure drops the element that would have followed.
/// - Cancellation is the base's: the operator neither checks for it nor has anything to cancel.
/// - `every` below 1 stops the program when the sequence is made, with a message naming the value, as
///   swift-async-algorithms' precondition does.
///
/// Create it with ``_Concurrency/AsyncSequence/interspersed(every:with:)-(_,Self.Element)`` or one of its
/// overloads; see <doc:Intersperse>. It is `Sendable` when its base is.
public struct AsyncInterspersedSequence<Base: AsyncSequence>: AsyncSequence where Base.Element: Sendable {
  /// The base's element type, which the separators share.
  public typealias Element = Base.Element
  /// The base's error type, which a separator closure may throw too.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let every: Int
  @usableFromInline let separator: _Separator<Element, Failure>

  @inlinable init(_ base: Base, every: Int, separator: _Separator<Element, Failure>) {
    precondition(every >= 1, "interspersed(every:with:) needs every >= 1, got \(every)")
    self.base = base
    self.every = every
    self.separator = separator
  }

  /// Creates an iterator over the base's elements and the separators between them.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base.makeAsyncIterator(), every: every, separator: separator)
  }

  /// The iterator of an ``AsyncInterspersedSequence``; one task iterates it. The throwing sequence runs it over its
  /// base with the error widened to `any Error`, so that one `throws` type covers the base's errors and the
  /// separator closure's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let every: Int
    @usableFromInline let separator: _Separator<Element, Failure>
    /// The elements delivered since the last separator, or since the start.
    @usableFromInline var run = 0
    /// The element that follows the separator just delivered.
    @usableFromInline var pending: Element?
    @usableFromInline var finished = false

    @inlinable init(_ base: Base.AsyncIterator, every: Int, separator: _Separator<Element, Failure>) {
      self.base = base
      self.every = every
      self.separator = separator
    }

    /// Returns the base's next element, or a separator when `every` elements have passed since the last one and the
    /// base has another element; `nil` when the base ends, and after an error.
    @inlinable
    public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Element? {
      if let element = pending.take() {
        run = 1
        return element
      }
      guard !finished else { return nil }
      do throws(Failure) {
        if let element = try await base.next(isolation: actor) {
          guard run == every else {
            run += 1
            return element
          }
          // A separator only between two elements: it is due, and the element after it has come.
          pending = element
          switch separator {
          case .value(let value): return value
          // On the closure's own isolation (the usual case) the call makes no hop.
          case .make(let make): return try await make()
          case .produce(let produce): return try await produce()
          }
        }
      } catch {
        finished = true
        pending = nil
        throw error
      }
      finished = true
      return nil
    }
  }
}

extension AsyncInterspersedSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncInterspersedSequence.Iterator: Sendable {}

/// Where an interspersed sequence's separators come from: one value, or a closure called for each, synchronous or
/// `async` as it was given.
@usableFromInline
enum _Separator<Element: Sendable, Failure: Error>: Sendable {
  case value(Element)
  case make(@isolated(any) @Sendable () throws(Failure) -> Element)
  case produce(@isolated(any) @Sendable () async throws(Failure) -> Element)
}
