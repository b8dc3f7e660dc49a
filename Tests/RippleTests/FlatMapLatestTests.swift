import RippleTesting
import Synchronization
import Testing

@testable import Ripple

/// The inner sequences of a test, one per base element, made before the test starts so that it can drive each.
struct Inners: Sendable {
  let sequences: [ControlledSequence<String>]

  init(_ count: Int) {
    sequences = (0..<count).map { _ in ControlledSequence() }
  }

  subscript(_ index: Int) -> ControlledSequence<String> { sequences[index] }
}

/// A controlled base, `count` controlled inners, and an iterator of `base.flatMapLatest { inners[$0] }`.
func switching(
  _ count: Int
) -> (
  ControlledSequence<Int>, Inners,
  AsyncFlatMapLatestSequence<ControlledSequence<Int>, ControlledSequence<String>, Boom>.Iterator
) {
  let base = ControlledSequence<Int>()
  let inners = Inners(count)
  return (base, inners, base.flatMapLatest { inners[$0] }.makeAsyncIterator())
}

@Suite("flatMapLatest", .timeLimit(.minutes(1)))
struct FlatMapLatestTests {
  @Test("delivers the elements of the inner sequence in order, and finishes after the base and the last inner")
  func deliversInnerElements() async throws {
    var (base, inners, iterator) = switching(1)
    base.send(0)
    base.finish()
    inners[0].send("a")
    #expect(try await iterator.next() == "a")
    inners[0].send("b")
    #expect(try await iterator.next() == "b")
    inners[0].finish()
    #expect(try await iterator.next() == nil)
    #expect(try await iterator.next() == nil)
  }

  @Test("a new element cancels the inner sequence in flight; none of its later elements is delivered")
  func newElementCancelsInner() async throws {
    var (base, inners, iterator) = switching(2)
    base.send(0)
    inners[0].send("a")
    #expect(try await iterator.next() == "a")
    base.send(1)
    #expect(await inners[0].ending() == true, "the superseded inner's iteration was not cancelled")
    inners[0].send("late")
    inners[1].send("x")
    #expect(try await iterator.next() == "x")
    base.finish()
    inners[1].finish()
    #expect(try await iterator.next() == nil)
  }

  @Test("an inner sequence that finishes before the base does not end the sequence")
  func innerFinishingEarlyGoesOn() async throws {
    var (base, inners, iterator) = switching(2)
    base.send(0)
    inners[0].send("a")
    inners[0].finish()
    #expect(try await iterator.next() == "a")
    #expect(await inners[0].ending() == false, "a finished inner was cancelled")
    base.send(1)
    inners[1].send("b")
    #expect(try await iterator.next() == "b")
    inners[1].finish()
    base.finish()
    #expect(try await iterator.next() == nil)
  }

  @Test("an empty base finishes at once, without calling the transform")
  func emptyBase() async {
    let calls = Atomic(0)
    var iterator = finiteStream([Int]()).flatMapLatest { value in
      calls.add(1, ordering: .relaxed)
      return finiteStream([value])
    }.makeAsyncIterator()
    #expect(await iterator.next() == nil)
    #expect(calls.load(ordering: .relaxed) == 0)
  }

  @Test("empty inner sequences give an empty sequence that finishes")
  func emptyInners() async {
    var iterator = finiteStream([1, 2, 3]).flatMapLatest { _ in finiteStream([Int]()) }.makeAsyncIterator()
    #expect(await iterator.next() == nil)
  }

  @Test("an error from the current inner sequence cancels the base and ends the sequence")
  func innerErrorEnds() async throws {
    var (base, inners, iterator) = switching(1)
    base.send(0)
    inners[0].send("a")
    #expect(try await iterator.next() == "a")
    inners[0].fail()
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(await base.ending() == true, "the base was not cancelled")
    #expect(try await iterator.next() == nil)
  }

  @Test("an error from the base cancels the inner sequence and ends the sequence")
  func baseErrorEnds() async throws {
    var (base, inners, iterator) = switching(1)
    base.send(0)
    inners[0].send("a")
    #expect(try await iterator.next() == "a")
    base.fail()
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(await inners[0].ending() == true, "the inner was not cancelled")
    #expect(try await iterator.next() == nil)
  }

