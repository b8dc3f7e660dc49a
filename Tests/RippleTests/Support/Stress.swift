/// How much of a real-thread stress test's work to do.
///
/// All of it, normally. Under ThreadSanitizer every memory access is checked and the suites that start thousands
/// of tasks run 5–20× slower, all at once on two cores, so their time limits would measure the sanitizer:
/// `Scripts/tsan.sh` sets `RIPPLE_STRESS_DIVISOR=10` and each stress loop does a tenth of its rounds — still
/// hundreds of interleavings per test for the sanitizer to watch. Nothing in the code under test reads it.
enum Stress {
  /// What `RIPPLE_STRESS_DIVISOR` asks for; 1 when it is unset or not a positive whole number.
  static let divisor: Int = Environment.value("RIPPLE_STRESS_DIVISOR").flatMap(Int.init).map { max($0, 1) } ?? 1

  /// A bound on a measured latency (how long a cancellation took): as given normally, ten times longer in a sanitizer
  /// run, where every step runs 5–20× slower (a 2 s bound read 3.4 s under ThreadSanitizer once).
  static func latencyBound(_ bound: Duration) -> Duration {
    divisor > 1 ? bound * 10 : bound
  }

  /// `count` rounds, divided for a sanitizer run; at least 1.
  static func rounds(_ count: Int) -> Int {
    max(1, count / divisor)
  }
}
