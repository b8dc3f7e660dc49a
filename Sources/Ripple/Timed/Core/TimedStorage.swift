import InternalRippleUtilities

/// One iteration of a timer-driven operator: its ``_TimedStateMachine`` in a lock, and the two tasks it starts once
/// the first `next()` waits — one consuming the base, one sleeping on the clock.
@usableFromInline
final class _TimedStorage<Base: AsyncSequence & Sendable, C: Clock, Policy: _TimedPolicy>: _IterationStorage
where Base.Element: Sendable, Policy.Input == Base.Element, Policy.Instant == C.Instant {
  @usableFromInline typealias Machine = _TimedStateMachine<Policy, Base.Failure>

  @usableFromInline let machine: _Mutex<Machine>
  @usableFromInline let timed: _TimedBase<Base, C>

  @inlinable
  init(_ timed: _TimedBase<Base, C>, policy: Policy, name: StaticString) {
    machine = _Mutex(Machine(policy, name: name))
    self.timed = timed
  }

  /// Starts the task consuming the base and the timer task; the first consumer already waits.
  @inlinable
  func start() {
    let baseTask = _startOperatorTask { await self.consumeBase() }
    let timerTask = _startOperatorTask { await self.runTimer() }
    perform(machine.withLock { $0.started(Machine.Tasks(base: baseTask, timer: timerTask)) })
  }

  @inlinable
  func next(isolation: isolated (any Actor)?) async throws(Base.Failure) -> Policy.Element? {
    try await waitForNext(isolation: isolation) { consumer in
      perform(machine.withLock { $0.nextRequested(consumer, end: { timed.deadlineFromNow() }) })
    }
  }

  @inlinable
  func cancel() {
    perform(machine.withLock { $0.cancelled() })
  }

  /// The body of the base-consuming task: hands every element to the machine as soon as it comes.
  @inlinable
  func consumeBase() async {
    var iterator = timed.base.makeAsyncIterator()
    while true {
      let element: Base.Element?
      do {
        element = try await iterator.next(isolation: nil)
      } catch {
        perform(machine.withLock { $0.baseFailed(error) })
        return
      }
      guard let element else {
        perform(machine.withLock { $0.baseFinished() })
        return
      }
      let now = timed.clock.now
      let produced = machine.withLock {
        $0.elementProduced(element, now: now, end: { now.advanced(by: timed.interval) })
      }
      guard perform(produced) else { return }
    }
  }

  /// The body of the timer task: sleeps until the policy's deadline, then lets the policy emit what it holds.
  @inlinable
  func runTimer() async {
    while let deadline = await nextDeadline() {
      do {
        try await timed.sleep(until: deadline)
      } catch {
        return
      }
      perform(machine.withLock { $0.deadlineReached(deadline, end: { timed.deadlineFromNow() }) })
    }
  }

  /// The deadline the timer sleeps to next, waiting for one if nothing is timed; `nil` to stop.
  @inlinable
  func nextDeadline() async -> C.Instant? {
    let woken = await withUnsafeContinuation { (timer: Machine.Timer) in
      perform(machine.withLock { $0.deadlineRequested(timer) })
    }
    // The deadline waits in the machine rather than in the continuation: see `Machine.Action`.
    return woken ? machine.withLock { $0.takeTimerDeadline() } : nil
  }

  /// Runs an action outside the lock; returns `false` when the base-consuming task must stop.
  @inlinable @discardableResult
  func perform(_ action: Machine.Action) -> Bool {
    switch action {
    case .none:
      break
    case .resumeConsumer(let consumer, let result):
      consumer.resume(returning: result)
    case .resumeTimer(let timer, let woken):
      timer.resume(returning: woken)
    case .resumeConsumerAndTimer(let consumer, let element, let timer):
      consumer.resume(returning: .success(element))
      timer.resume(returning: true)
    case .start:
      start()
    case .stopProducing:
      return false
    case .cancelTasks:
      machine.withLock { $0.takeTasks() }?.cancel()
    case .end(let consumer, let result, let timer):
      consumer?.resume(returning: result)
      timer?.resume(returning: false)
      machine.withLock { $0.takeTasks() }?.cancel()
    }
    return true
  }
}
