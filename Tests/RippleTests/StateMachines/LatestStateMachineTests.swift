import Testing

@testable import Ripple

// `_LatestStateMachine` (the latest-wins core of `mapLatest` and `flatMapLatest`) driven as a plain value: the test
// calls the events in order and runs each action as `_LatestStorage` does, on parked continuations for the consumer
// and the inners' producers (Support/Parked.swift) and idle tasks for the base and the inners. Map:
// - initial: `nextReady` → none; `nextRequested` → start (the consumer waits before the base runs); `cancelled` →
//   finished, nothing started; `started` → recorded, or cancelTask once ended.
// - base: `elementProduced` → startInner (a new generation, superseding the inner in flight and stopping its
//   producer), stop (ended or failing); `baseFinished` → the end to the waiting consumer once no inner runs, else
//   none; `baseFailed` → the failure path below.
// - inners: `innerStarted` → recorded, cancelTask (superseded, or ended); `innerProduced` → resumeConsumer, held
//   (replacing an older generation's output), suspend (its own output still held), stop (superseded); `isLast` ends
//   the inner; `producerSuspending` → wait, go on (taken meanwhile), stop; `innerFinished` → the end when the base
//   finished and a consumer waits; `innerFailed` → end with the error, after the inner's own pending output.
// - consumer: `nextReady` / `nextRequested` → the pending output waking its producer, the kept error (ending), the
//   end, or wait; `cancelled` → end, cancelling the tasks and stopping the producer.

private typealias Machine = _LatestStateMachine<Int, Boom>

/// Parked consumers (`c0`…) and producers (`p0`…) of one test, the base task and the inners' tasks (`i1`… by
/// generation).
private struct Parties {
  let consumers: Parked<Result<Int?, Boom>>
  let producers: Parked<Bool>
  let base = idleTask()
  let inners = (0...4).map { _ in idleTask() }

  static func park(consumers: Int = 1, producers: Int = 0) async -> Parties {
    Parties(consumers: await .park(consumers), producers: await .park(producers))
  }

  func consumer(_ index: Int) -> Machine.Consumer { consumers[index] }
  func producer(_ index: Int) -> Machine.Producer { producers[index] }

  func name(_ task: Task<Void, Never>) -> String {
    task == base ? "base" : inners.firstIndex(of: task).map { "i\($0)" } ?? "another task"
  }

  /// Runs `action` as the storage does and says what it did.
  func run(_ action: Machine.Action) -> String {
    switch action {
    case .none:
      return "none"
    case .start:
      return "start"
    case .returnResult(let result, let producer):
      return "return \(describe(result))" + wake(producer)
    case .resumeConsumer(let consumer, let result, let producer):
      consumer.resume(returning: result)
      return "c\(consumers.index(of: consumer)!) \(describe(result))" + wake(producer)
    case .cancelTask(let task):
      task.cancel()
      return "cancel \(name(task))"
    case .end(let consumer, let result, let tasks):
      tasks.cancel()
      consumer?.resume(returning: result)
      var parts = ["end \(describe(result))"]
      if let consumer { parts.append("c\(consumers.index(of: consumer)!)") }
      if let task = tasks.base { parts.append("cancel \(name(task))") }
      if let task = tasks.inner { parts.append("cancel \(name(task))") }
      if let producer = tasks.producer { parts.append("stop p\(producers.index(of: producer)!)") }
      return parts.joined(separator: " ")
    }
  }

  /// Runs the base task's answer to an element and says what it did.
  func run(_ action: Machine.ElementAction) -> String {
    switch action {
    case .stop:
      return "stop"
    case .startInner(let generation, let superseded, let producer):
      superseded?.cancel()
      producer?.resume(returning: false)
      return "start i\(generation)" + (superseded.map { " cancel \(name($0))" } ?? "")
        + (producer.map { " stop p\(producers.index(of: $0)!)" } ?? "")
    }
  }

