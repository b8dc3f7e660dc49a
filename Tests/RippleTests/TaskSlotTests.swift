import InternalRippleUtilities
import RippleTesting
import Testing

@testable import Ripple

@Suite("TaskSlot", .timeLimit(.minutes(1)))
struct TaskSlotTests {
  @Test("run starts the operation; the slot empties when it returns")
  func runsAndFinishes() async {
    let slot = TaskSlot()
    let clock = TestClock()
    let recorder = Recorder<Int>()
    #expect(!slot.isRunning)
    await clock.lockstep {
      slot.run(id: 1) {
        recorder.record(1)
        try? await clock.sleep(for: .seconds(1))
      }
      await clock.advance(by: .zero)
      #expect(slot.isRunning)
      await clock.advance(by: .seconds(1))
      #expect(!slot.isRunning)
    }
    #expect(await recorder.values(count: 1) == [1])
  }

  @Test("an equal id keeps the running task; a different id cancels it and starts anew")
  func restartsOnNewID() async throws {
    let slot = TaskSlot()
    let cancelled = Recorder<String>()
    let started = Recorder<String>()
    func operation(_ name: String) -> @Sendable () async -> Void {
      {
        started.record(name)
        await waitForCancellation()
        cancelled.record(name)
      }
    }
    slot.run(id: "a", operation: operation("a1"))
    #expect(await started.values(count: 1) == ["a1"])
    slot.run(id: "a", operation: operation("a2"))  // same id: nothing happens
    #expect(slot.isRunning)
    slot.run(id: "b", operation: operation("b"))
    #expect(await cancelled.values(count: 1) == ["a1"])
    #expect(await started.values(count: 1) == ["b"])
    slot.cancel()
    #expect(await cancelled.values(count: 1) == ["b"])
    #expect(!slot.isRunning)
  }

  @Test("after cancel(), an equal id starts again")
  func cancelEmptiesTheSlot() async throws {
    let slot = TaskSlot()
    let started = Recorder<Int>()
    slot.run(id: 7) {
      started.record(1)
      await waitForCancellation()
    }
    #expect(await started.values(count: 1) == [1])
    slot.cancel()
    slot.run(id: 7) { started.record(2) }
    #expect(await started.values(count: 1) == [2])
  }

  @Test("an id whose task has returned starts again")
  func finishedTaskDoesNotBlockItsID() async {
    let slot = TaskSlot()
    let clock = TestClock()
    let started = Recorder<Int>()
    await clock.lockstep {
      slot.run(id: 7) {
        started.record(1)
        try? await clock.sleep(for: .seconds(1))
      }
      await clock.advance(by: .seconds(1))
      slot.run(id: 7) { started.record(2) }
      await clock.advance(by: .zero)
    }
    #expect(await started.values(count: 2) == [1, 2])
  }

  @Test("right after a main-actor operation returned, an equal id starts again")
  @MainActor func mainActorOperationEmptiesTheSlotAsItReturns() async {
    let slot = TaskSlot()
    let started = Recorder<Int>()
    slot.run(id: 7) { started.record(1) }
    // The test resumes on the main actor after the job in which the operation returned.
    #expect(await started.values(count: 1) == [1])
    #expect(!slot.isRunning)
    slot.run(id: 7) { started.record(2) }
    #expect(await started.values(count: 1) == [2])
  }

  @Test("a cancellation handler may call run on the same slot: its request starts after the current one")
  func runFromCancellationHandler() async {
    let slot = TaskSlot()
    let started = Recorder<String>()
    slot.run(id: 1) {
      await withTaskCancellationHandler {
        started.record("1")
        await waitForCancellation()
      } onCancel: {
        slot.run(id: 3) { started.record("3") }
      }
    }
    #expect(await started.values(count: 1) == ["1"])
    // 2 cancels 1, whose handler asks for 3; 3 then starts, cancelling 2.
    slot.run(id: 2) {
      started.record("2")
      await waitForCancellation()
    }
    #expect(Set(await started.values(count: 2)) == ["2", "3"])
  }

