import InternalRippleUtilities
import Testing

@testable import Ripple

// `_FanInStateMachine` (the fan-in core) with each policy — `_MergePolicy`, `_CombineLatestPolicy`, `_ZipPolicy`,
// `_ChunkSignalPolicy` — driven as a plain value: the test calls the events in order and runs each action as
// `_FanInStorage` does, on parked continuations for the consumer and the bases' producers (Support/Parked.swift)
// and an idle task. Map:
// - initial: no bases → finished; `nextReady` → none; `nextRequested` → start (the consumer counts as waiting
//   before the task runs: #28 item 1), `takeRun` once; `cancelled` → finished, nothing started; `started` →
//   recorded, or cancelTask once ended.
// - producers: `elementsProduced` → produceMore (combineLatest absorbs), resumeConsumer, resumeConsumerThenSuspend
//   (a batch), suspend (held), stop (ended); `producerSuspending` → wait, go on (used meanwhile), stop (ended).
// - bases' ends: `baseFinished` → none, end cancelling the others (the policy says so), end without cancelling
//   (the last base); `baseFailed` → end with the error to the waiting consumer, or kept for its next `next()`.
// - consumer: `nextReady` / `nextRequested` → an output made of held elements, waking their producers (inline up
//   to three, in a buffer beyond), the end, the kept error, or wait; `cancelled` → end, stopping every producer.

/// Parked consumers (`c0`…) and producers (`p0`…) of one test, and the task consuming the bases.
private struct Parties<Output: Sendable & Equatable> {
  let consumers: Parked<Result<Output?, Boom>>
  let producers: Parked<Bool>
  let task = idleTask()

  static func park(consumers: Int = 1, producers: Int = 0) async -> Parties {
    Parties(consumers: await .park(consumers), producers: await .park(producers))
  }

  func consumer(_ index: Int) -> UnsafeContinuation<Result<Output?, Boom>, Never> { consumers[index] }
  func producer(_ index: Int) -> _FanInProducer { producers[index] }

  /// Runs `action` as the storage does (but for the task: the tests take it themselves) and says what it did.
  func run<Policy>(_ action: _FanInStateMachine<Policy, Boom>.Action) -> String where Policy.Output == Output {
    switch action {
    case .none:
      return "none"
    case .start:
      return "start"
    case .cancelTask:
      return "cancel task"
    case .returnResult(let result, let wake):
      return "return \(describe(result))" + self.wake(wake)
    case .resumeConsumer(let consumer, let result, let wake):
      consumer.resume(returning: result)
      return "c\(consumers.index(of: consumer)!) \(describe(result))" + self.wake(wake)
    case .end(let consumer, let result, let stopping, let cancelTask):
      consumer?.resume(returning: result)
      return "end \(describe(result))" + (consumer.map { " c\(consumers.index(of: $0)!)" } ?? "")
        + self.wake(stopping, goOn: false) + (cancelTask ? ", cancel" : "")
    }
  }

  /// Hands `value` and then `rest` to the machine as base `index`'s producer does and says what it did.
  func produce<Policy>(
    _ value: Policy.Value, then rest: [Policy.Value] = [], at index: Int,
    into machine: inout _FanInStateMachine<Policy, Boom>
  ) -> String where Policy.Output == Output {
    var queue = _Queue<Policy.Value>()
    for element in rest { queue.append(element) }
    switch machine.elementsProduced(value, then: &queue, at: index) {
    case .produceMore:
      return "more"
    case .suspend:
      return "suspend"
    case .stop:
      return "stop"
    case .resumeConsumer(let consumer, let result, let wake):
      consumer.resume(returning: result)
      return "c\(consumers.index(of: consumer)!) \(describe(result))" + self.wake(wake) + ", more"
    case .resumeConsumerThenSuspend(let consumer, let result, let wake):
      consumer.resume(returning: result)
      return "c\(consumers.index(of: consumer)!) \(describe(result))" + self.wake(wake) + ", suspend"
    }
  }

