import RippleTesting
import Synchronization
import Testing

@testable import Ripple

@Suite("mapLatest", .timeLimit(.minutes(1)))
struct MapLatestTests {
  @Test("a newer element cancels the transform in flight, whose outcome is discarded")
  func supersededTransformIsCancelled() async {
    let (base, input) = AsyncStream.makeStream(of: Int.self)
    let events = Recorder<String>()
    let results = base.mapLatest { value -> Int in
      events.record("start \(value)")
      if value == 1 {
        await waitForCancellation()
        events.record("cancelled \(value)")
        return -1
      }
      return value * 10
    }
    let delivered = Recorder<Int>()
    let consumer = Task { await collect(results, into: delivered) }
    input.yield(1)
    #expect(await events.values(count: 1) == ["start 1"])
    input.yield(2)
    #expect(await delivered.values(count: 1) == [20])
    #expect(Set(await events.values(count: 2)) == ["cancelled 1", "start 2"])
    input.finish()
    #expect(await consumer.value == [20])
  }

  @Test("a superseded transform that finishes late never overtakes a newer result")
  func lateResultIsDiscarded() async {
    let (base, input) = AsyncStream.makeStream(of: Int.self)
    let slowOne = Gate()
    let events = Recorder<String>()
    let results = base.mapLatest { value -> Int in
      events.record("start \(value)")
      if value == 1 { await slowOne.wait() }  // ignores cancellation
      events.record("return \(value)")
      return value * 10
    }
    let delivered = Recorder<Int>()
    let consumer = Task { await collect(results, into: delivered) }
    input.yield(1)
    #expect(await events.values(count: 1) == ["start 1"])
    input.yield(2)
    #expect(await delivered.values(count: 1) == [20])
    #expect(await events.values(count: 2) == ["start 2", "return 2"])
    slowOne.open()
    #expect(await events.values(count: 1) == ["return 1"])
    input.finish()
    // 10 was computed after 20 was delivered: it must not appear.
    #expect(await consumer.value == [20])
  }

  @Test("when the base finishes, the transform in flight completes and is delivered, then the end")
  func finishLetsLastTransformComplete() async {
    let (base, input) = AsyncStream.makeStream(of: Int.self)
    let gate = Gate()
    let started = Recorder<Int>()
    let results = base.mapLatest { value -> Int in
      started.record(value)
      await gate.wait()
      return value + 100
    }
    let consumer = Task { await collect(results, into: Recorder()) }
    input.yield(5)
    #expect(await started.values(count: 1) == [5])
    input.finish()
    gate.open()
    #expect(await consumer.value == [105])
  }

  @Test("a transform's error ends the sequence after the results before it")
  func transformErrorEnds() async throws {
    let (base, input) = AsyncStream.makeStream(of: Int.self)
    var iterator = base.mapLatest { value throws -> Int in
      if value == 2 { throw Boom.boom }
      return value
    }.makeAsyncIterator()
    input.yield(1)
    #expect(try await iterator.next() == 1)
    input.yield(2)
    await #expect(throws: Boom.boom) { try await iterator.next() }
    input.yield(3)
    #expect(try await iterator.next() == nil)
  }

  @Test("after a transform fails, no later element's result comes before the error")
  func nothingAfterTransformError() async throws {
    var iterator = finiteStream([0, 1, 2]).mapLatest { value throws -> Int in
      if value == 1 { throw Boom.boom }
      return value
    }.makeAsyncIterator()
    var delivered: [Int] = []
    var failed = false
    do {
      while let value = try await iterator.next() { delivered.append(value) }
    } catch {
      #expect(error as? Boom == .boom)
      failed = true
    }
    #expect(try await iterator.next() == nil)
    if failed {
      // 1 failed as the newest element: 2 must not have been transformed, let alone delivered before the error.
      #expect(delivered.allSatisfy { $0 == 0 }, "delivered \(delivered) before the error")
    } else {
      // Where a transform's task does not start immediately, 2 may supersede 1 before 1 fails.
      #expect(delivered.last == 2, "delivered \(delivered) without the error")
    }
  }

