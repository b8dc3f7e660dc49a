import RippleTesting
import Testing

@testable import Ripple

@Suite("throttle")
struct ThrottleTests {
  @Test(
    "emits the first element at once, then the latest or the first of each interval",
    arguments: [
      ("abcdefghijk|", true, "a--c--f--i--[k|]"),
      ("abcdefghijk|", false, "a--b--d--g--[j|]"),
      // The held element goes out at the interval's end, without waiting for another input.
      ("abc-------", true, "a--c------"),
      ("abc-------", false, "a--b------"),
      // An element after a quiet interval goes out at once and opens a new interval.
      ("a-----b---", true, "a-----b---"),
      ("a-----b---", false, "a-----b---"),
      // An element exactly at an interval's end belongs to the next interval.
      ("ab-c-----", true, "a--b--c--"),
      ("ab-cd----", false, "a--b--c--"),
      ("ab-cd----", true, "a--b--d--"),
      // Elements closer than the interval, forever: one per interval.
      ("a-b-c-d-e-f-", true, "a--b--c--e--f"),
      ("a-b-c-d-e-f-", false, "a--b--c--d--f"),
    ] as [(String, Bool, String)])
  func latestTable(input: String, latest: Bool, expected: String) async {
    let output = await marbles(input) { $0[0].throttle(for: .seconds(3), clock: $1, latest: latest) }
    #expect(output == expected)
  }

  @Test(
    "edges: finish while holding or idle, errors",
    arguments: [
      // Finish while an element is held: the element at the interval's end, then the finish.
      ("ab|", "a--[b|]"),
      ("abc|", "a--[c|]"),
      // Finish while an interval is open but nothing is held, or while idle: at once.
      ("a|", "a|"),
      ("|", "|"),
      ("a----|", "a----|"),
      // Errors end it at once; a held element is dropped.
      ("^", "^"),
      ("a^", "a^"),
      ("ab^", "a-^"),
      ("a----^", "a----^"),
    ])
  func edges(input: String, expected: String) async {
    let output = await marbles(input) { $0[0].throttle(for: .seconds(3), clock: $1) }
    #expect(output == expected)
  }

  @Test(
    "reducing: each interval emits the fold of exactly the elements it received, none lost or repeated",
    arguments: [
      // One element per tick, interval 3: a | bc | def | ghi | jk — by count, first and last element.
      ("abcdefghijk|", "1--2--3--3--[2|]", "a--b--d--g--[j|]", "a--c--f--i--[k|]"),
      // A quiet period: the next element goes out at once as `reducing(nil, element)`.
      ("ab-----c--", "1--1---1--", "a--b---c--", "a--b---c--"),
      // Finish while a reduction is held: it goes out at the interval's end, then the finish.
      ("abc|", "1--[2|]", "a--[b|]", "a--[c|]"),
      // An error drops the held reduction.
      ("ab^", "1-^", "a-^", "a-^"),
    ] as [(String, String, String, String)])
  func reducing(input: String, counts: String, firsts: String, lasts: String) async {
    func reduced(_ project: @escaping @Sendable ([String]) -> String) async -> String {
      await marbles(input) { inputs, clock in
        inputs[0].throttle(for: .seconds(3), clock: clock, reducing: { ($0 ?? []) + [$1] }).map(project)
      }
    }
    #expect(await reduced { String($0.count) } == counts)
    #expect(await reduced { $0.first ?? "?" } == firsts)
    #expect(await reduced { $0.last ?? "?" } == lasts)
  }

  @Test("reducing sums a burst's deltas, as Throttle.md's diagram and the doc example show")
  func reducingSum() async {
    let output = await marbles("12345---") { inputs, clock in
      inputs[0].compactMap { Int($0) }
        .throttle(for: .seconds(3), clock: clock, reducing: { ($0 ?? 0) + $1 })
        .map { String($0) }
    }
    // 1 at once; 2 + 3 = 5 at 3; 4 + 5 = 9 at 6.
    #expect(output == "1--5--9-")
  }

