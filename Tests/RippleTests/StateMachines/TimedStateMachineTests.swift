import RippleTesting
import Testing

@testable import Ripple

// `_TimedStateMachine` (the timed core) with `_DebouncePolicy` and `_ThrottlePolicy`, driven as a plain value: the
// test calls the events in order with instants it chooses (no clock) and runs each action as `_TimedStorage` does, on
// parked continuations for the consumer and the timer task (Support/Parked.swift) and idle tasks. Map:
// - initial: `nextRequested` → start (the consumer counts as waiting before the tasks run: #28 item 1, throttle's
//   first element); `cancelled` → finished, nothing started; `started` → recorded, or cancelTasks once ended.
// - base: `elementProduced` → none (held), resumeTimer (a deadline for the waiting timer), resumeConsumer,
//   resumeConsumerAndTimer, stopProducing (ended); `baseFinished` → none (an element still held), end (nothing held:
//   the consumer and the timer stop); `baseFailed` → end with the error, to the consumer or kept for its next `next()`.
// - timer: `deadlineRequested` → resumeTimer(true) (a deadline), wait (none), resumeTimer(false) (the base finished,
//   or ended); `takeTimerDeadline` once; `deadlineReached` → resumeConsumer, ready for a later `next()`, none (moved).
// - consumer: `nextRequested` → the ready element, throttle's due element (and the timer woken for the interval it
//   opens), the end once nothing is held, the kept error, nil; `cancelled` → end.

private typealias Instant = TestClock.Instant
private typealias Debounce = _TimedStateMachine<_DebouncePolicy<Int, Instant>, Boom>
private typealias Throttle = _TimedStateMachine<_ThrottlePolicy<Int, Int, Instant>, Boom>

/// The instant `seconds` after zero.
private func at(_ seconds: Int) -> Instant { Instant(offset: .seconds(seconds)) }

/// `end()` for an element at `seconds`, with an interval of 10 s.
private func end(_ seconds: Int) -> () -> Instant { { at(seconds + 10) } }

/// Parked consumers (`c0`…) and timers (`t0`…) of one test, and the tasks the storage would start.
private struct Parties {
  let consumers: Parked<Result<Int?, Boom>>
  let timers: Parked<Bool>
  let base = idleTask()
  let timer = idleTask()

  static func park(consumers: Int = 1, timers: Int = 0) async -> Parties {
    Parties(consumers: await .park(consumers), timers: await .park(timers))
  }

  var tasks: Throttle.Tasks { Throttle.Tasks(base: base, timer: timer) }
  func consumer(_ index: Int) -> Throttle.Consumer { consumers[index] }
  func timer(_ index: Int) -> Throttle.Timer { timers[index] }

  /// Runs `action` as the storage does (but for the tasks: see ``tasksCancelled``) and says what it did.
  func run<Policy>(_ action: _TimedStateMachine<Policy, Boom>.Action) -> String where Policy.Element == Int {
    switch action {
    case .none:
      return "none"
    case .start:
      return "start"
    case .stopProducing:
      return "stop producing"
    case .cancelTasks:
      return "cancel tasks"
    case .resumeConsumer(let consumer, let result):
      consumer.resume(returning: result)
      return "c\(consumers.index(of: consumer)!) \(describe(result))"
    case .resumeTimer(let timer, let sleep):
      timer.resume(returning: sleep)
      return "t\(timers.index(of: timer)!) \(sleep ? "sleeps" : "stops")"
    case .resumeConsumerAndTimer(let consumer, let element, let timer):
      consumer.resume(returning: .success(element))
      timer.resume(returning: true)
      return "c\(consumers.index(of: consumer)!) \(element), t\(timers.index(of: timer)!) sleeps"
    case .end(let consumer, let result, let timer):
      consumer?.resume(returning: result)
      timer?.resume(returning: false)
      return "end \(describe(result))" + (consumer.map { " c\(consumers.index(of: $0)!)" } ?? "")
        + (timer.map { " t\(timers.index(of: $0)!) stops" } ?? "")
    }
  }
}