  @Test("releasing the slot cancels its task, which does not keep the slot alive")
  func deinitCancels() async {
    let cancelled = Recorder<Bool>()
    weak var weakSlot: TaskSlot?
    do {
      let slot = TaskSlot()
      weakSlot = slot
      slot.run(id: 0) {
        await waitForCancellation()
        cancelled.record(true)
      }
    }
    #expect(weakSlot == nil)
    #expect(await cancelled.values(count: 1) == [true])
  }

  @Test("the operation runs on the caller's actor")
  @MainActor func inheritsIsolation() async throws {
    let slot = TaskSlot()
    let onMain = Recorder<Bool>()
    slot.run(id: 0) {
      MainActor.assertIsolated()
      onMain.record(true)
    }
    #expect(await onMain.values(count: 1) == [true])
  }

  @Test("racing run calls leave exactly one task running", arguments: [2, 64, 1_000])
  func concurrentRuns(count: Int) async {
    let slot = TaskSlot()
    let cancelled = Recorder<Int>()
    await withTaskGroup(of: Void.self) { group in
      for id in 0..<count {
        group.addTask {
          slot.run(id: id) {
            await waitForCancellation()
            cancelled.record(id)
          }
        }
      }
    }
    // Every task but one is cancelled; waiting for exactly count - 1 reports needs no timing assumption.
    let losers = await cancelled.values(count: count - 1)
    #expect(Set(losers).count == count - 1)
    #expect(slot.isRunning)
    slot.cancel()
    let winner = await cancelled.values(count: 1)
    #expect(Set(losers + winner) == Set(0..<count))
  }
}

@Suite("TaskSlot timing", .timeLimit(.minutes(2)))
struct TaskSlotTimingTests {
  /// What a model's `didSet` does: restart the slot's task for the new input.
  final class DidSetDriven: Sendable {
    let slot = TaskSlot()
    let clock: TestClock
    let shown = _Mutex<[Int]>([])

    init(clock: TestClock) {
      self.clock = clock
    }

    func inputChanged(to index: Int, calculationTakes duration: Duration) {
      slot.run(id: index) { [self] in
        do {
          try await clock.sleep(for: duration)
        } catch {
          return  // superseded: show nothing
        }
        shown.withLock { $0.append(index) }
      }
    }
  }

  @Test("randomized: 100,000 didSet-driven restarts show exactly the results nobody superseded")
  func randomizedStress() async {
    var generator = SplitMix64(seed: 0xD1D5E7)
    let count = 100_000
    let gaps = (0..<count).map { _ in Int.random(in: 0...20, using: &generator) }
    let durations = (0..<count).map { _ in Int.random(in: 0...25, using: &generator) }
    var arrivals: [Int] = []
    var now = 0
    for gap in gaps {
      now += gap
      arrivals.append(now)
    }
    let expected = (0..<count).filter { index in
      index == count - 1 || 2 * (arrivals[index] + durations[index]) + 1 < 2 * arrivals[index + 1]
    }
    let clock = TestClock()
    let model = DidSetDriven(clock: clock)
    await clock.lockstep {
      for index in 0..<count {
        if gaps[index] > 0 { await clock.advance(by: .milliseconds(gaps[index])) }
        model.inputChanged(to: index, calculationTakes: .milliseconds(durations[index]) + .microseconds(500))
        await clock.advance(by: .zero)
      }
      await clock.run()
    }
    let shown = model.shown.withLock { $0 }
    #expect(shown.last == count - 1)
    #expect(zip(shown, shown.dropFirst()).allSatisfy { $0 < $1 }, "a stale result was shown")
    #expect(shown == expected)
    #expect(!model.slot.isRunning)
  }
}

/// Rounds of the race tests: `RIPPLE_STRESS_ROUNDS` overrides the default, to measure failure rates.
let stressRounds = Int(Environment.value("RIPPLE_STRESS_ROUNDS") ?? "") ?? 2_000

