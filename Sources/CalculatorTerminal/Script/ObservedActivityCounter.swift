@_spi(Testing) import Ripple

/// Counts what the model's `Observed` iterators do — reads and waits — and lets a driver wait for a count.
///
/// Bound as `_OperatorTasks.observedActivity` while the model is created, so the engine's iterators report
/// to it. A read means an edit has reached the iterator; a wait means its consumer took the value it read and
/// asked for the next.
final class ObservedActivityCounter: Sendable {
  private struct State {
    var reads = 0
    var waits = 0
    var waiters: [(reads: Int, waits: Int, continuation: UnsafeContinuation<Void, Never>)] = []
  }

  private let state = _Mutex(State())

  /// Records one report.
  @Sendable func report(_ activity: _ObservedActivity) {
    let due = state.withLock { state in
      switch activity {
      case .read: state.reads += 1
      case .waiting: state.waits += 1
      }
      let (reads, waits) = (state.reads, state.waits)
      let reached = { (waiter: (reads: Int, waits: Int, continuation: UnsafeContinuation<Void, Never>)) in
        waiter.reads <= reads && waiter.waits <= waits
      }
      defer { state.waiters.removeAll(where: reached) }
      return state.waiters.filter(reached).map(\.continuation)
    }
    for waiter in due { waiter.resume() }
  }

  /// Suspends until the iterators have read at least `reads` times and waited at least `waits` times.
  func wait(reads: Int = 0, waits: Int = 0) async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let reached = state.withLock { state in
        if state.reads >= reads && state.waits >= waits { return true }
        state.waiters.append((reads, waits, continuation))
        return false
      }
      if reached { continuation.resume() }
    }
  }
}
