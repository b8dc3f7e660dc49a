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

  @Test("a cancelled connection goes back to idle, and the next request connects as generation 2 (Combine)")
  func disconnectedReconnects() {
    var machine = Machine()
    _ = machine.connectRequested()
    _ = machine.started(Task {}, generation: 1)
    machine.disconnected(generation: 1)
    #expect(machine.stateName == "idle")
    #expect(machine.connectRequested().name == "start 2")
    // Generation 1's late events touch nothing of generation 2.
    machine.baseEnded(generation: 1)
    machine.disconnected(generation: 1)
    #expect(machine.stateName == "connected 2 starting")
    #expect(machine.started(Task {}, generation: 1).name == "cancel")
    #expect(machine.started(Task {}, generation: 2).name == "none")
  }

  @Test("autoconnect: the last iterator leaving cancels the task and goes idle; the next iterator connects again")
  func lastIteratorLeaves() {
    var machine = Machine()
    machine.iteratorJoined()
    machine.iteratorJoined()
    _ = machine.connectRequested()
    _ = machine.started(Task {}, generation: 1)
    #expect(machine.iteratorLeft().name == "none")
    #expect(machine.stateName == "connected 1")
    #expect(machine.iteratorLeft().name == "cancel")
    #expect(machine.stateName == "idle")
    machine.iteratorJoined()
    #expect(machine.connectRequested().name == "start 2")
  }

  @Test("the last iterator leaves before the task is recorded: the task is cancelled when it is")
  func leftBeforeStarted() {
    var machine = Machine()
    machine.iteratorJoined()
    _ = machine.connectRequested()
    #expect(machine.iteratorLeft().name == "none")
    #expect(machine.stateName == "idle")
    #expect(machine.started(Task {}, generation: 1).name == "cancel")
  }

  @Test("an iterator leaving while nothing is connected changes nothing")
  func leftWhileIdle() {
    var machine = Machine()
    machine.iteratorJoined()
    #expect(machine.iteratorLeft().name == "none")
    #expect(machine.stateName == "idle")
  }
}
