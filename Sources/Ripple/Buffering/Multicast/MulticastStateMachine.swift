/// The connection of one `multicast(_:)`: whether the task that feeds the subject runs, and, for `autoconnect()`,
/// how many iterators hold it.
///
/// Events: `connectRequested` (from `connect()` or an autoconnected iterator's first `next()`), `started`,
/// `baseEnded`, `disconnected`, `iteratorJoined`, `iteratorLeft`. As Combine's: a connection that is cancelled — the
/// task `connect()` returned, or by the last autoconnected iterator leaving — leaves the subject open, and the next
/// request connects again with a new iterator of the base; once the base itself ended, the subject has ended and no
/// request connects. A new connection starts only once the cancelled one's task has ended, so two tasks never feed
/// the subject at once; each connection has a generation, so a late event of an old one touches nothing.
@usableFromInline
struct _MulticastStateMachine: ~Copyable {
  @usableFromInline enum State {
    /// Not connected: never yet, or the last connection was cancelled and its task has ended.
    case idle
    /// The feeding task of connection `generation` is being started (`nil`) or runs.
    case connected(Task<Void, Never>?, generation: UInt64)
    /// Connection `generation` was cancelled and its task has not ended yet; `reconnect` when a request came meanwhile.
    case stopping(generation: UInt64, reconnect: Bool)
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
    switch state {
    case .idle:
      return nextConnection()
    case .stopping(let stopping, _):
      state = .stopping(generation: stopping, reconnect: true)
      return .none
    case .connected, .ended:
      return .none
    }
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
    switch state {
    case .connected(_, let current) where current == generation, .stopping(let current, _) where current == generation:
      state = .ended
    default:
      break
    }
  }

  /// The task of connection `generation` ended because it was cancelled: the next request connects again, or a
  /// request that came while it was stopping does now.
  @inlinable
  mutating func disconnected(generation: UInt64) -> Action {
    switch state {
    case .connected(_, let current) where current == generation:
      state = .idle
      return .none
    case .stopping(let current, let reconnect) where current == generation:
      state = .idle
      return reconnect ? nextConnection() : .none
    default:
      return .none
    }
  }

  @inlinable
  mutating func iteratorJoined() {
    iterators += 1
  }

  /// An autoconnected iterator went away; the last one of a running connection cancels it, and the next iterator's
  /// first `next()` connects again once its task has ended.
  @inlinable
  mutating func iteratorLeft() -> Action {
    iterators -= 1
    guard iterators == 0, case .connected(let task, let current) = state else { return .none }
    state = .stopping(generation: current, reconnect: false)
    return task.map { .cancel($0) } ?? .none
  }

  @inlinable
  mutating func nextConnection() -> Action {
    generation &+= 1
    state = .connected(nil, generation: generation)
    return .start(generation: generation)
  }
}
