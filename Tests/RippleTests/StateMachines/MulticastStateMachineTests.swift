import Testing

@testable import Ripple

// multicast's connection state machine driven as a plain value: no task runs (the tasks handed in are empty ones,
// only compared and cancelled). Each test names the transitions it walks.

private typealias Machine = _MulticastStateMachine

extension Machine.Action {
  fileprivate var name: String {
    switch self {
    case .none: "none"
    case .start(let generation): "start \(generation)"
    case .cancel: "cancel"
    }
  }
}

extension Machine {
  fileprivate var stateName: String {
    switch state {
    case .idle: "idle"
    case .connected(let task, let generation): "connected \(generation)\(task == nil ? " starting" : "")"
    case .stopping(let generation, let reconnect): "stopping \(generation)\(reconnect ? " then reconnect" : "")"
    case .ended: "ended"
    }
  }
}

@Suite("multicast connection state machine")
struct MulticastStateMachineTests {
  @Test("idle → connect starts generation 1 → started records the task → a second connect does nothing")
  func connectOnce() {
    var machine = Machine()
    #expect(machine.connectRequested().name == "start 1")
    #expect(machine.stateName == "connected 1 starting")
    #expect(machine.started(Task {}, generation: 1).name == "none")
    #expect(machine.stateName == "connected 1")
    #expect(machine.connectRequested().name == "none")
  }

  @Test("the base ends: ended, and no request connects again")
  func baseEnded() {
    var machine = Machine()
    _ = machine.connectRequested()
    _ = machine.started(Task {}, generation: 1)
    machine.baseEnded(generation: 1)
    #expect(machine.stateName == "ended")
    #expect(machine.connectRequested().name == "none")
  }

  @Test(
    "a connection cancelled through its task goes back to idle when the task ends; the next request is generation 2")
  func disconnectedReconnects() {
    var machine = Machine()
    _ = machine.connectRequested()
    _ = machine.started(Task {}, generation: 1)
    #expect(machine.disconnected(generation: 1).name == "none")
    #expect(machine.stateName == "idle")
    #expect(machine.connectRequested().name == "start 2")
    // Generation 1's late events touch nothing of generation 2.
    machine.baseEnded(generation: 1)
    #expect(machine.disconnected(generation: 1).name == "none")
    #expect(machine.stateName == "connected 2 starting")
    #expect(machine.started(Task {}, generation: 1).name == "cancel")
    #expect(machine.started(Task {}, generation: 2).name == "none")
  }

  @Test("autoconnect: the last iterator leaving cancels the task; a request while it stops connects once it has ended")
  func lastIteratorLeaves() {
    var machine = Machine()
    machine.iteratorJoined()
    machine.iteratorJoined()
    _ = machine.connectRequested()
    _ = machine.started(Task {}, generation: 1)
    #expect(machine.iteratorLeft().name == "none")
    #expect(machine.stateName == "connected 1")
    #expect(machine.iteratorLeft().name == "cancel")
    #expect(machine.stateName == "stopping 1")
    machine.iteratorJoined()
    #expect(machine.connectRequested().name == "none")  // not while generation 1's task still runs
    #expect(machine.stateName == "stopping 1 then reconnect")
    #expect(machine.disconnected(generation: 1).name == "start 2")
    #expect(machine.stateName == "connected 2 starting")
  }

  @Test("a connection stopping with no request waiting goes idle when its task ends")
  func stoppingThenIdle() {
    var machine = Machine()
    machine.iteratorJoined()
    _ = machine.connectRequested()
    _ = machine.started(Task {}, generation: 1)
    _ = machine.iteratorLeft()
    #expect(machine.disconnected(generation: 1).name == "none")
    #expect(machine.stateName == "idle")
  }

  @Test("the base of a stopping connection ends on its own: ended, and the waiting request does not connect")
  func stoppingBaseEnds() {
    var machine = Machine()
    machine.iteratorJoined()
    _ = machine.connectRequested()
    _ = machine.started(Task {}, generation: 1)
    _ = machine.iteratorLeft()
    _ = machine.connectRequested()
    machine.baseEnded(generation: 1)
    #expect(machine.stateName == "ended")
    #expect(machine.connectRequested().name == "none")
  }

  @Test("the last iterator leaves before the task is recorded: the task is cancelled when it is, then ends")
  func leftBeforeStarted() {
    var machine = Machine()
    machine.iteratorJoined()
    _ = machine.connectRequested()
    #expect(machine.iteratorLeft().name == "none")
    #expect(machine.stateName == "stopping 1")
    #expect(machine.started(Task {}, generation: 1).name == "cancel")
    #expect(machine.disconnected(generation: 1).name == "none")
    #expect(machine.stateName == "idle")
  }

  @Test("an iterator leaving while nothing is connected changes nothing")
  func leftWhileIdle() {
    var machine = Machine()
    machine.iteratorJoined()
    #expect(machine.iteratorLeft().name == "none")
    #expect(machine.stateName == "idle")
  }
}
