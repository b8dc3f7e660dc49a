import InternalRippleUtilities
import Testing

@testable import Ripple

// `_BufferStateMachine` (`buffer(policy:)`) driven as a plain value: the test calls the events in order and runs each
// action as `_BufferStorage` does, on parked continuations (Support/Parked.swift) and an idle task. Map:
// - initial: `nextReady` → none; `nextRequested` → start; `cancelled` → finished, nothing started.
// - running, base task: `started` → recorded; `elementProduced` → resumeConsumer, or buffered per policy →
//   produceMore / suspend; `producerSuspending` → wait, go on (room), stop (ended); `baseFinished` / `baseFailed` →
//   to the waiting consumer at once, or kept after the buffer.
// - running, consumer: `nextReady` / `nextRequested` → an element, resuming the producer it made room for; the end.
// - `cancelled` while running → end (consumer, producer, task); `started` after the end → cancelTask; every event
//   after the end → stop / nil.

private typealias Machine = _BufferStateMachine<Int, Boom>

/// The parties of one test: consumers and producers parked on real continuations, and the base task.
private struct Parties {
  let consumers: Parked<Result<Int?, Boom>>
  let producers: Parked<Bool>
  let task = idleTask()

  static func park(consumers: Int = 1, producers: Int = 0) async -> Parties {
    Parties(consumers: await .park(consumers), producers: await .park(producers))
  }

  func consumer(_ index: Int) -> Machine.Consumer { consumers[index] }
  func producer(_ index: Int) -> Machine.Producer { producers[index] }

  /// Runs `action` as the storage does and says what it did: `c0`, `p0` name parked continuations.
  func run(_ action: Machine.Action) -> String {
    switch action {
    case .none:
      return "none"
    case .start:
      return "start"
    case .returnResult(let result, let producer):
      return "return \(describe(result))" + resume(producer)
    case .resumeConsumer(let consumer, let result, let producer):
      consumer.resume(returning: result)
      return "c\(consumers.index(of: consumer)!) \(describe(result))" + resume(producer)
    case .cancelTask(let task):
      task.cancel()
      return task == self.task ? "cancel task" : "cancel another task"
    case .end(let consumer, let producer, let task):
      task?.cancel()
      consumer?.resume(returning: .success(nil))
      producer?.resume(returning: false)
      return "end" + (consumer.map { " c\(consumers.index(of: $0)!)" } ?? "")
        + (producer.map { " p\(producers.index(of: $0)!)" } ?? "") + (task == self.task ? " task" : "")
    }
  }

  /// Runs a producer's action as the base task does.
  func run(_ action: Machine.ProduceAction) -> String {
    switch action {
    case .produceMore: return "more"
    case .suspend: return "suspend"
    case .stop: return "stop"
    case .resumeConsumer(let consumer, let result):
      consumer.resume(returning: result)
      return "c\(consumers.index(of: consumer)!) \(describe(result)), more"
    }
  }

  private func resume(_ producer: Machine.Producer?) -> String {
    guard let producer else { return "" }
    producer.resume(returning: true)
    return ", p\(producers.index(of: producer)!) goes on"
  }
}

private func describe(_ result: Result<Int?, Boom>) -> String {
  switch result {
  case .success(let value?): "\(value)"
  case .success(nil): "nil"
  case .failure(let error): "\(error)"
  }
}

/// A machine whose first consumer (`c0`) waits, started, with its base task recorded.
private func running(_ policy: AsyncBufferSequencePolicy, _ parties: Parties) -> Machine {
  var machine = Machine(policy: policy.storage)
  #expect(parties.run(machine.nextReady()) == "none")
  #expect(parties.run(machine.nextRequested(parties.consumer(0))) == "start")
  #expect(parties.run(machine.started(parties.task)) == "none")
  return machine
}

