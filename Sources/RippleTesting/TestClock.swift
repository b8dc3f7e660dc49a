import InternalRippleUtilities
import Ripple

/// A clock whose time moves only when a test tells it to, so timing tests are exact and instant.
///
/// Inject it wherever code takes a `Clock<Duration>` (`debounce(for:tolerance:clock:)`, a `SlowCalculator`),
/// then move time with ``advance(by:isolation:)``, ``advance(to:isolation:)`` or ``run(isolation:)``. Sleeping tasks resume in deadline
/// order; tasks due at the same instant resume in the order they went to sleep.
///
/// ```swift
/// let clock = TestClock()
/// let ticks = try await clock.lockstep {
///   async let slept: TestClock.Instant = {
///     try await clock.sleep(for: .seconds(2))
///     return clock.now
///   }()
///   await clock.advance(by: .seconds(5))
///   return try await slept
/// }
/// print(ticks)  // 2.0 seconds
/// ```
///
/// **Lockstep or not.** Inside ``lockstep(isolation:_:)`` (and in ``marbles(_:tick:_:)``) every task of the test runs
/// on one serial executor, and `advance` waits, before each step, until that executor has nothing left to
/// run: a task resumed at 2 s has done all it can at 2 s — including going back to sleep — before the clock
/// moves on. Outside such a scope, `advance` still moves `now` to each due deadline in order and resumes the
/// sleepers due then, but the resumed tasks run concurrently on the global executor, so `advance` may return
/// (and move on to later deadlines) before they have run; observe their effects through something you can
/// await, such as a task's value.
///
/// **A hint for the first test without lockstep.** When, outside a lockstep scope, `advance` moved time while no
/// task slept on the clock and a task then starts to sleep on it, the clock writes a note to standard error (once
/// per clock): that task most likely missed the advance its test meant for it.
///
/// `sleep(until:)` throws `CancellationError` as soon as the sleeping task is cancelled, without waiting
/// for the clock; a deadline that has already come returns at once.
public final class TestClock: Clock, Sendable {
  /// An instant of a ``TestClock``: how far it lies from the clock's zero.
  ///
  /// ```swift
  /// let start = TestClock.Instant()            // zero
  /// let later = start.advanced(by: .seconds(3))
  /// print(start.duration(to: later))           // 3.0 seconds
  /// ```
  public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// The time since the clock's zero.
    public var offset: Duration

    /// The instant `offset` after the clock's zero; `Instant()` is the zero itself.
    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    /// The instant `duration` later (earlier, when negative).
    public func advanced(by duration: Duration) -> Self {
      Self(offset: offset + duration)
    }

