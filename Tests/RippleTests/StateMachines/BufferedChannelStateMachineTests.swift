import InternalRippleUtilities
import Testing

@testable import Ripple

// The buffered channel's state machine driven as a plain value: no task, no lock. A waiter is a name.

private typealias Machine = _BufferedChannelStateMachine<Int, Boom, String>

extension Machine.BatchAction {
  fileprivate var name: String {
    switch self {
    case .batch: "batch"
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
  @Test("sent elements wait in the buffer; the only iterator takes them all at once")
  func aloneTakesAll() {
    var machine = Machine()
    _ = machine.iteratorMade()
    #expect(machine.elementSent(1).name == "none")
    #expect(machine.elementSent(2).name == "none")
    var batch = _Queue<Int>()
    #expect(machine.batchRequested(into: &batch).name == "batch")
    #expect(batch.count == 2)
    #expect(machine.batchRequested(into: &batch).name == "wait")
  }

  @Test("with several iterators, a request takes one element")
  func severalTakeOne() {
    var machine = Machine()
    _ = machine.iteratorMade()
    _ = machine.iteratorMade()
    _ = machine.elementSent(1)
    _ = machine.elementSent(2)
    var batch = _Queue<Int>()
    #expect(machine.batchRequested(into: &batch).name == "batch")
    #expect(batch.count == 1)
    #expect(batch.first == 1)
  }

  @Test("waiters are served in the order they began to wait")
  func waitersInOrder() {
    var machine = Machine()
    let first = machine.iteratorMade()
    let second = machine.iteratorMade()
    var batch = _Queue<Int>()
    #expect(machine.batchRequested(into: &batch).name == "wait")
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
    var batch = _Queue<Int>()
    _ = machine.batchRequested(into: &batch)
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
    var batch = _Queue<Int>()
    #expect(machine.batchRequested(into: &batch).name == "failed")

    var draining = Machine()
    _ = draining.iteratorMade()
    _ = draining.elementSent(1)
    _ = draining.terminated(nil)
    #expect(draining.batchRequested(into: &batch).name == "batch")
    #expect(batch.popFirst() == 1)
    #expect(draining.batchRequested(into: &batch).name == "finished")
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

  @Test("a returned batch goes to waiting consumers first, then to the front of the buffer in order")
  func batchReturned() {
    var machine = Machine()
    let id = machine.iteratorMade()
    _ = machine.elementSent(1)
    _ = machine.elementSent(2)
    _ = machine.elementSent(3)
    var taken = _Queue<Int>()
    _ = machine.batchRequested(into: &taken)
    _ = taken.popFirst()  // 1 was returned by next()
    _ = machine.elementSent(4)
    #expect(machine.batchReturned(&taken).isEmpty)
    machine.iteratorGone()
    _ = id
    var batch = _Queue<Int>()
    let other = machine.iteratorMade()
    _ = other
    _ = machine.batchRequested(into: &batch)
    var order: [Int] = []
    while let element = batch.popFirst() { order.append(element) }
    #expect(order == [2, 3, 4])

    var waiting = Machine()
    let holder = waiting.iteratorMade()
    let waiter = waiting.iteratorMade()
    _ = holder
    _ = waiting.elementSent(5)
    var held = _Queue<Int>()
    _ = waiting.batchRequested(into: &held)
    _ = waiting.nextRequested(waiter, "w", cancelled: false)
    let handOffs = waiting.batchReturned(&held)
    #expect(handOffs.map { "\($0.0) \($0.1)" } == ["w 5"])
  }
}
