import InternalRippleUtilities
import Observation
import RippleTesting
import Synchronization
import Testing

@testable import Ripple

/// Records the elements a base was asked for, so that a test can see how far the shared upstream has pulled.
final class PullLog: Sendable {
  private let pulled = _Mutex<[Int]>([])

  /// A finished stream of `elements` that logs each element as the upstream pulls it.
  func stream(_ elements: [Int]) -> AsyncMapSequence<AsyncStream<Int>, Int> {
    finiteStream(elements).map { [self] element in
      pulled.withLock { $0.append(element) }
      return element
    }
  }

  var elements: [Int] { pulled.withLock { $0 } }
}

/// Takes every element up to the end from a share iterator.
func drain<Base>(_ iterator: inout AsyncShareSequence<Base>.Iterator) async throws(Base.Failure) -> [Base.Element] {
  var elements: [Base.Element] = []
  while let element = try await iterator.next() { elements.append(element) }
  return elements
}

/// Takes up to `count` elements from a share iterator.
func take<Base>(
  _ count: Int, from iterator: inout AsyncShareSequence<Base>.Iterator
) async throws(Base.Failure) -> [Base.Element] {
  var elements: [Base.Element] = []
  while elements.count < count, let element = try await iterator.next() { elements.append(element) }
  return elements
}

@Suite("share", .timeLimit(.minutes(3)))
struct ShareTests {
  static let lossless: [AsyncBufferSequencePolicy] = [.bounded(0), .bounded(1), .bounded(3), .unbounded]

  @Test("every consumer gets every element in order", arguments: [1, 2, 50], lossless)
  func everyConsumerGetsEverything(consumers: Int, policy: AsyncBufferSequencePolicy) async throws {
    let base = ControlledSequence<Int>()
    let shared = base.share(bufferingPolicy: policy)
    let joined = Recorder<Int>()
    let tasks = (0..<consumers).map { index in
      Task { () throws(Boom) -> [Int] in
        var iterator = shared.makeAsyncIterator()
        joined.record(index)
        return try await drain(&iterator)
      }
    }
    // Every iterator exists before the first element: each of them gets all.
    _ = await joined.values(count: consumers)
    for element in 0..<20 { base.send(element) }
    base.finish()
    for task in tasks {
      #expect(try await task.value == Array(0..<20))
    }
  }

  @Test("an empty base finishes every iterator")
  func emptyBase() async {
    let shared = finiteStream([Int]()).share()
    var first = shared.makeAsyncIterator()
    var second = shared.makeAsyncIterator()
    #expect(await first.next() == nil)
    #expect(await second.next() == nil)
  }

  @Test("an iterator gets the elements produced after it was made, not earlier ones")
  func lateJoiner() async throws {
    let base = ControlledSequence<Int>()
    let shared = base.share()
    var early = shared.makeAsyncIterator()
    base.send(1)
    #expect(try await early.next() == 1)
    base.send(2)
    #expect(try await early.next() == 2)
    var late = shared.makeAsyncIterator()
    base.send(3)
    base.finish()
    #expect(try await late.next() == 3)
    #expect(try await early.next() == 3)  // bounded(1): the base waited for this one to take 3
    #expect(try await late.next() == nil)
    #expect(try await early.next() == nil)
  }

  @Test("the base is not iterated before the first next() of some iterator")
  func startsOnFirstDemand() async {
    let log = PullLog()
    let clock = TestClock()
    await clock.lockstep {
      let shared = log.stream([1, 2]).share()
      var first = shared.makeAsyncIterator()
      var second = shared.makeAsyncIterator()
      await clock.advance(by: .zero)  // everything that could run has run
      #expect(log.elements == [])
      #expect(await first.next() == 1)
      await clock.advance(by: .zero)
      #expect(log.elements == [1])  // the second iterator holds 1: full
      #expect(await second.next() == 1)
    }
  }

  @Test("bounded(n): the base is not pulled while some iterator holds n elements")
  func boundedBackPressure() async {
    let log = PullLog()
    let clock = TestClock()
    await clock.lockstep {
      let shared = log.stream(Array(1...6)).share(bufferingPolicy: .bounded(2))
      var fast = shared.makeAsyncIterator()
      var slow = shared.makeAsyncIterator()
      #expect(await fast.next() == 1)
      await clock.advance(by: .zero)
      // The slow iterator holds 1 and 2: full.
      #expect(log.elements == [1, 2])
      #expect(await slow.next() == 1)
      await clock.advance(by: .zero)
      // Room for one more; now the fast iterator holds 2 and 3: full.
      #expect(log.elements == [1, 2, 3])
      #expect(await take(2, from: &fast) == [2, 3])
      await clock.advance(by: .zero)
      #expect(log.elements == [1, 2, 3])  // the slow one still holds 2 and 3
      #expect(await take(2, from: &slow) == [2, 3])
      await clock.advance(by: .zero)
      #expect(log.elements == [1, 2, 3, 4, 5])  // both hold 4 and 5
      #expect(await take(2, from: &fast) == [4, 5])
      await clock.advance(by: .zero)
      #expect(log.elements == [1, 2, 3, 4, 5])
      #expect(await drain(&slow) == [4, 5, 6])
      #expect(await drain(&fast) == [6])
    }
  }