@Suite("buffer's state machine", .timeLimit(.minutes(1)))
struct BufferStateMachineTests {
  @Test("initial: nextReady waits, the first nextRequested starts the base, whose first element goes to it")
  func firstNext() async {
    let parties = await Parties.park()
    var machine = running(.bounded(2), parties)
    #expect(machine.state == .running)
    #expect(parties.run(machine.elementProduced(1)) == "c0 1, more")
    #expect(await parties.consumers.values() == [.success(1)])
  }

  @Test("initial: a consumer cancelled before its first next() starts nothing and ends the iteration")
  func cancelledBeforeStart() async {
    let parties = await Parties.park()
    var machine = Machine(policy: .bounded(1))
    #expect(parties.run(machine.cancelled()) == "none")
    #expect(machine.state == .finished)
    #expect(parties.run(machine.nextReady()) == "return nil")
    #expect(parties.run(machine.nextRequested(parties.consumer(0))) == "c0 nil")
    #expect(parties.run(machine.started(parties.task)) == "cancel task")
    #expect(await parties.consumers.values() == [.success(nil)])
  }

  @Test("bounded: elements fill the buffer, the producer suspends at the limit and resumes when one is taken")
  func boundedBackpressure() async {
    let parties = await Parties.park(producers: 1)
    var machine = running(.bounded(2), parties)
    #expect(parties.run(machine.elementProduced(1)) == "c0 1, more")
    #expect(parties.run(machine.elementProduced(2)) == "more")
    #expect(parties.run(machine.elementProduced(3)) == "suspend")
    #expect(machine.producerSuspending(parties.producer(0)) == nil)
    #expect(parties.run(machine.nextReady()) == "return 2, p0 goes on")
    #expect(parties.run(machine.nextReady()) == "return 3")
    #expect(parties.run(machine.nextReady()) == "none")
    #expect(await parties.producers.values() == [true])
  }

  @Test("bounded: a producer told to suspend goes on at once when the consumer made room meanwhile")
  func producerSuspendingAfterRoom() async {
    let parties = await Parties.park(producers: 1)
    var machine = running(.bounded(1), parties)
    #expect(parties.run(machine.elementProduced(1)) == "c0 1, more")
    #expect(parties.run(machine.elementProduced(2)) == "suspend")
    #expect(parties.run(machine.nextReady()) == "return 2")
    #expect(machine.producerSuspending(parties.producer(0)) == true)
    parties.producer(0).resume(returning: true)
    #expect(await parties.producers.values() == [true])
  }