  @Test("the CancellationError of a superseded inner sequence is discarded")
  func supersededCancellationErrorIsDiscarded() async throws {
    let (base, input) = AsyncThrowingStream.makeStream(of: Int.self)
    let waiting = Recorder<Int>()
    let results = base.flatMapLatest { value in
      ThrowsWhenCancelled(value: value, waitsForCancellation: value == 0, waiting: waiting)
    }
    let consumer = Task {
      var iterator = results.makeAsyncIterator()
      return (try await iterator.next(), try await iterator.next())
    }
    input.yield(0)
    #expect(await waiting.values(count: 1) == [0])
    input.yield(7)
    input.finish()
    let (first, second) = try await consumer.value
    #expect(first == 7)
    #expect(second == nil)
  }

  @Test(
    "an inner is at most two elements ahead of the consumer: one held for it, one in hand; after a switch the held one is delivered"
  )
  func twoElementsAhead() async throws {
    let base = ControlledSequence<Int>()
    let bStarts = Gate()
    let counters = [CountingSequence(label: "a"), CountingSequence(label: "b", startingAt: bStarts)]
    var iterator = base.flatMapLatest { counters[$0] }.makeAsyncIterator()
    base.send(0)
    #expect(try await iterator.next() == "a0")
    // The consumer is not waiting: a1 is held for it, a2 waits in the inner's iteration, and a3 is not asked for.
    #expect(await counters[0].produced.values(count: 3) == [0, 1, 2])
    base.send(1)
    #expect(await counters[0].ending() == true)
    #expect(counters[0].count == 3, "the inner was asked for more than two elements ahead of the consumer")
    // The held element was produced before the switch, and nothing newer replaced it; the one in hand is dropped.
    #expect(try await iterator.next() == "a1")
    bStarts.open()
    #expect(try await iterator.next() == "b0")
    #expect(try await iterator.next() == "b1")
  }

  @Test("an inner's error comes after its element already held")
  func innerErrorAfterHeldElement() async throws {
    var (base, inners, iterator) = switching(1)
    base.send(0)
    inners[0].send("a")
    inners[0].send("b")
    inners[0].fail()
    #expect(try await iterator.next() == "a")
    // The failure cancels the base, so the base's iteration ending means the failure has been recorded.
    #expect(await base.ending() == true)
    #expect(try await iterator.next() == "b")
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test("cancelling the consumer cancels the base and the inner sequence, and next() returns nil")
  func consumerCancellation() async {
    let base = CancellationProbe(yielding: ["a"])
    let inner = CancellationProbe(yielding: ["x"])
    let results = base.flatMapLatest { _ in inner }
    let consumer = Task {
      var iterator = results.makeAsyncIterator()
      let first = await iterator.next()
      let second = await iterator.next()
      return (first, second)
    }
    await base.waitUntilWaiting()
    await inner.waitUntilWaiting()
    consumer.cancel()
    let (first, second) = await consumer.value
    #expect(first == "x")
    #expect(second == nil)
    await base.waitForCancellation()
    await inner.waitForCancellation()
  }

  @Test("dropping the iterator cancels the base and the inner sequence")
  func droppingTheIteratorCancels() async {
    let base = CancellationProbe(yielding: ["a"])
    let inner = CancellationProbe(yielding: ["x"])
    do {
      var iterator = base.flatMapLatest { _ in inner }.makeAsyncIterator()
      #expect(await iterator.next() == "x")
    }
    await base.waitForCancellation()
    await inner.waitForCancellation()
  }

  @Test("the three overloads: equal failures stay typed, a non-throwing side takes the other's failure")
  func typedThrows() async throws {
    let never: AsyncFlatMapLatestSequence<AsyncStream<Int>, AsyncStream<Int>, Never> =
      finiteStream([1]).flatMapLatest { finiteStream([$0]) }
    for await value in never {  // no `try`: this line is part of the test
      #expect(value == 1)
    }
    let base = ControlledSequence<Int>()
    let baseFails: AsyncFlatMapLatestSequence<ControlledSequence<Int>, AsyncStream<Int>, Boom> =
      base.flatMapLatest { finiteStream([$0]) }
    base.send(2)
    base.fail()
    var iterator = baseFails.makeAsyncIterator()
    await #expect(throws: Boom.boom) {
      while try await iterator.next() != nil {}
    }
    let inner = ControlledSequence<Int>()
    let innerFails: AsyncFlatMapLatestSequence<AsyncStream<Int>, ControlledSequence<Int>, Boom> =
      finiteStream([3]).flatMapLatest { _ in inner }
    inner.fail()
    var innerIterator = innerFails.makeAsyncIterator()
    await #expect(throws: Boom.boom) { try await innerIterator.next() }
    // Without annotations, each picks its overload.
    #expect(failureType(of: finiteStream([1]).flatMapLatest { finiteStream([$0]) }) == "Never")
    #expect(failureType(of: ControlledSequence<Int>().flatMapLatest { finiteStream([$0]) }) == "Boom")
    #expect(failureType(of: finiteStream([1]).flatMapLatest { _ in ControlledSequence<Int>() }) == "Boom")
    #expect(failureType(of: ControlledSequence<Int>().flatMapLatest { _ in ControlledSequence<Int>() }) == "Boom")
    #expect(
      failureType(of: ControlledSequence<Int>().flatMapLatest { finiteThrowingStream([$0]) }) == "\((any Error).self)")
    let mixed: AsyncFlatMapLatestSequence<ControlledSequence<Int>, AsyncThrowingStream<Int, any Error>, any Error> =
      ControlledSequence<Int>().flatMapLatest { finiteThrowingStream([$0]) }
    _ = mixed
  }

  @Test("a transform written on the main actor runs there and reads main-actor state")
  @MainActor func mainActorTransform() async {
    let scale = Scale()
    var iterator = scaledRuns(scale).makeAsyncIterator()
    #expect(await iterator.next() == 10)
    #expect(await iterator.next() == 20)
    scale.factor = 3
    scale.input = 2
    #expect(await iterator.next() == 6)
    #expect(await iterator.next() == 12)
  }
}

