/// How much of a real-thread stress test's work to do.
///
/// All of it, normally. Under ThreadSanitizer every memory access is checked and the suites that start thousands
/// of tasks run 5–20× slower, all at once on two cores, so their time limits would measure the sanitizer:
/// `Scripts/tsan.sh` sets `RIPPLE_STRESS_DIVISOR=10` and each stress loop does a tenth of its rounds — still
/// hundreds of interleavings per test for the sanitizer to watch. Nothing in the code under test reads it.
enum Stress {
  /// What `RIPPLE_STRESS_DIVISOR` asks for; 1 when it is unset or not a positive whole number.
  static let divisor: Int = Environment.value("RIPPLE_STRESS_DIVISOR").flatMap(Int.init).map { max($0, 1) } ?? 1

  /// The longest a cancelled consumer may take to end: 10 s, 100 s in a sanitizer run, where every step runs 5–20×
  /// slower. What it catches is a cancellation that is not seen — a consumer left waiting for an element that never
  /// comes, or for a 60 s sleep to run out — not a slow scheduler: with the whole suite and other builds sharing two
  /// cores, one end measured 3.05 s (a 2 s bound failed), and under ThreadSanitizer 3.4 s.
  static let cancellationBound: Duration = divisor > 1 ? .seconds(100) : .seconds(10)

  /// `count` rounds, divided for a sanitizer run; at least 1.
  static func rounds(_ count: Int) -> Int {
    max(1, count / divisor)
  }

  /// Cancels `consumer` at once or, as often, at a random point of its work (after 1–50 yields of the calling task),
  /// then waits for it to end: what it returned, and how long it took to end once cancelled — the figure
  /// ``cancellationBound`` bounds.
  static func cancelAtRandomPoint<Value: Sendable>(
    _ consumer: Task<Value, Never>
  ) async -> (value: Value, ending: Duration) {
    if Bool.random() {
      for _ in 0..<Int.random(in: 1...50) { await Task.yield() }
    }
    let clock = ContinuousClock()
    let cancelled = clock.now
    consumer.cancel()
    let value = await consumer.value
    return (value, clock.now - cancelled)
  }
}