  /// Resumes the producers of `wake` and names them.
  func wake(_ wake: _FanInWake, goOn: Bool = true) -> String {
    var names: [_FanInProducer] = []
    switch wake {
    case .none: break
    case .one(let first): names = [first]
    case .two(let first, let second): names = [first, second]
    case .three(let first, let second, let third): names = [first, second, third]
    case .many(let buffer, let count): names = Array(buffer.prefix(count))
    }
    wake.resume(returning: goOn)
    guard !names.isEmpty else { return "" }
    return (goOn ? ", wake " : ", stop ") + names.map { "p\(producers.index(of: $0)!)" }.joined(separator: " ")
  }

  private func describe(_ result: Result<Output?, Boom>) -> String {
    switch result {
    case .success(let value?): "\(value)"
    case .success(nil): "nil"
    case .failure(let error): "\(error)"
    }
  }
}

private typealias Merge = _FanInStateMachine<_MergePolicy<Int>, Boom>
private typealias CombineLatest = _FanInStateMachine<_CombineLatestPolicy<Int, [Int]>, Boom>
private typealias Zip = _FanInStateMachine<_ZipPolicy<Int, [Int]>, Boom>
private typealias ChunkSignal = _FanInStateMachine<_ChunkSignalPolicy<Int>, Boom>

private func merge(_ count: Int) -> Merge {
  Merge(count: count, policy: _MergePolicy(), name: "merge", run: { _ in })
}

private func combineLatest(_ count: Int) -> CombineLatest {
  CombineLatest(
    count: count,
    policy: _CombineLatestPolicy(count: count) { previous, latest, changed in
      _fanInArray(&previous, from: latest, changed: changed)
    }, name: "combineLatest", run: { _ in })
}

private func zip(_ count: Int) -> Zip {
  Zip(
    count: count,
    policy: _ZipPolicy(count: count) { previous, values in _fanInArray(&previous, from: values, changed: nil) },
    name: "zip", run: { _ in })
}

/// Starts `machine` with `c0` waiting, as the first `next()` does, and records its task.
private func start<Policy, Output>(
  _ machine: inout _FanInStateMachine<Policy, Boom>, _ parties: Parties<Output>
) where Policy.Output == Output {
  #expect(parties.run(machine.nextReady()) == "none")
  #expect(parties.run(machine.nextRequested(parties.consumer(0))) == "start")
  #expect(machine.takeRun() != nil)
  #expect(machine.takeRun() == nil, "taken once")
  #expect(parties.run(machine.started(parties.task)) == "none")
}

@Suite("the fan-in core's state machine", .timeLimit(.minutes(1)))
struct FanInStateMachineTests {
  // MARK: The core, with merge

  @Test("no bases: finished from the start, nothing to run")
  func noBases() async {
    var machine = merge(0)
    #expect(machine.takeRun() == nil)
    guard case .returnResult(.success(nil), .none) = machine.nextReady() else {
      Issue.record("a fan-in over no bases did not end at once")
      return
    }
  }

  @Test("#28 item 1: the first next() waits and starts the task; the first element goes to it at once")
  func firstElement() async {
    let parties = await Parties<Int>.park()
    var machine = merge(2)
    start(&machine, parties)
    #expect(parties.produce(1, at: 1, into: &machine) == "c0 1, more")
    #expect(await parties.consumers.values() == [.success(1)])
  }

  @Test("cancelled before the first next(): nothing starts, next() returns nil")
  func cancelledBeforeStart() async {
    let parties = await Parties<Int>.park()
    var machine = merge(2)
    #expect(parties.run(machine.cancelled()) == "none")
    #expect(parties.run(machine.nextRequested(parties.consumer(0))) == "c0 nil")
    #expect(parties.run(machine.nextReady()) == "return nil")
    #expect(await parties.consumers.values() == [.success(nil)])
  }

  @Test("cancelled before the task was recorded: recording it cancels it")
  func startedAfterEnd() async {
    let parties = await Parties<Int>.park()
    var machine = merge(2)
    #expect(parties.run(machine.nextRequested(parties.consumer(0))) == "start")
    #expect(parties.run(machine.cancelled()) == "end nil c0, cancel")
    #expect(parties.run(machine.started(parties.task)) == "cancel task")
    #expect(machine.takeTask() == parties.task)
    #expect(machine.takeTask() == nil, "taken once")
    #expect(await parties.consumers.values() == [.success(nil)])
  }

