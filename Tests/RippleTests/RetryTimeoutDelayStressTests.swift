import Synchronization
import Testing

@testable import Ripple

// Stress tests of retry, timeout and delay on real threads: producers are detached tasks feeding `AsyncStream`s,
// yielding at random, and each scenario repeats. Each assertion is a documented promise: no element lost,
// duplicated or reordered; the sequence ends by itself where it should; cancellation ends it promptly and lets go of
// the base's iteration. Nothing sleeps to wait: waits are on latches and on the sequences themselves.

/// How many times each scenario runs.
private let runs = Stress.rounds(1_000)

/// The longest a cancelled consumer may take to end: well under the 60 s waits a missed cancellation would leave.
private let prompt = Stress.cancellationBound

/// A base whose every iteration gives `0..<count` from a concurrent producer, then fails — except the iteration
/// numbered `succeeding`, which finishes.
private struct Flaky: AsyncSequence, Sendable {
  struct Failed: Error {}
  typealias Element = Int
  typealias Failure = Failed

  let count: Int
  let succeeding: Int
  /// Opened at the first failure.
  var failed: Latch? = nil
  let iterations = Iterations()

  final class Iterations: Sendable {
    let count = Mutex(0)
  }

  func makeAsyncIterator() -> Iterator {
    let index = iterations.count.withLock { count in
      defer { count += 1 }
      return count
    }
    return Iterator(base: producedStream(count).makeAsyncIterator(), fails: index != succeeding, failed: failed)
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: AsyncStream<Int>.Iterator
    let fails: Bool
    let failed: Latch?

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failed) -> Int? {
      guard let element = await base.next(isolation: actor) else {
        if fails {
          failed?.open()
          throw Failed()
        }
        return nil
      }
      return element
    }
  }
}

/// Runs `consumer`, cancels it from another thread at a random moment, and returns what it collected and how long
/// it took to end after the cancellation.
private func cancelled(
  after elements: Int, _ consume: @escaping @Sendable (_ seen: @Sendable () -> Void) async -> [Int]
) async -> (collected: [Int], latency: Duration) {
  let enough = Latch()
  let counter = Mutex(0)
  let consumer = Task {
    await consume {
      let seen = counter.withLock { count in
        count += 1
        return count
      }
      if seen == elements { enough.open() }
    }
  }
  if elements > 0 { await enough.wait() }
  let clock = ContinuousClock()
  let start = clock.now
  if Bool.random() { consumer.cancel() } else { await Task.detached { consumer.cancel() }.value }
  let collected = await consumer.value
  return (collected, start.duration(to: clock.now))
}

@Suite("retry, timeout, delay under real threads", .timeLimit(.minutes(3)))
struct RetryTimeoutDelayStressTests {
  @Test("retry: every iteration's elements in order, the retries counted, the last failure thrown or the finish")
  func retryOrder() async {
    for run in 0..<runs {
      let count = Int.random(in: 0...20)
      let retries = Int.random(in: 0...3)
      let succeeding = Int.random(in: 0...4)
      let base = Flaky(count: count, succeeding: succeeding)
      var seen: [Int] = []
      var failed = false
      do {
        for try await element in base.retry(retries, delay: .microseconds(Int.random(in: 0...50))) {
          seen.append(element)
        }
      } catch {
        failed = true
      }
      let iterations = min(retries, succeeding) + 1
      #expect(failed == (succeeding > retries), "run \(run)")
      #expect(seen == Array(repeating: Array(0..<count), count: iterations).flatMap { $0 }, "run \(run)")
    }
  }