  @Test("bounded: a waiting consumer that takes an element lets the suspended producer go on")
  func nextRequestedMakesRoom() async {
    let parties = await Parties.park(consumers: 2, producers: 1)
    var machine = running(.bounded(1), parties)
    #expect(parties.run(machine.elementProduced(1)) == "c0 1, more")
    #expect(parties.run(machine.elementProduced(2)) == "suspend")
    #expect(machine.producerSuspending(parties.producer(0)) == nil)
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "c1 2, p0 goes on")
    #expect(await parties.consumers.values() == [.success(1), .success(2)])
    #expect(await parties.producers.values() == [true])
  }

  @Test(
    "the dropping policies and unbounded never suspend the producer",
    arguments: [
      (AsyncBufferSequencePolicy.unbounded, [2, 3, 4]), (.bufferingLatest(2), [3, 4]), (.bufferingOldest(2), [2, 3]),
    ])
  func droppingPolicies(policy: AsyncBufferSequencePolicy, kept: [Int]) async {
    let parties = await Parties.park()
    var machine = running(policy, parties)
    #expect(parties.run(machine.elementProduced(1)) == "c0 1, more")
    for element in 2...4 {
      #expect(parties.run(machine.elementProduced(element)) == "more")
    }
    var taken: [Int] = []
    while case .returnResult(.success(let element?), nil) = machine.nextReady() { taken.append(element) }
    #expect(taken == kept)
  }

  @Test("the base finishes while the consumer waits: it gets nil at once")
  func baseFinishedWhileWaiting() async {
    let parties = await Parties.park()
    var machine = running(.unbounded, parties)
    #expect(parties.run(machine.baseFinished()) == "c0 nil")
    #expect(machine.state == .finished)
    #expect(parties.run(machine.nextReady()) == "return nil")
    #expect(await parties.consumers.values() == [.success(nil)])
  }

  @Test("the base fails while the consumer waits: it gets the error at once, then nil")
  func baseFailedWhileWaiting() async {
    let parties = await Parties.park()
    var machine = running(.unbounded, parties)
    #expect(parties.run(machine.baseFailed(.boom)) == "c0 boom")
    #expect(parties.run(machine.nextReady()) == "return nil")
    #expect(await parties.consumers.values() == [.failure(.boom)])
  }

  @Test("the base ends while nobody waits: the end comes after the buffered elements, once")
  func baseEndAfterBuffer() async {
    let parties = await Parties.park(consumers: 2)
    var machine = running(.unbounded, parties)
    #expect(parties.run(machine.elementProduced(1)) == "c0 1, more")
    #expect(parties.run(machine.elementProduced(2)) == "more")
    #expect(parties.run(machine.baseFailed(.boom)) == "none")
    #expect(parties.run(machine.started(idleTask())) == "cancel another task")  // the base ended: too late
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "c1 2")
    #expect(parties.run(machine.nextReady()) == "return boom")
    #expect(parties.run(machine.nextReady()) == "return nil")
    #expect(machine.baseEnd != nil)
    #expect(await parties.consumers.values() == [.success(1), .success(2)])
  }

  @Test("the base finishes while nobody waits, with nothing buffered: the next next() returns nil")
  func baseFinishedIdle() async {
    let parties = await Parties.park()
    var machine = running(.bounded(1), parties)
    #expect(parties.run(machine.elementProduced(1)) == "c0 1, more")
    #expect(parties.run(machine.baseFinished()) == "none")
    #expect(parties.run(machine.nextReady()) == "return nil")
    #expect(machine.state == .finished)
  }

  @Test("cancelled with a waiting consumer and a suspended producer: end resumes both and cancels the task")
  func cancelledEndsEverything() async {
    let parties = await Parties.park(consumers: 2, producers: 1)
    var machine = running(.bounded(1), parties)
    #expect(parties.run(machine.elementProduced(1)) == "c0 1, more")
    #expect(parties.run(machine.elementProduced(2)) == "suspend")
    #expect(machine.producerSuspending(parties.producer(0)) == nil)
    #expect(parties.run(machine.cancelled()) == "end p0 task")
    #expect(parties.task.isCancelled)
    #expect(machine.buffer.isEmpty, "the buffered elements are dropped")
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "c1 nil")
    #expect(parties.run(machine.cancelled()) == "none")
    #expect(await parties.producers.values() == [false])
  }

  @Test("cancelled while the consumer waits: it gets nil")
  func cancelledWhileWaiting() async {
    let parties = await Parties.park()
    var machine = running(.bounded(1), parties)
    #expect(parties.run(machine.cancelled()) == "end c0 task")
    #expect(await parties.consumers.values() == [.success(nil)])
  }

  @Test("after the end: the base task stops, a producer about to suspend stops, base ends change nothing")
  func afterTheEnd() async {
    let parties = await Parties.park(consumers: 2, producers: 1)
    var machine = running(.bounded(1), parties)
    #expect(parties.run(machine.cancelled()) == "end c0 task")
    #expect(parties.run(machine.elementProduced(1)) == "stop")
    #expect(machine.producerSuspending(parties.producer(0)) == false)
    parties.producer(0).resume(returning: false)
    #expect(parties.run(machine.baseFinished()) == "none")
    #expect(parties.run(machine.baseFailed(.boom)) == "none")
    #expect(parties.run(machine.nextRequested(parties.consumer(1))) == "c1 nil")
    #expect(await parties.consumers.values() == [.success(nil), .success(nil)])
  }
}