  @Test("bounded(0): the base is pulled only when every iterator waits, and nothing is buffered")
  func boundedZeroIsLockstep() async {
    let log = PullLog()
    let clock = TestClock()
    await clock.lockstep {
      let shared = log.stream([1, 2, 3]).share(bufferingPolicy: .bounded(0))
      var second = shared.makeAsyncIterator()
      let first = Task {
        var iterator = shared.makeAsyncIterator()
        return await drain(&iterator)
      }
      await clock.advance(by: .zero)
      #expect(log.elements == [])  // the first iterator waits, the second does not yet
      #expect(await second.next() == 1)
      await clock.advance(by: .zero)
      #expect(log.elements == [1])
      #expect(await drain(&second) == [2, 3])
      #expect(await first.value == [1, 2, 3])
    }
  }

  @Test("unbounded: the base runs freely and a slow iterator loses nothing")
  func unboundedKeepsEverything() async {
    let log = PullLog()
    let shared = log.stream(Array(1...5)).share(bufferingPolicy: .unbounded)
    var fast = shared.makeAsyncIterator()
    var slow = shared.makeAsyncIterator()
    #expect(await drain(&fast) == [1, 2, 3, 4, 5])
    #expect(await drain(&slow) == [1, 2, 3, 4, 5])
  }

  @Test(
    "the dropping policies never hold the base back; a busy iterator keeps the newest or the oldest",
    arguments: [
      (AsyncBufferSequencePolicy.bufferingLatest(2), [4, 5]),
      (.bufferingOldest(2), [1, 2]),
    ])
  func droppingPolicies(policy: AsyncBufferSequencePolicy, kept: [Int]) async {
    let (stream, input) = AsyncStream.makeStream(of: Int.self)
    let shared = stream.share(bufferingPolicy: policy)
    var fast = shared.makeAsyncIterator()
    var busy = shared.makeAsyncIterator()
    for element in 1...5 {
      input.yield(element)
      #expect(await fast.next() == element)  // it never holds more than one
    }
    input.finish()
    #expect(await fast.next() == nil)
    #expect(await drain(&busy) == kept)
  }

  @Test(
    "a limit of 0 means no buffer under the dropping policies too: the base waits for every iterator, nothing is lost",
    arguments: [AsyncBufferSequencePolicy.bufferingLatest(0), .bufferingOldest(0)])
  func droppingPoliciesWithoutRoom(policy: AsyncBufferSequencePolicy) async {
    let log = PullLog()
    let clock = TestClock()
    await clock.lockstep {
      let shared = log.stream([1, 2]).share(bufferingPolicy: policy)
      var busy = shared.makeAsyncIterator()
      let waiting = Task {
        var iterator = shared.makeAsyncIterator()
        return await drain(&iterator)
      }
      await clock.advance(by: .zero)
      #expect(log.elements == [])  // the busy iterator does not wait yet
      #expect(await drain(&busy) == [1, 2])
      #expect(await waiting.value == [1, 2])
    }
  }

  @Test("an error reaches every iterator after the elements it had buffered, once; then nil", arguments: lossless)
  func errorReachesAll(policy: AsyncBufferSequencePolicy) async throws {
    let base = ControlledSequence<Int>()
    let shared = base.share(bufferingPolicy: policy)
    let joined = Recorder<Int>()
    let tasks = (0..<3).map { index in
      Task { () -> [String] in
        var iterator = shared.makeAsyncIterator()
        joined.record(index)
        var events: [String] = []
        for _ in 0..<2 {
          do {
            while let element = try await iterator.next() { events.append("\(element)") }
            events.append("nil")
          } catch {
            events.append("\(error)")
          }
        }
        return events
      }
    }
    _ = await joined.values(count: 3)
    base.send(1)
    base.send(2)
    base.fail()
    for task in tasks {
      #expect(await task.value == ["1", "2", "boom", "nil"])
    }
  }

  @Test("after the base finished, a new iterator gets nil; after it threw, the error once, then nil")
  func afterTheEnd() async throws {
    let finished = finiteStream([1]).share()
    var first = finished.makeAsyncIterator()
    #expect(await drain(&first) == [1])
    var later = finished.makeAsyncIterator()
    #expect(await later.next() == nil)

    let base = ControlledSequence<Int>()
    let failed = base.share()
    var failing = failed.makeAsyncIterator()
    base.fail()
    await #expect(throws: Boom.boom) { try await failing.next() }
    var afterFailure = failed.makeAsyncIterator()
    await #expect(throws: Boom.boom) { try await afterFailure.next() }
    #expect(try await afterFailure.next() == nil)
  }

