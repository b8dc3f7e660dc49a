import Testing

@testable import RippleTesting

// RippleTesting's `_TestClockStateMachine` (`TestClock`) driven as a plain value: the test calls the events in order,
// as `TestClock.sleep`, its cancellation handler, `advance` and `lockstep` do, with sleepers parked on real throwing
// continuations (``Sleepers``) that it resumes as the clock would. Map:
// - `sleepRequested` → a ticket, in order.
// - `sleepStarted` → registered (a future deadline, or none: a sleeper that waits for cancellation and counts for
//   no deadline), or not (the deadline has come: it must not wait).
// - `sleepCancelled` → the sleeper's continuation while it is registered, else nil (already resumed, or not
//   registered yet).
// - `advanced(toward:)` → now moves to the earliest deadline not after the target and its sleepers come out in
//   registration order; with none left, now moves to the target (never back) and nothing comes out.
// - `lockstepStarted` / `lockstepEnded` → the executor recorded and forgotten.

private typealias Machine = _TestClockStateMachine
private typealias Instant = TestClock.Instant

private func at(_ seconds: Int) -> Instant { Instant(offset: .seconds(seconds)) }

/// Tasks parked on `UnsafeContinuation<Void, any Error>`, as sleepers of a `TestClock` are; ``outcomes()`` says how
/// each was resumed: "woken" or "cancelled".
private final class Sleepers: Sendable {
  typealias Continuation = UnsafeContinuation<Void, any Error>

  let continuations: [Continuation]
  private let tasks: [Task<String, Never>]

  private init(continuations: [Continuation], tasks: [Task<String, Never>]) {
    self.continuations = continuations
    self.tasks = tasks
  }

  static func park(_ count: Int) async -> Sleepers {
    let lot = ParkingLot<Continuation>(count: count)
    let tasks = (0..<count).map { index in
      Task { () -> String in
        do {
          try await withUnsafeThrowingContinuation { lot.deposit($0, at: index) }
          return "woken"
        } catch {
          return error is CancellationError ? "cancelled" : "\(error)"
        }
      }
    }
    return Sleepers(continuations: await lot.continuations(), tasks: tasks)
  }

  subscript(index: Int) -> Continuation { continuations[index] }

  func index(of continuation: Continuation) -> Int? {
    continuations.firstIndex { same($0, continuation) }
  }

  func outcomes() async -> [String] {
    var outcomes: [String] = []
    for task in tasks { outcomes.append(await task.value) }
    return outcomes
  }
}

/// Advances `machine` toward `target` and resumes the sleepers it hands out, as `TestClock.advance` does; returns
/// them as `s0`… and the instant reached.
private func advance(_ machine: inout Machine, toward target: Instant, _ sleepers: Sleepers) -> String {
  let due = machine.advanced(toward: target)
  for continuation in due { continuation.resume() }
  let names = due.map { "s\(sleepers.index(of: $0)!)" }
  return "\(machine.now)" + (names.isEmpty ? "" : ": " + names.joined(separator: " "))
}

/// A sleeper takes a ticket and starts sleeping until `deadline`, as `TestClock.sleep` does: whether it was registered.
private func sleep(_ machine: inout Machine, until deadline: Instant?, _ continuation: Sleepers.Continuation) -> Bool {
  machine.sleepStarted(machine.sleepRequested(), until: deadline, continuation: continuation)
}

@Suite("TestClock's state machine", .timeLimit(.minutes(1)))
struct TestClockStateMachineTests {
  @Test("tickets are handed out in order")
  func tickets() {
    var machine = Machine(now: at(0))
    #expect(machine.sleepRequested() == 0)
    #expect(machine.sleepRequested() == 1)
    #expect(machine.sleepRequested() == 2)
  }

  @Test("a sleeper whose deadline has come is not registered; a future deadline is")
  func sleepStarted() async {
    let sleepers = await Sleepers.park(2)
    var machine = Machine(now: at(5))
    #expect(!sleep(&machine, until: at(5), sleepers[0]))
    #expect(!sleep(&machine, until: at(4), sleepers[0]))
    sleepers[0].resume()
    #expect(sleep(&machine, until: at(6), sleepers[1]))
    #expect(machine.nextDeadline == at(6))
    #expect(advance(&machine, toward: at(10), sleepers) == "\(at(6)): s1")
    #expect(await sleepers.outcomes() == ["woken", "woken"])
  }