  @Test("merge: an element nobody waits for is held, its producer suspends, and the next next() takes it")
  func mergeHeld() async {
    let parties = await Parties<Int>.park(consumers: 2, producers: 1)
    var machine = merge(2)
    start(&machine, parties)
    #expect(parties.produce(1, at: 0, into: &machine) == "c0 1, more")
    #expect(parties.produce(2, at: 0, into: &machine) == "suspend")
    #expect(machine.producerSuspending(at: 0, parties.producer(0)) == nil)
    #expect(parties.run(machine.nextReady()) == "return 2, wake p0")
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "none")
    #expect(parties.produce(3, at: 1, into: &machine) == "c1 3, more")
    #expect(await parties.producers.values() == [true])
    #expect(await parties.consumers.values() == [.success(1), .success(3)])
  }

  @Test("merge: an element used before its producer suspended lets the producer go on at once")
  func mergeReleasedBeforeSuspending() async {
    let parties = await Parties<Int>.park(producers: 1)
    var machine = merge(2)
    start(&machine, parties)
    #expect(parties.produce(1, at: 0, into: &machine) == "c0 1, more")
    #expect(parties.produce(2, at: 0, into: &machine) == "suspend")
    #expect(parties.run(machine.nextReady()) == "return 2")
    #expect(machine.producerSuspending(at: 0, parties.producer(0)) == true)
    parties.producer(0).resume(returning: true)
    #expect(await parties.producers.values() == [true])
  }

  @Test("merge: held elements of several bases are taken in turn, so no base starves the others")
  func mergeRoundRobin() async {
    let parties = await Parties<Int>.park(producers: 2)
    var machine = merge(2)
    start(&machine, parties)
    #expect(parties.produce(0, at: 0, into: &machine) == "c0 0, more")
    #expect(parties.produce(1, at: 0, into: &machine) == "suspend")
    #expect(machine.producerSuspending(at: 0, parties.producer(0)) == nil)
    #expect(parties.produce(10, at: 1, into: &machine) == "suspend")
    #expect(machine.producerSuspending(at: 1, parties.producer(1)) == nil)
    #expect(parties.run(machine.nextReady()) == "return 1, wake p0")
    #expect(parties.produce(2, at: 0, into: &machine) == "suspend")
    #expect(parties.run(machine.nextReady()) == "return 10, wake p1", "base 1's turn, though base 0 holds one")
    #expect(parties.run(machine.nextReady()) == "return 2")
    #expect(parties.run(machine.nextReady()) == "none")
    #expect(await parties.producers.values() == [true, true])
  }

  @Test("merge: a batch goes to the waiting consumer one element at a time; its producer goes on when all are used")
  func mergeBatch() async {
    let parties = await Parties<Int>.park(producers: 1)
    var machine = merge(2)
    start(&machine, parties)
    #expect(parties.produce(1, then: [2, 3], at: 0, into: &machine) == "c0 1, suspend")
    #expect(machine.producerSuspending(at: 0, parties.producer(0)) == nil)
    #expect(parties.run(machine.nextReady()) == "return 2")
    #expect(parties.run(machine.nextReady()) == "return 3, wake p0")
    #expect(await parties.producers.values() == [true])
  }

  @Test("merge: a batch nobody waits for is held whole")
  func mergeBatchHeld() async {
    let parties = await Parties<Int>.park(producers: 1)
    var machine = merge(2)
    start(&machine, parties)
    #expect(parties.produce(0, at: 1, into: &machine) == "c0 0, more")
    #expect(parties.produce(1, then: [2], at: 0, into: &machine) == "suspend")
    #expect(machine.producerSuspending(at: 0, parties.producer(0)) == nil)
    #expect(parties.run(machine.nextReady()) == "return 1")
    #expect(parties.run(machine.nextReady()) == "return 2, wake p0")
    #expect(await parties.producers.values() == [true])
  }

  @Test("merge: the iteration ends when the last base finishes, without cancelling; it waits for the others")
  func mergeEndsWithLastBase() async {
    let parties = await Parties<Int>.park(consumers: 2)
    var machine = merge(2)
    start(&machine, parties)
    #expect(parties.run(machine.baseFinished(at: 0)) == "none")
    #expect(parties.produce(1, at: 1, into: &machine) == "c0 1, more")
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "none")
    #expect(parties.run(machine.baseFinished(at: 1)) == "end nil c1")
    #expect(machine.takeTask() == nil, "every base finished: nothing to cancel")
    #expect(parties.run(machine.nextReady()) == "return nil")
    #expect(await parties.consumers.values() == [.success(1), .success(nil)])
  }

  @Test("merge: the last base finishes while nobody waits: the next next() returns nil")
  func mergeEndsWhileBusy() async {
    let parties = await Parties<Int>.park()
    var machine = merge(1)
    start(&machine, parties)
    #expect(parties.produce(1, at: 0, into: &machine) == "c0 1, more")
    #expect(parties.run(machine.baseFinished(at: 0)) == "end nil")
    #expect(parties.run(machine.nextReady()) == "return nil")
    #expect(parties.run(machine.baseFinished(at: 0)) == "none", "ended")
  }

  @Test("a base fails while the consumer waits: it gets the error, the other producers stop, the task is cancelled")
  func baseFailedWhileWaiting() async {
    let parties = await Parties<Int>.park(consumers: 2, producers: 1)
    var machine = merge(2)
    start(&machine, parties)
    #expect(parties.produce(1, at: 0, into: &machine) == "c0 1, more")
    #expect(parties.produce(2, at: 0, into: &machine) == "suspend")
    #expect(machine.producerSuspending(at: 0, parties.producer(0)) == nil)
    _ = parties.run(machine.nextReady())
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "none")
    #expect(parties.run(machine.baseFailed(.boom)) == "end boom c1, cancel")
    #expect(machine.takeTask() == parties.task)
    #expect(await parties.consumers.values() == [.success(1), .failure(.boom)])
  }

  @Test("a base fails while nobody waits: held elements are dropped, the producers stop, the next next() throws once")
  func baseFailedWhileBusy() async {
    let parties = await Parties<Int>.park(consumers: 2, producers: 2)
    var machine = merge(2)
    start(&machine, parties)
    #expect(parties.produce(1, at: 0, into: &machine) == "c0 1, more")
    #expect(parties.produce(2, at: 0, into: &machine) == "suspend")
    #expect(machine.producerSuspending(at: 0, parties.producer(0)) == nil)
    #expect(parties.run(machine.baseFailed(.boom)) == "end nil, stop p0, cancel")
    #expect(parties.run(machine.baseFailed(.boom)) == "none", "a second failure")
    #expect(parties.run(machine.baseFinished(at: 1)) == "none")
    #expect(parties.produce(3, at: 1, into: &machine) == "stop")
    #expect(machine.producerSuspending(at: 1, parties.producer(1)) == false)
    parties.producer(1).resume(returning: false)
    #expect(parties.run(machine.nextReady()) == "return boom")
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "c1 nil")
    #expect(await parties.producers.values() == [false, false])
  }

  @Test("cancelled after a failure nobody took: the error is dropped, next() returns nil")
  func cancelledWhileFailed() async {
    let parties = await Parties<Int>.park()
    var machine = merge(2)
    start(&machine, parties)
    #expect(parties.produce(1, at: 0, into: &machine) == "c0 1, more")
    #expect(parties.run(machine.baseFailed(.boom)) == "end nil, cancel")
    #expect(parties.run(machine.cancelled()) == "none")
    #expect(parties.run(machine.nextReady()) == "return nil")
    #expect(parties.run(machine.cancelled()) == "none")
  }

  @Test("cancelled while running: the waiting consumer gets nil, every suspended producer stops, beyond three too")
  func cancelledStopsEveryProducer() async {
    let parties = await Parties<Int>.park(consumers: 2, producers: 4)
    var machine = merge(5)
    start(&machine, parties)
    #expect(parties.produce(0, at: 4, into: &machine) == "c0 0, more")
    for index in 0..<4 {
      #expect(parties.produce(index, at: index, into: &machine) == "suspend")
      #expect(machine.producerSuspending(at: index, parties.producer(index)) == nil)
    }
    #expect(parties.run(machine.cancelled()) == "end nil, stop p0 p1 p2 p3, cancel")
    #expect(machine.takeTask() == parties.task)
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "c1 nil")
    #expect(await parties.producers.values() == [false, false, false, false])
  }

  // MARK: combineLatest

  @Test("combineLatest: before every base produced, elements are absorbed (the newest kept) and producers go on")
  func combineLatestAbsorbs() async {
    let parties = await Parties<[Int]>.park(consumers: 2, producers: 1)
    var machine = combineLatest(2)
    start(&machine, parties)
    #expect(parties.produce(1, at: 0, into: &machine) == "more")
    #expect(parties.produce(2, at: 0, into: &machine) == "more")
    #expect(parties.produce(10, at: 1, into: &machine) == "c0 [2, 10], more")
    #expect(parties.produce(3, at: 0, into: &machine) == "suspend", "after the first output, one in flight per base")
    #expect(machine.producerSuspending(at: 0, parties.producer(0)) == nil)
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "c1 [3, 10], wake p0")
    #expect(await parties.consumers.values() == [.success([2, 10]), .success([3, 10])])
  }

  @Test("combineLatest: after the first output, an element nobody waits for is held; next() makes an output of it")
  func combineLatestHeldAfterFirst() async {
    let parties = await Parties<[Int]>.park(producers: 1)
    var machine = combineLatest(2)
    start(&machine, parties)
    #expect(parties.produce(1, at: 0, into: &machine) == "more")
    #expect(parties.produce(10, at: 1, into: &machine) == "c0 [1, 10], more")
    #expect(parties.produce(2, at: 0, into: &machine) == "suspend")
    #expect(machine.producerSuspending(at: 0, parties.producer(0)) == nil)
    #expect(parties.run(machine.nextReady()) == "return [2, 10], wake p0")
    #expect(parties.run(machine.nextReady()) == "none")
    #expect(await parties.producers.values() == [true])
  }

  @Test("combineLatest's policy alone: elements held by every base before the first output make it together")
  func combineLatestFirstOutputTakesAll() {
    // Through the core this path is not reached: the first next() waits before any base runs, so the element
    // that completes the set always finds the consumer waiting (``combineLatestAbsorbs``).
    var policy = _CombineLatestPolicy<Int, [Int]>(count: 2) { previous, latest, changed in
      _fanInArray(&previous, from: latest, changed: changed)
    }
    var slots = _FanInSlots<Int>(count: 2)
    #expect(policy.output(from: &slots) == nil)
    slots.hold(1, at: 0)
    #expect(policy.output(from: &slots) == nil, "base 1 has nothing yet")
    slots.hold(10, at: 1)
    guard let (output, wake) = policy.output(from: &slots), case .none = wake else {
      Issue.record("no first output")
      return
    }
    #expect(output == [1, 10])
    #expect(slots.pendingCount == 0)
  }

  @Test("combineLatest: a base that finishes without producing ends the iteration, cancelling the others")
  func combineLatestBaseFinishesEmpty() async {
    let parties = await Parties<[Int]>.park()
    var machine = combineLatest(2)
    start(&machine, parties)
    #expect(parties.produce(1, at: 0, into: &machine) == "more")
    #expect(parties.run(machine.baseFinished(at: 1)) == "end nil c0, cancel")
    #expect(await parties.consumers.values() == [.success(nil)])
  }

  @Test("combineLatest: a base that finishes after producing leaves the others going; the last one ends it")
  func combineLatestBaseFinishesAfterProducing() async {
    let parties = await Parties<[Int]>.park(consumers: 3)
    var machine = combineLatest(2)
    start(&machine, parties)
    #expect(parties.produce(1, at: 0, into: &machine) == "more")
    #expect(parties.run(machine.baseFinished(at: 0)) == "none", "its element counts")
    #expect(parties.produce(10, at: 1, into: &machine) == "c0 [1, 10], more")
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "none")
    #expect(parties.produce(20, at: 1, into: &machine) == "c1 [1, 20], more")
    #expect(parties.run(machine.nextRequested(parties.consumer(2))) == "none")
    #expect(parties.run(machine.baseFinished(at: 1)) == "end nil c2")
    #expect(await parties.consumers.values() == [.success([1, 10]), .success([1, 20]), .success(nil)])
  }

  // MARK: zip

  @Test("zip: an output when every base holds an element, waking the producers whose elements it took")
  func zipPairs() async {
    let parties = await Parties<[Int]>.park(consumers: 2, producers: 3)
    var machine = zip(2)
    start(&machine, parties)
    #expect(parties.produce(1, at: 0, into: &machine) == "suspend")
    #expect(machine.producerSuspending(at: 0, parties.producer(0)) == nil)
    #expect(parties.produce(10, at: 1, into: &machine) == "c0 [1, 10], wake p0, more")
    #expect(parties.produce(2, at: 0, into: &machine) == "suspend")
    #expect(machine.producerSuspending(at: 0, parties.producer(1)) == nil)
    #expect(parties.produce(20, at: 1, into: &machine) == "suspend")
    #expect(machine.producerSuspending(at: 1, parties.producer(2)) == nil)
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "c1 [2, 20], wake p1 p2")
    #expect(await parties.consumers.values() == [.success([1, 10]), .success([2, 20])])
    #expect(await parties.producers.values() == [true, true, true])
  }

  @Test("zip: with one base ahead, next() waits for the other")
  func zipWaits() async {
    let parties = await Parties<[Int]>.park(consumers: 2, producers: 1)
    var machine = zip(2)
    start(&machine, parties)
    #expect(parties.produce(1, at: 0, into: &machine) == "suspend")
    #expect(machine.producerSuspending(at: 0, parties.producer(0)) == nil)
    #expect(parties.run(machine.baseFinished(at: 1)) == "end nil c0, stop p0, cancel")
    #expect(await parties.producers.values() == [false])
  }

  @Test("zip: any base's end ends the iteration and cancels the others; its held elements are dropped")
  func zipAnyBaseEnds() async {
    let parties = await Parties<[Int]>.park(consumers: 2)
    var machine = zip(3)
    start(&machine, parties)
    #expect(parties.run(machine.baseFinished(at: 2)) == "end nil c0, cancel")
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "c1 nil")
    #expect(await parties.consumers.values() == [.success(nil), .success(nil)])
  }

  @Test("zip over three bases: the third's element completes the output and wakes the other two")
  func zipThree() async {
    let parties = await Parties<[Int]>.park(producers: 2)
    var machine = zip(3)
    start(&machine, parties)
    for index in 0..<2 {
      #expect(parties.produce(index, at: index, into: &machine) == "suspend")
      #expect(machine.producerSuspending(at: index, parties.producer(index)) == nil)
    }
    #expect(parties.produce(2, at: 2, into: &machine) == "c0 [0, 1, 2], wake p0 p1, more")
    #expect(await parties.producers.values() == [true, true])
  }

  @Test("zip over three bases: an output taken by next() from three held elements wakes all three producers")
  func zipThreeHeld() async {
    let parties = await Parties<[Int]>.park(consumers: 2, producers: 5)
    var machine = zip(3)
    start(&machine, parties)
    for index in 0..<2 {
      #expect(parties.produce(index, at: index, into: &machine) == "suspend")
      #expect(machine.producerSuspending(at: index, parties.producer(index)) == nil)
    }
    #expect(parties.produce(2, at: 2, into: &machine) == "c0 [0, 1, 2], wake p0 p1, more")
    for index in 0..<3 {
      #expect(parties.produce(index + 10, at: index, into: &machine) == "suspend")
      #expect(machine.producerSuspending(at: index, parties.producer(index + 2)) == nil)
    }
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "c1 [10, 11, 12], wake p2 p3 p4")
    #expect(await parties.producers.values() == [true, true, true, true, true])
  }

  // MARK: chunks(ofCount:or:)'s signal

  @Test("chunk signal: elements and ticks merge; the signal's end leaves the base going; the base's end ends it")
  func chunkSignal() async {
    let parties = await Parties<Int?>.park(consumers: 4)
    var machine = ChunkSignal(count: 2, policy: _ChunkSignalPolicy(), name: "chunks", run: { _ in })
    start(&machine, parties)
    #expect(parties.produce(1, at: 0, into: &machine) == "c0 Optional(1), more")
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "none")
    #expect(parties.produce(nil, at: 1, into: &machine) == "c1 nil, more", "the signal fired")
    #expect(parties.run(machine.baseFinished(at: 1)) == "none", "the signal's end")
    #expect(parties.run(machine.nextRequested(parties.consumer(2))) == "none")
    #expect(parties.produce(2, at: 0, into: &machine) == "c2 Optional(2), more")
    #expect(parties.run(machine.nextRequested(parties.consumer(3))) == "none")
    #expect(parties.run(machine.baseFinished(at: 0)) == "end nil c3, cancel")
    #expect(await parties.consumers.values() == [.success(1), .success(.some(nil)), .success(2), .success(nil)])
  }
}
