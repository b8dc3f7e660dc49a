extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits the first element at once, then at most one element per `interval` on `clock`: the latest or the first
  /// of each interval.
  ///
  /// See ``AsyncThrottleSequence`` for an example and how it finishes, throws and cancels.
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two emitted elements.
  ///   - clock: The clock that measures `interval`; inject a `TestClock` in tests.
  ///   - latest: Whether an interval emits the latest element it received (`true`) or the first.
  @inlinable
  public func throttle<C: Clock>(
    for interval: C.Duration, clock: C, latest: Bool = true
  ) -> AsyncThrottleSequence<Self, C> {
    AsyncThrottleSequence(base: self, interval: interval, clock: clock, latest: latest)
  }

  /// Emits the first element at once, then at most one element per `interval` on the continuous clock.
  ///
  /// See ``AsyncThrottleSequence``.
  @inlinable
  public func throttle(
    for interval: Duration, latest: Bool = true
  ) -> AsyncThrottleSequence<Self, ContinuousClock> {
    throttle(for: interval, clock: ContinuousClock(), latest: latest)
  }
}

/// An asynchronous sequence that emits at most one element of its base per interval.
///
/// Use it to keep a steady, bounded rate from a fast source — progress updates, scroll positions, sensor
/// readings — without losing the latest value:
///
/// ```swift
/// // Input:  a b c d e . . . . .   (one character per 100 ms)
/// for await value in readings.throttle(for: .milliseconds(300), clock: clock) {
///   print(value)
/// }
/// // Prints "a" at 0 ms, "c" at 300 ms, "e" at 600 ms.
/// // With `latest: false`: "a" at 0 ms, "b" at 300 ms, "d" at 600 ms.
/// ```
///
/// An element that comes while no interval is open is emitted at once and opens one. Elements that come during an
/// interval are held; when it ends, the held element is emitted right away — without waiting for another input —
/// and opens the next interval. The base is consumed in a task of its own from the first `next()` on.
///
/// - When the base finishes, a held element is still emitted when its interval ends, then the sequence finishes.
/// - When the base throws, the error is delivered at once: to the consumer waiting in `next()`, or else by the
///   next call to `next()`; a held element is dropped.
/// - A consumer slower than the interval gets the latest emitted element.
/// - Cancelling the consuming task, or dropping the iterator, cancels the base's iteration and the timer;
///   `next()` then returns `nil`.
///
/// See <doc:Throttle> for the timing diagrams, the design and a comparison with Combine and
/// swift-async-algorithms.
public struct AsyncThrottleSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// The base's elements.
  public typealias Element = Base.Element
  /// The base's error type: a base that cannot throw gives a sequence that cannot throw.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let interval: C.Duration
  @usableFromInline let clock: C
  @usableFromInline let latest: Bool

  @inlinable
  init(base: Base, interval: C.Duration, clock: C, latest: Bool) {
    self.base = base
    self.interval = interval
    self.clock = clock
    self.latest = latest
  }

  /// Creates an iterator; its tasks start on its first `next()`.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(
      _TimedStorage(
        base: base, interval: interval, tolerance: nil, clock: clock, policy: _ThrottlePolicy(latest: latest),
        name: "throttle"))
  }

  /// The iterator of an ``AsyncThrottleSequence``; one task iterates it, and dropping it ends the iteration.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _Iteration<_TimedStorage<Base, C, _ThrottlePolicy<Element, C.Instant>>>

    @inlinable
    init(_ storage: _TimedStorage<Base, C, _ThrottlePolicy<Element, C.Instant>>) {
      iteration = _Iteration(storage)
    }

    /// Returns the next emitted element; `nil` once the base finished and a held element was emitted, or once the
    /// consuming task is cancelled. Throws the base's error.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      try await iteration.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncThrottleSequence.Iterator: Sendable {}
