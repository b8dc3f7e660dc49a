/// A subject that holds a current value: each new iterator gets it first, then every element sent.
///
/// Use it for state that lives outside Observation — a service's connection status, a non-UI actor's progress —
/// where Combine code had a `CurrentValueSubject`. (For the state of an `@Observable` model, use ``Observed``.)
/// `send(_:)`, or assigning ``value``, is synchronous and never waits, from any isolation. For state, where a slow
/// consumer only needs the newest value, pass `bufferingPolicy: .bufferingNewest(1)`.
///
/// Every iterator gets the current value first (unless the buffering limit is 0, which keeps nothing for an iterator
/// that is not waiting, the current value included), then every element sent from now on, each from a buffer of its own
/// (see ``AsyncSubjectBufferingPolicy``), in the order of the sends: an element sent before the iterator was made
/// (`makeAsyncIterator()`, which `for await` calls as the loop starts) is not delivered to it. See <doc:Subjects>.
///
/// ```swift
/// let progress = AsyncCurrentValueSubject(0)
/// var view = progress.makeAsyncIterator()
/// progress.value = 50
/// progress.send(100)
/// progress.send(.finished)
/// while let percent = await view.next() { print(percent) }  // 0, 50, 100
/// print(progress.value)  // 100
/// ```
///
/// ## Finishing, throwing, cancellation
/// After `send(.finished)`, each iterator returns what it had buffered, then
/// `nil`; later sends do nothing, and an iterator made later ends at once, without the value (as with Combine's
/// `CurrentValueSubject`). Cancelling the consuming task, or dropping the iterator, ends that iterator only: its
/// `next()` returns `nil`, and its buffer is freed at once (a task cancelled while busy outside `next()` leaves at its
/// next call). When the last reference to the subject goes away, its iterators finish as after `send(.finished)`:
/// nothing could send to them any more. A subject with no iterators holds nothing but its value.
public final class AsyncCurrentValueSubject<Element: Sendable>: AsyncSubject {
  /// A current-value subject never fails: end it with `send(.finished)`.
  public typealias Failure = Never

  @usableFromInline let storage: _SubjectStorage<Element, Never>

  /// Creates a subject holding `value`, which each new iterator gets first.
  ///
  /// - Parameters:
  ///   - value: The current value.
  ///   - bufferingPolicy: What each iterator's buffer keeps while its consumer is busy; every element, by default.
  ///     See ``AsyncSubjectBufferingPolicy``.
  public init(_ value: Element, bufferingPolicy: AsyncSubjectBufferingPolicy = .unbounded) {
    storage = _SubjectStorage(policy: bufferingPolicy, replayLimit: 1, replaysAfterTermination: false, initial: value)
  }

  deinit {
    storage.send(.finished)
  }

  /// The current value: the latest element sent, or the initial one. Assigning it sends the new value, as
  /// `send(_:)` does; after a termination an assignment does nothing and the value stays the last one sent.
  @inlinable
  public var value: Element {
    get { storage.current }
    set { storage.send(newValue) }
  }

  /// Sends `element` to every iterator that exists now, without waiting; does nothing after a termination.
  @inlinable
  public func send(_ element: Element) {
    storage.send(element)
  }

  /// Ends every iteration after its buffer: `.finished`. The first
  /// termination counts; later ones and later elements are ignored.
  public func send(_ termination: Termination<Never>) {
    storage.send(termination)
  }

  /// Creates an iterator that gets the current value first, then every element sent from now on.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(_SubjectSide(storage))
  }

  /// The iterator of ``AsyncCurrentValueSubject``. Dropping it leaves the subject and frees its buffer.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let side: _SubjectSide<Element, Never>

    @inlinable init(_ side: _SubjectSide<Element, Never>) {
      self.side = side
    }

    /// The next element; `nil` once the subject ended and the buffer is empty, or when the
    /// consuming task is cancelled.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
      await side.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncCurrentValueSubject.Iterator: Sendable {}
