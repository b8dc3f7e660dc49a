import Testing

@testable import Ripple
@testable import RippleTesting

/// `delay`'s behaviour, and the diagrams of `Delay.md`, run.
@Suite("delay", .timeLimit(.minutes(1)))
struct DelayTests {
  @Test(
    "Delay.md: two ticks",
    arguments: [
      ("ab--c|", "--ab--c|"),
      // An empty base, an immediate failure, a failure after elements: all two ticks later.
      ("|", "--|"),
      ("^", "--^"),
      ("ab^", "--ab^"),
      // The base finishes while an element waits: the finish follows it, two ticks after its own time.
      ("a|", "--a|"),
      ("[ab]-[cd]|", "--[ab]-[cd]|"),
    ])
  func diagrams(input: String, expected: String) async {
    #expect(await marbles(input) { $0[0].delay(for: .seconds(2), clock: $1) } == expected)
  }

  @Test("Delay.md: cancelling the consumer while elements are queued ends it at once and cancels the base")
  func cancelledWithQueue() async {
    let probe = CancellationProbe(yielding: ["a", "b", "c"])
    let clock = TestClock()
    await clock.lockstep {
      let consumer = Task { () -> String in
        var iterator = probe.delay(for: .seconds(3), clock: clock).makeAsyncIterator()
        let value = await iterator.next()
        return "\(value ?? "nil") at \(clock.now)"
      }
      await clock.advance(by: .seconds(1))
      consumer.cancel()
      #expect(await consumer.value == "nil at 1.0 seconds")
      await probe.waitForCancellation()
      await clock.advance(by: .zero)
      #expect(!clock.hasScheduledSleepers)
    }
  }

  @Test("a slow consumer gets every element, in order, each at once when it asks after it is due")
  func slowConsumer() async {
    let clock = TestClock()
    let (stream, input) = AsyncStream.makeStream(of: Int.self)
    let log = await clock.lockstep { () -> [String] in
      let consumer = Task { () -> [String] in
        var log: [String] = []
        for await value in stream.delay(for: .seconds(2), clock: clock) {
          log.append("\(value) at \(clock.now)")
          try? await clock.sleep(for: .seconds(5))
        }
        log.append("finished at \(clock.now)")
        return log
      }
      for value in 1...3 { input.yield(value) }
      input.finish()
      await clock.run()
      return await consumer.value
    }
    #expect(log == ["1 at 2.0 seconds", "2 at 7.0 seconds", "3 at 12.0 seconds", "finished at 17.0 seconds"])
  }

  @Test("AsyncDelaySequence's doc comment: a at 2 s, b at 3 s, c at 6 s, finished at 7 s")
  func docComment() async {
    #expect(await marbles("ab--c|") { $0[0].delay(for: .seconds(2), clock: $1) } == "--ab--c|")
  }

  @Test(
    "a cancelled consumer gets nothing more, not even an element already due (the type's doc: cancelling drops the queue)"
  )
  func cancelledConsumerGetsNothingDue() async {
    let clock = TestClock()
    let (stream, input) = AsyncStream.makeStream(of: Int.self)
    input.yield(1)
    input.yield(2)
    input.finish()
    let delayed = stream.delay(for: .zero, clock: clock)
    let taken = await Task {
      var iterator = delayed.makeAsyncIterator()
      let first = await iterator.next()
      withUnsafeCurrentTask { $0?.cancel() }
      let second = await iterator.next()
      return [first, second]
    }.value
    #expect(taken == [1, nil])
  }
}

// Delay.md's example, compiled and run.

private func announcements<Changes: AsyncSequence & Sendable>(
  of changes: Changes, clock: some Clock<Duration>
) -> some AsyncSequence<String, Changes.Failure> where Changes.Element == String {
  // Let each change's 300 ms animation end before it is announced.
  changes.delay(for: .milliseconds(300), clock: clock).map { "now \($0)" }
}

extension DelayTests {
  @Test("Delay.md's example: each change is announced 300 ms later")
  func guideExample() async {
    let output = await marbles("a-b|", tick: .milliseconds(100)) { inputs, clock in
      announcements(of: inputs[0], clock: clock)
    }
    #expect(output == "---'now a'-'now b'|")
  }
}

/// The spellings of `MigratingFromCombine.md`'s rows for retry, timeout and delay, compiled and run over a base that
/// finishes at once.
@Suite("Migrating from Combine: retry, timeout, delay rows")
struct RetryTimeoutDelayMigrationTests {
  struct TimedOut: Error {}

  @Test("every spelling in the rows compiles, and passes a finishing base through")
  func rows() async throws {
    let clock = TestClock()
    let values = [1, 2].async
    let results = try await clock.lockstep { () throws -> [[Int]] in
      let consumer = Task { () throws -> [[Int]] in
        [
          await collect(values.retry(3)),
          await collect(values.retry(3, delay: .seconds(1), clock: clock)),
          await collect(
            values.retry(3, backoff: .exponential(initial: .seconds(1), maximum: .seconds(30)), clock: clock)),
          await collect(values.timeout(.seconds(5), clock: clock)),
          try await collect(values.timeout(.seconds(5), clock: clock, customError: { TimedOut() })),
          await collect(values.delay(for: .seconds(1), clock: clock)),
        ]
      }
      await clock.run()
      return try await consumer.value
    }
    #expect(results == Array(repeating: [1, 2], count: 6))
  }
}