  @Test("a consumer slower than the interval: what is due waits for it, folded with what comes meanwhile")
  func slowConsumerReducing() async {
    let clock = TestClock()
    await clock.lockstep {
      let (stream, input) = AsyncStream.makeStream(of: Int.self)
      var iterator = stream.throttle(for: .seconds(1), clock: clock, reducing: { ($0 ?? []) + [$1] })
        .makeAsyncIterator()
      input.yield(1)
      #expect(await iterator.next() == [1])
      // Nobody waits in `next()` for three intervals.
      input.yield(2)
      await clock.advance(by: .seconds(1))
      input.yield(3)
      await clock.advance(by: .seconds(1))
      input.yield(4)
      await clock.advance(by: .seconds(1))
      // Due since 1 s: everything since the last reduction, at once.
      #expect(await iterator.next() == [2, 3, 4])
      input.yield(5)
      input.finish()
      // Handing [2, 3, 4] over opened an interval: 5 waits for its end, then the finish.
      await clock.advance(by: .seconds(1))
      #expect(await iterator.next() == [5])
      #expect(await iterator.next() == nil)
    }
  }

  @Test("a consumer slower than the interval gets the latest element, or the first, since its last one")
  func slowConsumerLatest() async {
    for latest in [true, false] {
      let clock = TestClock()
      await clock.lockstep {
        let (stream, input) = AsyncStream.makeStream(of: Int.self)
        var iterator = stream.throttle(for: .seconds(1), clock: clock, latest: latest).makeAsyncIterator()
        input.yield(1)
        #expect(await iterator.next() == 1)
        for value in 2...4 {
          input.yield(value)
          await clock.advance(by: .seconds(1))
        }
        #expect(await iterator.next() == (latest ? 4 : 2))
        input.finish()
        #expect(await iterator.next() == nil)
      }
    }
  }

  @Test(
    "a slow consumer takes the last element after the base finished: the iteration ends and lets go of the base",
    .timeLimit(.minutes(1)))
  func slowConsumerLastElementEndsTimer() async {
    let released = Signal()
    let clock = TestClock()
    await clock.lockstep {
      let (stream, input) = AsyncStream.makeStream(of: Int.self)
      var iterator = Released(stream, whenGone: released).throttle(for: .seconds(1), clock: clock)
        .makeAsyncIterator()
      input.yield(1)
      #expect(await iterator.next() == 1)
      // 2 is due at 1 s while nobody waits; the base finishes before the consumer asks.
      input.yield(2)
      await clock.advance(by: .seconds(1))
      input.finish()
      // The base task sees the finish before the consumer asks.
      await clock.advance(by: .zero)
      #expect(await iterator.next() == 2)
      #expect(await iterator.next() == nil)
    }
    // Only the iteration's storage and tasks hold the base now: it goes once the timer task stopped too.
    await released.wait()
  }

  @Test("reducing on real threads, a consumer that lags at random: every element exactly once, in order")
  func reducingRealThreads() async {
    var failures = 0
    let runs = Stress.rounds(300)
    for _ in 0..<runs {
      let (stream, input) = AsyncStream.makeStream(of: Int.self)
      Task.detached {
        for element in 0..<40 {
          if Int.random(in: 0..<3) == 0 { await Task.yield() }
          input.yield(element)
        }
        input.finish()
      }
      var flattened: [Int] = []
      // Intervals pass as the timer sleeps, not in wall-clock time: the races are the threads'.
      let reductions = stream.throttle(for: .microseconds(50), clock: ImmediateClock(), reducing: { ($0 ?? []) + [$1] })
      for await reduction in reductions {
        flattened += reduction
        if Bool.random() { await Task.yield() }
      }
      if flattened != Array(0..<40) { failures += 1 }
    }
    #expect(failures == 0, "\(failures) of \(runs) runs lost, repeated or reordered elements")
  }