private func describe(_ result: Result<Int?, Boom>) -> String {
  switch result {
  case .success(let value?): "\(value)"
  case .success(nil): "nil"
  case .failure(let error): "\(error)"
  }
}

/// A throttle (latest) whose first consumer (`c0`) waits and whose tasks started.
private func throttle(_ parties: Parties) -> Throttle {
  var machine = Throttle(_ThrottlePolicy(reduce: { $1 }), name: "throttle")
  #expect(parties.run(machine.nextRequested(parties.consumer(0), end: end(0))) == "start")
  #expect(parties.run(machine.started(parties.tasks)) == "none")
  return machine
}

/// A debounce whose first consumer (`c0`) waits and whose tasks started.
private func debounce(_ parties: Parties) -> Debounce {
  var machine = Debounce(_DebouncePolicy(), name: "debounce")
  #expect(parties.run(machine.nextRequested(parties.consumer(0), end: end(0))) == "start")
  #expect(parties.run(machine.started(Debounce.Tasks(base: parties.base, timer: parties.timer))) == "none")
  return machine
}

@Suite("the timed core's state machine", .timeLimit(.minutes(1)))
struct TimedStateMachineTests {
  // MARK: Both policies

  @Test("cancelled before the first next(): nothing starts, next() returns nil, tasks recorded late are cancelled")
  func cancelledBeforeStart() async {
    let parties = await Parties.park()
    var machine = Throttle(_ThrottlePolicy(reduce: { $1 }), name: "throttle")
    #expect(parties.run(machine.cancelled()) == "none")
    #expect(parties.run(machine.nextRequested(parties.consumer(0), end: end(0))) == "c0 nil")
    #expect(parties.run(machine.started(parties.tasks)) == "cancel tasks")
    #expect(machine.takeTasks() != nil)
    #expect(machine.takeTasks() == nil, "taken once")
    #expect(await parties.consumers.values() == [.success(nil)])
  }

  @Test("cancelled while waiting: the consumer gets nil, the timer stops, the base stops producing")
  func cancelledWhileRunning() async {
    let parties = await Parties.park(timers: 2)
    var machine = throttle(parties)
    #expect(parties.run(machine.deadlineRequested(parties.timer(0))) == "none")
    #expect(parties.run(machine.cancelled()) == "end nil c0 t0 stops")
    #expect(machine.takeTasks() != nil)
    #expect(parties.run(machine.elementProduced(1, now: at(0), end: end(0))) == "stop producing")
    #expect(parties.run(machine.deadlineRequested(parties.timer(1))) == "t1 stops")
    #expect(parties.run(machine.deadlineReached(at(10), end: end(10))) == "none")
    #expect(parties.run(machine.baseFinished()) == "none")
    #expect(parties.run(machine.baseFailed(.boom)) == "none")
    #expect(parties.run(machine.cancelled()) == "none")
    #expect(await parties.timers.values() == [false, false])
  }

  @Test("the base fails while the consumer waits: it gets the error, the timer stops; then nil")
  func baseFailedWhileWaiting() async {
    let parties = await Parties.park(consumers: 2, timers: 1)
    var machine = debounce(parties)
    #expect(parties.run(machine.deadlineRequested(parties.timer(0))) == "none")
    #expect(parties.run(machine.baseFailed(.boom)) == "end boom c0 t0 stops")
    #expect(parties.run(machine.nextRequested(parties.consumer(1), end: end(0))) == "c1 nil")
    #expect(await parties.consumers.values() == [.failure(.boom), .success(nil)])
  }