    /// The time from this instant to `other`.
    public func duration(to other: Self) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Self, rhs: Self) -> Bool {
      lhs.offset < rhs.offset
    }

    /// The offset, for example `2.0 seconds`.
    public var description: String {
      offset.description
    }
  }

  private let machine: _Mutex<_TestClockStateMachine>

  /// A clock that starts at `now` (by default, its zero) and moves only when advanced.
  public init(now: Instant = .init()) {
    machine = _Mutex(_TestClockStateMachine(now: now))
  }

  /// The current instant; it changes only through ``advance(by:isolation:)``, ``advance(to:isolation:)`` and ``run(isolation:)``.
  public var now: Instant {
    machine.withLock { $0.now }
  }

  /// Zero: a test clock can wake a sleeper at any instant exactly.
  public var minimumResolution: Duration {
    .zero
  }

  /// Suspends until the clock has been advanced to `deadline`; returns at once when `deadline` has come.
  ///
  /// `tolerance` is ignored: the sleeper wakes exactly at `deadline`. Throws `CancellationError` as soon as
  /// the task is cancelled (or at once, if it already is).
  ///
  /// ```swift
  /// let clock = TestClock()
  /// try await clock.sleep(until: clock.now)  // returns at once
  /// try await clock.sleep(for: .seconds(1))  // waits for `advance`, `run()` or cancellation
  /// ```
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    try await suspend(until: deadline)
  }

  /// Moves time forward by `duration`, waking every sleeper due on the way, in deadline order.
  ///
  /// Equivalent to `advance(to: now.advanced(by: duration))`; see ``advance(to:isolation:)``. In a lockstep scope,
  /// `advance(by: .zero)` moves no time but lets every task run until it waits, for example until a task
  /// just started has gone to sleep.
  public func advance(by duration: Duration, isolation: isolated (any Actor)? = #isolation) async {
    await advance(to: now.advanced(by: duration), isolation: isolation)
  }

  /// Moves time forward to `deadline`, stopping at each sleeper's deadline on the way to wake it.
  ///
  /// Step by step: `now` becomes the earliest deadline not after `deadline`, and the sleepers due then
  /// resume in the order they went to sleep; a sleeper that goes back to sleep before `deadline` is woken
  /// again on the way. Finally `now` becomes `deadline`. A `deadline` in the past changes nothing.
  ///
  /// In a lockstep scope (``lockstep(isolation:_:)``), each step first waits until the scope's executor is
  /// quiescent, so every task has reacted to one instant before the clock moves to the next; outside one,
  /// the resumed tasks run concurrently and may not have run yet when this returns. It runs on the caller's
  /// isolation (`isolation`, the caller's by default), so a `@MainActor` test waits without leaving the main actor.
  ///
  /// ```swift
  /// let clock = TestClock()
  /// await clock.lockstep {
  ///   async let sleeper: Void = {
  ///     try? await clock.sleep(until: .init(offset: .seconds(1)))
  ///     print("woke at \(clock.now)")
  ///   }()
  ///   await clock.advance(to: .init(offset: .seconds(3)))
  ///   print("now \(clock.now)")
  ///   await sleeper
  /// }
  /// // woke at 1.0 seconds
  /// // now 3.0 seconds
  /// ```
  public func advance(to deadline: Instant, isolation: isolated (any Actor)? = #isolation) async {
    while true {
      let executor = machine.withLock { $0.executor }
      if let executor { await executor.quiescent(isolation: isolation) }
      let due = machine.withLock { $0.advanced(toward: deadline) }
      if due.isEmpty { return }
      if let executor {
        // Resumed from the executor's own thread, the woken tasks are queued in deadline order before
        // any of them runs.
        executor.perform { Self.resume(due) }
      } else {
        Self.resume(due)
      }
    }
  }

  /// Advances until no sleeper is left, so every sleep that the code under test started has finished.
  ///
  /// In a lockstep scope, it also waits for quiescence between steps, so sleeps started in reaction to a
  /// wake-up are included. It never returns while something keeps sleeping again (a timer that re-arms).
  ///
  /// ```swift
  /// let clock = TestClock()
  /// await clock.lockstep {
  ///   async let sleeper: Void = {
  ///     try? await clock.sleep(for: .seconds(2))
  ///     try? await clock.sleep(for: .seconds(5))
  ///   }()
  ///   await clock.run()
  ///   print(clock.now)  // 7.0 seconds
  ///   await sleeper
  /// }
  /// ```
  public func run(isolation: isolated (any Actor)? = #isolation) async {
    while true {
      let executor = machine.withLock { $0.executor }
      if let executor { await executor.quiescent(isolation: isolation) }
      guard let next = machine.withLock({ $0.nextDeadline }) else { return }
      await advance(to: next, isolation: isolation)
    }
  }

  // MARK: Internals

  /// Whether a sleeper waits for a deadline (a task waiting only for its cancellation does not count).
  var hasScheduledSleepers: Bool {
    machine.withLock { $0.nextDeadline != nil }
  }

  /// Suspends until the task is cancelled, then throws `CancellationError`; the clock does not count the
  /// waiter as work left to do.
  func sleepUntilCancelled() async throws {
    try Task.checkCancellation()
    try await suspend(until: nil)
  }

  func lockstepStarted(_ executor: _LockstepExecutor) {
    machine.withLock { $0.lockstepStarted(executor) }
  }

  func lockstepEnded() {
    machine.withLock { $0.lockstepEnded() }
  }

  private func suspend(until deadline: Instant?) async throws {
    let (id, late) = machine.withLock { ($0.sleepRequested(), deadline != nil && $0.lateSleeperStarting()) }
    if late { _Platform.writeToStandardError(Self.lateSleeperDiagnostic) }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        let sleeps = machine.withLock { $0.sleepStarted(id, until: deadline, continuation: continuation) }
        guard sleeps else {
          continuation.resume()
          return
        }
        // A cancellation that came before the registration found nothing to wake: check again.
        if Task.isCancelled, let cancelled = machine.withLock({ $0.sleepCancelled(id) }) {
          cancelled.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      machine.withLock { $0.sleepCancelled(id) }?.resume(throwing: CancellationError())
    }
  }

  /// What a test that advanced the clock before its code under test went to sleep reads on standard error, once per
  /// clock.
  static let lateSleeperDiagnostic = """
    RippleTesting: a task started sleeping on a TestClock after advance(…) had moved the clock while no task slept \
    on it. Outside `clock.lockstep { … }`, advance does not wait for tasks that have not reached their sleep yet \
    (nor for the tasks it wakes), so what the test checks next may not have happened. Wrap the test's body in \
    `await clock.lockstep { … }`: each advance then waits until every task has reacted (RippleTesting's guide \
    "Testing time with TestClock").

    """

  private static func resume(_ continuations: [UnsafeContinuation<Void, any Error>]) {
    for continuation in continuations { continuation.resume() }
  }
}