  @Test(
    "an error is held for the next next() while the consumer is busy",
    arguments: [
      ("a^", "-----[a^]"),
      // `b` goes out at 3 while the consumer is busy; the error at 4 drops it.
      ("ab--^", "-----[a^]"),
      ("ab--|", "-----a----[b|]"),
    ])
  func errorWhileBusy(input: String, expected: String) async {
    let output = await marbles(input) { inputs, clock in
      inputs[0].throttle(for: .seconds(3), clock: clock).map { value in
        // The consumer is busy for 5 ticks after each element: nobody waits in the throttle's `next()`.
        try? await clock.sleep(until: clock.now.advanced(by: .seconds(5)), tolerance: nil)
        return value
      }
    }
    #expect(output == expected)
  }

  /// DESIGN.md: "throttle emits the first element at once". Before #28 the first `next()` started the base task
  /// before registering its consumer, so elements the base had ready at once were taken as produced while nobody
  /// waited and folded into one held element: 335 of 20,000 rounds of a 1,000-element burst (release) returned a later element.
  @Test(
    "the base's first element is the first out, even when the base has a burst ready at once", .timeLimit(.minutes(3)))
  func firstElementOfReadyBurst() async {
    let rounds = Stress.rounds(2_000)
    var wrong: [Int?] = []
    for _ in 0..<rounds {
      let (stream, input) = AsyncStream.makeStream(of: Int.self)
      for element in 0..<100 { input.yield(element) }
      input.finish()
      // A clock that never moves: the interval never ends, and dropping the iterator ends the timer's sleep.
      var iterator = stream.throttle(for: .seconds(10), clock: TestClock(), latest: true).makeAsyncIterator()
      let first = await iterator.next()
      if first != 0 { wrong.append(first) }
    }
    let wrongRounds = wrong.count
    #expect(wrongRounds == 0, "\(wrongRounds) of \(rounds) rounds began with \(wrong.prefix(5)), not 0")
  }

  @Test("cancelling the consumer cancels the base", .timeLimit(.minutes(1)))
  func cancellationCancelsBase() async {
    let probe = CancellationProbe()
    let clock = TestClock()
    let consumer = Task {
      var iterator = probe.throttle(for: .seconds(1), clock: clock).makeAsyncIterator()
      return await iterator.next()
    }
    await probe.waitUntilWaiting()
    #expect(!probe.wasCancelled)
    consumer.cancel()
    await probe.waitForCancellation()
    #expect(probe.wasCancelled)
    #expect(await consumer.value == nil)
  }

  @Test("dropping the iterator cancels the base", .timeLimit(.minutes(1)))
  func droppingIteratorCancelsBase() async {
    // In lockstep, the base task is waiting in the probe when `prefix(1)` ends and drops the iterator.
    let probe = CancellationProbe(yielding: ["a"])
    let output = await marbles("") { _, clock in
      probe.throttle(for: .seconds(1), clock: clock).prefix(1)
    }
    #expect(output == "[a|]")
    await probe.waitForCancellation()
    #expect(probe.wasCancelled)
  }

  @Test("over a base that cannot throw, a main-actor consumer iterates without try")
  @MainActor func typedThrows() async {
    let values = AsyncStream<Int> {
      $0.yield(1)
      $0.finish()
    }.throttle(for: .seconds(1))
    var seen: [Int] = []
    // No `try`: the failure type is `Never`. The first element goes out at once, then the finish.
    for await value in values {
      seen.append(value)
    }
    #expect(seen == [1])
  }
}

/// A base that signals when the last copy of it is gone.
private struct Released<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable {
  final class Token: Sendable {
    let signal: Signal
    init(_ signal: Signal) { self.signal = signal }
    deinit { signal.ready() }
  }

  let base: Base
  let token: Token

  init(_ base: Base, whenGone signal: Signal) {
    self.base = base
    token = Token(signal)
  }

  func makeAsyncIterator() -> Base.AsyncIterator { base.makeAsyncIterator() }
}