  @Test("advancing wakes one deadline at a time, ties in registration order, and stops at the target")
  func advanceByDeadline() async {
    let sleepers = await Sleepers.park(4)
    var machine = Machine(now: at(0))
    for (index, seconds) in [(0, 3), (1, 1), (2, 2), (3, 2)] {
      #expect(sleep(&machine, until: at(seconds), sleepers[index]))
    }
    #expect(machine.nextDeadline == at(1))
    #expect(advance(&machine, toward: at(5), sleepers) == "\(at(1)): s1")
    #expect(advance(&machine, toward: at(5), sleepers) == "\(at(2)): s2 s3")
    #expect(advance(&machine, toward: at(2), sleepers) == "\(at(2))", "s0 is due later than the target")
    #expect(advance(&machine, toward: at(5), sleepers) == "\(at(3)): s0")
    #expect(advance(&machine, toward: at(5), sleepers) == "\(at(5))")
    #expect(machine.nextDeadline == nil)
    #expect(await sleepers.outcomes() == ["woken", "woken", "woken", "woken"])
  }

  @Test("now never moves back; a deadline passed already comes out at the current instant")
  func nowNeverMovesBack() async {
    let sleepers = await Sleepers.park(1)
    var machine = Machine(now: at(0))
    #expect(sleep(&machine, until: at(3), sleepers[0]))
    #expect(advance(&machine, toward: at(2), sleepers) == "\(at(2))")
    #expect(advance(&machine, toward: at(1), sleepers) == "\(at(2))", "a target in the past")
    #expect(advance(&machine, toward: at(3), sleepers) == "\(at(3)): s0")
    #expect(await sleepers.outcomes() == ["woken"])
  }

  @Test("a sleeper without a deadline is never woken and counts for no deadline; cancelling hands it out")
  func sleeperUntilCancelled() async {
    let sleepers = await Sleepers.park(1)
    var machine = Machine(now: at(0))
    let ticket = machine.sleepRequested()
    #expect(machine.sleepStarted(ticket, until: nil, continuation: sleepers[0]) == true)
    #expect(machine.nextDeadline == nil)
    #expect(advance(&machine, toward: at(100), sleepers) == "\(at(100))")
    guard let continuation = machine.sleepCancelled(ticket) else {
      Issue.record("not registered")
      return
    }
    #expect(sleepers.index(of: continuation) == 0)
    continuation.resume(throwing: CancellationError())
    #expect(machine.sleepCancelled(ticket) == nil, "handed out once")
    #expect(await sleepers.outcomes() == ["cancelled"])
  }

  @Test("cancelling a sleeper already woken, or one not registered yet, finds nothing")
  func cancelAfterWakeOrBeforeStart() async {
    let sleepers = await Sleepers.park(1)
    var machine = Machine(now: at(0))
    let early = machine.sleepRequested()
    #expect(machine.sleepCancelled(early) == nil, "not registered yet: it checks cancellation itself")
    let ticket = machine.sleepRequested()
    #expect(machine.sleepStarted(ticket, until: at(1), continuation: sleepers[0]) == true)
    #expect(advance(&machine, toward: at(1), sleepers) == "\(at(1)): s0")
    #expect(machine.sleepCancelled(ticket) == nil)
    #expect(await sleepers.outcomes() == ["woken"])
  }

  @Test("a cancelled sleeper leaves the others due at its deadline in order")
  func cancelOneOfATie() async {
    let sleepers = await Sleepers.park(3)
    var machine = Machine(now: at(0))
    var tickets: [UInt64] = []
    for index in 0..<3 {
      tickets.append(machine.sleepRequested())
      #expect(machine.sleepStarted(tickets[index], until: at(1), continuation: sleepers[index]) == true)
    }
    machine.sleepCancelled(tickets[1])?.resume(throwing: CancellationError())
    #expect(advance(&machine, toward: at(1), sleepers) == "\(at(1)): s0 s2")
    #expect(await sleepers.outcomes() == ["woken", "cancelled", "woken"])
  }

  @Test("a lockstep scope's executor is recorded while it drives the clock")
  func lockstep() {
    var machine = Machine(now: at(0))
    #expect(machine.executor == nil)
    let executor = _LockstepExecutor.make()
    machine.lockstepStarted(executor)
    #expect(machine.executor === executor)
    machine.lockstepEnded()
    #expect(machine.executor == nil)
    machine.lockstepStarted(executor)
    #expect(machine.executor === executor, "a later scope may drive it again")
  }
}
