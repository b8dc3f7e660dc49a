import RippleTesting
import Testing

@testable import Ripple

private typealias Instant = TestClock.Instant
/// Consumers, producers, timers and tasks are names: the machine only stores and hands them back.
private typealias Machine = _TimeoutStateMachine<String, MarbleError, Instant, String, String, String, String>

private func at(_ seconds: Int) -> Instant { Instant(offset: .seconds(seconds)) }

extension _TimeoutOutcome {
  fileprivate var text: String {
    switch self {
    case .element(let element): "\(element)"
    case .finished: "finished"
    case .failed: "failed"
    case .timedOut: "timed out"
    }
  }
}

extension _TimeoutStateMachine.Action where Consumer == String, Producer == String, Timer == String, Tasks == String {
  /// The action in words, for comparing.
  fileprivate var text: String {
    switch self {
    case .none: "none"
    case .start: "start"
    case .resumeConsumer(let consumer, let outcome): "resume \(consumer) with \(outcome.text)"
    case .takeHeld(let consumer, let element, let producer, let timer, let deadline):
      "give \(consumer) \(element), resume \(producer ?? "no producer"), \(timer ?? "no timer") to \(deadline)"
    case .resumeTimer(let timer, let deadline): "resume \(timer) to \(deadline.map { "\($0)" } ?? "stop")"
    case .cancelTasks(let tasks): "cancel \(tasks)"
    case .end(let consumer, let outcome, let producer, let timer, let tasks):
      "end \(consumer ?? "-") with \(outcome.text), stop \(producer ?? "-") \(timer ?? "-"), cancel \(tasks ?? "-")"
    }
  }
}

extension _TimeoutStateMachine.ProduceAction where Consumer == String {
  fileprivate var text: String {
    switch self {
    case .resumeConsumer(let consumer, let element): "resume \(consumer) with \(element)"
    case .produceMore: "produce more"
    case .suspend: "suspend"
    case .stop: "stop"
    }
  }
}

/// The machine and the words of each answer, so that `#expect` compares strings.
private struct Harness {
  /// One element ahead unless said otherwise: the queue is full at once.
  var machine = Machine(capacity: 1)

  mutating func next(_ consumer: String, now: Int) -> String {
    machine.nextRequested(consumer, deadline: { at(now + 3) }).text
  }
  mutating func produced(_ element: String, now: Int) -> String {
    machine.elementProduced(element, deadline: { at(now + 3) }).text
  }
  mutating func suspending(_ producer: String) -> Bool? { machine.producerSuspending(producer) }
  mutating func timer(_ timer: String) -> String { machine.deadlineRequested(timer).text }
  mutating func reached(_ seconds: Int) -> String { machine.deadlineReached(at(seconds)).text }
  mutating func started() -> String { machine.started("tasks").text }
  mutating func finished() -> String { machine.baseFinished().text }
  mutating func failed() -> String { machine.baseFailed(MarbleError()).text }
  mutating func cancelled() -> String { machine.cancelled().text }

  /// A running iteration whose consumer `c1` waits, with the deadline at 3 s and the tasks recorded.
  static func running(capacity: Int = 1) -> Harness {
    var h = Harness(machine: Machine(capacity: capacity))
    _ = h.next("c1", now: 0)
    _ = h.started()
    return h
  }
}

/// `timeout`'s machine as a plain value: every transition, no task, no clock.
@Suite("timeout's state machine")
struct TimeoutStateMachineTests {
  @Test("the first next() waits, arms the deadline from now and starts the tasks")
  func firstNext() {
    var h = Harness()
    #expect(h.next("c1", now: 0) == "start")
    #expect(h.machine.deadline == at(3))
    #expect(h.started() == "none")
    #expect(h.timer("t") == "resume t to 3.0 seconds")
  }

  @Test("an element to a waiting consumer re-arms the deadline without waking the timer")
  func steadyPath() {
    var h = Harness.running()
    #expect(h.produced("a", now: 1) == "resume c1 with a")
    #expect(h.machine.deadline == at(4))
    // The timer wakes at 3 s, finds the deadline moved, and sleeps again.
    #expect(h.reached(3) == "none")
    #expect(h.timer("t") == "resume t to 4.0 seconds")
  }

  @Test("an element while the consumer is busy is held, disarms the deadline, and the producer suspends")
  func held() {
    var h = Harness.running()
    _ = h.produced("a", now: 0)
    #expect(h.produced("b", now: 1) == "suspend")
    #expect(h.machine.deadline == nil)
    #expect(h.suspending("p") == nil)
    // Nothing is timed: the timer waits, and a deadline it slept to does not time out.
    #expect(h.reached(3) == "none")
    #expect(h.timer("t") == "none")
    // Taking the element re-arms the deadline from now, resumes the producer and wakes the timer.
    #expect(h.next("c2", now: 10) == "give c2 b, resume p, t to 13.0 seconds")
    #expect(h.machine.deadline == at(13))
  }

  @Test("the consumer takes the held element before the producer suspends: the producer goes on at once")
  func takenBeforeSuspending() {
    var h = Harness.running()
    _ = h.produced("a", now: 0)
    #expect(h.produced("b", now: 1) == "suspend")
    #expect(h.next("c2", now: 1) == "give c2 b, resume no producer, no timer to 4.0 seconds")
    #expect(h.suspending("p") == true)
  }