/// Compiles only if a transform written in main-actor code inherits the main actor: it reads `factor`
/// synchronously.
@MainActor func scaledRuns(_ scale: Scale) -> AsyncFlatMapLatestSequence<Observed<Int, Never>, AsyncStream<Int>, Never>
{
  Observed { scale.input }.flatMapLatest { input in finiteStream([input * scale.factor, 2 * input * scale.factor]) }
}

/// The failure type of `sequence`, to check which overload a call picked.
func failureType<S: AsyncSequence>(of sequence: S) -> String { "\(S.Failure.self)" }

/// A finished throwing stream of `elements`.
func finiteThrowingStream<Element: Sendable>(_ elements: [Element]) -> AsyncThrowingStream<Element, any Error> {
  let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self)
  for element in elements { continuation.yield(element) }
  continuation.finish()
  return stream
}

/// An inner sequence that produces `value`, then either finishes or reports that it waits and throws
/// `CancellationError` once its task is cancelled.
struct ThrowsWhenCancelled: AsyncSequence, Sendable {
  let value: Int
  let waitsForCancellation: Bool
  let waiting: Recorder<Int>

  struct Iterator: AsyncIteratorProtocol {
    let sequence: ThrowsWhenCancelled
    var produced = false

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> Int? {
      guard sequence.waitsForCancellation else {
        defer { produced = true }
        return produced ? nil : sequence.value
      }
      sequence.waiting.record(sequence.value)
      await waitForCancellation()
      throw CancellationError()
    }
  }

  func makeAsyncIterator() -> Iterator { Iterator(sequence: self) }
}

/// An endless inner sequence `label0`, `label1`, … that records each index it produces and reports when its
/// iteration ends; with a gate, it produces nothing until the gate opens.
struct CountingSequence: AsyncSequence, Sendable {
  typealias Failure = Never

  fileprivate final class State: Sendable {
    let count = Atomic(0)
    let produced = Recorder<Int>()
    let ended = Recorder<Bool>()
  }

