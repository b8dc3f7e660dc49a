import InternalRippleUtilities
import Ripple

/// A one-shot latch any number of tasks wait at until it is opened; a task that comes after it opened goes
/// through. (``Gate`` admits one waiter and checks it.)
final class Latch: Sendable {
  private let state = _Mutex<(open: Bool, waiters: [UnsafeContinuation<Void, Never>])>((false, []))

  func open() {
    let waiters = state.withLock { state in
      state.open = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  func wait() async {
    await withUnsafeContinuation { continuation in
      let isOpen = state.withLock { state in
        if state.open { return true }
        state.waiters.append(continuation)
        return false
      }
      if isOpen { continuation.resume() }
    }
  }
}
