import RippleTesting
import Testing

@testable import Ripple

private typealias Instant = TestClock.Instant
/// Consumers and tasks are names: the machine only stores and hands them back.
private typealias Machine = _DelayStateMachine<String, MarbleError, Instant, String, String>

private func at(_ seconds: Int) -> Instant { Instant(offset: .seconds(seconds)) }

extension _DelayDelivery {
  fileprivate var text: String {
    switch self {
    case .element(let element, let due): "\(element) at \(due)"
    case .finished(let due): "finished at \(due)"
    case .failed(_, let due): "failed at \(due)"
    case .over: "over"
    }
  }
}

extension _DelayStateMachine.Action where Consumer == String, Tasks == String {
  fileprivate var text: String {
    switch self {
    case .none: "none"
    case .start: "start"
    case .resumeConsumer(let consumer, let delivery): "resume \(consumer) with \(delivery.text)"
    case .cancelTasks(let tasks): "cancel \(tasks)"
    case .end(let consumer, let tasks): "end \(consumer ?? "-"), cancel \(tasks ?? "-")"
    }
  }
}

extension _DelayStateMachine.ProduceAction where Consumer == String {
  fileprivate var text: String {
    switch self {
    case .produceMore: "produce more"
    case .resumeConsumer(let consumer, let delivery): "resume \(consumer) with \(delivery.text)"
    case .stop: "stop"
    }
  }
}

/// The machine and the words of each answer, so that `#expect` compares strings.
private struct Harness {
  var machine = Machine()

  mutating func ready() -> String { machine.nextReady()?.text ?? "wait" }
  mutating func next(_ consumer: String) -> String { machine.nextRequested(consumer).text }
  mutating func produced(_ element: String, due: Int) -> String { machine.elementProduced(element, due: at(due)).text }
  mutating func finished(due: Int) -> String { machine.baseFinished(due: at(due)).text }
  mutating func failed(due: Int) -> String { machine.baseFailed(MarbleError(), due: at(due)).text }
  mutating func started() -> String { machine.started("task").text }
  mutating func cancelled() -> String { machine.cancelled().text }

  /// A running iteration whose first consumer `c1` waits, its task recorded.
  static func running() -> Harness {
    var h = Harness()
    _ = h.next("c1")
    _ = h.started()
    return h
  }
}

/// `delay`'s machine as a plain value: every transition, no task, no clock.
@Suite("delay's state machine")
struct DelayStateMachineTests {
  @Test("the first next() finds nothing ready, waits and starts the task")
  func firstNext() {
    var h = Harness()
    #expect(h.ready() == "wait")
    #expect(h.next("c1") == "start")
    #expect(h.started() == "none")
  }

  @Test("an element goes to the waiting consumer with its due instant; later ones queue, in order")
  func queue() {
    var h = Harness.running()
    #expect(h.produced("a", due: 2) == "resume c1 with a at 2.0 seconds")
    #expect(h.produced("b", due: 3) == "produce more")
    #expect(h.produced("c", due: 4) == "produce more")
    #expect(h.ready() == "b at 3.0 seconds")
    #expect(h.ready() == "c at 4.0 seconds")
    #expect(h.ready() == "wait")
    #expect(h.next("c2") == "none")
    #expect(h.produced("d", due: 5) == "resume c2 with d at 5.0 seconds")
  }

  @Test("the finish and a failure come after the queued elements, with their own due instant")
  func endsAfterQueue() {
    var finished = Harness.running()
    _ = finished.produced("a", due: 2)
    _ = finished.produced("b", due: 3)
    #expect(finished.finished(due: 4) == "none")
    #expect(finished.ready() == "b at 3.0 seconds")
    #expect(finished.ready() == "finished at 4.0 seconds")
    #expect(finished.ready() == "over")
    #expect(finished.next("c2") == "resume c2 with over")

    var failed = Harness.running()
    _ = failed.produced("a", due: 2)
    _ = failed.produced("b", due: 3)
    #expect(failed.failed(due: 4) == "none")
    #expect(failed.next("c2") == "resume c2 with b at 3.0 seconds")
    #expect(failed.next("c3") == "resume c3 with failed at 4.0 seconds")
    #expect(failed.ready() == "over")
  }

  @Test("the base ends while the consumer waits: it gets the end at once, with its due instant")
  func endsWhileWaiting() {
    var finished = Harness.running()
    #expect(finished.finished(due: 2) == "resume c1 with finished at 2.0 seconds")
    #expect(finished.cancelled() == "none")
    var failed = Harness.running()
    #expect(failed.failed(due: 2) == "resume c1 with failed at 2.0 seconds")
    #expect(failed.produced("late", due: 3) == "stop")
  }

  @Test("cancellation drops the queue, resumes a waiting consumer and cancels the task")
  func cancellation() {
    var early = Harness()
    #expect(early.cancelled() == "none")
    #expect(early.next("c1") == "resume c1 with over")
    var waiting = Harness.running()
    #expect(waiting.cancelled() == "end c1, cancel task")
    #expect(waiting.produced("late", due: 3) == "stop")
    var queued = Harness.running()
    _ = queued.produced("a", due: 2)
    _ = queued.produced("b", due: 3)
    #expect(queued.cancelled() == "end -, cancel task")
    #expect(queued.ready() == "over")
    #expect(queued.finished(due: 4) == "none")
  }

  @Test("a task that starts after the iteration ended is cancelled")
  func lateTask() {
    var h = Harness()
    _ = h.next("c1")
    _ = h.cancelled()
    #expect(h.started() == "cancel task")
  }

  #if os(macOS) || os(Linux) || os(FreeBSD) || os(Windows)  // where Swift Testing runs exit tests
  @Test("impossible transitions and bad arguments are precondition failures")
  func preconditions() async {
    await #expect(processExitsWith: .failure) {
      var machine = Machine()
      _ = machine.started("task")
    }
    await #expect(processExitsWith: .failure) {
      var machine = Machine()
      _ = machine.nextRequested("c1")
      _ = machine.nextRequested("c2")
    }
    await #expect(processExitsWith: .failure) {
      _ = [1].async.delay(for: .seconds(-1), clock: ContinuousClock())
    }
  }
  #endif
}
