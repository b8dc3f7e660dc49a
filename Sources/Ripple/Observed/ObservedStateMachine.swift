/// The change-tracking state of one ``Observed`` iterator.
///
/// Events come from two sides: the consumer (`waitStarted`, `cancelled`) and the observed objects'
/// registrars (`changeObserved`, from whichever thread mutates them). Methods return the continuation to
/// resume, which the caller resumes after releasing the lock.
struct _ObservedStateMachine: ~Copyable {
  private enum State {
    /// No consumer waits. `pending` records a change that arrived since the consumer last woke.
    case idle(pending: Bool)
    /// The consumer waits for the next change.
    case waiting(UnsafeContinuation<Bool, Never>)
    /// The consuming task was cancelled: every wait ends at once.
    case cancelled
  }

  private var state = State.idle(pending: false)

  /// The consumer starts waiting. Returns `nil` to suspend until ``changeObserved()`` or ``cancelled()``
  /// returns the continuation, or the answer to resume with at once: `true` if a change is already
  /// pending, `false` if iteration was cancelled.
  mutating func waitStarted(_ continuation: UnsafeContinuation<Bool, Never>) -> Bool? {
    switch state {
    case .idle(pending: true):
      state = .idle(pending: false)
      return true
    case .idle(pending: false):
      state = .waiting(continuation)
      return nil
    case .cancelled:
      return false
    case .waiting:
      preconditionFailure("Observed: an iterator was used by two tasks at once (state: waiting)")
    }
  }

  /// A tracked property is about to change; returns the waiting consumer to wake.
  mutating func changeObserved() -> UnsafeContinuation<Bool, Never>? {
    switch state {
    case .waiting(let continuation):
      state = .idle(pending: false)
      return continuation
    case .idle:
      state = .idle(pending: true)
      return nil
    case .cancelled:
      return nil
    }
  }

  /// The consuming task was cancelled; returns the waiting consumer to wake.
  mutating func cancelled() -> UnsafeContinuation<Bool, Never>? {
    defer { state = .cancelled }
    if case .waiting(let continuation) = state { return continuation }
    return nil
  }
}
