import Testing

@testable import Ripple

/// `_ObservedStateMachine` as a plain value: every transition, driven by direct calls — no tasks, no tracking.
///
/// A waiter is a number here; `Observed` resumes an `UnsafeContinuation<Bool, Never>`.
@Suite("Observed's state machine")
struct ObservedStateMachineTests {
  typealias Machine = _ObservedStateMachine<Int>

  /// What an action resumes: the waiter and its answer, or `nil` for `.none`.
  static func resumed(_ action: Machine.Action) -> Resumption? {
    switch action {
    case .none: nil
    case .resume(let waiter, let answer): Resumption(waiter: waiter, answer: answer)
    }
  }

  struct Resumption: Equatable {
    let waiter: Int
    let answer: Bool
  }

  /// Runs the first emission of `machine` and makes waiter 1 wait; returns the emission's number.
  static func startWaiting(_ machine: inout Machine) -> UInt64 {
    let emission = machine.emissionStarted()
    #expect(resumed(machine.waitStarted(1)) == nil)
    return emission
  }

  // MARK: emissionStarted

  @Test("each emission gets a new number: ready → tracking")
  func emissionsAreNumbered() {
    var machine = Machine()
    let first = machine.emissionStarted()
    #expect(Self.resumed(machine.changeObserved(emission: first)) == nil)  // tracking → changed
    #expect(Self.resumed(machine.waitStarted(1)) == Resumption(waiter: 1, answer: true))  // changed → ready
    let second = machine.emissionStarted()
    #expect(second != first)
    // The new emission tracks: its consumer waits.
    #expect(Self.resumed(machine.waitStarted(2)) == nil)
  }

  @Test("an emission after cancellation stays cancelled")
  func emissionAfterCancellation() {
    var machine = Machine()
    #expect(Self.resumed(machine.cancelled()) == nil)  // ready → cancelled
    let emission = machine.emissionStarted()
    #expect(Self.resumed(machine.changeObserved(emission: emission)) == nil)
    #expect(Self.resumed(machine.waitStarted(1)) == Resumption(waiter: 1, answer: false))
  }

  // MARK: waitStarted

  @Test("a wait while tracking suspends until a report of the current emission: tracking → waiting → ready")
  func waitThenReport() {
    var machine = Machine()
    let emission = Self.startWaiting(&machine)
    #expect(Self.resumed(machine.changeObserved(emission: emission)) == Resumption(waiter: 1, answer: true))
    // The consumer woke: the next emission starts.
    _ = machine.emissionStarted()
  }

  @Test("a report before the wait makes the wait return at once: tracking → changed → ready")
  func reportThenWait() {
    var machine = Machine()
    let emission = machine.emissionStarted()
    #expect(Self.resumed(machine.changeObserved(emission: emission)) == nil)
    #expect(Self.resumed(machine.changeObserved(emission: emission)) == nil)  // changed stays changed
    #expect(Self.resumed(machine.waitStarted(1)) == Resumption(waiter: 1, answer: true))
  }

  @Test("a wait after cancellation returns false at once")
  func waitAfterCancellation() {
    var machine = Machine()
    _ = machine.emissionStarted()
    #expect(Self.resumed(machine.cancelled()) == nil)  // tracking → cancelled
    #expect(Self.resumed(machine.waitStarted(1)) == Resumption(waiter: 1, answer: false))
    #expect(Self.resumed(machine.waitStarted(2)) == Resumption(waiter: 2, answer: false))
  }

  // MARK: changeObserved

  /// Each run of the closure installs its own tracking, and a value is read twice, so one change fires several
  /// installations; only the first report may wake the consumer, or the next `next()` would read again at once and
  /// deliver a value no transaction produced.
  @Test("after a report woke the consumer, further reports of that emission are stale: ready stays ready")
  func secondReportOfAnEmissionIsStale() {
    var machine = Machine()
    let emission = Self.startWaiting(&machine)
    #expect(Self.resumed(machine.changeObserved(emission: emission)) == Resumption(waiter: 1, answer: true))
    #expect(Self.resumed(machine.changeObserved(emission: emission)) == nil)
    _ = machine.emissionStarted()
    // The consumer waits again, and only a report of the new emission wakes it.
    #expect(Self.resumed(machine.waitStarted(2)) == nil)
  }