  /// Runs an inner's answer to its output and says what it did.
  func run(_ action: Machine.ProduceAction) -> String {
    switch action {
    case .held: return "held"
    case .suspend: return "suspend"
    case .stop: return "stop"
    case .resumeConsumer(let consumer, let result):
      consumer.resume(returning: result)
      return "c\(consumers.index(of: consumer)!) \(describe(result))"
    }
  }

  private func wake(_ producer: Machine.Producer?) -> String {
    guard let producer else { return "" }
    producer.resume(returning: true)
    return ", wake p\(producers.index(of: producer)!)"
  }
}

private func describe(_ result: Result<Int?, Boom>) -> String {
  switch result {
  case .success(let value?): "\(value)"
  case .success(nil): "nil"
  case .failure(let error): "\(error)"
  }
}

/// A running iteration: `c0` waits, the base task is recorded, and element 1's inner (`i1`) runs.
private func running(_ parties: Parties) -> Machine {
  var machine = Machine()
  #expect(parties.run(machine.nextReady()) == "none")
  #expect(parties.run(machine.nextRequested(parties.consumer(0))) == "start")
  #expect(parties.run(machine.started(parties.base)) == "none")
  #expect(parties.run(machine.elementProduced()) == "start i1")
  #expect(parties.run(machine.innerStarted(parties.inners[1], generation: 1)) == "none")
  return machine
}

@Suite("the latest-wins core's state machine", .timeLimit(.minutes(1)))
struct LatestStateMachineTests {
  @Test("cancelled before the first next(): nothing starts; next() returns nil; a base task recorded late is cancelled")
  func cancelledBeforeStart() async {
    let parties = await Parties.park()
    var machine = Machine()
    #expect(parties.run(machine.cancelled()) == "none")
    #expect(parties.run(machine.nextRequested(parties.consumer(0))) == "c0 nil")
    #expect(parties.run(machine.started(parties.base)) == "cancel base")
    #expect(parties.run(machine.innerStarted(parties.inners[1], generation: 1)) == "cancel i1")
    #expect(parties.run(machine.elementProduced()) == "stop")
    #expect(await parties.consumers.values() == [.success(nil)])
  }

  @Test("an inner's output goes to the waiting consumer; the inner goes on")
  func outputToWaitingConsumer() async {
    let parties = await Parties.park()
    var machine = running(parties)
    #expect(parties.run(machine.innerProduced(10, generation: 1, isLast: false)) == "c0 10")
    #expect(await parties.consumers.values() == [.success(10)])
  }