  let label: String
  let gate: Gate?
  private let state = State()

  init(label: String, startingAt gate: Gate? = nil) {
    self.label = label
    self.gate = gate
  }

  /// How many elements it produced.
  var count: Int { state.count.load(ordering: .sequentiallyConsistent) }
  /// Each index as it is produced.
  var produced: Recorder<Int> { state.produced }

  /// Waits until its iteration has ended; `true` if the iterating task was cancelled by then.
  func ending() async -> Bool {
    await state.ended.values(count: 1).first ?? false
  }

  func makeAsyncIterator() -> Iterator { Iterator(label: label, gate: gate, state: state) }

  struct Iterator: AsyncIteratorProtocol {
    let label: String
    var gate: Gate?
    fileprivate let state: State
    private let probe: Probe

    fileprivate init(label: String, gate: Gate?, state: State) {
      self.label = label
      self.gate = gate
      self.state = state
      probe = Probe(ended: state.ended)
    }

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> String? {
      if let gate = gate.take() { await gate.wait() }
      let index = state.count.add(1, ordering: .sequentiallyConsistent).oldValue
      state.produced.record(index)
      return "\(label)\(index)"
    }
  }

  /// Reports, when the iterator holding it goes away, whether its task was cancelled.
  final class Probe: Sendable {
    let ended: Recorder<Bool>

    init(ended: Recorder<Bool>) {
      self.ended = ended
    }

    deinit {
      ended.record(Task.isCancelled)
    }
  }
}

/// An inner sequence of a timing test: plays `diagram` from the instant it is made, half a tick late, so that its
/// events never fall on the same instant as the base's (which come on whole ticks). A cancelled wait returns `nil`.
struct HalfTickInput: AsyncSequence, Sendable {
  typealias Element = String
  typealias Failure = MarbleError

  let events: [(instant: TestClock.Instant, event: MarbleDiagram.Event)]
  let clock: TestClock

  init(_ diagram: MarbleDiagram, clock: TestClock) {
    let start = clock.now.offset + .milliseconds(500)
    events = diagram.ticks.enumerated().flatMap { tick, events in
      events.map { (TestClock.Instant(offset: start + .seconds(tick)), $0) }
    }
    self.clock = clock
  }

  func makeAsyncIterator() -> Iterator { Iterator(input: self) }

  struct Iterator: AsyncIteratorProtocol {
    let input: HalfTickInput
    var index = 0

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(MarbleError) -> String? {
      guard index < input.events.count else { return nil }
      let (instant, event) = input.events[index]
      index += 1
      do {
        try await input.clock.sleep(until: instant)
      } catch {
        return nil
      }
      switch event {
      case .value(let value): return value
      case .finish: return nil
      case .failure: throw MarbleError()
      }
    }
  }
}

@Suite("flatMapLatest timing", .timeLimit(.minutes(1)))
struct FlatMapLatestTimingTests {
  /// Each base value `x` starts the inner `-X[x|]` (half a tick late): its capital a tick and a half after `x`, then
  /// `x` itself and the inner's finish a tick later; `e` starts `-^`, an inner that fails.
  static func inner(_ value: String, _ clock: TestClock) -> HalfTickInput {
    HalfTickInput(MarbleDiagram(stringLiteral: value == "e" ? "-^" : "-\(value.uppercased())[\(value)|]"), clock: clock)
  }

  @Test(
    "inner elements come at their time; a new base element cancels the inner in flight",
    arguments: [
      // a's inner runs to its end; b's is cancelled by c before it produces.
      ("a---bc----|", "-Aa---Cc--|"),
      // c arrives between C and c: c's inner is cancelled after C, and d's takes over.
      ("a--c-d----|", "-Aa-C-Dd--|"),
      // The base finishes before the last inner: the sequence finishes with it.
      ("ab|", "--B[b|]"),
      ("a|", "-A[a|]"),
      ("|", "|"),
      // An error from the base ends it at once, cancelling the inner.
      ("a-^", "-A^"),
      // An error from the newest inner ends it; one from a superseded inner would have been discarded.
      ("a-e---", "-A-^"),
      ("ea----|", "--Aa--|"),
    ])
  func diagrams(input: String, expected: String) async {
    let output = await marbles(input) { inputs, clock in
      inputs[0].flatMapLatest { value in Self.inner(value, clock) }
    }
    #expect(output == expected, "input \(input)")
  }

