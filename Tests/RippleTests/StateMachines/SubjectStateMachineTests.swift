import InternalRippleUtilities
import Testing

@testable import Ripple

// The subjects' state machine driven as a plain value: every event in every state, with no task, no clock and no
// lock. A waiter is a name; the wakes an event returns are read back as names.

private typealias Machine = _SubjectStateMachine<Int, Boom, String>

/// A test's machine and the batch of each iterator it plays.
private struct Harness: ~Copyable {
  var machine: Machine

  init(
    policy: AsyncSubjectBufferingPolicy = .unbounded, replay: Int = 0, replaysAfterTermination: Bool = false,
    initial: Int? = nil
  ) {
    machine = Machine(
      policy: policy, replayLimit: replay, replaysAfterTermination: replaysAfterTermination, initial: initial)
  }

  /// Sends `value`; returns the waiters it woke.
  mutating func send(_ value: Int) -> [String] {
    var wakes = _SubjectWakes<String>()
    machine.elementSent(value, wakes: &wakes)
    return names(wakes)
  }

  /// Terminates; returns the waiters it woke, or `nil` when the termination did not count.
  mutating func terminate(_ termination: Termination<Boom>) -> [String]? {
    var wakes = _SubjectWakes<String>()
    guard machine.terminated(termination, wakes: &wakes) else { return nil }
    return names(wakes)
  }

  /// Takes everything a side can take now: its batches, then what the request answered last.
  mutating func take(_ id: Machine.SideID) -> (elements: [Int], last: Machine.BatchAction) {
    var elements: [Int] = []
    while true {
      var batch = _Queue<Int>()
      let action = machine.batchRequested(id, into: &batch)
      while let element = batch.popFirst() { elements.append(element) }
      if action != .batch { return (elements, action) }
    }
  }

  func names(_ wakes: _SubjectWakes<String>) -> [String] {
    var names: [String] = []
    wakes.forEachWaiter { names.append($0) }
    return names
  }
}

@Suite("subject state machine")
struct SubjectStateMachineTests {
  @Test("a passthrough side gets only what is sent after it joined")
  func passthroughJoin() {
    var harness = Harness()
    #expect(harness.send(1) == [])
    let side = harness.machine.joined()
    #expect(harness.send(2) == [])
    #expect(harness.send(3) == [])
    let taken = harness.take(side)
    #expect(taken.elements == [2, 3])
    #expect(taken.last == .wait)
  }

  @Test("an unbounded batch request moves the whole buffer at once")
  func batchMovesAll() {
    var harness = Harness()
    let side = harness.machine.joined()
    for value in 0..<5 { _ = harness.send(value) }
    var batch = _Queue<Int>()
    #expect(harness.machine.batchRequested(side, into: &batch) == .batch)
    #expect(batch.count == 5)
    #expect(harness.machine.sides[side.index]!.buffer.isEmpty)
  }

  @Test("a limited policy hands over one element per request")
  func limitedTakesOne() {
    var harness = Harness(policy: .bufferingNewest(3))
    let side = harness.machine.joined()
    for value in 0..<3 { _ = harness.send(value) }
    var batch = _Queue<Int>()
    #expect(harness.machine.batchRequested(side, into: &batch) == .batch)
    #expect(batch.count == 1)
  }

  @Test("a waiting side is woken by a send, and the element is in its buffer")
  func waiterWokenBySend() {
    var harness = Harness()
    let side = harness.machine.joined()
    #expect(harness.take(side).last == .wait)
    #expect(harness.machine.nextRequested(side, "a") == nil)
    #expect(harness.send(7) == ["a"])
    #expect(harness.machine.sides[side.index]!.waiter == nil)
    #expect(harness.take(side).elements == [7])
  }

  @Test("nextRequested resumes at once when an element or the end came since the batch request")
  func nextRequestedRace() {
    var harness = Harness()
    let side = harness.machine.joined()
    #expect(harness.take(side).last == .wait)
    _ = harness.send(1)
    #expect(harness.machine.nextRequested(side, "a") == "a")
    #expect(harness.take(side).elements == [1])
    #expect(harness.terminate(.finished) == [])
    #expect(harness.machine.nextRequested(side, "b") == "b")
  }

