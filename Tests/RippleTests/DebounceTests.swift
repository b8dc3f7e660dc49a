import RippleTesting
import Testing

@testable import Ripple

@Suite("debounce")
struct DebounceTests {
  @Test("emits an element once the interval passes with no newer one")
  func example() async {
    let output = await marbles("abcd----e---f-g----|") { $0[0].debounce(for: .seconds(3), clock: $1) }
    #expect(output == "------d----e-----g-|")
  }

  @Test(
    "edges: first and last values, finish and error while idle or pending",
    arguments: [
      // The first value, alone.
      ("a------|", "---a---|"),
      // Each value settles on its own when the gaps are long enough.
      ("a---b---|", "---a---b|"),
      // An element exactly one interval after another does not replace it: the first settled just then.
      ("a--b-----|", "---a--b--|"),
      // A pending element is emitted at its deadline without waiting for another input.
      ("ab---------", "----b------"),
      // Finish while an element is pending: the element at its deadline, then the finish.
      ("a|", "---[a|]"),
      ("abc|", "-----[c|]"),
      // Finish while idle: at once.
      ("|", "|"),
      ("---|", "---|"),
      ("a-----|", "---a--|"),
      // Error while idle: at once.
      ("^", "^"),
      ("a-----^", "---a--^"),
      // Error while an element is pending: at once; the pending element is dropped.
      ("ab^", "--^"),
      ("a---b^", "---a-^"),
    ])
  func edges(input: String, expected: String) async {
    let output = await marbles(input) { $0[0].debounce(for: .seconds(3), clock: $1) }
    #expect(output == expected)
  }

  @Test(
    "an error is held for the next next() while the consumer is busy, ahead of undelivered elements",
    arguments: [
      // `a` goes out at 2; the consumer is busy until 7; the error at 4 drops the pending `b`.
      ("a--b^", "-------[a^]"),
      // `b` settles at 4 while the consumer is busy, and is dropped by the error at 5.
      ("a-b--^", "-------[a^]"),
      // Without an error, the settled `b` waits for the consumer.
      ("a-b--|", "-------a----[b|]"),
    ])
  func errorWhileBusy(input: String, expected: String) async {
    let output = await marbles(input) { inputs, clock in
      inputs[0].debounce(for: .seconds(2), clock: clock).map { value in
        // The consumer is busy for 5 ticks after each element: nobody waits in the debounce's `next()`.
        try? await clock.sleep(until: clock.now.advanced(by: .seconds(5)), tolerance: nil)
        return value
      }
    }
    #expect(output == expected)
  }

  @Test("a consumer slower than the settling elements gets the latest settled one")
  func slowConsumer() async {
    let output = await marbles("a-b-c-----|") { inputs, clock in
      inputs[0].debounce(for: .seconds(1), clock: clock).map { value in
        try? await clock.sleep(until: clock.now.advanced(by: .seconds(5)), tolerance: nil)
        return value
      }
    }
    #expect(output == "------a----[c|]")
  }

  @Test("cancelling the consumer cancels the base", .timeLimit(.minutes(1)))
  func cancellationCancelsBase() async {
    let probe = CancellationProbe()
    let clock = TestClock()
    let consumer = Task {
      var iterator = probe.debounce(for: .seconds(1), clock: clock).makeAsyncIterator()
      return await iterator.next()
    }
    await probe.waitUntilWaiting()
    #expect(!probe.wasCancelled)
    consumer.cancel()
    await probe.waitForCancellation()
    #expect(probe.wasCancelled)
    #expect(await consumer.value == nil)
  }

  @Test("a consumer cancelled before its first next() gets nil and never starts the base", .timeLimit(.minutes(1)))
  func cancelledBeforeFirstNext() async {
    let probe = CancellationProbe()
    let clock = TestClock()
    // Lockstep returns once every job started inside has run: a base task, had one started, would have run.
    let first = await clock.lockstep {
      await Task {
        withUnsafeCurrentTask { $0?.cancel() }
        var iterator = probe.debounce(for: .seconds(1), clock: clock).makeAsyncIterator()
        return await iterator.next()
      }.value
    }
    #expect(first == nil)
    #expect(!probe.wasIterated)
  }

  @Test("dropping the iterator cancels the base", .timeLimit(.minutes(1)))
  func droppingIteratorCancelsBase() async {
    let probe = CancellationProbe(yielding: ["a"])
    let output = await marbles("") { _, clock in
      probe.debounce(for: .seconds(1), clock: clock).prefix(1)
    }
    #expect(output == "-[a|]")
    await probe.waitForCancellation()
    #expect(probe.wasCancelled)
  }

  @Test("over a base that cannot throw, a main-actor consumer iterates without try")
  @MainActor func typedThrows() async {
    let values = AsyncStream<Int> {
      $0.yield(1)
      $0.yield(2)
      $0.finish()
    }.debounce(for: .milliseconds(1))
    var seen: [Int] = []
    // No `try`: the failure type is `Never`. The last element settles before the finish.
    for await value in values {
      seen.append(value)
    }
    #expect(seen.last == 2)
  }
}
