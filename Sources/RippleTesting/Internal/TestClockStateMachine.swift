/// The sleepers and the current instant of one ``TestClock``.
///
/// There is no `State` enum: a clock is always running. Its state is `now`, which only moves forward, and
/// the sleepers, kept in registration order so that sleepers due at the same instant resume first come,
/// first served.
struct _TestClockStateMachine {
  /// A task suspended in `sleep(until:)`.
  private struct Sleeper {
    var id: UInt64
    /// `nil` for a task that waits until it is cancelled; the clock never wakes it and does not count it as
    /// work left to do.
    var deadline: TestClock.Instant?
    var continuation: UnsafeContinuation<Void, any Error>
  }

  private(set) var now: TestClock.Instant
  private var sleepers: [Sleeper] = []
  private var nextID: UInt64 = 0
  /// The executor of the lockstep scope the clock is in, if any.
  private(set) var executor: _LockstepExecutor?
  /// Whether, outside a lockstep scope, time was moved while no task slept on the clock.
  private var advancedWithNobodyAsleep = false
  /// Whether the late-sleeper diagnostic was given (it is given once per clock).
  private var lateSleeperDiagnosed = false

  init(now: TestClock.Instant) {
    self.now = now
  }

  /// The earliest deadline of a sleeper, if any.
  var nextDeadline: TestClock.Instant? {
    sleepers.lazy.compactMap(\.deadline).min()
  }

  /// A task is about to sleep: its ticket.
  mutating func sleepRequested() -> UInt64 {
    defer { nextID += 1 }
    return nextID
  }

  /// A task is about to sleep outside a lockstep scope: `true`, once per clock, when time was moved earlier while
  /// nobody slept — the usual sign of a test that advanced the clock before the code under test reached its sleep
  /// (see ``TestClock``'s late-sleeper diagnostic).
  mutating func lateSleeperStarting() -> Bool {
    guard executor == nil, advancedWithNobodyAsleep, !lateSleeperDiagnosed else { return false }
    lateSleeperDiagnosed = true
    return true
  }

  /// A task suspended until `deadline`; `false` when the deadline has already come, so it must not wait.
  mutating func sleepStarted(
    _ id: UInt64, until deadline: TestClock.Instant?, continuation: UnsafeContinuation<Void, any Error>
  ) -> Bool {
    if let deadline, deadline <= now { return false }
    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
    return true
  }

  /// The task with ticket `id` was cancelled: the continuation to resume with `CancellationError`, unless the
  /// sleeper was already resumed (or not registered yet — it then checks cancellation itself).
  mutating func sleepCancelled(_ id: UInt64) -> UnsafeContinuation<Void, any Error>? {
    guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
    return sleepers.remove(at: index).continuation
  }

  /// Moves `now` to the earliest deadline not after `target` and hands out the sleepers due then, in
  /// registration order; with none left before `target`, moves `now` to `target` and returns nothing.
  mutating func advanced(toward target: TestClock.Instant) -> [UnsafeContinuation<Void, any Error>] {
    guard let earliest = nextDeadline, earliest <= target else {
      if target > now {
        if executor == nil && nextDeadline == nil { advancedWithNobodyAsleep = true }
        now = target
      }
      return []
    }
    if earliest > now { now = earliest }
    var due: [UnsafeContinuation<Void, any Error>] = []
    var waiting: [Sleeper] = []
    for sleeper in sleepers {
      if sleeper.deadline == earliest {
        due.append(sleeper.continuation)
      } else {
        waiting.append(sleeper)
      }
    }
    sleepers = waiting
    return due
  }

  /// A lockstep scope starts driving the clock.
  mutating func lockstepStarted(_ executor: _LockstepExecutor) {
    precondition(self.executor == nil, "a TestClock can be in one lockstep scope at a time")
    self.executor = executor
  }

  /// The lockstep scope ended.
  mutating func lockstepEnded() {
    executor = nil
  }
}
