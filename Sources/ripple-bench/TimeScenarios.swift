import Ripple

/// Values per run of a time-operator scenario.
let timeBurstCount = 100_000

/// Ticks per run of the timer scenario.
let timerTicks = 100_000

/// `debounce` and `throttle` over a burst: values as fast as an `AsyncStream` carries them, a 1 ms interval
/// on the continuous clock. The consumer sees only a few of them; the cost measured is the operator's
/// handling of each value on its way in.
func timeScenarios() -> [Scenario] {
  [
    Scenario(name: "debounce.burst", baseline: "asyncstream.raw", operations: timeBurstCount) {
      await countBurst { $0.debounce(for: .milliseconds(1)) }
    },
    Scenario(name: "throttle.burst", baseline: "asyncstream.raw", operations: timeBurstCount) {
      await countBurst { $0.throttle(for: .milliseconds(1)) }
    },
    Scenario(name: "timer.zero", baseline: "asyncstream.raw", operations: timerTicks) {
      // Deadlines that have always passed: the cost of a tick itself, a sleep that returns at once.
      var seen = 0
      for await _ in AsyncTimerSequence(interval: .zero, clock: ContinuousClock()) {
        seen += 1
        if seen == timerTicks { break }
      }
      return seen
    },
  ]
}

/// Sends ``timeBurstCount`` values through an `AsyncStream` from a concurrent producer, through
/// `makeSequence`, and counts what comes out.
func countBurst<S: AsyncSequence<Int, Never>>(_ makeSequence: (AsyncStream<Int>) -> S) async -> Int {
  let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
  let producer = Task {
    for value in 0..<timeBurstCount {
      continuation.yield(value)
    }
    continuation.finish()
  }
  var seen = 0
  for await _ in makeSequence(stream) {
    seen += 1
  }
  await producer.value
  return seen
}
