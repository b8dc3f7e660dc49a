import Testing

@testable import Ripple

// `_TaskSlotStateMachine` (`TaskSlot`) driven as a plain value: the test calls the events in order, as `TaskSlot`'s
// `run(id:)`, its starter loop, its tasks' ends and `cancel()` do; the tasks are idle tasks the test made, which the
// machine records and hands back to cancel. It takes no continuation. Map:
// - `runRequested` → queued, and whether the caller starts the queue (no starter is busy); not queued when the
//   newest task — the last queued, the one being started, or the running one — has an equal id.
// - `nextStart` → the next request with its generation and the running task it replaces; nil ends the turn.
// - `started` → recorded (the newest generation), or handed back to cancel (`cancel()` came meanwhile).
// - `taskFinished` → the slot empties, unless a newer task replaced it.
// - `cancelled` → the running task to cancel; the queue dropped; a later equal id starts again.

private typealias Machine = _TaskSlotStateMachine

private func request(_ id: Int) -> Machine.Request {
  Machine.Request(id: id, priority: nil, operation: {})
}

/// Starts every queued request as the starter does, recording a new idle task for each; returns the tasks started
/// and the ones cancelled on the way.
private func startQueue(_ machine: inout Machine) -> (started: [Task<Void, Never>], replaced: [Task<Void, Never>]) {
  var started: [Task<Void, Never>] = []
  var replaced: [Task<Void, Never>] = []
  while let (_, generation, previous) = machine.nextStart() {
    if let previous { replaced.append(previous) }
    let task = idleTask()
    #expect(machine.started(task, generation: generation) == nil)
    started.append(task)
  }
  return (started, replaced)
}

@Suite("TaskSlot's state machine")
struct TaskSlotStateMachineTests {
  @Test("the first run starts its task; the slot runs until the task finishes")
  func runAndFinish() {
    var machine = Machine()
    #expect(machine.isRunning == false)
    #expect(machine.runRequested(request(1)) == true)
    guard let (request, generation, previous) = machine.nextStart() else {
      Issue.record("nothing to start")
      return
    }
    #expect(request.id as? Int == 1)
    #expect(previous == nil)
    #expect(machine.started(idleTask(), generation: generation) == nil)
    #expect(machine.isRunning == true)
    #expect(machine.nextStart() == nil, "the queue is empty: the starter's turn ends")
    machine.taskFinished(generation: generation)
    #expect(machine.isRunning == false)
  }

  @Test("an equal id keeps the running task; a different id replaces it")
  func equalAndDifferentIDs() {
    var machine = Machine()
    #expect(machine.runRequested(request(1)) == true)
    let first = startQueue(&machine).started
    #expect(machine.runRequested(request(1)) == false, "equal to the running task's id")
    #expect(machine.runRequested(request(2)) == true)
    let (second, replaced) = startQueue(&machine)
    #expect(replaced == first)
    #expect(second.count == 1)
    #expect(machine.isRunning == true)
  }

  @Test("runs while a starter is busy are queued for it; an id equal to the last queued one is dropped")
  func queuedWhileStarting() {
    var machine = Machine()
    #expect(machine.runRequested(request(1)) == true)
    #expect(machine.runRequested(request(2)) == false, "the starter of 1 starts it too")
    #expect(machine.runRequested(request(2)) == false, "equal to the last queued")
    #expect(machine.runRequested(request(3)) == false)
    let (started, replaced) = startQueue(&machine)
    #expect(started.count == 3)
    #expect(replaced == Array(started.dropLast()), "each start replaces the one before")
  }

  @Test("between a request's start and its recording, an equal id is dropped")
  func equalToStarting() {
    var machine = Machine()
    #expect(machine.runRequested(request(1)) == true)
    guard let (_, generation, _) = machine.nextStart() else {
      Issue.record("nothing to start")
      return
    }
    #expect(machine.runRequested(request(1)) == false)
    #expect(machine.started(idleTask(), generation: generation) == nil)
    #expect(machine.nextStart() == nil)
  }

  @Test("a finished task's id starts again; an older task's end does not empty a newer task's slot")
  func taskFinished() {
    var machine = Machine()
    #expect(machine.runRequested(request(1)) == true)
    guard let (_, first, _) = machine.nextStart() else {
      Issue.record("nothing to start")
      return
    }
    #expect(machine.started(idleTask(), generation: first) == nil)
    #expect(machine.nextStart() == nil)
    #expect(machine.runRequested(request(2)) == true)
    _ = startQueue(&machine)
    machine.taskFinished(generation: first)
    #expect(machine.isRunning == true, "the replaced task's end")
    #expect(machine.runRequested(request(2)) == false)
    #expect(machine.runRequested(request(1)) == true)
    _ = startQueue(&machine)
    #expect(machine.isRunning == true)
  }

  @Test("cancel hands back the running task, drops the queue, and lets an equal id start again")
  func cancel() {
    var machine = Machine()
    #expect(machine.cancelled() == nil, "an empty slot")
    #expect(machine.runRequested(request(1)) == true)
    let started = startQueue(&machine).started
    #expect(machine.cancelled() == started.first)
    #expect(machine.isRunning == false)
    #expect(machine.runRequested(request(1)) == true)
    #expect(machine.runRequested(request(2)) == false)
    #expect(machine.cancelled() == nil, "nothing ran yet")
    #expect(machine.nextStart() == nil, "the queue was dropped")
  }

  @Test("cancel between a request's start and its recording: the task is handed back to cancel")
  func cancelWhileStarting() {
    var machine = Machine()
    #expect(machine.runRequested(request(1)) == true)
    guard let (_, generation, _) = machine.nextStart() else {
      Issue.record("nothing to start")
      return
    }
    #expect(machine.cancelled() == nil)
    let task = idleTask()
    #expect(machine.started(task, generation: generation) == task)
    #expect(machine.isRunning == false)
    #expect(machine.nextStart() == nil)
  }
}
