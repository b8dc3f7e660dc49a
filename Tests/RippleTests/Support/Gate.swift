import InternalRippleUtilities
import Ripple

/// A one-shot gate a task waits at until the test opens it; waiting ignores cancellation on purpose, to model
/// work that does not stop when cancelled.
final class Gate: Sendable {
  private enum State {
    case closed(waiter: UnsafeContinuation<Void, Never>?)
    case open
  }

  private let state = _Mutex(State.closed(waiter: nil))

  init() {}

  /// Opens the gate, letting the waiter (present or future) through.
  func open() {
    let waiter: UnsafeContinuation<Void, Never>? = state.withLock { state in
      defer { state = .open }
      if case .closed(let waiter) = state { return waiter }
      return nil
    }
    waiter?.resume()
  }

  /// Waits until the gate is open.
  func wait() async {
    await withUnsafeContinuation { continuation in
      let isOpen = state.withLock { state -> Bool in
        switch state {
        case .open: return true
        case .closed(let waiter):
          precondition(waiter == nil, "Gate: only one task may wait")
          state = .closed(waiter: continuation)
          return false
        }
      }
      if isOpen { continuation.resume() }
    }
  }
}
