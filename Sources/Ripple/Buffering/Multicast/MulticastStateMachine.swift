/// The connection of one `multicast(_:)`: whether the task that feeds the subject runs, and, for `autoconnect()`,
/// how many iterators hold it.
///
/// Events: `connectRequested` (from `connect()` or an autoconnected iterator's first `next()`), `started`,
/// `baseEnded`, `iteratorJoined`, `iteratorLeft`. As Combine's: a connection that is cancelled — the task `connect()`
/// returned, or by the last autoconnected iterator leaving — leaves the subject open, and the next request connects
/// again with a new iterator of the base; once the base itself ended, the subject has ended and no request connects.
/// Each connection has a generation, so that a cancelled connection's late events do not touch the next one.
@usableFromInline
struct _MulticastStateMachine: ~Copyable {
  @usableFromInline enum State {
    /// Not connected: never yet, or the last connection was cancelled.
    case idle
    /// The feeding task of connection `generation` is being started (`nil`) or runs.
    case connected(Task<Void, Never>?, generation: UInt64)
    /// The base ended (finished or failed) and the subject with it: no second connection.
    case ended
  }

  /// What to do once the lock is released.
  @usableFromInline enum Action {
    case none
    /// Start the task that feeds the subject, as connection `generation`.
    case start(generation: UInt64)
    /// Cancel a feeding task.
    case cancel(Task<Void, Never>)
  }

  @usableFromInline var state = State.idle
  @usableFromInline var generation: UInt64 = 0
  /// Autoconnected iterators alive.
  @usableFromInline var iterators = 0

  @inlinable init() {}

  @inlinable
  mutating func connectRequested() -> Action {
    guard case .idle = state else { return .none }
    generation &+= 1
    state = .connected(nil, generation: generation)
    return .start(generation: generation)
  }

  /// Connection `generation`'s task was created: recorded, or cancelled when that connection is over already.
  @inlinable
  mutating func started(_ task: Task<Void, Never>, generation: UInt64) -> Action {
    if case .connected(nil, let current) = state, current == generation {
      state = .connected(task, generation: generation)
      return .none
    }
    return .cancel(task)  // cancelled, or everyone left, before the task was recorded
  }

  /// Connection `generation`'s base finished or failed, and the subject was told: nothing connects again.
  @inlinable
  mutating func baseEnded(generation: UInt64) {
    guard case .connected(_, let current) = state, current == generation else { return }
    state = .ended
  }

  /// The task of connection `generation` was cancelled (through the task `connect()` returned): the next request
  /// connects again.
  @inlinable
  mutating func disconnected(generation: UInt64) {
    guard case .connected(_, let current) = state, current == generation else { return }
    state = .idle
  }

  @inlinable
  mutating func iteratorJoined() {
    iterators += 1
  }

  /// An autoconnected iterator went away; the last one of a running connection cancels it, and the next iterator's
  /// first `next()` connects again.
  @inlinable
  mutating func iteratorLeft() -> Action {
    iterators -= 1
    guard iterators == 0, case .connected(let task, _) = state else { return .none }
    state = .idle
    return task.map { .cancel($0) } ?? .none
  }
}
