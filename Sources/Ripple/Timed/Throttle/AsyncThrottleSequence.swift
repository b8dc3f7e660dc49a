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
  ) -> AsyncThrottleSequence<Self, C, Element> {
    AsyncThrottleSequence(base: self, interval: interval, clock: clock) { held, element in
      latest ? element : held ?? element
    }
  }

  /// Emits the first element at once, then at most one element per `interval` on the continuous clock.
  ///
  /// See ``AsyncThrottleSequence``.
  @inlinable
  public func throttle(
    for interval: Duration, latest: Bool = true
  ) -> AsyncThrottleSequence<Self, ContinuousClock, Element> {
    throttle(for: interval, clock: ContinuousClock(), latest: latest)
  }

  /// Emits at most one value per `interval` on `clock`: the reduction of the elements each interval received.
  ///
  /// Use it where every element counts but the rate must not — events counted, deltas summed, a batch collected —
  /// so that nothing a burst brings is lost:
  ///
  /// ```swift
  /// // Input:  1 2 3 4 5 . . . .   (one scroll delta per 100 ms)
  /// for await total in deltas.throttle(for: .milliseconds(300), clock: clock, reducing: { ($0 ?? 0) + $1 }) {
  ///   print(total)
  /// }
  /// // Prints 1 at 0 ms, 5 (2 + 3) at 300 ms, 9 (4 + 5) at 600 ms.
  /// ```
  ///
  /// `reducing(held, element)` folds each element into the interval's reduction; `held` is `nil` for the first
  /// element after an emission, so the first element of a quiet period goes out at once as `reducing(nil, element)`.
  /// `latest: true` is `reducing: { $1 }` and `latest: false` is `reducing: { $0 ?? $1 }`. Finishing, errors and
  /// cancellation are as ``AsyncThrottleSequence`` describes; a reduction held when the base throws is dropped.
  ///
  /// Unlike swift-async-algorithms' `reducing:`, the closure is synchronous: it runs in the base-consuming task, in
  /// the same step as the element's arrival, so an interval's end can never emit a reduction that misses an element
  /// already folded or fold one into a reduction already emitted. Keep it quick, as a fold is; it must not iterate
  /// this sequence.
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two emitted values.
  ///   - clock: The clock that measures `interval`; inject a `TestClock` in tests.
  ///   - reducing: Folds an element into the reduction held so far (`nil` when none is).
  @inlinable
  public func throttle<C: Clock, Reduced: Sendable>(
    for interval: C.Duration, clock: C, reducing: @escaping @Sendable (Reduced?, Element) -> Reduced
  ) -> AsyncThrottleSequence<Self, C, Reduced> {
    AsyncThrottleSequence(base: self, interval: interval, clock: clock, reducing: reducing)
  }

  /// Emits at most one value per `interval` on the continuous clock: the reduction of the elements each interval
  /// received.
  ///
  /// See ``_Concurrency/AsyncSequence/throttle(for:clock:reducing:)`` for an example, and ``AsyncThrottleSequence``.
  @inlinable
  public func throttle<Reduced: Sendable>(
    for interval: Duration, reducing: @escaping @Sendable (Reduced?, Element) -> Reduced
  ) -> AsyncThrottleSequence<Self, ContinuousClock, Reduced> {
    throttle(for: interval, clock: ContinuousClock(), reducing: reducing)
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
/// - A consumer slower than the interval: what is due while nobody waits in `next()` waits for it and goes out
///   when it asks, folded with what came meanwhile — the latest element since its last one (with `latest: false`
///   the first, with `reducing:` the fold of all, so none is lost); the next interval opens then.
/// - Cancelling the consuming task, or dropping the iterator, cancels the base's iteration and the timer;
///   `next()` then returns `nil`.
///
/// See <doc:Throttle> for the timing diagrams, the design and a comparison with Combine and
/// swift-async-algorithms.
public struct AsyncThrottleSequence<Base: AsyncSequence & Sendable, C: Clock, Reduced: Sendable>: AsyncSequence,
  Sendable
where Base.Element: Sendable {
  /// The base's elements, or with `reducing:` the reductions of several.
  public typealias Element = Reduced
  /// The base's error type: a base that cannot throw gives a sequence that cannot throw.
  public typealias Failure = Base.Failure

  @usableFromInline let timed: _TimedBase<Base, C>
  @usableFromInline let reducing: @Sendable (Reduced?, Base.Element) -> Reduced

  @inlinable
  init(
    base: Base, interval: C.Duration, clock: C, reducing: @escaping @Sendable (Reduced?, Base.Element) -> Reduced
  ) {
    timed = _TimedBase(base: base, interval: interval, tolerance: nil, clock: clock)
    self.reducing = reducing
  }

  /// Creates an iterator; its tasks start on its first `next()`.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(
      _TimedStorage(timed, policy: _ThrottlePolicy(reduce: reducing), name: "throttle"))
  }

  /// The iterator of an ``AsyncThrottleSequence``; one task iterates it, and dropping it ends the iteration.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration:
      _IterationHandle<_TimedStorage<Base, C, _ThrottlePolicy<Base.Element, Reduced, C.Instant>>>

    @inlinable
    init(_ storage: _TimedStorage<Base, C, _ThrottlePolicy<Base.Element, Reduced, C.Instant>>) {
      iteration = _IterationHandle(storage)
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