  @Test("the base fails while nobody waits: the held element is dropped, the next next() throws, once")
  func baseFailedWhileBusy() async {
    let parties = await Parties.park(consumers: 3)
    var machine = throttle(parties)
    #expect(parties.run(machine.elementProduced(1, now: at(0), end: end(0))) == "c0 1")
    #expect(parties.run(machine.elementProduced(2, now: at(1), end: end(1))) == "none")
    #expect(parties.run(machine.baseFailed(.boom)) == "end boom")
    #expect(parties.run(machine.started(parties.tasks)) == "cancel tasks")
    #expect(parties.run(machine.nextRequested(parties.consumer(1), end: end(2))) == "c1 boom")
    #expect(parties.run(machine.nextRequested(parties.consumer(2), end: end(2))) == "c2 nil")
    #expect(await parties.consumers.values() == [.success(1), .failure(.boom), .success(nil)])
  }

  @Test("the timer asks for a deadline: none while nothing is timed; stops once the base finished idle")
  func timerWithoutDeadline() async {
    let parties = await Parties.park(timers: 2)
    var machine = debounce(parties)
    #expect(parties.run(machine.deadlineRequested(parties.timer(0))) == "none")
    #expect(parties.run(machine.baseFinished()) == "end nil c0 t0 stops")
    #expect(parties.run(machine.deadlineRequested(parties.timer(1))) == "t1 stops")
    #expect(await parties.timers.values() == [false, false])
    #expect(await parties.consumers.values() == [.success(nil)])
  }

  // MARK: Debounce

  @Test("debounce: an element is held, the waiting timer is woken to sleep to its deadline; it emits there")
  func debounceEmitsAtDeadline() async {
    let parties = await Parties.park(timers: 1)
    var machine = debounce(parties)
    #expect(parties.run(machine.deadlineRequested(parties.timer(0))) == "none")
    #expect(parties.run(machine.elementProduced(1, now: at(0), end: end(0))) == "t0 sleeps")
    #expect(machine.takeTimerDeadline() == at(10))
    #expect(machine.takeTimerDeadline() == nil, "taken once")
    #expect(parties.run(machine.deadlineReached(at(10), end: end(10))) == "c0 1")
    #expect(await parties.consumers.values() == [.success(1)])
  }

  @Test("debounce: a newer element moves the deadline; the timer woken at the old one emits nothing, sleeps again")
  func debounceDeadlineMoves() async {
    let parties = await Parties.park(timers: 2)
    var machine = debounce(parties)
    #expect(parties.run(machine.elementProduced(1, now: at(0), end: end(0))) == "none", "no timer waits yet")
    #expect(parties.run(machine.deadlineRequested(parties.timer(0))) == "t0 sleeps")
    #expect(machine.takeTimerDeadline() == at(10))
    #expect(parties.run(machine.elementProduced(2, now: at(5), end: end(5))) == "none", "the timer sleeps already")
    #expect(parties.run(machine.deadlineReached(at(10), end: end(10))) == "none")
    #expect(parties.run(machine.deadlineRequested(parties.timer(1))) == "t1 sleeps")
    #expect(machine.takeTimerDeadline() == at(15))
    #expect(parties.run(machine.deadlineReached(at(15), end: end(15))) == "c0 2")
    #expect(await parties.consumers.values() == [.success(2)])
  }

  @Test("debounce: an element that settled before the timer ran goes out when the next comes")
  func debounceSettledByNextElement() async {
    let parties = await Parties.park(timers: 1)
    var machine = debounce(parties)
    #expect(parties.run(machine.elementProduced(1, now: at(0), end: end(0))) == "none")
    #expect(parties.run(machine.deadlineRequested(parties.timer(0))) == "t0 sleeps")
    _ = machine.takeTimerDeadline()
    #expect(parties.run(machine.elementProduced(2, now: at(20), end: end(20))) == "c0 1")
    #expect(await parties.consumers.values() == [.success(1)])
  }

