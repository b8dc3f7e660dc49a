import InternalRippleUtilities
import Testing

@testable import Ripple

// The buffered channel's state machine driven as a plain value: no task, no lock. A waiter is a name.

private typealias Machine = _BufferedChannelStateMachine<Int, Boom, String>

extension Machine.ReadyAction {
  fileprivate var name: String {
    switch self {
    case .element(let element): "element \(element)"
    case .wait: "wait"
    case .end(let failure): failure == nil ? "finished" : "failed"
    }
  }
}

extension Machine.SendAction {
  fileprivate var name: String {
    switch self {
    case .none: "none"
    case .resume(let waiter, let element): "\(waiter) \(element)"
    }
  }
}

@Suite("buffered channel state machine")
struct BufferedChannelStateMachineTests {
  @Test("sent elements wait in the buffer; each request takes one, so an iterator made later finds the rest")
  func oneElementPerRequest() {
    var machine = Machine()
    _ = machine.iteratorMade()
    #expect(machine.elementSent(1).name == "none")
    #expect(machine.elementSent(2).name == "none")
    #expect(machine.nextReady().name == "element 1")
    _ = machine.iteratorMade()  // a second iterator, made after the first took 1
    #expect(machine.nextReady().name == "element 2")
    #expect(machine.nextReady().name == "wait")
  }

  @Test("waiters are served in the order they began to wait")
  func waitersInOrder() {
    var machine = Machine()
    let first = machine.iteratorMade()
    let second = machine.iteratorMade()
    #expect(machine.nextReady().name == "wait")
    #expect(machine.nextRequested(second, "b", cancelled: false) == nil)
    #expect(machine.nextRequested(first, "a", cancelled: false) == nil)
    #expect(machine.elementSent(1).name == "b 1")
    #expect(machine.elementSent(2).name == "a 2")
    #expect(machine.elementSent(3).name == "none")
  }

  @Test("nextRequested resumes at once when an element or the end arrived, or the consumer was cancelled")
  func nextRequestedResumes() {
    var machine = Machine()
    let id = machine.iteratorMade()
    #expect(machine.nextRequested(id, "a", cancelled: true) == "a")
    _ = machine.elementSent(1)
    #expect(machine.nextRequested(id, "a", cancelled: false) == "a")
    _ = machine.nextReady()
    #expect(machine.terminated(nil) == [])
    #expect(machine.nextRequested(id, "a", cancelled: false) == "a")
  }

  @Test("the end wakes every waiter; buffered elements drain before it; sends after it are dropped")
  func end() {
    var machine = Machine()
    let first = machine.iteratorMade()
    let second = machine.iteratorMade()
    _ = machine.nextRequested(first, "a", cancelled: false)
    _ = machine.nextRequested(second, "b", cancelled: false)
    #expect(machine.terminated(.boom) == ["a", "b"])
    #expect(machine.terminated(nil) == [])
    #expect(machine.elementSent(1).name == "none")
    #expect(machine.nextReady().name == "failed")

    var draining = Machine()
    _ = draining.iteratorMade()
    _ = draining.elementSent(1)
    _ = draining.terminated(nil)
    #expect(draining.nextReady().name == "element 1")
    #expect(draining.nextReady().name == "finished")
  }

  @Test("a cancelled waiter leaves the queue; the next element goes to the one behind it")
  func cancelledWaiter() {
    var machine = Machine()
    let first = machine.iteratorMade()
    let second = machine.iteratorMade()
    _ = machine.nextRequested(first, "a", cancelled: false)
    _ = machine.nextRequested(second, "b", cancelled: false)
    #expect(machine.cancelled(first) == "a")
    #expect(machine.cancelled(first) == nil)
    #expect(machine.elementSent(1).name == "b 1")
  }
}