  @Test("below capacity the base is still asked and timed; a full queue stops both until one is taken")
  func queue() {
    var h = Harness.running(capacity: 3)
    _ = h.produced("a", now: 0)
    #expect(h.produced("b", now: 1) == "produce more")
    #expect(h.machine.deadline == at(4))
    #expect(h.produced("c", now: 2) == "produce more")
    #expect(h.produced("d", now: 3) == "suspend")
    #expect(h.machine.deadline == nil)
    #expect(h.suspending("p") == nil)
    // Taking from the full queue asks the base again; taking from a queue that is not full changes nothing.
    #expect(h.next("c2", now: 9) == "give c2 b, resume p, no timer to 12.0 seconds")
    #expect(h.next("c3", now: 10) == "resume c3 with c")
    #expect(h.machine.deadline == at(12))
  }

  @Test("the base ends or times out with elements held: they are delivered first, then the end")
  func endAfterHeld() {
    var h = Harness.running(capacity: 3)
    _ = h.produced("a", now: 0)
    _ = h.produced("b", now: 1)
    _ = h.produced("c", now: 1)
    #expect(h.reached(4) == "end - with timed out, stop - -, cancel tasks")
    #expect(h.next("c2", now: 5) == "resume c2 with b")
    #expect(h.next("c3", now: 5) == "resume c3 with c")
    #expect(h.next("c4", now: 5) == "resume c4 with timed out")
    #expect(h.next("c5", now: 5) == "resume c5 with finished")
    var cancelled = Harness.running(capacity: 3)
    _ = cancelled.produced("a", now: 0)
    _ = cancelled.produced("b", now: 1)
    _ = cancelled.finished()
    #expect(cancelled.cancelled() == "none")
    #expect(cancelled.next("c2", now: 2) == "resume c2 with finished")
  }

  @Test("the deadline passes: a waiting consumer gets the timeout, the tasks are cancelled")
  func timeoutWhileWaiting() {
    var h = Harness.running()
    #expect(h.reached(3) == "end c1 with timed out, stop - -, cancel tasks")
    #expect(h.next("c2", now: 3) == "resume c2 with finished")
    #expect(h.timer("t") == "resume t to stop")
    #expect(h.produced("late", now: 4) == "stop")
  }

  @Test("the deadline passes while the consumer is busy: its next next() gets the timeout")
  func timeoutWhileBusy() {
    var h = Harness.running()
    _ = h.produced("a", now: 0)
    #expect(h.reached(3) == "end - with timed out, stop - -, cancel tasks")
    #expect(h.next("c2", now: 5) == "resume c2 with timed out")
    #expect(h.next("c3", now: 5) == "resume c3 with finished")
  }

  @Test("the base finishes or fails: at once, to the waiting consumer or the next next()")
  func baseEnds() {
    var finished = Harness.running()
    #expect(finished.finished() == "end c1 with finished, stop - -, cancel tasks")
    #expect(finished.failed() == "none")
    var failed = Harness.running()
    _ = failed.produced("a", now: 0)
    #expect(failed.failed() == "end - with failed, stop - -, cancel tasks")
    #expect(failed.next("c2", now: 1) == "resume c2 with failed")
    #expect(failed.reached(3) == "none")
  }

  @Test("the base finishes while the timer waits for a deadline: it is stopped")
  func finishStopsWaitingTimer() {
    var h = Harness.running()
    _ = h.produced("a", now: 0)
    _ = h.produced("b", now: 1)
    _ = h.suspending("p")
    _ = h.timer("t")
    #expect(h.cancelled() == "end - with finished, stop p t, cancel tasks")
    #expect(h.next("c2", now: 2) == "resume c2 with finished")
  }

  @Test("cancellation: before the first next() nothing starts; while waiting the consumer finishes")
  func cancellation() {
    var early = Harness()
    #expect(early.cancelled() == "none")
    #expect(early.next("c1", now: 0) == "resume c1 with finished")
    var waiting = Harness.running()
    #expect(waiting.cancelled() == "end c1 with finished, stop - -, cancel tasks")
    #expect(waiting.cancelled() == "none")
    #expect(waiting.suspending("p") == false)
  }

  @Test("tasks that start after the iteration ended are cancelled")
  func lateTasks() {
    var h = Harness()
    _ = h.next("c1", now: 0)
    _ = h.cancelled()
    #expect(h.started() == "cancel tasks")
  }

  #if os(macOS) || os(Linux) || os(FreeBSD) || os(Windows)  // where Swift Testing runs exit tests
  @Test("impossible transitions and bad arguments are precondition failures")
  func preconditions() async {
    await #expect(processExitsWith: .failure) {
      var machine = Machine(capacity: 1)
      _ = machine.started("tasks")
    }
    await #expect(processExitsWith: .failure) {
      var machine = Machine(capacity: 1)
      _ = machine.nextRequested("c1", deadline: { at(3) })
      _ = machine.nextRequested("c2", deadline: { at(3) })
    }
    await #expect(processExitsWith: .failure) {
      _ = [1].async.timeout(.seconds(-1), clock: ContinuousClock())
    }
  }
  #endif
}