  @Test("debounce: a settled element nobody waits for is ready; a newer one replaces it; next() takes it")
  func debounceReady() async {
    let parties = await Parties.park(consumers: 2, timers: 1)
    var machine = debounce(parties)
    #expect(parties.run(machine.elementProduced(1, now: at(0), end: end(0))) == "none")
    #expect(parties.run(machine.deadlineReached(at(10), end: end(10))) == "c0 1")
    #expect(parties.run(machine.elementProduced(2, now: at(11), end: end(11))) == "none")
    #expect(parties.run(machine.deadlineReached(at(21), end: end(21))) == "none", "ready: nobody waits")
    #expect(parties.run(machine.elementProduced(3, now: at(22), end: end(22))) == "none")
    #expect(parties.run(machine.deadlineReached(at(32), end: end(32))) == "none", "3 replaces 2 in ready")
    #expect(parties.run(machine.nextRequested(parties.consumer(1), end: end(33))) == "c1 3")
    #expect(parties.run(machine.deadlineRequested(parties.timer(0))) == "none")
    #expect(parties.run(machine.cancelled()) == "end nil t0 stops")
    #expect(await parties.consumers.values() == [.success(1), .success(3)])
  }

  @Test("debounce: the base finishes with an element pending; it goes out at its deadline, then the end")
  func debounceFinishesAfterPending() async {
    let parties = await Parties.park(consumers: 2, timers: 2)
    var machine = debounce(parties)
    #expect(parties.run(machine.elementProduced(1, now: at(0), end: end(0))) == "none")
    #expect(parties.run(machine.baseFinished()) == "none", "still holding")
    #expect(parties.run(machine.deadlineRequested(parties.timer(0))) == "t0 sleeps")
    _ = machine.takeTimerDeadline()
    #expect(parties.run(machine.deadlineReached(at(10), end: end(10))) == "c0 1")
    #expect(parties.run(machine.deadlineRequested(parties.timer(1))) == "t1 stops")
    #expect(parties.run(machine.nextRequested(parties.consumer(1), end: end(11))) == "c1 nil")
    #expect(await parties.consumers.values() == [.success(1), .success(nil)])
  }

  @Test("debounce: the base finishes idle while nobody waits: the timer stops, the next next() returns nil")
  func debounceFinishesIdle() async {
    let parties = await Parties.park(consumers: 2, timers: 1)
    var machine = debounce(parties)
    #expect(parties.run(machine.elementProduced(1, now: at(0), end: end(0))) == "none")
    #expect(parties.run(machine.deadlineReached(at(10), end: end(10))) == "c0 1")
    #expect(parties.run(machine.deadlineRequested(parties.timer(0))) == "none")
    #expect(parties.run(machine.baseFinished()) == "end nil t0 stops")
    #expect(parties.run(machine.nextRequested(parties.consumer(1), end: end(11))) == "c1 nil")
    #expect(await parties.consumers.values() == [.success(1), .success(nil)])
  }

  // MARK: Throttle

  @Test("#28 item 1: throttle's first element goes out at once, to the consumer the first next() registered")
  func throttleFirstElement() async {
    let parties = await Parties.park(timers: 1)
    var machine = throttle(parties)
    #expect(parties.run(machine.deadlineRequested(parties.timer(0))) == "none")
    #expect(parties.run(machine.elementProduced(0, now: at(0), end: end(0))) == "c0 0, t0 sleeps")
    #expect(machine.takeTimerDeadline() == at(10))
    for element in 1..<1000 {
      #expect(parties.run(machine.elementProduced(element, now: at(0), end: end(0))) == "none")
    }
    #expect(await parties.consumers.values() == [.success(0)])
  }

  @Test("throttle: the first element with no timer waiting yet goes to the consumer alone; the timer finds the end")
  func throttleFirstElementTimerLater() async {
    let parties = await Parties.park(timers: 1)
    var machine = throttle(parties)
    #expect(parties.run(machine.elementProduced(0, now: at(0), end: end(0))) == "c0 0")
    #expect(parties.run(machine.deadlineRequested(parties.timer(0))) == "t0 sleeps")
    #expect(machine.takeTimerDeadline() == at(10))
    #expect(await parties.consumers.values() == [.success(0)])
  }

