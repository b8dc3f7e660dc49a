/// One ``AsyncThrottleSequence`` iteration: its state machine in a lock, and the two tasks it starts on the
/// first `next()` — one consuming the base, one sleeping on the clock.
@usableFromInline
final class _ThrottleStorage<Base: AsyncSequence & Sendable, C: Clock>: _IterationCancelling
where Base.Element: Sendable {
  @usableFromInline typealias Machine = _ThrottleStateMachine<Base.Element, Base.Failure, C.Instant>

  @usableFromInline let machine: _Mutex<Machine>
  @usableFromInline let base: Base
  @usableFromInline let interval: C.Duration
  @usableFromInline let clock: C

  @inlinable
  init(base: Base, interval: C.Duration, clock: C, latest: Bool) {
    self.machine = _Mutex(Machine(latest: latest))
    self.base = base
    self.interval = interval
    self.clock = clock
  }

  /// Starts the base-consuming task and the timer task; called once, by the first `next()`.
  @inlinable
  func start() {
    machine.withLock { $0.started() }
    let baseTask = _startOperatorTask { await self.consumeBase() }
    let timerTask = _startOperatorTask { await self.runTimer() }
    machine.withLock { $0.tasksStarted(Machine.Tasks(base: baseTask, timer: timerTask)) }?.cancel()
  }

  /// Waits for the next emitted element, the end of iteration, or the base's error.
  @inlinable
  func next(isolation: isolated (any Actor)?) async throws(Base.Failure) -> Base.Element? {
    let result = await withTaskCancellationHandler {
      await withUnsafeContinuation(isolation: isolation) { (continuation: Machine.Consumer) in
        switch machine.withLock({ $0.nextRequested(continuation) }) {
        case .suspend: break
        case .resume(let result): continuation.resume(returning: result)
        }
      }
    } onCancel: {
      cancel()
    }
    return try result.get()
  }

  /// Ends iteration: the consumer went away.
  @inlinable
  func cancel() {
    run(machine.withLock { $0.cancelled() })
  }

  /// The body of the base-consuming task: hands every element to the machine as soon as it comes.
  @inlinable
  func consumeBase() async {
    var iterator = base.makeAsyncIterator()
    while true {
      let element: Base.Element?
      do {
        element = try await iterator.next(isolation: nil)
      } catch {
        run(machine.withLock { $0.upstreamFailed(error) })
        return
      }
      guard let element else {
        run(machine.withLock { $0.upstreamFinished() })
        return
      }
      let now = clock.now
      let intervalEnd = now.advanced(by: interval)
      switch machine.withLock({ $0.elementProduced(element, now: now, intervalEnd: intervalEnd) }) {
      case .none: break
      case .resumeConsumer(let consumer, let emitted):
        consumer.resume(returning: .success(emitted))
      case .resumeTimer(let timer, let end):
        timer.resume(returning: end)
      case .resumeConsumerAndTimer(let consumer, let emitted, let timer, let end):
        consumer.resume(returning: .success(emitted))
        timer.resume(returning: end)
      case .stop: return
      }
    }
  }

  /// The body of the timer task: sleeps until the open interval ends, then emits the held element at once —
  /// without waiting for another input — and opens the next interval from now.
  @inlinable
  func runTimer() async {
    while let deadline = await nextDeadline() {
      do {
        try await clock.sleep(until: deadline, tolerance: nil)
      } catch {
        return
      }
      let nextIntervalEnd = clock.now.advanced(by: interval)
      if let (consumer, element) = machine.withLock({ $0.deadlineReached(deadline, nextIntervalEnd: nextIntervalEnd) })
      {
        consumer.resume(returning: .success(element))
      }
    }
  }

  /// The deadline the timer sleeps to next, waiting for an interval to open if none is; `nil` to stop.
  @inlinable
  func nextDeadline() async -> C.Instant? {
    await withUnsafeContinuation { (continuation: Machine.Timer) in
      switch machine.withLock({ $0.deadlineRequested(continuation) }) {
      case .sleep(let deadline): continuation.resume(returning: deadline)
      case .suspend: break
      case .stop: continuation.resume(returning: nil)
      }
    }
  }

  /// Resumes and cancels what a termination names; call it outside the lock.
  @inlinable
  func run(_ termination: Machine.Termination) {
    if let (consumer, result) = termination.consumer {
      consumer.resume(returning: result)
    }
    termination.timer?.resume(returning: nil)
    termination.tasks?.cancel()
  }
}
