/// The connection of one `multicast(_:)`: whether the task that feeds the subject runs, and, for `autoconnect()`,
/// how many iterators hold it.
///
/// Events: `connectRequested` (from `connect()` or an autoconnected iterator's first `next()`), `started`,
/// `baseEnded`, `iteratorJoined`, `iteratorLeft`. The connection happens once: after it ended, a new request does
/// nothing, and the subject tells late iterators that it ended.
@usableFromInline
struct _MulticastStateMachine: ~Copyable {
  @usableFromInline enum State {
    /// Not connected yet.
    case idle
    /// The feeding task is being started (`nil`) or runs.
    case connected(Task<Void, Never>?)
    /// The base ended, or the last autoconnected iterator left: no second connection.
    case ended
  }

  /// What to do once the lock is released.
  @usableFromInline enum Action {
    case none
    /// Start the task that feeds the subject.
    case start
    /// Cancel the feeding task.
    case cancel(Task<Void, Never>)
  }

  @usableFromInline var state = State.idle
  /// Autoconnected iterators alive.
  @usableFromInline var iterators = 0

  @inlinable init() {}

  @inlinable
  mutating func connectRequested() -> Action {
    guard case .idle = state else { return .none }
    state = .connected(nil)
    return .start
  }

  @inlinable
  mutating func started(_ task: Task<Void, Never>) -> Action {
    switch state {
    case .connected(nil):
      state = .connected(task)
      return .none
    case .ended:
      return .cancel(task)  // the last iterator left before the task was recorded
    case .idle, .connected:
      preconditionFailure("multicast: a connection started twice (state: \(state))")
    }
  }

  @inlinable
  mutating func baseEnded() {
    state = .ended
  }

  @inlinable
  mutating func iteratorJoined() {
    iterators += 1
  }

  /// An autoconnected iterator went away; the last one of a running connection cancels it.
  @inlinable
  mutating func iteratorLeft() -> Action {
    iterators -= 1
    guard iterators == 0, case .connected(let task) = state else { return .none }
    state = .ended
    return task.map { .cancel($0) } ?? .none
  }
}