  @Test("throttle: the interval's held element goes out when the timer reaches its end, opening the next")
  func throttleTimerEmitsHeld() async {
    let parties = await Parties.park(consumers: 2, timers: 1)
    var machine = throttle(parties)
    #expect(parties.run(machine.elementProduced(1, now: at(0), end: end(0))) == "c0 1")
    #expect(parties.run(machine.elementProduced(2, now: at(3), end: end(3))) == "none")
    #expect(parties.run(machine.elementProduced(3, now: at(6), end: end(6))) == "none")
    #expect(parties.run(machine.nextRequested(parties.consumer(1), end: end(7))) == "none")
    #expect(parties.run(machine.deadlineReached(at(10), end: end(10))) == "c1 3")
    #expect(machine.policy.intervalEnd == at(20))
    #expect(parties.run(machine.deadlineRequested(parties.timer(0))) == "t0 sleeps")
    #expect(machine.takeTimerDeadline() == at(20))
    #expect(await parties.consumers.values() == [.success(1), .success(3)])
  }

  @Test("throttle: an interval that ends with nothing held closes; the next element goes out at once")
  func throttleEmptyInterval() async {
    let parties = await Parties.park(consumers: 2)
    var machine = throttle(parties)
    #expect(parties.run(machine.elementProduced(1, now: at(0), end: end(0))) == "c0 1")
    #expect(parties.run(machine.deadlineReached(at(10), end: end(10))) == "none")
    #expect(machine.policy.intervalEnd == nil)
    #expect(parties.run(machine.nextRequested(parties.consumer(1), end: end(11))) == "none")
    #expect(parties.run(machine.elementProduced(2, now: at(12), end: end(12))) == "c1 2")
    #expect(await parties.consumers.values() == [.success(1), .success(2)])
  }

  @Test("throttle: an element after the interval's end but before the timer ran emits the held one and opens another")
  func throttleLateElementClosesInterval() async {
    let parties = await Parties.park(consumers: 2, timers: 1)
    var machine = throttle(parties)
    #expect(parties.run(machine.elementProduced(1, now: at(0), end: end(0))) == "c0 1")
    #expect(parties.run(machine.elementProduced(2, now: at(5), end: end(5))) == "none")
    #expect(parties.run(machine.nextRequested(parties.consumer(1), end: end(6))) == "none")
    #expect(parties.run(machine.deadlineRequested(parties.timer(0))) == "t0 sleeps")
    #expect(machine.takeTimerDeadline() == at(10))
    #expect(parties.run(machine.elementProduced(3, now: at(12), end: end(12))) == "c1 2")
    #expect(machine.policy.intervalEnd == at(22))
    #expect(parties.run(machine.deadlineReached(at(10), end: end(12))) == "none", "the timer's interval is gone")
    #expect(await parties.consumers.values() == [.success(1), .success(2)])
  }

  @Test("throttle: due while nobody waits, the held element is kept; next() takes it and wakes the timer")
  func throttleDue() async {
    let parties = await Parties.park(consumers: 2, timers: 2)
    var machine = throttle(parties)
    #expect(parties.run(machine.elementProduced(1, now: at(0), end: end(0))) == "c0 1")
    #expect(parties.run(machine.elementProduced(2, now: at(5), end: end(5))) == "none")
    #expect(parties.run(machine.deadlineReached(at(10), end: end(10))) == "none", "due: nobody waits")
    #expect(machine.policy.due)
    #expect(parties.run(machine.elementProduced(3, now: at(11), end: end(11))) == "none", "folds into the due one")
    #expect(parties.run(machine.deadlineRequested(parties.timer(0))) == "none", "nothing timed while due")
    #expect(parties.run(machine.nextRequested(parties.consumer(1), end: end(12))) == "c1 3, t0 sleeps")
    #expect(machine.takeTimerDeadline() == at(22))
    #expect(parties.run(machine.deadlineRequested(parties.timer(1))) == "t1 sleeps")
    #expect(await parties.consumers.values() == [.success(1), .success(3)])
  }

