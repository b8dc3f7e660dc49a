/// An ``AsyncReplaySubject`` that can end with an error as well as finish.
///
/// Use it when a late listener must catch up on recent history — the last few log lines, the last result of a
/// search — or, with `bufferSize: 1`, as a current-value subject that starts empty. `send(_:)` is synchronous and
/// never waits, from any isolation. `multicast(AsyncReplaySubject(bufferSize: 1)).autoconnect()` shares one
/// iteration of a sequence with a replay of its latest element.
///
/// It can end with `send(.failure(error))`, which each iterator throws once it took its buffer.
///
/// Every iterator gets the replay first, then every element sent from now on, each from a buffer of its own (see
/// ``AsyncSubjectBufferingPolicy``), in the order of the sends: an element sent before the iterator was made
/// (`makeAsyncIterator()`, which `for await` calls as the loop starts) is not delivered to it. See <doc:Subjects>.
///
/// ```swift
/// let lines = AsyncThrowingReplaySubject<String, any Error>(bufferSize: 2)
/// lines.send("a")
/// lines.send("b")
/// lines.send("c")
/// var late = lines.makeAsyncIterator()
/// lines.send("d")
/// lines.send(.finished)
/// while let line = try await late.next() { print(line) }  // b, c, d
/// ```
///
/// ## Finishing, throwing, cancellation
/// After `send(.finished)` or `send(.failure(error))`, each iterator returns what
/// it had buffered, then `nil` or the error (once; `nil` follows); later sends do nothing, and an iterator made later
/// gets the replay, then the end. Cancelling the consuming task, or dropping the iterator, ends that iterator only: its
/// `next()` returns `nil`, and its buffer is freed at once (a task cancelled while busy outside `next()` leaves at its
/// next call). When the last reference to the subject goes away, its iterators finish as after `send(.finished)`:
/// nothing could send to them any more. A subject with no iterators holds nothing but its last `bufferSize` elements.
public final class AsyncThrowingReplaySubject<Element: Sendable, Failure: Error>: AsyncSubject {
  @usableFromInline let storage: _SubjectStorage<Element, Failure>

  /// Creates a subject that replays the last `bufferSize` elements to each new iterator.
  ///
  /// - Parameters:
  ///   - bufferSize: How many of the latest elements a new iterator gets first; 0 replays nothing (a passthrough
  ///     subject). A negative size stops the program with a message naming it.
  ///   - bufferingPolicy: What each iterator's buffer keeps while its consumer is busy (the replay included);
  ///     every element, by default. See ``AsyncSubjectBufferingPolicy``.
  public init(bufferSize: Int, bufferingPolicy: AsyncSubjectBufferingPolicy = .unbounded) {
    precondition(bufferSize >= 0, "AsyncThrowingReplaySubject(bufferSize: \(bufferSize)): the size must be 0 or more")
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

  /// Ends every iteration after its buffer: `.finished`, or `.failure(error)`, which each iterator throws. The first
  /// termination counts; later ones and later elements are ignored.
  public func send(_ termination: Termination<Failure>) {
    storage.send(termination)
  }

  /// Creates an iterator that gets the replay first, then every element sent from now on.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(_SubjectSide(storage))
  }

  /// The iterator of ``AsyncThrowingReplaySubject``. Dropping it leaves the subject and frees its buffer.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let side: _SubjectSide<Element, Failure>

    @inlinable init(_ side: _SubjectSide<Element, Failure>) {
      self.side = side
    }

    /// The next element; `nil` once the subject ended and the buffer is empty, after throwing the failure once, or when
    /// the consuming task is cancelled.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      try await side.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncThrowingReplaySubject.Iterator: Sendable {}
