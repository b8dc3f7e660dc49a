import Testing

@testable import Ripple

// `_ShareStateMachine` (`share(bufferingPolicy:)`) driven as a plain value: the test calls the events in order and
// runs each action as `_ShareStorage` does, on parked continuations (Support/Parked.swift) and an idle task. Map:
// - iterators: `joined` (a side per iterator, slots reused, a stale id told apart by its token); `nextReady` → a
//   buffered element (and the upstream it makes room for) or nil; `nextRequested` → start (initial), wait
//   (pulling), wait and maybe resume the upstream (suspended), the end (ended), a buffered element, nil (stale id).
// - upstream: `started` → recorded, or cancelTask once ended; `producerBegan`, `elementProduced` → produceMore /
//   suspend / stop, delivering to waiting sides and buffering per policy for the others; `producerSuspending` → go
//   on (room), wait, stop (ended); `baseEnded` → the end to waiting sides at once, to the others after their buffers.
// - `cancelled`: before the iteration started → nothing starts or ends (#28 item 3); a side that is not the last →
//   its consumer gets nil and the upstream may pull; the last side of a running iteration → stopUpstream, the
//   iteration ended, and a later iterator gets nil at once (#28 item 3: the base released when every loop is left).

private typealias Machine = _ShareStateMachine<Int, Boom>

/// Parked consumers (`c0`…) and upstream producers (`p0`…) of one test, and the upstream task.
private struct Parties {
  let consumers: Parked<Result<Int?, Boom>>
  let producers: Parked<Bool>
  let task = idleTask()

  static func park(consumers: Int = 1, producers: Int = 0) async -> Parties {
    Parties(consumers: await .park(consumers), producers: await .park(producers))
  }

  func consumer(_ index: Int) -> Machine.Consumer { consumers[index] }
  func producer(_ index: Int) -> Machine.Producer { producers[index] }

  /// Runs `action` as the storage does and says what it did.
  func run(_ action: Machine.Action) -> String {
    switch action {
    case .none:
      return "none"
    case .start:
      return "start"
    case .resume(let delivery, let producer):
      producer?.resume(returning: true)
      return (["resume"] + deliver(delivery) + (producer.map { ["p\(producers.index(of: $0)!) pulls"] } ?? []))
        .joined(separator: " ")
    case .cancelTask(let task):
      task.cancel()
      return task == self.task ? "cancel task" : "cancel another task"
    case .stopUpstream(let delivery, let task, let producer):
      task?.cancel()
      producer?.resume(returning: false)
      return
        (["stop"] + deliver(delivery) + (task == self.task ? ["task"] : [])
        + (producer.map { ["p\(producers.index(of: $0)!) stops"] } ?? [])).joined(separator: " ")
    }
  }

  func deliver(_ delivery: Machine.Delivery?) -> [String] {
    guard let delivery else { return [] }
    delivery.resume()
    return ["c\(consumers.index(of: delivery.consumer)!) \(describe(delivery.result))"]
  }

  /// Hands `element` to the machine as the upstream task does and says what happened.
  func produce(_ element: Int, into machine: inout Machine) -> String {
    var deliveries: [Machine.Delivery] = []
    let action = machine.elementProduced(element, deliveries: &deliveries)
    let delivered = deliveries.flatMap(deliver)
    return (delivered + [describe(action)]).joined(separator: " ")
  }

  /// Ends the base as the upstream task does and says who got the end at once.
  func end(_ failure: Boom?, in machine: inout Machine) -> String {
    var deliveries: [Machine.Delivery] = []
    machine.baseEnded(failure, deliveries: &deliveries)
    return (["ended"] + deliveries.flatMap(deliver)).joined(separator: " ")
  }
}

private func describe(_ result: Result<Int?, Boom>) -> String {
  switch result {
  case .success(let value?): "\(value)"
  case .success(nil): "nil"
  case .failure(let error): "\(error)"
  }
}

/// The element a side takes without waiting, and whether it let the suspended upstream pull.
private func ready(_ machine: inout Machine, _ id: Machine.SideID, _ parties: Parties) -> String {
  guard let (element, producer) = machine.nextReady(id) else { return "none" }
  guard let producer else { return "\(element)" }
  producer.resume(returning: true)
  return "\(element), p\(parties.producers.index(of: producer)!) pulls"
}