  @Test("an output nobody waits for is held; the inner's next one suspends until it is taken")
  func outputHeldThenSuspend() async {
    let parties = await Parties.park(consumers: 2, producers: 1)
    var machine = running(parties)
    #expect(parties.run(machine.innerProduced(10, generation: 1, isLast: false)) == "c0 10")
    #expect(parties.run(machine.innerProduced(11, generation: 1, isLast: false)) == "held")
    #expect(parties.run(machine.innerProduced(12, generation: 1, isLast: false)) == "suspend")
    #expect(machine.producerSuspending(generation: 1, parties.producer(0)) == nil)
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "c1 11, wake p0")
    #expect(await parties.producers.values() == [true])
    #expect(await parties.consumers.values() == [.success(10), .success(11)])
  }

  @Test("an output taken before its producer suspended lets the producer go on at once")
  func releasedBeforeSuspending() async {
    let parties = await Parties.park()
    var machine = running(parties)
    #expect(parties.run(machine.innerProduced(10, generation: 1, isLast: false)) == "c0 10")
    #expect(parties.run(machine.innerProduced(11, generation: 1, isLast: false)) == "held")
    #expect(parties.run(machine.innerProduced(12, generation: 1, isLast: false)) == "suspend")
    #expect(parties.run(machine.nextReady()) == "return 11")
    let producers = await Parked<Bool>.park(1)
    #expect(machine.producerSuspending(generation: 1, producers[0]) == true)
    producers[0].resume(returning: true)
    #expect(await producers.values() == [true])
  }

  @Test("a newer element supersedes the inner: its task is cancelled, its suspended producer stops, its output goes")
  func supersede() async {
    let parties = await Parties.park(consumers: 2, producers: 1)
    var machine = running(parties)
    #expect(parties.run(machine.innerProduced(10, generation: 1, isLast: false)) == "c0 10")
    #expect(parties.run(machine.innerProduced(11, generation: 1, isLast: false)) == "held")
    #expect(parties.run(machine.innerProduced(12, generation: 1, isLast: false)) == "suspend")
    #expect(machine.producerSuspending(generation: 1, parties.producer(0)) == nil)
    #expect(parties.run(machine.elementProduced()) == "start i2 cancel i1 stop p0")
    #expect(parties.run(machine.innerProduced(13, generation: 1, isLast: false)) == "stop", "superseded")
    #expect(machine.producerSuspending(generation: 1, parties.producer(0)) == false)
    #expect(parties.run(machine.innerFinished(generation: 1)) == "none")
    #expect(parties.run(machine.innerFailed(.boom, generation: 1)) == "none", "a superseded inner's error is dropped")
    #expect(parties.run(machine.innerProduced(20, generation: 2, isLast: false)) == "held", "replaces 11")
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "c1 20")
    #expect(await parties.producers.values() == [false])
  }

  @Test("an inner started after a newer element came is cancelled; one that finished before it was recorded is not")
  func innerStartedLate() async {
    let parties = await Parties.park()
    var machine = running(parties)
    #expect(parties.run(machine.elementProduced()) == "start i2 cancel i1")
    #expect(parties.run(machine.elementProduced()) == "start i3")
    #expect(parties.run(machine.innerStarted(parties.inners[2], generation: 2)) == "cancel i2")
    #expect(parties.run(machine.innerProduced(30, generation: 3, isLast: true)) == "c0 30")
    #expect(parties.run(machine.innerStarted(parties.inners[3], generation: 3)) == "none", "it finished already")
    #expect(await parties.consumers.values() == [.success(30)])
  }

  @Test("mapLatest's one output (isLast) ends its inner; with the base finished, the next next() returns nil")
  func lastOutput() async {
    let parties = await Parties.park(consumers: 2)
    var machine = running(parties)
    #expect(parties.run(machine.baseFinished()) == "none", "the inner still runs")
    #expect(parties.run(machine.innerProduced(10, generation: 1, isLast: true)) == "c0 10")
    #expect(parties.run(machine.nextReady()) == "return nil")
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "c1 nil")
    #expect(await parties.consumers.values() == [.success(10), .success(nil)])
  }

  @Test("the base finishes while the consumer waits and no inner runs: it gets nil at once")
  func baseFinishedIdle() async {
    let parties = await Parties.park()
    var machine = Machine()
    #expect(parties.run(machine.nextRequested(parties.consumer(0))) == "start")
    #expect(parties.run(machine.baseFinished()) == "c0 nil")
    #expect(parties.run(machine.baseFinished()) == "none")
    #expect(await parties.consumers.values() == [.success(nil)])
  }

  @Test("the last inner finishes after the base did, while the consumer waits: it gets nil")
  func innerFinishedLast() async {
    let parties = await Parties.park(consumers: 2)
    var machine = running(parties)
    #expect(parties.run(machine.innerProduced(10, generation: 1, isLast: false)) == "c0 10")
    #expect(parties.run(machine.innerFinished(generation: 1)) == "none", "the base goes on")
    #expect(parties.run(machine.elementProduced()) == "start i2")
    #expect(parties.run(machine.baseFinished()) == "none")
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "none")
    #expect(parties.run(machine.innerFinished(generation: 2)) == "c1 nil")
    #expect(await parties.consumers.values() == [.success(10), .success(nil)])
  }

  @Test("an inner fails while the consumer waits: it gets the error, the base and the inner are cancelled")
  func innerFailedWhileWaiting() async {
    let parties = await Parties.park(consumers: 2)
    var machine = running(parties)
    #expect(parties.run(machine.innerFailed(.boom, generation: 1)) == "end boom c0 cancel base cancel i1")
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "c1 nil")
    #expect(await parties.consumers.values() == [.failure(.boom), .success(nil)])
  }

  @Test("an inner fails after its own output was held: the output comes first, then the error, once")
  func innerFailedAfterOwnOutput() async {
    let parties = await Parties.park(consumers: 3)
    var machine = running(parties)
    #expect(parties.run(machine.innerProduced(10, generation: 1, isLast: false)) == "c0 10")
    #expect(parties.run(machine.innerProduced(11, generation: 1, isLast: false)) == "held")
    #expect(parties.run(machine.innerFailed(.boom, generation: 1)) == "end boom cancel base cancel i1")
    #expect(parties.run(machine.elementProduced()) == "stop", "failing: no new inner")
    #expect(parties.run(machine.baseFailed(.boom)) == "end boom", "already failing: the base reacting")
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "c1 11")
    #expect(parties.run(machine.nextRequested(parties.consumer(2))) == "end boom c2")
    #expect(parties.run(machine.nextReady()) == "return nil")
    #expect(await parties.consumers.values() == [.success(10), .success(11), .failure(.boom)])
  }

  @Test("the newest inner fails: an older generation's held output is dropped; the error comes next")
  func innerFailedDropsOlderOutput() async {
    let parties = await Parties.park()
    var machine = running(parties)
    #expect(parties.run(machine.innerProduced(10, generation: 1, isLast: false)) == "c0 10")
    #expect(parties.run(machine.innerProduced(11, generation: 1, isLast: false)) == "held")
    #expect(parties.run(machine.elementProduced()) == "start i2 cancel i1")
    #expect(parties.run(machine.innerFailed(.boom, generation: 2)) == "end boom cancel base")
    #expect(parties.run(machine.nextReady()) == "end boom")
    #expect(parties.run(machine.nextReady()) == "return nil")
  }

  @Test("the base fails while the consumer waits: it gets the error; the inner in flight is cancelled")
  func baseFailedWhileWaiting() async {
    let parties = await Parties.park()
    var machine = running(parties)
    #expect(parties.run(machine.baseFailed(.boom)) == "end boom c0 cancel i1")
    #expect(parties.run(machine.innerProduced(10, generation: 1, isLast: false)) == "stop")
    #expect(await parties.consumers.values() == [.failure(.boom)])
  }

  @Test("cancelled while running: the consumer gets nil, the tasks are cancelled, the suspended producer stops")
  func cancelledWhileRunning() async {
    let parties = await Parties.park(consumers: 2, producers: 1)
    var machine = running(parties)
    #expect(parties.run(machine.innerProduced(10, generation: 1, isLast: false)) == "c0 10")
    #expect(parties.run(machine.innerProduced(11, generation: 1, isLast: false)) == "held")
    #expect(parties.run(machine.innerProduced(12, generation: 1, isLast: false)) == "suspend")
    #expect(machine.producerSuspending(generation: 1, parties.producer(0)) == nil)
    #expect(parties.run(machine.cancelled()) == "end nil cancel base cancel i1 stop p0")
    #expect(parties.base.isCancelled && parties.inners[1].isCancelled)
    #expect(parties.run(machine.cancelled()) == "none")
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "c1 nil")
    #expect(parties.run(machine.started(idleTask())) == "cancel another task")
    #expect(await parties.producers.values() == [false])
  }

  @Test("cancelled while the consumer waits: it gets nil")
  func cancelledWhileWaiting() async {
    let parties = await Parties.park()
    var machine = running(parties)
    #expect(parties.run(machine.cancelled()) == "end nil c0 cancel base cancel i1")
    #expect(await parties.consumers.values() == [.success(nil)])
  }
}
