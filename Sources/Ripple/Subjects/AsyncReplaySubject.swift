/// A subject that replays the last `bufferSize` elements sent to each new iterator, then hands it every element sent.
///
/// Use it when a late listener must catch up on recent history — the last few log lines, the last result of a
/// search — or, with `bufferSize: 1`, as a current-value subject that starts empty. `send(_:)` is synchronous and
/// never waits, from any isolation. `multicast(AsyncReplaySubject(bufferSize: 1)).autoconnect()` shares one
/// iteration of a sequence with a replay of its latest element.
///
/// Every iterator gets the replay first, then every element sent from now on, each from a buffer of its own (see
/// ``AsyncSubjectBufferingPolicy``), in the order of the sends: an element sent before the iterator was made
/// (`makeAsyncIterator()`, which `for await` calls as the loop starts) is not delivered to it. See <doc:Subjects>.
///
/// ```swift
/// let lines = AsyncReplaySubject<String>(bufferSize: 2)
/// lines.send("a")
/// lines.send("b")
/// lines.send("c")
/// var late = lines.makeAsyncIterator()
/// lines.send("d")
/// lines.send(.finished)
/// while let line = await late.next() { print(line) }  // b, c, d
/// ```
///
/// ## Finishing, throwing, cancellation
/// After `send(.finished)`, each iterator returns what it had buffered, then
/// `nil`; later sends do nothing, and an iterator made later gets the replay, then the end. Cancelling the consuming
/// task, or dropping the iterator, ends that iterator only: its `next()` returns `nil`, and its buffer is freed at once
/// (a task cancelled while busy outside `next()` leaves at its next call). When the last reference to the subject goes
/// away, its iterators finish as after `send(.finished)`: nothing could send to them any more. A subject with no
/// iterators holds nothing but its last `bufferSize` elements.
public final class AsyncReplaySubject<Element: Sendable>: AsyncSubject {
  /// A replay subject never fails: end it with `send(.finished)`.
  public typealias Failure = Never

  @usableFromInline let storage: _SubjectStorage<Element, Never>

  /// Creates a subject that replays the last `bufferSize` elements to each new iterator.
  ///
  /// - Parameters:
  ///   - bufferSize: How many of the latest elements a new iterator gets first; 0 replays nothing (a passthrough
  ///     subject). A negative size stops the program with a message naming it.
  ///   - bufferingPolicy: What each iterator's buffer keeps while its consumer is busy (the replay included);
  ///     every element, by default. See ``AsyncSubjectBufferingPolicy``.
  public init(bufferSize: Int, bufferingPolicy: AsyncSubjectBufferingPolicy = .unbounded) {
    precondition(bufferSize >= 0, "AsyncReplaySubject(bufferSize: \(bufferSize)): the size must be 0 or more")
    storage = _SubjectStorage(
      policy: bufferingPolicy, replayLimit: bufferSize, replaysAfterTermination: true, initial: nil)
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

  /// Creates an iterator that gets the replay first, then every element sent from now on.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(_SubjectSide(storage))
  }

  /// The iterator of ``AsyncReplaySubject``. Dropping it leaves the subject and frees its buffer.
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
extension AsyncReplaySubject.Iterator: Sendable {}