  @Test("throttle: a due element with no timer waiting goes to the consumer alone")
  func throttleDueWithoutTimer() async {
    let parties = await Parties.park(consumers: 2)
    var machine = throttle(parties)
    #expect(parties.run(machine.elementProduced(1, now: at(0), end: end(0))) == "c0 1")
    #expect(parties.run(machine.deadlineReached(at(10), end: end(10))) == "none")
    #expect(parties.run(machine.elementProduced(2, now: at(11), end: end(11))) == "none", "due: nobody waits")
    #expect(parties.run(machine.nextRequested(parties.consumer(1), end: end(12))) == "c1 2")
    #expect(await parties.consumers.values() == [.success(1), .success(2)])
  }

  @Test("throttle: the base finishes while an element is due; next() takes it, the next one ends and stops the timer")
  func throttleFinishesWhileDue() async {
    let parties = await Parties.park(consumers: 3, timers: 1)
    var machine = throttle(parties)
    #expect(parties.run(machine.elementProduced(1, now: at(0), end: end(0))) == "c0 1")
    #expect(parties.run(machine.elementProduced(2, now: at(5), end: end(5))) == "none")
    #expect(parties.run(machine.deadlineReached(at(10), end: end(10))) == "none")
    #expect(parties.run(machine.deadlineRequested(parties.timer(0))) == "none")
    #expect(parties.run(machine.baseFinished()) == "none", "still holding")
    #expect(parties.run(machine.nextRequested(parties.consumer(1), end: end(12))) == "c1 2", "the timer still waits")
    #expect(parties.run(machine.nextRequested(parties.consumer(2), end: end(13))) == "end nil c2 t0 stops")
    #expect(await parties.consumers.values() == [.success(1), .success(2), .success(nil)])
  }

  @Test("throttle: after the base finished, the last held element goes out at the interval's end; no new interval")
  func throttleFinishesWithHeld() async {
    let parties = await Parties.park(consumers: 3, timers: 2)
    var machine = throttle(parties)
    #expect(parties.run(machine.elementProduced(1, now: at(0), end: end(0))) == "c0 1")
    #expect(parties.run(machine.elementProduced(2, now: at(5), end: end(5))) == "none")
    #expect(parties.run(machine.baseFinished()) == "none")
    #expect(parties.run(machine.nextRequested(parties.consumer(1), end: end(6))) == "none")
    #expect(parties.run(machine.deadlineRequested(parties.timer(0))) == "t0 sleeps")
    _ = machine.takeTimerDeadline()
    #expect(parties.run(machine.deadlineReached(at(10), end: end(10))) == "c1 2")
    #expect(machine.policy.intervalEnd == nil)
    #expect(parties.run(machine.deadlineRequested(parties.timer(1))) == "t1 stops")
    #expect(parties.run(machine.nextRequested(parties.consumer(2), end: end(11))) == "c2 nil")
    #expect(await parties.consumers.values() == [.success(1), .success(2), .success(nil)])
  }

  @Test("throttle without latest keeps the interval's first element")
  func throttleFirstOfInterval() async {
    let parties = await Parties.park(consumers: 2)
    var machine = Throttle(_ThrottlePolicy(reduce: { $0 ?? $1 }), name: "throttle")
    #expect(parties.run(machine.nextRequested(parties.consumer(0), end: end(0))) == "start")
    #expect(parties.run(machine.elementProduced(1, now: at(0), end: end(0))) == "c0 1")
    #expect(parties.run(machine.elementProduced(2, now: at(3), end: end(3))) == "none")
    #expect(parties.run(machine.elementProduced(3, now: at(6), end: end(6))) == "none")
    #expect(parties.run(machine.nextRequested(parties.consumer(1), end: end(7))) == "none")
    #expect(parties.run(machine.deadlineReached(at(10), end: end(10))) == "c1 2")
    #expect(await parties.consumers.values() == [.success(1), .success(2)])
  }
}