@Suite("TaskSlot races", .timeLimit(.minutes(3)))
struct TaskSlotRaceTests {
  /// Which operation has started and not been cancelled, and how often an operation started while another one
  /// still was.
  final class Overlap: Sendable {
    private struct State {
      var current: Int?
      var violations = 0
      /// The first overlap: which operation began while which was still running, and what the earlier one had
      /// done by then.
      var first: String?
      var ended: Set<Int> = []
      var handled: Set<Int> = []
    }

    private let state = _Mutex(State())

    var violations: Int { state.withLock { $0.violations } }
    var firstViolation: String? { state.withLock { $0.first } }

    /// Operation `index` begins: an operation that started before it must have been cancelled by now.
    func started(_ index: Int) {
      state.withLock { state in
        // Cancelled before it began: its cancellation handler has run or is about to; it is nobody's "previous".
        guard !Task.isCancelled else { return }
        if let current = state.current {
          state.violations += 1
          if state.first == nil {
            state.first =
              "operation \(index) began while \(current) was running (its handler ran: "
              + "\(state.handled.contains(current)), it ended: \(state.ended.contains(current)))"
          }
        }
        state.current = index
      }
    }

    /// Operation `index`'s cancellation handler runs.
    func cancelled(_ index: Int) {
      state.withLock { state in
        state.handled.insert(index)
        if state.current == index { state.current = nil }
      }
    }

    /// Operation `index` returned.
    func ended(_ index: Int) {
      state.withLock { _ = $0.ended.insert(index) }
    }
  }

  @Test("racing run calls: every operation begins after the previous one's cancellation handlers ran")
  func cancelsBeforeStarting() async {
    let submitters = 2
    let callsPerSubmitter = 25
    var failingRounds = 0
    var firstViolation: String?
    for _ in 0..<stressRounds {
      let slot = TaskSlot()
      let overlap = Overlap()
      let ended = Recorder<Void>()
      await withTaskGroup(of: Void.self) { group in
        for submitter in 0..<submitters {
          group.addTask {
            for call in 0..<callsPerSubmitter {
              let index = submitter * callsPerSubmitter + call
              slot.run(id: index) {
                await withTaskCancellationHandler {
                  overlap.started(index)
                  await waitForCancellation()
                } onCancel: {
                  overlap.cancelled(index)
                }
                overlap.ended(index)
                ended.record(())
              }
            }
          }
        }
      }
      slot.cancel()
      _ = await ended.values(count: submitters * callsPerSubmitter)
      if overlap.violations > 0 {
        failingRounds += 1
        firstViolation = firstViolation ?? overlap.firstViolation
      }
    }
    #expect(
      failingRounds == 0,
      "\(failingRounds) of \(stressRounds) rounds started an operation before cancelling; first: \(firstViolation ?? "")"
    )
  }

  @Test("main-actor operations start in call order")
  @MainActor func startsInCallOrder() async {
    var failingRounds = 0
    for _ in 0..<stressRounds {
      let slot = TaskSlot()
      var starts: [Int] = []
      let started = Recorder<Void>()
      for index in 0..<5 {
        slot.run(id: index) { @MainActor in
          starts.append(index)
          started.record(())
          await waitForCancellation()
        }
      }
      _ = await started.values(count: 5)
      slot.cancel()
      if starts != Array(0..<5) { failingRounds += 1 }
    }
    #expect(failingRounds == 0, "\(failingRounds) of \(stressRounds) rounds started out of order")
  }

  @Test("operations isolated to the main actor start in call order when run from nonisolated code")
  func startsInCallOrderFromNonisolatedCode() async {
    let starts = Recorder<Int>()
    var failingRounds = 0
    for _ in 0..<stressRounds {
      let slot = TaskSlot()
      for index in 0..<5 {
        slot.run(id: index) { @MainActor in
          starts.record(index)
          await waitForCancellation()
        }
      }
      if await starts.values(count: 5) != Array(0..<5) { failingRounds += 1 }
      slot.cancel()
    }
    #expect(failingRounds == 0, "\(failingRounds) of \(stressRounds) rounds started out of order")
  }
}
