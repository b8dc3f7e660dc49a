import Ripple

/// Values per run of a time-operator scenario.
let timeBurstCount = 100_000

/// Ticks per run of the timer scenario.
let timerTicks = 100_000

/// `debounce` and `throttle` over a burst: values as fast as an `AsyncStream` carries them, a 1 ms interval
/// on the continuous clock. The consumer sees only a few of them; the cost measured is the operator's
/// handling of each value on its way in.
func timeScenarios() -> [Scenario] {
  sourced("debounce.burst", operations: timeBurstCount) { source in
    switch source {
    case .stream: return await countAll(producedStream(count: timeBurstCount) { $0 }.debounce(for: .milliseconds(1)))
    case .channel: return await countAll(producedChannel(count: timeBurstCount) { $0 }.debounce(for: .milliseconds(1)))
    }
  }
    + sourced("throttle.burst", operations: timeBurstCount) { source in
      switch source {
      case .stream: return await countAll(producedStream(count: timeBurstCount) { $0 }.throttle(for: .milliseconds(1)))
      case .channel:
        return await countAll(producedChannel(count: timeBurstCount) { $0 }.throttle(for: .milliseconds(1)))
      }
    }
    // A timeout that never fires: each element re-arms the deadline (a write; the timer wakes once per second).
    + sourced("timeout.quiet") { source in
      switch source {
      case .stream:
        return await sumAll(
          producedStream(count: operatorElements) { $0 }.timeout(.seconds(1), clock: ContinuousClock()))
      case .channel:
        return await sumAll(
          producedChannel(count: operatorElements) { $0 }.timeout(.seconds(1), clock: ContinuousClock()))
      }
    }
    // Every element of a burst queued and delivered 1 ms later, none lost: the consumer sleeps for the head's time.
    + sourced("delay.burst", operations: timeBurstCount) { source in
      let expected = timeBurstCount * (timeBurstCount - 1) / 2
      switch source {
      case .stream:
        return await sumAll(
          producedStream(count: timeBurstCount) { $0 }.delay(for: .milliseconds(1)), expected: expected)
      case .channel:
        return await sumAll(
          producedChannel(count: timeBurstCount) { $0 }.delay(for: .milliseconds(1)), expected: expected)
      }
    } + [
      Scenario(name: "timer.zero", baseline: "asyncstream.raw", operations: timerTicks) {
        // Deadlines that have always passed: the cost of a tick itself, a sleep that returns at once.
        var seen = 0
        for await _ in AsyncTimerSequence(interval: .zero, clock: ContinuousClock()) {
          seen += 1
          if seen == timerTicks { break }
        }
        return seen
      }
    ]
}

/// Counts what comes out of `sequence`.
@inline(__always)
func countAll<S: AsyncSequence<Int, Never>>(_ sequence: S) async -> Int {
  var seen = 0
  for await _ in sequence {
    seen += 1
  }
  return seen
}