  @Test(
    "a slow consumer gets an element held from the superseded inner, unless the newer inner replaced it first",
    arguments: [
      // The consumer takes A at 1.5 s and is busy until 5 s. a (2.5 s) is held; b supersedes its inner at 3 s.
      // b's inner produces B at 4.5 s, which replaces a: the consumer never sees a.
      ("-B", ["A at 1.5 seconds", "B at 5.0 seconds", "b at 6.5 seconds"]),
      // b's inner produces B only at 5.5 s: at 5 s the consumer takes the held a, then B.
      ("--B", ["A at 1.5 seconds", "a at 5.0 seconds", "B at 5.5 seconds", "b at 7.5 seconds"]),
    ])
  func heldElement(innerOfB: String, expected: [String]) async {
    let clock = TestClock()
    let seen = await clock.lockstep {
      let base = MarbleInput("a--b|", clock: clock)
      let results = base.flatMapLatest { value in
        HalfTickInput(MarbleDiagram(stringLiteral: value == "a" ? "-Aa" : "\(innerOfB)-b|"), clock: clock)
      }
      async let collected: [String] = {
        var seen: [String] = []
        do {
          for try await value in results {
            seen.append("\(value) at \(clock.now)")
            if value == "A" { try await clock.sleep(until: .init(offset: .seconds(5))) }
          }
        } catch {
          seen.append("error")
        }
        return seen
      }()
      await clock.run()
      return await collected
    }
    #expect(seen == expected)
  }
}

/// An inner sequence that never suspends: `count` elements `(generation, 0)`, `(generation, 1)`, ….
struct TaggedRun: AsyncSequence, Sendable {
  typealias Failure = Never

  let generation: Int
  let count: Int

  func makeAsyncIterator() -> Iterator { Iterator(run: self) }

  struct Iterator: AsyncIteratorProtocol {
    let run: TaggedRun
    var index = 0

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> (generation: Int, index: Int)? {
      guard index < run.count else { return nil }
      defer { index += 1 }
      return (run.generation, index)
    }
  }
}

@Suite("flatMapLatest under load", .timeLimit(.minutes(2)))
struct FlatMapLatestStressTests {
  @Test("10,000 runs of a fast base and fast inners: never an older inner's element, the last inner whole, an end")
  func stress() async {
    let runs = Stress.rounds(10_000)
    let baseCount = 8
    let innerCount = 3
    // Runs in which some inner was cut short, so that the promise was exercised, not just the happy path.
    var superseded = 0
    for run in 0..<runs {
      var delivered = 0
      let (base, input) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
      // The base is fed from another task, concurrently with the operator's own tasks and the consumer.
      let producer = Task.detached {
        for generation in 0..<baseCount { input.yield(generation) }
        input.finish()
      }
      var last: (generation: Int, index: Int)?
      var violation: String?
      for await element in base.flatMapLatest({ TaggedRun(generation: $0, count: innerCount) }) {
        if let previous = last {
          // Within an inner, its elements in order; across inners, only a newer one's first element.
          let inOrder =
            element.generation == previous.generation
            ? element.index == previous.index + 1 : element.generation > previous.generation && element.index == 0
          if !inOrder, violation == nil { violation = "run \(run): \(element) after \(previous)" }
        } else if element.index != 0, violation == nil {
          violation = "run \(run): started with \(element)"
        }
        last = element
        delivered += 1
      }
      if delivered < baseCount * innerCount { superseded += 1 }
      await producer.value
      #expect(violation == nil, "\(violation ?? "")")
      // The last inner is never superseded, so all of it is delivered, and then the sequence ends.
      #expect(
        last?.generation == baseCount - 1 && last?.index == innerCount - 1,
        "run \(run) ended at \(String(describing: last))")
      if violation != nil || last?.generation != baseCount - 1 { return }
    }
    #expect(superseded > 0, "no run superseded an inner")
  }
}
