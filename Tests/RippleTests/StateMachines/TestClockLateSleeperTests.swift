import Testing

@testable import RippleTesting

/// The late-sleeper diagnostic of `_TestClockStateMachine` (issue #33 item 12): a test that advances the clock, outside
/// lockstep, before the code under test has reached its sleep is told why its check saw nothing — once per clock.
@Suite("TestClock's late-sleeper diagnostic, as a value")
struct TestClockLateSleeperTests {
  @Test("a sleep on a clock that was never advanced gets no diagnostic")
  func neverAdvanced() {
    var machine = _TestClockStateMachine(now: .init())
    let diagnosed = machine.lateSleeperStarting()
    #expect(!diagnosed)
  }

  @Test("advancing with nobody asleep, then a sleep: one diagnostic, and only one")
  func advancedOverAnEmptyClock() {
    var machine = _TestClockStateMachine(now: .init())
    let due = machine.advanced(toward: .init(offset: .seconds(1)))
    #expect(due.isEmpty)
    #expect(machine.now == .init(offset: .seconds(1)))
    let first = machine.lateSleeperStarting()
    let second = machine.lateSleeperStarting()
    #expect(first && !second)
    _ = machine.advanced(toward: .init(offset: .seconds(2)))
    let again = machine.lateSleeperStarting()
    #expect(!again)
  }

  @Test("an advance that moves no time is no sign of a missed sleep")
  func advanceByZero() {
    var machine = _TestClockStateMachine(now: .init(offset: .seconds(3)))
    _ = machine.advanced(toward: .init(offset: .seconds(3)))
    _ = machine.advanced(toward: .init(offset: .seconds(1)))
    let diagnosed = machine.lateSleeperStarting()
    #expect(!diagnosed)
  }

  @Test("the diagnostic's text names lockstep and the guide")
  func text() {
    #expect(TestClock.lateSleeperDiagnostic.contains("clock.lockstep"))
    #expect(TestClock.lateSleeperDiagnostic.contains("Testing time with TestClock"))
  }
}