  @Test("a report of an earlier emission is stale while tracking and while waiting")
  func earlierEmissionIsStale() {
    var machine = Machine()
    let first = machine.emissionStarted()
    #expect(Self.resumed(machine.changeObserved(emission: first)) == nil)
    #expect(Self.resumed(machine.waitStarted(1)) == Resumption(waiter: 1, answer: true))
    let second = machine.emissionStarted()
    #expect(Self.resumed(machine.changeObserved(emission: first)) == nil)  // tracking stays tracking
    #expect(Self.resumed(machine.waitStarted(2)) == nil)
    #expect(Self.resumed(machine.changeObserved(emission: first)) == nil)  // waiting stays waiting
    #expect(Self.resumed(machine.changeObserved(emission: second)) == Resumption(waiter: 2, answer: true))
  }

  @Test("a report after cancellation does nothing")
  func reportAfterCancellation() {
    var machine = Machine()
    let emission = Self.startWaiting(&machine)
    #expect(Self.resumed(machine.cancelled()) == Resumption(waiter: 1, answer: false))  // waiting → cancelled
    #expect(Self.resumed(machine.changeObserved(emission: emission)) == nil)
    #expect(Self.resumed(machine.waitStarted(2)) == Resumption(waiter: 2, answer: false))
  }

  // MARK: cancelled

  @Test(
    "cancellation ends a wait, and from every other state the next one", arguments: ["ready", "tracking", "changed"])
  func cancellationFrom(state: String) {
    var machine = Machine()
    if state != "ready" {
      let emission = machine.emissionStarted()
      if state == "changed" { _ = machine.changeObserved(emission: emission) }
    }
    #expect(Self.resumed(machine.cancelled()) == nil)
    #expect(Self.resumed(machine.cancelled()) == nil)  // cancelled stays cancelled
    if state == "ready" { _ = machine.emissionStarted() }
    #expect(Self.resumed(machine.waitStarted(1)) == Resumption(waiter: 1, answer: false))
  }

  // MARK: Impossible transitions

  #if os(macOS) || os(Linux) || os(FreeBSD) || os(Windows)  // where Swift Testing runs exit tests
  @Test("a wait before the closure ran stops the program: ready")
  func waitBeforeEmission() async {
    await #expect(processExitsWith: .failure) {
      var machine = _ObservedStateMachine<Int>()
      _ = machine.waitStarted(1)
    }
  }

  @Test("a second waiter stops the program: waiting")
  func secondWaiter() async {
    await #expect(processExitsWith: .failure) {
      var machine = _ObservedStateMachine<Int>()
      _ = machine.emissionStarted()
      _ = machine.waitStarted(1)
      _ = machine.waitStarted(2)
    }
  }

  @Test("running the closure again before a report stops the program: tracking, changed, waiting")
  func emissionWithoutWake() async {
    await #expect(processExitsWith: .failure) {
      var machine = _ObservedStateMachine<Int>()
      _ = machine.emissionStarted()
      _ = machine.emissionStarted()
    }
    await #expect(processExitsWith: .failure) {
      var machine = _ObservedStateMachine<Int>()
      let emission = machine.emissionStarted()
      _ = machine.changeObserved(emission: emission)
      _ = machine.emissionStarted()
    }
    await #expect(processExitsWith: .failure) {
      var machine = _ObservedStateMachine<Int>()
      _ = machine.emissionStarted()
      _ = machine.waitStarted(1)
      _ = machine.emissionStarted()
    }
  }
  #endif
}
