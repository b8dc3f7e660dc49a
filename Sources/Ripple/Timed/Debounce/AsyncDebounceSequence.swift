extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits an element only once `interval` has passed on `clock` without a newer element.
  ///
  /// See ``AsyncDebounceSequence`` for an example and how it finishes, throws and cancels.
  ///
  /// - Parameters:
  ///   - interval: How long an element must stay the latest before it is emitted.
  ///   - tolerance: The tolerance passed to `clock` when sleeping.
  ///   - clock: The clock that measures `interval`; inject a `TestClock` in tests.
  @inlinable
  public func debounce<C: Clock>(
    for interval: C.Duration, tolerance: C.Duration? = nil, clock: C
  ) -> AsyncDebounceSequence<Self, C> {
    AsyncDebounceSequence(base: self, interval: interval, tolerance: tolerance, clock: clock)
  }

  /// Emits an element only once `interval` has passed on the continuous clock without a newer element.
  ///
  /// See ``AsyncDebounceSequence``.
  @inlinable
  public func debounce(
    for interval: Duration, tolerance: Duration? = nil
  ) -> AsyncDebounceSequence<Self, ContinuousClock> {
    debounce(for: interval, tolerance: tolerance, clock: ContinuousClock())
  }
}

/// An asynchronous sequence that emits an element of its base once `interval` has passed without a newer one.
///
/// Use it to act on input once it settles — search as the user stops typing, save once edits pause:
///
/// ```swift
/// // Input:  a b c . . . d . . . .   (one character per 100 ms)
/// for await query in keystrokes.debounce(for: .milliseconds(300), clock: clock) {
///   print(query)
/// }
/// // Prints "c" at 500 ms, then "d" at 900 ms.
/// ```
///
/// The base is consumed in a task of its own from the first `next()` on, whether or not anyone waits; re-arming
/// the timer for a new element costs no task and no allocation.
///
/// - When the base finishes, the pending element is still emitted once its interval has passed, then the
///   sequence finishes.
/// - When the base throws, the error is delivered at once: to the consumer waiting in `next()`, or else by the
///   next call to `next()`. An element not yet emitted is dropped.
/// - A consumer slower than the settling elements gets the latest settled one.
/// - Cancelling the consuming task, or dropping the iterator, cancels the base's iteration and the timer;
///   `next()` then returns `nil`.
///
/// See <doc:Debounce> for the timing diagrams, the design and a comparison with Combine and
/// swift-async-algorithms.
public struct AsyncDebounceSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
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

  /// Creates an iterator; its tasks start on its first `next()`.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(_TimedStorage(timed, policy: _DebouncePolicy(), name: "debounce"))
  }

  /// The iterator of an ``AsyncDebounceSequence``; one task iterates it, and dropping it ends the iteration.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _IterationHandle<_TimedStorage<Base, C, _DebouncePolicy<Element, C.Instant>>>

    @inlinable
    init(_ storage: _TimedStorage<Base, C, _DebouncePolicy<Element, C.Instant>>) {
      iteration = _IterationHandle(storage)
    }

    /// Returns the next settled element; `nil` once the base finished and its last element was emitted, or once
    /// the consuming task is cancelled. Throws the base's error.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      try await iteration.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncDebounceSequence.Iterator: Sendable {}