  @Test("cancelling one consumer ends its iterator only; the others go on", arguments: lossless)
  func cancellingOneConsumer(policy: AsyncBufferSequencePolicy) async throws {
    let base = ControlledSequence<Int>()
    let shared = base.share(bufferingPolicy: policy)
    let received = Recorder<String>()
    let leaving = Task { () throws(Boom) -> [Int] in
      var iterator = shared.makeAsyncIterator()
      received.record("leaving joined")
      return try await drain(&iterator)
    }
    let staying = Task { () throws(Boom) -> [Int] in
      var iterator = shared.makeAsyncIterator()
      received.record("staying joined")
      var elements: [Int] = []
      while let element = try await iterator.next() {
        elements.append(element)
        received.record("staying \(element)")
      }
      return elements
    }
    _ = await received.values(count: 2)
    base.send(1)
    #expect(await received.values(count: 1) == ["staying 1"])
    leaving.cancel()
    let left = try await leaving.value
    #expect(left == [] || left == [1])
    base.send(2)
    base.send(3)
    base.finish()
    #expect(try await staying.value == [1, 2, 3])
  }

  @Test("cancelling the last consumer cancels the base")
  func lastConsumerCancelsBase() async {
    let probe = CancellationProbe(yielding: ["a"])
    let shared = probe.share()
    let consumer = Task {
      var iterator = shared.makeAsyncIterator()
      var elements: [String] = []
      while let element = await iterator.next() { elements.append(element) }
      return elements
    }
    await probe.waitUntilWaiting()
    consumer.cancel()
    await probe.waitForCancellation()
    #expect(probe.wasCancelled)
    #expect(await consumer.value == ["a"])
    // The shared iteration is over: a new iterator gets nil at once.
    var later = shared.makeAsyncIterator()
    #expect(await later.next() == nil)
  }

  @Test("the base is cancelled only when the last of several consumers is cancelled")
  func baseOutlivesAllButTheLast() async {
    let clock = TestClock()
    await clock.lockstep {
      let probe = CancellationProbe()
      let shared = probe.share()
      let consumers = (0..<3).map { _ in
        Task {
          var iterator = shared.makeAsyncIterator()
          return await iterator.next()
        }
      }
      await probe.waitUntilWaiting()
      consumers[0].cancel()
      consumers[1].cancel()
      #expect(await consumers[0].value == nil)
      #expect(await consumers[1].value == nil)
      await clock.advance(by: .zero)
      #expect(!probe.wasCancelled)
      consumers[2].cancel()
      await probe.waitForCancellation()
      #expect(await consumers[2].value == nil)
    }
  }

  @Test("dropping the last iterator cancels the base")
  func droppingTheLastIteratorCancels() async {
    let probe = CancellationProbe(yielding: ["a"])
    let shared = probe.share()
    do {
      var iterator = shared.makeAsyncIterator()
      #expect(await iterator.next() == "a")
      await probe.waitUntilWaiting()
    }
    await probe.waitForCancellation()
    #expect(probe.wasCancelled)
  }

  @Test("an iterator made and dropped before the first demand does not end the shared iteration")
  func droppingBeforeStart() async {
    let shared = finiteStream([1, 2]).share()
    do { _ = shared.makeAsyncIterator() }
    var iterator = shared.makeAsyncIterator()
    #expect(await drain(&iterator) == [1, 2])
  }

