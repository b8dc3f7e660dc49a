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

  /// A test waiting until a sleep with ticket `after` or later waits for `deadline`.
  private struct Watcher {
    var deadline: TestClock.Instant
    var after: UInt64
    var continuation: UnsafeContinuation<Void, Never>
  }

  private(set) var now: TestClock.Instant
  private var sleepers: [Sleeper] = []
  private var nextID: UInt64 = 0
  /// Tests waiting until some task sleeps until a given deadline.
  private var watchers: [Watcher] = []
  /// The executor of the lockstep scope the clock is in, if any.
  private(set) var executor: _LockstepExecutor?

  init(now: TestClock.Instant) {
    self.now = now
  }

  /// The earliest deadline of a sleeper, if any.
  var nextDeadline: TestClock.Instant? {
    sleepers.lazy.compactMap(\.deadline).min()
  }

  /// How many sleeps have been requested: the next ticket.
  var sleepsRequested: UInt64 { nextID }

  /// A task is about to sleep: its ticket.
  mutating func sleepRequested() -> UInt64 {
    defer { nextID += 1 }
    return nextID
  }

  /// A task suspended until `deadline`; `false` when the deadline has already come, so it must not wait.
  mutating func sleepStarted(
    _ id: UInt64, until deadline: TestClock.Instant?, continuation: UnsafeContinuation<Void, any Error>
  ) -> (sleeps: Bool, watchers: [UnsafeContinuation<Void, Never>]) {
    if let deadline, deadline <= now { return (false, []) }
    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
    guard let deadline else { return (true, []) }
    let matches = { (watcher: Watcher) in watcher.deadline == deadline && id >= watcher.after }
    let due = watchers.filter(matches).map(\.continuation)
    watchers.removeAll(where: matches)
    return (true, due)
  }

  /// A test waits until a sleep with ticket `after` or later waits for `deadline`; `true` when one already does
  /// (resume at once).
  mutating func watchRequested(
    until deadline: TestClock.Instant, after: UInt64, continuation: UnsafeContinuation<Void, Never>
  ) -> Bool {
    if sleepers.contains(where: { $0.deadline == deadline && $0.id >= after }) { return true }
    watchers.append(Watcher(deadline: deadline, after: after, continuation: continuation))
    return false
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
      if target > now { now = target }
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
