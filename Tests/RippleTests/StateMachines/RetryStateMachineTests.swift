import Testing

@testable import Ripple

private typealias Machine = _RetryStateMachine<Duration>

/// `retry`'s machine as a plain value: every transition, no task, no clock.
/// The machine's answer to a failure (inout, so that `#expect` need not mutate).
private func fail(_ machine: inout Machine, cancelled: Bool = false) -> Machine.Action {
  machine.baseFailed(isCancelled: cancelled)
}

/// The machine's answer to the end of a wait.
private func wake(_ machine: inout Machine, cancelled: Bool) -> Bool {
  machine.waitEnded(cancelled: cancelled)
}

@Suite("retry's state machine")
struct RetryStateMachineTests {
  @Test("without a wait: each failure is retried at once until the count is spent, then thrown")
  func retriesAtOnce() {
    var machine = Machine(retries: 2, backoff: nil)
    #expect(machine.state == .iterating(retried: 0))
    #expect(fail(&machine) == .retry)
    #expect(machine.state == .iterating(retried: 1))
    #expect(fail(&machine) == .retry)
    #expect(machine.state == .iterating(retried: 2))
    #expect(fail(&machine) == .fail)
    #expect(machine.state == .finished)
    #expect(machine.state == .finished)
  }

  @Test("zero retries: the first failure is thrown")
  func zeroRetries() {
    var machine = Machine(retries: 0, backoff: .constant(.seconds(1)))
    #expect(fail(&machine) == .fail)
    #expect(machine.state == .finished)
  }

  @Test("a failure while the consumer is cancelled is thrown, not retried")
  func cancelledFailure() {
    var machine = Machine(retries: 5, backoff: nil)
    #expect(fail(&machine, cancelled: true) == .fail)
    #expect(machine.state == .finished)
  }

  @Test("with a backoff: a failure waits its delay, a wait that ends iterates again")
  func waits() {
    var machine = Machine(retries: 3, backoff: .exponential(initial: .seconds(1), maximum: .seconds(3)))
    #expect(fail(&machine) == .wait(.seconds(1)))
    #expect(machine.state == .waiting(retry: 1))
    #expect(wake(&machine, cancelled: false))
    #expect(machine.state == .iterating(retried: 1))
    #expect(fail(&machine) == .wait(.seconds(2)))
    #expect(wake(&machine, cancelled: false))
    #expect(fail(&machine) == .wait(.seconds(3)))
    #expect(wake(&machine, cancelled: false))
    #expect(machine.state == .iterating(retried: 3))
    #expect(fail(&machine) == .fail)
    #expect(machine.state == .finished)
  }

  @Test("a wait that is cancelled ends the iteration")
  func cancelledWait() {
    var machine = Machine(retries: 3, backoff: .constant(.seconds(1)))
    #expect(fail(&machine) == .wait(.seconds(1)))
    #expect(!wake(&machine, cancelled: true))
    #expect(machine.state == .finished)
  }

  @Test("the base finishing ends the iteration, after retries too")
  func finishes() {
    var machine = Machine(retries: 1, backoff: nil)
    #expect(fail(&machine) == .retry)
    machine.baseFinished()
    #expect(machine.state == .finished)
  }

  @Test(
    "backoff delays: constant, exponential with a cap, multiplier 1, zero initial",
    arguments: [
      (RetryBackoff<Duration>.constant(.seconds(2)), [2, 2, 2, 2]),
      (.exponential(initial: .seconds(1), maximum: .seconds(5)), [1, 2, 4, 5, 5]),
      (.exponential(initial: .seconds(1), multiplier: 3, maximum: .seconds(100)), [1, 3, 9, 27, 81, 100]),
      (.exponential(initial: .seconds(2), multiplier: 1, maximum: .seconds(5)), [2, 2, 2]),
      (.exponential(initial: .zero, maximum: .seconds(5)), [0, 0, 0]),
    ] as [(RetryBackoff<Duration>, [Int])])
  func backoffDelays(backoff: RetryBackoff<Duration>, seconds: [Int]) {
    #expect(seconds.indices.map { backoff.delay(beforeRetry: $0 + 1) } == seconds.map { .seconds($0) })
  }

  @Test("a very long exponential series stays at its cap without overflowing")
  func longSeries() {
    let backoff = RetryBackoff.exponential(initial: Duration.nanoseconds(1), multiplier: 10, maximum: .seconds(60))
    #expect(backoff.delay(beforeRetry: 1_000_000) == .seconds(60))
  }

  #if os(macOS) || os(Linux) || os(FreeBSD) || os(Windows)  // where Swift Testing runs exit tests
  @Test("bad arguments are precondition failures")
  func badArguments() async {
    await #expect(processExitsWith: .failure) { _ = [1].async.retry(-1) }
    await #expect(processExitsWith: .failure) { _ = [1].async.retry(1, delay: .seconds(-1)) }
    await #expect(processExitsWith: .failure) {
      _ = RetryBackoff.exponential(initial: Duration.seconds(2), maximum: .seconds(1))
    }
  }

  @Test("a transition from the wrong state is a precondition failure")
  func impossibleTransitions() async {
    await #expect(processExitsWith: .failure) {
      var machine = Machine(retries: 1, backoff: nil)
      _ = machine.waitEnded(cancelled: false)
    }
    await #expect(processExitsWith: .failure) {
      var machine = Machine(retries: 0, backoff: nil)
      _ = machine.baseFailed(isCancelled: false)
      machine.baseFinished()
    }
  }
  #endif
}