  @Test("a consumer cancelled before its first next() gets nil and does not start the base")
  func cancelledBeforeFirstNext() async {
    let log = PullLog()
    let shared = log.stream([1]).share()
    let consumer = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      var iterator = shared.makeAsyncIterator()
      return await iterator.next()
    }
    #expect(await consumer.value == nil)
    // It neither started nor ended the shared iteration.
    var iterator = shared.makeAsyncIterator()
    #expect(await iterator.next() == 1)
    #expect(log.elements == [1])
  }

  @Test(
    "no deadlock when a slow and a fast consumer share an unbuffered base (swift-async-algorithms #383, #387)",
    arguments: [AsyncBufferSequencePolicy.bounded(0), .bounded(1)], [0, 1])
  func unbufferedSlowConsumer(policy: AsyncBufferSequencePolicy, slowOne: Int) async {
    let clock = TestClock()
    await clock.lockstep {
      let shared = finiteStream([1, 2, 3, 4, 5]).share(bufferingPolicy: policy)
      let gates = [Gate(), Gate()]
      let consumers = (0..<2).map { index in
        Task {
          var iterator = shared.makeAsyncIterator()
          gates[index].open()
          await gates[1 - index].wait()
          var elements: [Int] = []
          while let element = await iterator.next() {
            elements.append(element)
            if index == slowOne { try? await clock.sleep(for: .seconds(1)) }
          }
          return elements
        }
      }
      await clock.run()
      for consumer in consumers {
        #expect(await consumer.value == [1, 2, 3, 4, 5])
      }
    }
  }

  @Test("stress: 8 consumers on real threads each get all 5,000 elements in order", arguments: lossless)
  func stress(policy: AsyncBufferSequencePolicy) async {
    let count = 5_000
    let (stream, input) = AsyncStream.makeStream(of: Int.self)
    let shared = stream.share(bufferingPolicy: policy)
    let joined = Recorder<Int>()
    let consumers = (0..<8).map { index in
      Task.detached {
        var iterator = shared.makeAsyncIterator()
        joined.record(index)
        var expected = 0
        var inOrder = true
        while let element = await iterator.next() {
          inOrder = inOrder && element == expected
          expected += 1
        }
        return inOrder ? expected : -1
      }
    }
    _ = await joined.values(count: 8)
    let producer = Task.detached {
      for element in 0..<count { input.yield(element) }
      input.finish()
    }
    await producer.value
    for consumer in consumers {
      #expect(await consumer.value == count)
    }
  }

  @Test("the sequence is Sendable and its iterators are used on the consumer's isolation")
  @MainActor func isolation() async {
    let shared = finiteStream([1, 2, 3]).share()
    let sendable: any Sendable = shared
    _ = sendable
    var seen: [Int] = []  // main-actor state, mutated in the loop without a hop
    for await element in shared { seen.append(element) }
    #expect(seen == [1, 2, 3])
  }
}

/// The guide's shared service (Share.md), verbatim but for the counting calculator the test injects.
struct Pair: Sendable { var a: Int, b: Int }

@MainActor @Observable final class SumService {
  var a = 0
  var b = 0
  /// Every screen iterates this: one calculation per input, however many screens show it.
  @ObservationIgnored private(set) lazy var sums = Observed { @MainActor [unowned self] in Pair(a: a, b: b) }
    .mapLatest { [calculator] pair in await calculator(pair.a, pair.b) }
    .share()
  @ObservationIgnored private let calculator: @Sendable (Int, Int) async -> Int

  init(calculator: @escaping @Sendable (Int, Int) async -> Int) { self.calculator = calculator }
}

/// An iterator that is made only once `delay` has passed on `clock`: a consumer that joins late.
struct JoiningLate: AsyncSequence {
  let shared: AsyncShareSequence<MarbleInput>
  let clock: TestClock
  let delay: Duration

  func makeAsyncIterator() -> Iterator { Iterator(sequence: self) }

  struct Iterator: AsyncIteratorProtocol {
    let sequence: JoiningLate
    var iterator: AsyncShareSequence<MarbleInput>.Iterator?

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(MarbleError) -> String? {
      if iterator == nil {
        try? await sequence.clock.sleep(for: sequence.delay)
        iterator = sequence.shared.makeAsyncIterator()
      }
      return try await iterator!.next(isolation: actor)
    }

    mutating func next() async throws(MarbleError) -> String? { try await next(isolation: nil) }
  }
}

@Suite("share in the guide", .timeLimit(.minutes(1)))
struct ShareGuideTests {
  @Test("Share.md: the first consumer sees every element, one joining at tick 3 sees those after it")
  func lateJoinerDiagram() async {
    let first = await marbles("a-b-c-d-|") { inputs, _ in inputs[0].share() }
    #expect(first == "a-b-c-d-|")
    let second = await marbles("a-b-c-d-|") { inputs, clock in
      let shared = inputs[0].share()
      Task {
        for try await _ in shared {}  // the first consumer, from tick 0
      }
      return JoiningLate(shared: shared, clock: clock, delay: .seconds(3))
    }
    #expect(second == "----c-d-|")
  }

  @Test("Share.md: two screens of one service; one calculation per input")
  @MainActor func oneCalculationSeveralScreens() async {
    let calculations = _Mutex(0)
    let clock = TestClock()
    await clock.lockstep {
      let service = SumService { a, b in
        calculations.withLock { $0 += 1 }
        return a + b
      }
      let form = Recorder<String>()
      let summary = Recorder<String>()
      let screens = [
        Task { for await sum in service.sums { form.record("form \(sum)") } },
        Task { for await sum in service.sums { summary.record("summary \(sum)") } },
      ]
      #expect(await form.values(count: 1) == ["form 0"])
      #expect(await summary.values(count: 1) == ["summary 0"])
      service.b = 42
      #expect(await form.values(count: 1) == ["form 42"])
      #expect(await summary.values(count: 1) == ["summary 42"])
      #expect(calculations.withLock { $0 } == 2)
      for screen in screens { screen.cancel() }
    }
  }
}
