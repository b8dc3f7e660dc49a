/// An asynchronous sequence of the instants of a repeating timer: one element per `interval` on a clock.
///
/// Use it to do something at a steady rate — poll, refresh, animate — or as the signal of another operator:
///
/// ```swift
/// for await instant in AsyncTimerSequence(interval: .seconds(1), clock: ContinuousClock()) {
///   print(instant)  // once a second, the clock's now when the sleep ended
/// }
/// ```
///
/// The first element comes `interval` after the first `next()`; each later one `interval` after the previous
/// deadline, so the ticks do not drift with the consumer's work. A consumer slower than the interval gets a late
/// tick at once on its next `next()`, one tick per call. Each element is the clock's `now` when the sleep ended (at or
/// after its deadline, within `tolerance`). No task is started: the consuming task sleeps on the clock.
///
/// - The sequence never finishes on its own and never throws.
/// - Cancelling the consuming task ends it: a sleeping `next()` returns `nil` at once, and so does every later one.
///
/// Where an `AsyncSequence` is expected, `.repeating(every:tolerance:clock:)` spells the same timer. Inject a
/// `TestClock` in tests: each tick then comes exactly when the test advances the clock to its deadline.
public struct AsyncTimerSequence<C: Clock>: AsyncSequence, Sendable {
  /// The clock's instant at each tick.
  public typealias Element = C.Instant
  /// A timer cannot fail.
  public typealias Failure = Never

  @usableFromInline let interval: C.Instant.Duration
  @usableFromInline let tolerance: C.Instant.Duration?
  @usableFromInline let clock: C

  /// A timer that ticks every `interval` on `clock`.
  ///
  /// - Parameters:
  ///   - interval: The time between two deadlines.
  ///   - tolerance: The tolerance passed to `clock` when sleeping; `nil` for the clock's default.
  ///   - clock: The clock that measures `interval`; inject a `TestClock` in tests.
  @inlinable
  public init(interval: C.Instant.Duration, tolerance: C.Instant.Duration? = nil, clock: C) {
    self.interval = interval
    self.tolerance = tolerance
    self.clock = clock
  }

  /// Creates an iterator; its first deadline is `interval` after its first `next()`.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(interval: interval, tolerance: tolerance, clock: clock)
  }

  /// The iterator of an ``AsyncTimerSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let interval: C.Instant.Duration
    @usableFromInline let tolerance: C.Instant.Duration?
    @usableFromInline let clock: C
    /// The last deadline; `nil` before the first `next()`.
    @usableFromInline var deadline: C.Instant?
    /// Set once the consuming task was cancelled: the timer is over.
    @usableFromInline var finished = false

    @inlinable
    init(interval: C.Instant.Duration, tolerance: C.Instant.Duration?, clock: C) {
      self.interval = interval
      self.tolerance = tolerance
      self.clock = clock
    }

    /// Sleeps until the next deadline and returns the clock's now; `nil` once the consuming task is cancelled.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> C.Instant? {
      guard !finished, !Task.isCancelled else {
        finished = true
        return nil
      }
      let next = (deadline ?? clock.now).advanced(by: interval)
      do {
        try await clock.sleep(until: next, tolerance: tolerance)
      } catch {
        finished = true
        return nil
      }
      deadline = next
      return clock.now
    }
  }
}

extension AsyncSequence {
  /// A timer that ticks every `interval` on `clock`, where an `AsyncSequence` is expected.
  ///
  /// See ``AsyncTimerSequence``.
  @inlinable
  public static func repeating<C: Clock>(
    every interval: C.Instant.Duration, tolerance: C.Instant.Duration? = nil, clock: C
  ) -> AsyncTimerSequence<C> where Self == AsyncTimerSequence<C> {
    AsyncTimerSequence(interval: interval, tolerance: tolerance, clock: clock)
  }
}

extension AsyncSequence where Self == AsyncTimerSequence<SuspendingClock> {
  /// A timer that ticks every `interval` on the suspending clock.
  ///
  /// See ``AsyncTimerSequence``.
  @inlinable
  public static func repeating(
    every interval: Duration, tolerance: Duration? = nil
  ) -> AsyncTimerSequence<SuspendingClock> {
    AsyncTimerSequence(interval: interval, tolerance: tolerance, clock: SuspendingClock())
  }
}

@available(*, unavailable)
extension AsyncTimerSequence.Iterator: Sendable {}