  @Test("retry: cancelling the consumer during a wait ends it promptly and iterates no more")
  func retryCancelledWait() async {
    var slowest = Duration.zero
    var endedInWait = 0
    for run in 0..<runs {
      let failed = Latch()
      let count = Int.random(in: 0...5)
      let base = Flaky(count: count, succeeding: .max, failed: failed)
      let consumer = Task { () -> (seen: [Int], thrown: Bool) in
        var seen: [Int] = []
        do {
          for try await element in base.retry(3, delay: .seconds(60)) { seen.append(element) }
        } catch {
          return (seen, true)
        }
        return (seen, false)
      }
      // The first iteration failed: the consumer is about to wait, or waits.
      await failed.wait()
      let clock = ContinuousClock()
      let start = clock.now
      if Bool.random() { consumer.cancel() } else { await Task.detached { consumer.cancel() }.value }
      let (seen, thrown) = await consumer.value
      slowest = max(slowest, start.duration(to: clock.now))
      // Thrown only when the cancellation came between the failure and retry's look at it.
      if !thrown { endedInWait += 1 }
      #expect(seen == Array(0..<count), "run \(run)")
      #expect(base.iterations.count.withLock { $0 } == 1, "run \(run): the base was iterated again")
    }
    #expect(endedInWait > 0, "no run cancelled a wait")
    #expect(slowest < prompt, "the slowest cancellation took \(slowest)")
  }

  @Test("timeout with an interval it never reaches: every element once, in order, and the finish")
  func timeoutPassesEverything() async {
    for run in 0..<runs {
      let count = Int.random(in: 0...40)
      var seen: [Int] = []
      for await element in producedStream(count).timeout(.seconds(60), clock: ContinuousClock()) {
        seen.append(element)
      }
      #expect(seen == Array(0..<count), "run \(run)")
    }
  }

  @Test("timeout that fires on an endless base: a prefix in order, the finish, and the base released")
  func timeoutFires() async {
    for run in 0..<runs {
      let released = Latch()
      let count = Int.random(in: 0...20)
      let interval = Duration.microseconds(Int.random(in: 50...500))
      let seen = await Task {
        var seen: [Int] = []
        let base = TrackedBase(base: producedStream(count, endless: true), released: released)
        for await element in base.timeout(interval, clock: ContinuousClock()) { seen.append(element) }
        return seen
      }.value
      await released.wait()
      #expect(seen == Array(0..<seen.count), "run \(run): \(seen)")
    }
  }

  @Test("timeout: cancelling the consumer ends it promptly and releases the base")
  func timeoutCancelled() async {
    var slowest = Duration.zero
    for run in 0..<runs {
      let released = Latch()
      let elements = Int.random(in: 0...5)
      let (collected, latency) = await cancelled(after: elements) { seen in
        var collected: [Int] = []
        let base = TrackedBase(
          base: producedStream(elements + Int.random(in: 0...20), endless: true), released: released)
        for await element in base.timeout(.seconds(60), clock: ContinuousClock()) {
          collected.append(element)
          seen()
        }
        return collected
      }
      await released.wait()
      slowest = max(slowest, latency)
      #expect(collected == Array(0..<collected.count), "run \(run)")
      #expect(collected.count >= elements, "run \(run)")
    }
    #expect(slowest < prompt, "the slowest cancellation took \(slowest)")
  }

  @Test("delay: every element once, in order, then the finish")
  func delayOrder() async {
    for run in 0..<runs {
      let count = Int.random(in: 0...40)
      var seen: [Int] = []
      let interval = Duration.microseconds(Int.random(in: 0...200))
      for await element in producedStream(count).delay(for: interval, clock: ContinuousClock()) {
        seen.append(element)
        if Int.random(in: 0..<4) == 0 { await Task.yield() }
      }
      #expect(seen == Array(0..<count), "run \(run)")
    }
  }

  @Test("delay: cancelling the consumer while elements are queued ends it promptly and releases the base")
  func delayCancelled() async {
    var slowest = Duration.zero
    for run in 0..<runs {
      let released = Latch()
      let elements = Int.random(in: 0...3)
      let (collected, latency) = await cancelled(after: elements) { seen in
        var collected: [Int] = []
        let base = TrackedBase(
          base: producedStream(elements + Int.random(in: 0...20), endless: true), released: released)
        // The first elements come at once; later ones wait a minute each, queued.
        let interval: Duration = elements == 0 ? .seconds(60) : .zero
        for await element in base.delay(for: interval, clock: ContinuousClock()) {
          collected.append(element)
          seen()
        }
        return collected
      }
      await released.wait()
      slowest = max(slowest, latency)
      #expect(collected == Array(0..<collected.count), "run \(run)")
    }
    #expect(slowest < prompt, "the slowest cancellation took \(slowest)")
  }
}
