import InternalRippleUtilities
import Ripple
import Testing

@testable import Ripple
@testable import RippleTesting

@Suite("TestClock", .timeLimit(.minutes(1)))
struct TestClockTests {
  // MARK: Instants

  @Test("instants are offsets from zero")
  func instants() {
    let zero = TestClock.Instant()
    let three = zero.advanced(by: .seconds(3))
    #expect(zero.offset == .zero)
    #expect(zero.duration(to: three) == .seconds(3))
    #expect(three.duration(to: zero) == .seconds(-3))
    #expect(zero < three)
    #expect(TestClock(now: three).now == three)
    #expect(TestClock().minimumResolution == .zero)
  }

  // MARK: Order

  @Test("sleepers resume in deadline order, ties in the order they went to sleep")
  func deadlineOrder() async {
    let clock = TestClock()
    let log = Log()
    await clock.lockstep {
      await withTaskGroup(of: Void.self) { group in
        for (name, seconds) in [("c", 3), ("a", 1), ("b1", 2), ("b2", 2)] {
          group.addTask {
            try? await clock.sleep(for: .seconds(seconds))
            log.append("\(name)@\(clock.now)")
          }
        }
        await clock.advance(by: .seconds(5))
      }
    }
    #expect(log.entries == ["a@1.0 seconds", "b1@2.0 seconds", "b2@2.0 seconds", "c@3.0 seconds"])
    #expect(clock.now == .init(offset: .seconds(5)))
  }

  @Test("advance(to:) stops at every deadline on the way, including sleeps started on the way")
  func advanceToPastSeveralDeadlines() async {
    let clock = TestClock()
    let log = Log()
    await clock.lockstep {
      async let sleeper: Void = {
        for _ in 1...3 {
          try? await clock.sleep(for: .seconds(1))
          log.append("woke@\(clock.now)")
        }
      }()
      await clock.advance(to: .init(offset: .milliseconds(2500)))
      #expect(log.entries == ["woke@1.0 seconds", "woke@2.0 seconds"])
      #expect(clock.now == .init(offset: .milliseconds(2500)))
      await clock.advance(to: .init(offset: .seconds(10)))
      await sleeper
    }
    #expect(log.entries == ["woke@1.0 seconds", "woke@2.0 seconds", "woke@3.0 seconds"])
    #expect(clock.now == .init(offset: .seconds(10)))
  }

  @Test("advancing to the past changes nothing; a deadline that has come does not suspend")
  func pastDeadlines() async throws {
    let clock = TestClock(now: .init(offset: .seconds(5)))
    await clock.advance(to: .init(offset: .seconds(2)))
    #expect(clock.now == .init(offset: .seconds(5)))
    try await clock.sleep(until: .init(offset: .seconds(4)))
    try await clock.sleep(for: .zero)
    #expect(clock.now == .init(offset: .seconds(5)))
  }

  @Test("outside a lockstep scope, advance wakes every due sleeper, whether it slept before or after")
  func advanceWithoutLockstep() async throws {
    let clock = TestClock()
    // Each task either is asleep when the clock passes its deadline, and is resumed, or goes to sleep
    // after that and returns at once: either way it ends, having seen the time the clock was moved to.
    let sleepers = [3, 1, 2].map { seconds in
      Task {
        try await clock.sleep(until: .init(offset: .seconds(seconds)))
        return clock.now
      }
    }
    await clock.advance(to: .init(offset: .seconds(5)))
    for sleeper in sleepers {
      #expect(try await sleeper.value == .init(offset: .seconds(5)))
    }
    #expect(!clock.hasScheduledSleepers)
  }

  // MARK: Cancellation

  @Test("cancelling a sleeper wakes it at once with CancellationError")
  func cancellationWakesSleeper() async {
    let clock = TestClock()
    await clock.lockstep {
      let sleeper = Task {
        try await clock.sleep(for: .seconds(10))
      }
      // Lets the sleeper go to sleep.
      await clock.advance(by: .zero)
      #expect(clock.hasScheduledSleepers)
      sleeper.cancel()
      await #expect(throws: CancellationError.self) { try await sleeper.value }
      #expect(!clock.hasScheduledSleepers)
    }
    #expect(clock.now == .init())
  }

  @Test("a task cancelled before it sleeps throws CancellationError (no lockstep)")
  func cancelledBeforeSleeping() async {
    let clock = TestClock()
    let sleeper = Task {
      try await clock.sleep(for: .seconds(1))
    }
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(!clock.hasScheduledSleepers)
  }

  // MARK: run()

  @Test("run() advances until no sleeper is left, following sleeps that start on the way")
  func runDrains() async {
    let clock = TestClock()
    let log = Log()
    await clock.lockstep {
      await withTaskGroup(of: Void.self) { group in
        group.addTask {
          try? await clock.sleep(for: .seconds(1))
          log.append("first@\(clock.now)")
          try? await clock.sleep(for: .seconds(5))
          log.append("second@\(clock.now)")
        }
        group.addTask {
          try? await clock.sleep(for: .seconds(3))
          log.append("other@\(clock.now)")
        }
        await clock.run()
        #expect(!clock.hasScheduledSleepers)
      }
    }
    #expect(log.entries == ["first@1.0 seconds", "other@3.0 seconds", "second@6.0 seconds"])
    #expect(clock.now == .init(offset: .seconds(6)))
  }

  // MARK: Lockstep

  @Test("in a lockstep scope, child tasks finish in the order the clock wakes them")
  func lockstepCompletionOrder() async {
    let clock = TestClock()
    let order = await clock.lockstep {
      await withTaskGroup(of: Int.self) { group in
        for seconds in [3, 1, 2] {
          group.addTask {
            try? await clock.sleep(for: .seconds(seconds))
            return seconds
          }
        }
        await clock.run()
        var order: [Int] = []
        for await seconds in group { order.append(seconds) }
        return order
      }
    }
    #expect(order == [1, 2, 3])
  }

  @Test("a lockstep scope runs its body, child tasks and operator tasks in the scope's pump")
  func lockstepRunsInThePump() async {
    let clock = TestClock()
    let inPump = await clock.lockstep {
      let body = _RuntimeHooks.pumpingExecutor() != nil
      async let child = _RuntimeHooks.pumpingExecutor() != nil
      let one = AsyncStream<Int> {
        $0.yield(1); $0.finish()
      }
      let two = AsyncStream<Int> {
        $0.yield(2); $0.finish()
      }
      let merged = merge(one, two).map { _ in _RuntimeHooks.pumpingExecutor() != nil }
      var operatorTasks: [Bool] = []
      for await inPump in merged { operatorTasks.append(inPump) }
      return [body, await child] + operatorTasks
    }
    #expect(inPump == [true, true, true, true])
    #expect(_RuntimeHooks.pumpingExecutor() == nil)
  }
}

/// A list that tasks append to.
final class Log: Sendable {
  private let storage = _Mutex<[String]>([])

  func append(_ entry: String) {
    storage.withLock { $0.append(entry) }
  }

  var entries: [String] {
    storage.withLock { $0 }
  }
}
