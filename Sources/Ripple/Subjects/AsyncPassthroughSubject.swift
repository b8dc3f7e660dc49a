/// A subject that hands each element sent to every iterator that exists at that moment.
///
/// Use it for events with several listeners (taps, notifications, a delegate's callbacks) where Combine code had a
/// `PassthroughSubject`. `send(_:)` is synchronous and never waits, so a button action, a nonisolated delegate method
/// or a C callback's thread can call it. An element sent while no iterator exists is dropped; when events must wait
/// for their one consumer, use ``AsyncBufferedChannel`` instead.
///
/// Every iterator gets every element sent from now on, each from a buffer of its own (see
/// ``AsyncSubjectBufferingPolicy``), in the order of the sends: an element sent before the iterator was made
/// (`makeAsyncIterator()`, which `for await` calls as the loop starts) is not delivered to it. See <doc:Subjects>.
///
/// ```swift
/// let taps = AsyncPassthroughSubject<String>()
/// var log = taps.makeAsyncIterator()  // listens from now on, as a `for await` loop does from its start
/// var audit = taps.makeAsyncIterator()
/// taps.send("ok")  // from a button action: no `await`
/// taps.send(.finished)
/// print(await log.next(), await audit.next(), await log.next())  // Optional("ok") Optional("ok") nil
/// ```
///
/// ## Finishing, throwing, cancellation
/// After `send(.finished)`, each iterator returns what it had buffered, then `nil`; later sends do
/// nothing, and an iterator made later ends at once. Cancelling the consuming task, or dropping the iterator, ends that
/// iterator only: its `next()` returns `nil`, and its buffer is freed at once (a task cancelled while busy outside
/// `next()` leaves at its next call). When the last reference to the subject goes away, its iterators finish as
/// after `send(.finished)`: nothing could send to them any more. A subject with no iterators holds nothing but
/// itself.
public final class AsyncPassthroughSubject<Element: Sendable>: AsyncSubject {
  /// A passthrough subject never fails: end it with `send(.finished)`.
  public typealias Failure = Never

  @usableFromInline let storage: _SubjectStorage<Element, Never>

  /// Creates a subject with no iterators.
  ///
  /// - Parameter bufferingPolicy: What each iterator's buffer keeps while its consumer is busy; every element, by
  ///   default. See ``AsyncSubjectBufferingPolicy``.
  public init(bufferingPolicy: AsyncSubjectBufferingPolicy = .unbounded) {
    storage = _SubjectStorage(policy: bufferingPolicy, replayLimit: 0, replaysAfterTermination: false, initial: nil)
  }

  deinit {
    storage.send(.finished)
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

  /// Creates an iterator that gets every element sent from now on.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(_SubjectSide(storage))
  }

  /// The iterator of ``AsyncPassthroughSubject``. Dropping it leaves the subject and frees its buffer.
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
extension AsyncPassthroughSubject.Iterator: Sendable {}