  @Test("a transform's error supersedes an older result the consumer has not taken")
  func transformErrorSupersedesPendingResult() async throws {
    let base = ControlledSequence<Int>()
    var iterator = base.mapLatest { value throws(Boom) -> Int in
      if value == 3 { throw .boom }
      return value
    }.makeAsyncIterator()
    base.send(1)
    #expect(try await iterator.next() == 1)
    base.send(2)
    base.send(3)
    // The failure cancels the base, so its iteration ending means the failure has been recorded.
    #expect(await base.ending())
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test("a base error ends the sequence after a result already computed")
  func baseErrorEnds() async throws {
    let (base, input) = AsyncThrowingStream.makeStream(of: Int.self)
    let computed = Recorder<Int>()
    var iterator = base.mapLatest { value -> Int in
      defer { computed.record(value) }
      return value * 2
    }.makeAsyncIterator()
    input.yield(4)
    #expect(try await iterator.next() == 8)  // the first next() starts iterating the base
    #expect(await computed.values(count: 1) == [4])
    input.yield(5)
    #expect(await computed.values(count: 1) == [5])
    input.finish(throwing: Boom.boom)
    #expect(try await iterator.next() == 10)
    await #expect(throws: Boom.self) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test("cancelling the consumer cancels the base and the transform, and next() returns nil")
  func consumerCancellation() async {
    let (base, input) = AsyncStream.makeStream(of: Int.self)
    let events = Recorder<String>()
    input.onTermination = { _ in events.record("base cancelled") }
    let results = base.mapLatest { value -> Int in
      events.record("start")
      await waitForCancellation()
      events.record("transform cancelled")
      return value
    }
    let consumer = Task {
      var iterator = results.makeAsyncIterator()
      return await iterator.next()
    }
    input.yield(1)
    #expect(await events.values(count: 1) == ["start"])
    consumer.cancel()
    #expect(await consumer.value == nil)
    #expect(Set(await events.values(count: 2)) == ["base cancelled", "transform cancelled"])
  }

  @Test("dropping the iterator cancels the base")
  func droppingTheIteratorCancels() async {
    let (base, input) = AsyncStream.makeStream(of: Int.self)
    let terminated = Recorder<Bool>()
    input.onTermination = { _ in terminated.record(true) }
    do {
      var iterator = base.mapLatest { $0 }.makeAsyncIterator()
      input.yield(1)
      #expect(await iterator.next() == 1)
    }
    #expect(await terminated.values(count: 1) == [true])
  }

  @Test("over a non-throwing base, a non-throwing transform gives a non-throwing sequence")
  @MainActor func typedThrows() async {
    let (base, input) = AsyncStream.makeStream(of: Int.self)
    input.yield(1)
    input.finish()
    var seen: [Int] = []
    for await value in base.mapLatest({ $0 + 1 }) {  // no `try`: this line is the test
      seen.append(value)
    }
    #expect(seen == [2])
  }
}

/// Iterates `sequence` to its end, reporting each value to `recorder`; returns them all.
func collect<S: AsyncSequence<Int, Never>>(_ sequence: S, into recorder: Recorder<Int>) async -> [Int] {
  var values: [Int] = []
  for await value in sequence {
    values.append(value)
    recorder.record(value)
  }
  return values
}

@Suite("mapLatest timing", .timeLimit(.minutes(2)))
struct MapLatestTimingTests {
  /// A transform that takes `ticks` seconds on the clock, whether or not it is cancelled (its outcome must be
  /// discarded either way).
  static func slow(_ ticks: Int, _ clock: TestClock) -> @Sendable (String) async -> String {
    { value in
      try? await clock.sleep(for: .seconds(ticks))
      return value
    }
  }

  @Test(
    "results arrive when their transform ends; a newer element discards the one in flight",
    arguments: [
      ("a---bc----|", 2, "--a----c--|"),
      ("a|", 2, "--[a|]"),
      ("ab|", 2, "---[b|]"),
      ("a-b-c-|", 1, "-a-b-c|"),
      ("abcdef---|", 3, "--------f|"),
      ("a^", 2, "-^"),
      ("a-^", 1, "-a^"),
    ])
  func diagrams(input: String, ticks: Int, expected: String) async {
    let output = await marbles(input) { inputs, clock in inputs[0].mapLatest(Self.slow(ticks, clock)) }
    #expect(output == expected, "input \(input), transform \(ticks) ticks")
  }

  @Test("randomized: 100,000 inputs with random gaps and durations give exactly the latest-wins results")
  func randomizedStress() async {
    var generator = SplitMix64(seed: 0x5EED)
    let count = 100_000
    // Gaps and durations in whole milliseconds, the durations offset by half a millisecond so that a transform
    // never ends at the very instant the next input arrives.
    let gaps = (0..<count).map { _ in Int.random(in: 0...20, using: &generator) }
    let durations = (0..<count).map { _ in Int.random(in: 0...25, using: &generator) }
    var arrival = 0
    var arrivals: [Int] = []
    for gap in gaps {
      arrival += gap
      arrivals.append(arrival)
    }
    // Input i's result is delivered iff its transform ends before input i + 1 arrives (the last always is).
    let expected = (0..<count).filter { index in
      index == count - 1 || 2 * (arrivals[index] + durations[index]) + 1 < 2 * arrivals[index + 1]
    }
    let clock = TestClock()
    let delivered = await clock.lockstep {
      let (inputs, input) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
      let results = inputs.mapLatest { index -> Int in
        try? await clock.sleep(for: .milliseconds(durations[index]) + .microseconds(500))
        return index
      }
      async let collected: [Int] = {
        var seen: [Int] = []
        for await index in results { seen.append(index) }
        return seen
      }()
      for index in 0..<count {
        if gaps[index] > 0 { await clock.advance(by: .milliseconds(gaps[index])) }
        input.yield(index)
        await clock.advance(by: .zero)
      }
      input.finish()
      await clock.run()
      return await collected
    }
    #expect(delivered.last == count - 1)
    #expect(zip(delivered, delivered.dropFirst()).allSatisfy { $0 < $1 }, "a stale result was delivered")
    #expect(delivered == expected)
  }
}
