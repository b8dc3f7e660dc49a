/// The base of a timed operator and the clock that times it, as `debounce`, `throttle`, `delay` and `timeout` keep
/// them from their call: their sequences hold it, and hand it to each iteration's storage.
@usableFromInline
struct _TimedBase<Base: AsyncSequence & Sendable, C: Clock>: Sendable {
  @usableFromInline let base: Base
  /// How long after an event its deadline falls: the operator's interval.
  @usableFromInline let interval: C.Duration
  @usableFromInline let tolerance: C.Duration?
  @usableFromInline let clock: C

  @inlinable
  init(base: Base, interval: C.Duration, tolerance: C.Duration?, clock: C) {
    self.base = base
    self.interval = interval
    self.tolerance = tolerance
    self.clock = clock
  }

  /// `interval` after now on the clock: the deadline of what happens now.
  @inlinable
  func deadlineFromNow() -> C.Instant {
    clock.now.advanced(by: interval)
  }

  /// Sleeps on the clock until `deadline`, with the operator's tolerance; throws when the task is cancelled.
  @inlinable
  func sleep(until deadline: C.Instant) async throws {
    try await clock.sleep(until: deadline, tolerance: tolerance)
  }
}

/// The two tasks of a running timed iteration that has a timer: the one iterating the base and the one sleeping on
/// the clock (``_TimedStorage``'s, ``_TimeoutStorage``'s).
@usableFromInline
struct _TimerTasks {
  @usableFromInline let base: Task<Void, Never>
  @usableFromInline let timer: Task<Void, Never>

  @inlinable init(base: Task<Void, Never>, timer: Task<Void, Never>) {
    self.base = base
    self.timer = timer
  }

  @inlinable func cancel() {
    base.cancel()
    timer.cancel()
  }
}
