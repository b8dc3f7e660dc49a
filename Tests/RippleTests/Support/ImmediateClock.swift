import InternalRippleUtilities
import Ripple
import RippleTesting

/// A clock whose sleeps return at once, moving its time to their deadline: for real-thread stress tests of the
/// timed operators, so that their intervals pass without waiting on wall-clock time and without a test driving
/// a `TestClock` from outside. Concurrent sleepers move time forward only (to the latest deadline reached).
final class ImmediateClock: Clock, Sendable {
  typealias Instant = TestClock.Instant

  private let current = _Mutex(Instant())

  var now: Instant { current.withLock { $0 } }
  var minimumResolution: Duration { .zero }

  /// Returns at once, with the clock at `deadline` or later; throws `CancellationError` in a cancelled task.
  func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    current.withLock { now in now = max(now, deadline) }
  }
}
