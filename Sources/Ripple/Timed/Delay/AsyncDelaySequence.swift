extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Shifts each element, the finish and a failure later by `interval` on `clock`, keeping their order.
  ///
  /// See ``AsyncDelaySequence`` for an example and how it finishes, throws and cancels.
  ///
  /// - Parameters:
  ///   - interval: How much later than the base each event is delivered; zero or more.
  ///   - tolerance: The tolerance passed to `clock` when sleeping.
  ///   - clock: The clock that measures `interval`; inject a `TestClock` in tests.
  @inlinable
  public func delay<C: Clock>(
    for interval: C.Duration, tolerance: C.Duration? = nil, clock: C
  ) -> AsyncDelaySequence<Self, C> {
    precondition(interval >= .zero, "delay(for:tolerance:clock:): interval must be zero or more, got \(interval)")
    return AsyncDelaySequence(base: self, interval: interval, tolerance: tolerance, clock: clock)
  }

  /// Shifts each element, the finish and a failure later by `interval` on the continuous clock.
  ///
  /// See ``AsyncDelaySequence``.
  @inlinable
  public func delay(for interval: Duration, tolerance: Duration? = nil) -> AsyncDelaySequence<Self, ContinuousClock> {
    delay(for: interval, tolerance: tolerance, clock: ContinuousClock())
  }
}

/// An asynchronous sequence that delivers each element of its base — and its finish or failure — `interval` later
/// than the base produced it, in the same order.
///
/// Use it to hold back what a source says for a moment: show a spinner only if loading takes a while, let an
/// animation finish before the next state, replay a recorded session with its timing:
///
/// ```swift
/// // Input:  a b . . c |   (one character per second)
/// for await event in events.delay(for: .seconds(2), clock: clock) {
///   print(event)
/// }
/// // Prints "a" at 2 s, "b" at 3 s, "c" at 6 s, then finishes at 7 s.
/// ```
///
/// The base is iterated in a task of its own from the first `next()` on, whether or not anyone waits, and each
/// element is stamped with `now + interval` as it comes; they wait in a queue, and the consumer, in its `next()`,
/// sleeps until the head is due. A consumer slower than the base gets each element as soon as it asks, once due —
/// the queue keeps them all, as Combine's `delay` does, so a base much faster than its consumer grows it.
///
/// - The finish is delivered `interval` after the base finished, after every element before it.
/// - A failure is delivered `interval` after the base threw, after every element before it, as Combine delays it.
/// - Cancelling the consuming task, or dropping the iterator, ends the wait at once, drops what is queued and
///   cancels the base's iteration; `next()` then returns `nil`.
///
/// See <doc:Delay> for the timing diagrams, the design and a comparison with Combine.
public struct AsyncDelaySequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// The base's elements.
  public typealias Element = Base.Element
  /// The base's error type: a base that cannot throw gives a sequence that cannot throw.
  public typealias Failure = Base.Failure

  @usableFromInline let timed: _TimedBase<Base, C>

  @inlinable
  init(base: Base, interval: C.Duration, tolerance: C.Duration?, clock: C) {
    timed = _TimedBase(base: base, interval: interval, tolerance: tolerance, clock: clock)
  }

  /// Creates an iterator; its task starts on its first `next()`.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(_DelayStorage(timed))
  }

  /// The iterator of an ``AsyncDelaySequence``; one task iterates it, and dropping it ends the iteration.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _IterationHandle<_DelayStorage<Base, C>>

    @inlinable
    init(_ storage: _DelayStorage<Base, C>) {
      iteration = _IterationHandle(storage)
    }

    /// Returns the base's next element once it is due; `nil` once the finish is due, or once the consuming task is
    /// cancelled. Throws the base's error once it is due.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      try await iteration.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncDelaySequence.Iterator: Sendable {}