  @Test("every waiting side is woken by one send; more than four go to the overflow")
  func manyWaiters() {
    var harness = Harness()
    let sides = (0..<6).map { _ in harness.machine.joined() }
    for (offset, side) in sides.enumerated() {
      #expect(harness.machine.nextRequested(side, "w\(offset)") == nil)
    }
    #expect(harness.send(1) == ["w0", "w1", "w2", "w3", "w4", "w5"])
    for side in sides { #expect(harness.take(side).elements == [1]) }
  }

  @Test("bufferingNewest keeps the newest, bufferingOldest the oldest, 0 keeps only what a waiter takes")
  func policies() {
    var newest = Harness(policy: .bufferingNewest(2))
    let newestSide = newest.machine.joined()
    for value in 0..<5 { _ = newest.send(value) }
    #expect(newest.take(newestSide).elements == [3, 4])

    var oldest = Harness(policy: .bufferingOldest(2))
    let oldestSide = oldest.machine.joined()
    for value in 0..<5 { _ = oldest.send(value) }
    #expect(oldest.take(oldestSide).elements == [0, 1])

    var none = Harness(policy: .bufferingNewest(0))
    let noneSide = none.machine.joined()
    _ = none.send(1)
    #expect(none.take(noneSide).elements == [])
    #expect(none.machine.nextRequested(noneSide, "a") == nil)
    #expect(none.send(2) == ["a"])
    _ = none.send(3)  // the waiter was woken but has not taken 2 yet: 3 is dropped
    #expect(none.take(noneSide).elements == [2])
  }

  @Test("a current-value side gets the value first; the value follows the sends")
  func currentValue() {
    var harness = Harness(replay: 1, initial: 10)
    #expect(harness.machine.current == 10)
    _ = harness.send(11)
    #expect(harness.machine.current == 11)
    let side = harness.machine.joined()
    _ = harness.send(12)
    #expect(harness.take(side).elements == [11, 12])
  }

  @Test("a current-value side made after the end gets only the end; the value stays", arguments: [true, false])
  func currentValueAfterEnd(failing: Bool) {
    var harness = Harness(replay: 1, initial: 10)
    #expect(harness.terminate(failing ? .failure(Boom.boom) : .finished) == [])
    _ = harness.send(11)
    #expect(harness.machine.current == 10)
    let side = harness.machine.joined()
    let taken = harness.take(side)
    #expect(taken.elements == [])
    #expect(taken.last == .end(failing ? Boom.boom : nil))
  }

  @Test("a replay side gets the last bufferSize elements, fewer when fewer were sent", arguments: [0, 2, 5])
  func replay(size: Int) {
    var harness = Harness(replay: size, replaysAfterTermination: true)
    for value in 0..<3 { _ = harness.send(value) }
    let side = harness.machine.joined()
    #expect(harness.take(side).elements == Array((0..<3).suffix(size)))
  }

  @Test("a replay side made after the end gets the replay, then the end")
  func replayAfterEnd() {
    var harness = Harness(replay: 2, replaysAfterTermination: true)
    for value in 0..<3 { _ = harness.send(value) }
    _ = harness.terminate(.failure(Boom.boom))
    let side = harness.machine.joined()
    let taken = harness.take(side)
    #expect(taken.elements == [1, 2])
    #expect(taken.last == .end(Boom.boom))
    // The failure is taken once: the side has left.
    #expect(harness.take(side).last == .end(nil))
  }

  @Test("the replay is trimmed to the policy's limit")
  func replayTrimmedToPolicy() {
    var newest = Harness(policy: .bufferingNewest(1), replay: 3, replaysAfterTermination: true)
    for value in 0..<3 { _ = newest.send(value) }
    #expect(newest.take(newest.machine.joined()).elements == [2])
    var oldest = Harness(policy: .bufferingOldest(2), replay: 3, replaysAfterTermination: true)
    for value in 0..<3 { _ = oldest.send(value) }
    #expect(oldest.take(oldest.machine.joined()).elements == [0, 1])
  }

  @Test("a termination wakes the waiting sides; the others get it after their buffers; it counts once")
  func termination() {
    var harness = Harness()
    let waiting = harness.machine.joined()
    let busy = harness.machine.joined()
    #expect(harness.machine.nextRequested(waiting, "w") == nil)
    _ = harness.send(1)  // wakes w, buffered for busy
    #expect(harness.machine.nextRequested(waiting, "w") == "w")  // 1 is there: resumed at once
    #expect(harness.terminate(.finished) == [])
    #expect(harness.terminate(.failure(Boom.boom)) == nil)
    #expect(harness.send(2) == [])
    let first = harness.take(waiting)
    #expect(first.elements == [1])
    #expect(first.last == .end(nil))
    let second = harness.take(busy)
    #expect(second.elements == [1])
    #expect(second.last == .end(nil))
    #expect(harness.machine.sides.liveCount == 0)
  }

  @Test("a termination wakes a waiter that has nothing buffered")
  func terminationWakes() {
    var harness = Harness()
    let side = harness.machine.joined()
    #expect(harness.machine.nextRequested(side, "w") == nil)
    #expect(harness.terminate(.failure(Boom.boom)) == ["w"])
    #expect(harness.take(side).last == .end(Boom.boom))
  }

  @Test("cancelling a side returns its waiter and its buffer, and leaves the others")
  func cancellation() {
    var harness = Harness()
    let cancelled = harness.machine.joined()
    let other = harness.machine.joined()
    _ = harness.send(1)
    _ = harness.send(2)
    let left = harness.machine.cancelled(cancelled)
    #expect(left?.waiter == nil)
    #expect(left?.dropped.count == 2)
    #expect(harness.machine.cancelled(cancelled) == nil)  // once
    #expect(harness.take(cancelled).last == .end(nil))
    #expect(harness.machine.nextRequested(cancelled, "late") == "late")
    _ = harness.send(3)
    #expect(harness.take(other).elements == [1, 2, 3])
  }

  @Test("cancelling a waiting side returns its waiter")
  func cancellationOfWaiter() {
    var harness = Harness()
    let side = harness.machine.joined()
    #expect(harness.machine.nextRequested(side, "w") == nil)
    #expect(harness.machine.cancelled(side)?.waiter == "w")
    #expect(harness.send(1) == [])
  }

  @Test("a slot freed by a side is reused with a new token; the old id stays ended")
  func slotReuse() {
    var harness = Harness()
    let first = harness.machine.joined()
    let keep = harness.machine.joined()
    _ = harness.machine.cancelled(first)
    let second = harness.machine.joined()
    #expect(second.index == first.index)
    #expect(second != first)
    _ = harness.send(1)
    #expect(harness.take(first).last == .end(nil))
    #expect(harness.take(second).elements == [1])
    #expect(harness.take(keep).elements == [1])
  }

  @Test("a subject whose sides all left holds no slots")
  func noSlotsLeft() {
    var harness = Harness()
    let sides = (0..<3).map { _ in harness.machine.joined() }
    for side in sides { _ = harness.machine.cancelled(side) }
    #expect(harness.machine.sides.slots.isEmpty)
    #expect(harness.machine.sides.freeSlots.isEmpty)
  }
}
