import RippleTesting
import Synchronization
import Testing

@testable import Ripple

/// `retry`'s behaviour, and the diagrams of `Retry.md`, run. Each input string is one iteration of the base, played
/// from the instant it starts (see ``AttemptsInput``); the last one plays for every later iteration.
@Suite("retry", .timeLimit(.minutes(1)))
struct RetryTests {
  /// An empty input as long as the attempts together, so that the run lasts at least as long.
  static func span(_ attempts: [String]) -> String {
    String(repeating: "-", count: attempts.map(\.count).reduce(0, +))
  }

  @Test(
    "Retry.md: retry(2) at once",
    arguments: [
      // Recovered: the third iteration finishes.
      (["a-^", "b^", "c|"], "a-bc|"),
      // Exhausted: the third failure is thrown.
      (["a^"], "aaa^"),
      // An empty base finishes at once.
      (["|"], "|"),
      // Immediate failures: three in one tick.
      (["^"], "^"),
    ])
  func retryDiagrams(attempts: [String], expected: String) async {
    let output = await marbles(Self.span(attempts)) { _, clock in
      AttemptsInput(attempts, clock: clock).retry(2)
    }
    #expect(output == expected)
  }

  @Test("Retry.md: retry(0) passes the elements and the failure through")
  func noRetry() async {
    let output = await marbles("ab^") { _, clock in AttemptsInput(["ab^"], clock: clock).retry(0) }
    #expect(output == "ab^")
  }

  @Test(
    "Retry.md: retry(2, delay: 2 ticks)",
    arguments: [
      (["a-^", "b^", "c|"], "a---b--c|"),
      (["a^"], "a--a--a^"),
    ])
  func delayDiagrams(attempts: [String], expected: String) async {
    let output = await marbles(Self.span(attempts)) { _, clock in
      AttemptsInput(attempts, clock: clock).retry(2, delay: .seconds(2), clock: clock)
    }
    #expect(output == expected)
  }

  @Test(
    "Retry.md: retry(3, backoff: .exponential(initial: 1 tick, maximum: 2 ticks))",
    arguments: [
      (["^", "^", "^", "a|"], "-----a|"),
      (["^"], "-----^"),
    ])
  func backoffDiagrams(attempts: [String], expected: String) async {
    let output = await marbles(Self.span(attempts)) { _, clock in
      AttemptsInput(attempts, clock: clock).retry(
        3, backoff: .exponential(initial: .seconds(1), maximum: .seconds(2)), clock: clock)
    }
    #expect(output == expected)
  }

  @Test("Retry.md: cancelling the consumer during a wait ends it at once, without another iteration")
  func cancelledDuringWait() async {
    let clock = TestClock()
    await clock.lockstep {
      let base = AttemptsInput(["a^"], clock: clock)
      let consumer = Task { () -> [String] in
        var iterator = base.retry(3, delay: .seconds(5), clock: clock).makeAsyncIterator()
        var seen: [String] = []
        do {
          while let element = try await iterator.next() { seen.append(element) }
        } catch {
          return seen + ["^"]
        }
        return seen + ["nil at \(clock.now)"]
      }
      // `a` at 0 s, the failure at 1 s; the wait runs until 6 s.
      await clock.advance(by: .seconds(2))
      consumer.cancel()
      #expect(await consumer.value == ["a", "nil at 2.0 seconds"])
      #expect(base.iterationCount == 1)
    }
  }

  @Test("each retry makes a fresh iterator of the base; the last failure keeps its type")
  func freshIterators() async {
    let clock = TestClock()
    let base = AttemptsInput(["a^", "b^", "c|"], clock: clock)
    let thrown = await clock.lockstep { () -> MarbleError? in
      let consumer = Task { () -> MarbleError? in
        do throws(MarbleError) {
          _ = try await collect(base.retry(1))
          return nil
        } catch {
          return error
        }
      }
      await clock.run()
      return await consumer.value
    }
    #expect(thrown == MarbleError())
    #expect(base.iterationCount == 2)
  }

  @Test("a base that cannot fail gives a sequence that cannot fail")
  func nonThrowing() async {
    var seen: [Int] = []
    for await value in [1, 2, 3].async.retry(2) { seen.append(value) }
    #expect(seen == [1, 2, 3])
  }

  @Test("AsyncRetrySequence's doc comment: prints 1, 2, 1, 2, 3")
  func docComment() async throws {
    let readings = Readings()
    var printed: [Int] = []
    for try await reading in readings.retry(2) {
      printed.append(reading)
    }
    #expect(printed == [1, 2, 1, 2, 3])
  }

  @Test("RetryBackoff's doc comment: prints the delays")
  func backoffDocComment() {
    let backoff = RetryBackoff<Duration>.exponential(initial: .seconds(1), maximum: .seconds(5))
    #expect(
      "\((1...4).map { backoff.delay(beforeRetry: $0) })" == "[1.0 seconds, 2.0 seconds, 4.0 seconds, 5.0 seconds]")
  }

  @Test("Retry.md's example compiles and retries with a growing wait")
  func guideExample() async {
    let clock = TestClock()
    let received = await clock.lockstep { () -> [Int] in
      let consumer = Task { () -> [Int] in
        (try? await collect(updates(from: FeedService(), clock: clock)).map(\.value)) ?? []
      }
      await clock.run()
      return await consumer.value
    }
    #expect(received == [1, 2, 3])
  }
}

/// A base whose first iteration gives 1, 2 and fails, and whose later iterations give 1, 2, 3.
private final class Readings: AsyncSequence, Sendable {
  let iterations = Mutex(0)

  func makeAsyncIterator() -> AsyncThrowingStream<Int, any Error>.Iterator {
    let first = iterations.withLock { count in
      defer { count += 1 }
      return count == 0
    }
    return AsyncThrowingStream<Int, any Error> { continuation in
      continuation.yield(1)
      continuation.yield(2)
      if first {
        continuation.finish(throwing: FeedError())
      } else {
        continuation.yield(3)
        continuation.finish()
      }
    }.makeAsyncIterator()
  }
}

// Retry.md's example, with stand-ins for its service.

private struct Update: Sendable {
  var value: Int
}

private struct FeedError: Error {}

/// Fails its first three iterations at once, then gives 1, 2, 3.
private final class FeedService: Sendable {
  let iterations = Mutex(0)

  func updates() -> some AsyncSequence<Update, FeedError> {
    AttemptsFeed(service: self)
  }

  struct AttemptsFeed: AsyncSequence, Sendable {
    let service: FeedService

    func makeAsyncIterator() -> Iterator {
      Iterator(
        fails: service.iterations.withLock { count in
          defer { count += 1 }
          return count < 3
        })
    }

    struct Iterator: AsyncIteratorProtocol {
      let fails: Bool
      var next = 1

      mutating func next(isolation actor: isolated (any Actor)?) async throws(FeedError) -> Update? {
        if fails { throw FeedError() }
        guard next <= 3 else { return nil }
        defer { next += 1 }
        return Update(value: next)
      }
    }
  }
}

private func updates(from service: FeedService, clock: some Clock<Duration>) -> some AsyncSequence<Update, FeedError> {
  service.updates()
    .retry(5, backoff: .exponential(initial: .seconds(1), maximum: .seconds(30)), clock: clock)
}
