import Ripple

/// Counts the tasks a model has running, so tests can check that releasing a model ends all of them.
final class ActivityCounter: Sendable {
  private let state = _Mutex<(running: Int, idleWaiters: [UnsafeContinuation<Void, Never>])>((0, []))

  /// The number of tasks running now.
  var running: Int { state.withLock { $0.running } }

  /// Runs `body`, counted as running until it returns.
  func track<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async -> T) async -> T {
    state.withLock { $0.running += 1 }
    defer {
      let waiters = state.withLock { state in
        state.running -= 1
        guard state.running == 0 else { return [UnsafeContinuation<Void, Never>]() }
        defer { state.idleWaiters = [] }
        return state.idleWaiters
      }
      for waiter in waiters { waiter.resume() }
    }
    return await body()
  }

  /// Suspends until no counted task is running.
  func waitUntilIdle() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let idle = state.withLock { state in
        if state.running == 0 { return true }
        state.idleWaiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }
}