/// A running iteration whose side `first` made the first demand as `c0`; the upstream began and was recorded.
private func start(
  _ machine: inout Machine, _ first: Machine.SideID, _ parties: Parties
) {
  #expect(parties.run(machine.nextRequested(first, parties.consumer(0))) == "start")
  #expect(parties.run(machine.started(parties.task)) == "none")
  #expect(describe(machine.producerBegan()) == "more")
}

private func describe(_ action: Machine.ProduceAction) -> String {
  switch action {
  case .produceMore: "more"
  case .suspend: "suspend"
  case .stop: "stop"
  }
}

@Suite("share's state machine", .timeLimit(.minutes(1)))
struct ShareStateMachineTests {
  @Test("the first demand starts the upstream; its element goes to the waiting side and is buffered for the other")
  func firstDemand() async {
    let parties = await Parties.park()
    var machine = Machine(policy: .bounded(2))
    let a = machine.joined()
    let b = machine.joined()
    #expect(ready(&machine, a, parties) == "none")
    start(&machine, a, parties)
    #expect(parties.produce(1, into: &machine) == "c0 1 more")
    #expect(ready(&machine, b, parties) == "1")
    #expect(ready(&machine, a, parties) == "none")
    #expect(await parties.consumers.values() == [.success(1)])
  }

  @Test("bounded: the upstream suspends while a side holds the limit, and pulls once that side takes one")
  func boundedBackpressure() async {
    let parties = await Parties.park(producers: 1)
    var machine = Machine(policy: .bounded(1))
    let a = machine.joined()
    let b = machine.joined()
    start(&machine, a, parties)
    #expect(parties.produce(1, into: &machine) == "c0 1 suspend")
    #expect(machine.producerSuspending(parties.producer(0)) == nil)
    #expect(ready(&machine, b, parties) == "1, p0 pulls")
    #expect(await parties.producers.values() == [true])
  }

  @Test("bounded: an upstream told to suspend goes on at once when there is room by then")
  func producerSuspendingWithRoom() async {
    let parties = await Parties.park()
    var machine = Machine(policy: .bounded(1))
    let a = machine.joined()
    let b = machine.joined()
    start(&machine, a, parties)
    #expect(parties.produce(1, into: &machine) == "c0 1 suspend")
    #expect(ready(&machine, b, parties) == "1")
    let producers = await Parked<Bool>.park(1)
    #expect(machine.producerSuspending(producers[0]) == true)
    producers[0].resume(returning: true)
    #expect(await producers.values() == [true])
  }

  @Test("bounded(0): the upstream waits until every side waits; the last side to wait lets it pull")
  func boundedZero() async {
    let parties = await Parties.park(consumers: 2, producers: 1)
    var machine = Machine(policy: .bounded(0))
    let a = machine.joined()
    let b = machine.joined()
    #expect(parties.run(machine.nextRequested(a, parties.consumer(0))) == "start")
    #expect(parties.run(machine.started(parties.task)) == "none")
    #expect(describe(machine.producerBegan()) == "suspend")
    #expect(machine.producerSuspending(parties.producer(0)) == nil)
    #expect(parties.run(machine.nextRequested(b, parties.consumer(1))) == "resume p0 pulls")
    #expect(parties.produce(1, into: &machine) == "c0 1 c1 1 suspend")
    #expect(await parties.consumers.values() == [.success(1), .success(1)])
  }

  @Test("a side's buffered element is taken by its waiting next() too, letting the upstream pull")
  func nextRequestedTakesBuffered() async {
    let parties = await Parties.park(consumers: 2, producers: 1)
    var machine = Machine(policy: .bounded(1))
    let a = machine.joined()
    let b = machine.joined()
    start(&machine, a, parties)
    #expect(parties.produce(1, into: &machine) == "c0 1 suspend")
    #expect(machine.producerSuspending(parties.producer(0)) == nil)
    #expect(parties.run(machine.nextRequested(b, parties.consumer(1))) == "resume c1 1 p0 pulls")
    #expect(await parties.consumers.values() == [.success(1), .success(1)])
  }

