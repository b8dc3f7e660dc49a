/// The change tracking of one ``Observed`` iterator, as a value.
///
/// Events come from two sides. The consumer starts an emission — a run of the closure under fresh tracking —
/// (`emissionStarted`), waits for a change (`waitStarted`) or is cancelled (`cancelled`). The tracking of an
/// emission reports from whichever thread mutates or releases an observed object (`changeObserved`): a `willSet`,
/// or the registrars letting the tracking go because the objects are gone. A report names the emission that
/// installed the tracking; one from an earlier emission is stale, since a later read already superseded it, and
/// only the first report of an emission counts. Methods return what to do once the lock is released.
///
/// `Waiter` is what a waiting consumer is resumed through: an `UnsafeContinuation<Bool, Never>` in
/// ``_ObservedStorage``.
struct _ObservedStateMachine<Waiter>: ~Copyable {
  private enum State {
    /// The closure is about to run: on the first `next()`, or after a report woke the consumer. Further reports
    /// of the current emission are stale.
    case ready
    /// The closure ran under tracking; nothing was reported yet, and nobody waits.
    case tracking
    /// The current emission's tracking reported before the consumer waited for it.
    case changed
    /// The consumer waits for the current emission's tracking to report.
    case waiting(Waiter)
    /// The consuming task was cancelled: every wait ends at once, and reports change nothing.
    case cancelled
  }

  /// The side effect of an event, run once the lock is released.
  enum Action {
    /// Nothing to do; after ``waitStarted(_:)``, the waiter stays suspended until a later event resumes it.
    case none
    /// Resume the waiter with `true` (run the closure again) or `false` (iteration ends).
    case resume(Waiter, returning: Bool)
  }

  private var state = State.ready
  /// The number of the latest emission; the tracking an emission installs reports with its number.
  private var emission: UInt64 = 0

  init() {}

  /// The consumer is about to run the closure; returns the number its tracking reports with.
  mutating func emissionStarted() -> UInt64 {
    emission &+= 1
    switch state {
    case .ready:
      state = .tracking
    case .cancelled:
      break
    case .tracking:
      preconditionFailure("Observed: the closure ran again before a report (state: tracking)")
    case .changed:
      preconditionFailure("Observed: the closure ran again before the consumer woke (state: changed)")
    case .waiting:
      preconditionFailure("Observed: the closure ran while the consumer waited (state: waiting)")
    }
    return emission
  }

  /// The consumer waits for a change.
  mutating func waitStarted(_ waiter: Waiter) -> Action {
    switch state {
    case .tracking:
      state = .waiting(waiter)
      return .none
    case .changed:
      state = .ready
      return .resume(waiter, returning: true)
    case .cancelled:
      return .resume(waiter, returning: false)
    case .ready:
      preconditionFailure("Observed: a wait started before the closure ran (state: ready)")
    case .waiting:
      preconditionFailure("Observed: an iterator was used by two tasks at once (state: waiting)")
    }
  }

  /// The tracking installed by emission `number` reports a `willSet` of a property the closure read, or the loss
  /// of the objects it read.
  mutating func changeObserved(emission number: UInt64) -> Action {
    guard number == emission else { return .none }
    switch state {
    case .tracking:
      state = .changed
      return .none
    case .waiting(let waiter):
      state = .ready
      return .resume(waiter, returning: true)
    case .ready, .changed, .cancelled:
      return .none
    }
  }

  /// The consuming task was cancelled.
  mutating func cancelled() -> Action {
    defer { state = .cancelled }
    if case .waiting(let waiter) = state { return .resume(waiter, returning: false) }
    return .none
  }
}
