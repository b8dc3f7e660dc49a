import InternalRippleUtilities
import RippleTesting
import Testing

@testable import Ripple

// The first `next()` of an operator that runs tasks of its own, driven as plain values: the consumer is registered
// as waiting in the same locked step that tells the storage to start its tasks, so the base's first element always
// finds it waiting (issue #28 item 1: throttle's first `next()` returned a later element when the base task ran
// before the consumer was registered).

private typealias Instant = TestClock.Instant
private typealias Throttle = _TimedStateMachine<_ThrottlePolicy<Int, Int, Instant>, Never>
private typealias Merge = _FanInStateMachine<_MergePolicy<Int>, Never>

@Suite("the first next() registers its consumer, then starts the tasks")
struct IterationStartTests {
  @Test("timed: the first next() waits and starts the tasks; the base's first element goes to it at once")
  func timedFirstElement() async {
    let zero = Instant()
    let end = zero.advanced(by: .seconds(10))
    let first = await withUnsafeContinuation { (consumer: Throttle.Consumer) in
      var machine = Throttle(_ThrottlePolicy(reduce: { $1 }), name: "throttle")
      guard case .start = machine.nextRequested(consumer, end: { end }) else {
        Issue.record("the first next() did not start the tasks")
        return consumer.resume(returning: .success(nil))
      }
      // The tasks run only now: the first element finds the consumer waiting.
      guard case .resumeConsumer(let waiting, let result) = machine.elementProduced(0, now: zero, end: { end }) else {
        Issue.record("the first element was not emitted at once")
        return consumer.resume(returning: .success(nil))
      }
      // Later elements of the burst fold into the interval's held element; none replaces the first.
      for element in 1..<1000 {
        guard case .none = machine.elementProduced(element, now: zero, end: { end }) else {
          Issue.record("element \(element) was not held")
          break
        }
      }
      waiting.resume(returning: result)
    }.get()
    #expect(first == 0)
  }

  @Test("timed: a consumer cancelled before its first next() starts nothing")
  func timedCancelledFirst() async {
    let end = Instant().advanced(by: .seconds(1))
    let result = await withUnsafeContinuation { (consumer: Throttle.Consumer) in
      var machine = Throttle(_ThrottlePolicy(reduce: { $1 }), name: "throttle")
      guard case .none = machine.cancelled() else {
        Issue.record("cancelling before the first next() had an effect")
        return consumer.resume(returning: .success(nil))
      }
      guard case .resumeConsumer(let waiting, let result) = machine.nextRequested(consumer, end: { end }) else {
        Issue.record("next() after cancellation did not end at once")
        return consumer.resume(returning: .success(-1))
      }
      waiting.resume(returning: result)
    }.get()
    #expect(result == nil)
  }

  @Test("fan-in: the first next() finds nothing ready, waits, and starts the task")
  func fanInFirstNext() async {
    let result = await withUnsafeContinuation { (consumer: Merge.Consumer) in
      var machine = Merge(count: 2, policy: _MergePolicy(), name: "merge", run: { _ in })
      guard case .none = machine.nextReady() else {
        Issue.record("the first next() found something ready before any base ran")
        return consumer.resume(returning: .success(nil))
      }
      guard case .start = machine.nextRequested(consumer) else {
        Issue.record("the first next() did not start the task")
        return consumer.resume(returning: .success(nil))
      }
      #expect(machine.takeRun() != nil)
      #expect(machine.takeRun() == nil, "the task is started once")
      var rest = _Queue<Int>()
      guard case .resumeConsumer(let waiting, let result, let wake) = machine.elementsProduced(7, then: &rest, at: 1)
      else {
        Issue.record("the first element did not go to the waiting consumer")
        return consumer.resume(returning: .success(nil))
      }
      wake.resume()
      waiting.resume(returning: result)
    }.get()
    #expect(result == 7)
  }

  @Test("fan-in: a consumer cancelled before its first next() starts nothing and gets nil")
  func fanInCancelledFirst() async {
    let result = await withUnsafeContinuation { (consumer: Merge.Consumer) in
      var machine = Merge(count: 2, policy: _MergePolicy(), name: "merge", run: { _ in })
      _ = machine.cancelled()
      guard case .resumeConsumer(let waiting, let result, _) = machine.nextRequested(consumer) else {
        Issue.record("next() after cancellation did not end at once")
        return consumer.resume(returning: .success(-1))
      }
      waiting.resume(returning: result)
    }.get()
    #expect(result == nil)
  }
}