  @Test("a side waiting while the upstream pulls: none, and it gets the next element")
  func waitWhilePulling() async {
    let parties = await Parties.park(consumers: 2)
    var machine = Machine(policy: .unbounded)
    let a = machine.joined()
    start(&machine, a, parties)
    #expect(parties.produce(1, into: &machine) == "c0 1 more")
    #expect(parties.run(machine.nextRequested(a, parties.consumer(1))) == "none")
    #expect(parties.produce(2, into: &machine) == "c1 2 more")
    #expect(await parties.consumers.values() == [.success(1), .success(2)])
  }

  @Test(
    "the dropping policies keep the newest or the oldest and never hold the upstream back",
    arguments: [
      (AsyncBufferSequencePolicy.bufferingLatest(2), [3, 4]), (.bufferingOldest(2), [2, 3]), (.unbounded, [2, 3, 4]),
    ])
  func droppingPolicies(policy: AsyncBufferSequencePolicy, kept: [Int]) async {
    let parties = await Parties.park()
    var machine = Machine(policy: policy)
    let a = machine.joined()
    let b = machine.joined()
    start(&machine, a, parties)
    #expect(parties.produce(1, into: &machine) == "c0 1 more")
    _ = machine.nextReady(b)
    for element in 2...4 { #expect(parties.produce(element, into: &machine) == "more") }
    var taken: [Int] = []
    while let (element, _) = machine.nextReady(b) { taken.append(element) }
    #expect(taken == kept)
  }

  @Test("bufferingLatest(0) and bufferingOldest(0) are bounded(0): nothing dropped")
  func zeroLimitIsBoundedZero() {
    #expect(Machine(policy: .bufferingLatest(0)).policy.capacity == 0)
    if case .bounded(0) = Machine(policy: .bufferingOldest(0)).policy {} else { Issue.record("not bounded(0)") }
    if case .bounded(0) = Machine(policy: .bufferingLatest(0)).policy {} else { Issue.record("not bounded(0)") }
  }

  @Test("the base ends: waiting sides get the end at once, busy ones after their buffers; a stale id gets nil")
  func baseEnded() async {
    let parties = await Parties.park(consumers: 3)
    var machine = Machine(policy: .unbounded)
    let a = machine.joined()
    let b = machine.joined()
    start(&machine, a, parties)
    #expect(parties.produce(1, into: &machine) == "c0 1 more")
    #expect(parties.run(machine.nextRequested(a, parties.consumer(1))) == "none")
    #expect(parties.end(.boom, in: &machine) == "ended c1 boom")
    #expect(parties.produce(2, into: &machine) == "stop")
    #expect(describe(machine.producerBegan()) == "stop")
    #expect(ready(&machine, b, parties) == "1")
    #expect(parties.run(machine.nextRequested(b, parties.consumer(2))) == "resume c2 boom")
    #expect(ready(&machine, b, parties) == "none", "a stale id")
    #expect(parties.run(machine.cancelled(b)) == "none", "a stale id")
    #expect(await parties.consumers.values() == [.success(1), .failure(.boom), .failure(.boom)])
  }

  @Test("a side made after the end gets the end at once, and its slot is free again")
  func joinAfterEnd() async {
    let parties = await Parties.park(consumers: 3)
    var machine = Machine(policy: .bounded(1))
    let a = machine.joined()
    start(&machine, a, parties)
    #expect(parties.end(nil, in: &machine) == "ended c0 nil")
    #expect(parties.run(machine.started(idleTask())) == "cancel another task")
    let late = machine.joined()
    #expect(late.index == a.index, "the slot is reused")
    #expect(parties.run(machine.nextRequested(late, parties.consumer(1))) == "resume c1 nil")
    #expect(parties.run(machine.nextRequested(late, parties.consumer(2))) == "resume c2 nil", "a stale id")
    #expect(machine.sides.liveCount == 0)
    #expect(await parties.consumers.values() == [.success(nil), .success(nil), .success(nil)])
  }

  @Test("#28 item 3: a side cancelled before any next() starts nothing and ends nothing; a later side starts it")
  func cancelledBeforeStart() async {
    let parties = await Parties.park(consumers: 1)
    var machine = Machine(policy: .bounded(0))
    let a = machine.joined()
    #expect(parties.run(machine.cancelled(a)) == "resume")
    #expect(machine.sides.liveCount == 0)
    let b = machine.joined()
    #expect(parties.run(machine.nextRequested(b, parties.consumer(0))) == "start")
    #expect(parties.run(machine.cancelled(b)) == "stop c0 nil")
    #expect(await parties.consumers.values() == [.success(nil)])
  }

  @Test("a side leaving while others stay: its consumer gets nil and the upstream it held back pulls")
  func sideLeaves() async {
    let parties = await Parties.park(consumers: 2, producers: 1)
    var machine = Machine(policy: .bounded(0))
    let a = machine.joined()
    let b = machine.joined()
    #expect(parties.run(machine.nextRequested(a, parties.consumer(0))) == "start")
    #expect(parties.run(machine.started(parties.task)) == "none")
    #expect(describe(machine.producerBegan()) == "suspend")
    #expect(machine.producerSuspending(parties.producer(0)) == nil)
    #expect(parties.run(machine.cancelled(a)) == "resume c0 nil")
    #expect(parties.run(machine.cancelled(b)) == "stop task p0 stops", "b was idle: the upstream stays held back")
    parties.consumer(1).resume(returning: .success(nil))
    #expect(await parties.producers.values() == [false])
  }

  @Test("a busy side leaving releases the upstream it held back; the waiting side stays")
  func busySideLeaves() async {
    let parties = await Parties.park(consumers: 2, producers: 1)
    var machine = Machine(policy: .bounded(0))
    let a = machine.joined()
    let b = machine.joined()
    #expect(parties.run(machine.nextRequested(a, parties.consumer(0))) == "start")
    #expect(describe(machine.producerBegan()) == "suspend")
    #expect(machine.producerSuspending(parties.producer(0)) == nil)
    #expect(parties.run(machine.cancelled(b)) == "resume p0 pulls")
    #expect(parties.produce(1, into: &machine) == "c0 1 suspend")
    parties.consumer(1).resume(returning: .success(nil))
    #expect(await parties.consumers.values() == [.success(1), .success(nil)])
  }

  @Test("#28 item 3: the last side leaving while the upstream pulls cancels it; a later iterator gets nil at once")
  func lastSideLeavesWhilePulling() async {
    let parties = await Parties.park(consumers: 2)
    var machine = Machine(policy: .bounded(3))
    let a = machine.joined()
    start(&machine, a, parties)
    #expect(parties.run(machine.cancelled(a)) == "stop c0 nil task")
    #expect(parties.task.isCancelled)
    #expect(machine.upstream == nil, "the handle is let go")
    #expect(parties.produce(1, into: &machine) == "stop", "the element in flight goes nowhere")
    let later = machine.joined()
    #expect(ready(&machine, later, parties) == "none")
    #expect(parties.run(machine.nextRequested(later, parties.consumer(1))) == "resume c1 nil")
    #expect(parties.end(nil, in: &machine) == "ended", "the base returning after that changes nothing")
    #expect(await parties.consumers.values() == [.success(nil), .success(nil)])
  }

  @Test("#28 item 3: the last side leaving while the upstream is suspended stops it and cancels its task")
  func lastSideLeavesWhileSuspended() async {
    let parties = await Parties.park(consumers: 2, producers: 1)
    var machine = Machine(policy: .bounded(1))
    let a = machine.joined()
    start(&machine, a, parties)
    #expect(parties.produce(1, into: &machine) == "c0 1 more")
    #expect(parties.produce(2, into: &machine) == "suspend")
    #expect(machine.producerSuspending(parties.producer(0)) == nil)
    #expect(parties.run(machine.cancelled(a)) == "stop task p0 stops")
    #expect(machine.producerSuspending(parties.producer(0)) == false, "ended: an upstream about to wait stops")
    let later = machine.joined()
    #expect(parties.run(machine.nextRequested(later, parties.consumer(1))) == "resume c1 nil")
    #expect(await parties.producers.values() == [false])
    #expect(await parties.consumers.values() == [.success(1), .success(nil)])
  }

  @Test("the last side leaving before the upstream task was recorded: the task is cancelled when it is")
  func startedAfterEveryoneLeft() async {
    let parties = await Parties.park()
    var machine = Machine(policy: .bounded(1))
    let a = machine.joined()
    #expect(parties.run(machine.nextRequested(a, parties.consumer(0))) == "start")
    #expect(parties.run(machine.cancelled(a)) == "stop c0 nil")
    #expect(parties.run(machine.started(parties.task)) == "cancel task")
    #expect(describe(machine.producerBegan()) == "stop")
    #expect(await parties.consumers.values() == [.success(nil)])
  }
}
