import InternalRippleUtilities

/// Real continuations for a test that drives a state machine as a plain value.
///
/// The machines keep their consumers, producers and timers as `UnsafeContinuation`s, and a continuation exists only
/// for a task suspended on it; so each one here is held by a task that does nothing but wait on it and return what
/// it was resumed with. The machine itself is driven by the test's plain calls, in the test's order: no clock, no
/// scheduling decides anything. Every parked continuation must be resumed exactly once before ``values()``, through
/// the actions the machine returned or by the test.
final class Parked<Value: Sendable>: Sendable {
  typealias Continuation = UnsafeContinuation<Value, Never>

  /// The continuations, in the order asked for.
  let continuations: [Continuation]
  private let tasks: [Task<Value, Never>]

  private init(continuations: [Continuation], tasks: [Task<Value, Never>]) {
    self.continuations = continuations
    self.tasks = tasks
  }

  /// Parks `count` tasks and returns once every one is suspended on its continuation.
  static func park(_ count: Int, of _: Value.Type = Value.self) async -> Parked {
    let lot = ParkingLot<Continuation>(count: count)
    let tasks = (0..<count).map { index in
      Task { await withUnsafeContinuation { lot.deposit($0, at: index) } }
    }
    return Parked(continuations: await lot.continuations(), tasks: tasks)
  }

  subscript(index: Int) -> Continuation { continuations[index] }

  /// Which parked continuation `continuation` is, or `nil` for none of them.
  func index(of continuation: Continuation) -> Int? {
    continuations.firstIndex { same($0, continuation) }
  }

  /// What each continuation was resumed with, in order; waits until all were.
  func values() async -> [Value] {
    var values: [Value] = []
    for task in tasks { values.append(await task.value) }
    return values
  }
}

/// Collects the continuations of parking tasks, each at its index, and lets the test wait until all are there.
final class ParkingLot<Continuation: Sendable>: Sendable {
  private let state: _Mutex<(slots: [Continuation?], parked: Int, waiter: UnsafeContinuation<Void, Never>?)>

  init(count: Int) {
    state = _Mutex((Array(repeating: nil, count: count), 0, nil))
  }

  /// A parking task's continuation, from inside `withUnsafe…Continuation`.
  func deposit(_ continuation: Continuation, at index: Int) {
    let waiter = state.withLock { state -> UnsafeContinuation<Void, Never>? in
      state.slots[index] = continuation
      state.parked += 1
      guard state.parked == state.slots.count else { return nil }
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  /// Every continuation, in order, once all were deposited.
  func continuations() async -> [Continuation] {
    await withUnsafeContinuation { (waiter: UnsafeContinuation<Void, Never>) in
      let done = state.withLock { state in
        guard state.parked < state.slots.count else { return true }
        state.waiter = waiter
        return false
      }
      if done { waiter.resume() }
    }
    return state.withLock { state in state.slots.map { $0! } }
  }
}

/// Whether two continuations are the same one: an `UnsafeContinuation` is one pointer to its task's context.
func same<T, E: Error>(_ first: UnsafeContinuation<T, E>, _ second: UnsafeContinuation<T, E>) -> Bool {
  unsafeBitCast(first, to: UnsafeRawPointer.self) == unsafeBitCast(second, to: UnsafeRawPointer.self)
}

/// Whether an optional continuation is `expected`.
func same<T, E: Error>(_ first: UnsafeContinuation<T, E>?, _ expected: UnsafeContinuation<T, E>) -> Bool {
  first.map { same($0, expected) } ?? false
}

/// A task that does nothing, for the events that record a task the storage started (`started(_:)`): the tests
/// check whether an action hands it back to cancel.
func idleTask() -> Task<Void, Never> {
  Task {}
}
