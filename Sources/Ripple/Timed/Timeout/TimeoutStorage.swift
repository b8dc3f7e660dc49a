import InternalRippleUtilities

/// One iteration of ``AsyncTimeoutSequence``: its ``_TimeoutStateMachine`` in a lock, and the two tasks it starts
/// once the first `next()` waits — one iterating the base, one sleeping on the clock.
@usableFromInline
final class _TimeoutStorage<Base: AsyncSequence & Sendable, C: Clock>: _IterationStorage
where Base.Element: Sendable {
  @usableFromInline typealias Outcome = _TimeoutOutcome<Base.Element, Base.Failure>
  @usableFromInline typealias Machine = _TimeoutStateMachine<
    Base.Element, Base.Failure, C.Instant, UnsafeContinuation<Outcome, Never>, UnsafeContinuation<Bool, Never>,
    UnsafeContinuation<C.Instant?, Never>, Tasks
  >
  @usableFromInline typealias Element = Outcome
  @usableFromInline typealias Failure = Never

  /// The tasks of a running iteration.
  @usableFromInline typealias Tasks = _TimerTasks

  @usableFromInline let machine = _Mutex(Machine(capacity: _timeoutPrefetch))
  @usableFromInline let timed: _TimedBase<Base, C>

  @inlinable
  init(_ timed: _TimedBase<Base, C>) {
    self.timed = timed
  }

  /// Waits for the next outcome on the consumer's isolation; `nil` only when the wait itself ends the iteration.
  @inlinable
  func next(isolation actor: isolated (any Actor)?) async -> Outcome? {
    let outcome = await withTaskCancellationHandler {
      await withUnsafeContinuation(isolation: actor) { (consumer: UnsafeContinuation<Outcome, Never>) in
        perform(machine.withLock { $0.nextRequested(consumer, deadline: { timed.deadlineFromNow() }) })
      }
    } onCancel: {
      cancel()
    }
    return outcome
  }

  @inlinable
  func cancel() {
    perform(machine.withLock { $0.cancelled() })
  }

  /// Starts the base and timer tasks; the first consumer already waits.
  @inlinable
  func start() {
    let baseTask = _startOperatorTask { await self.iterateBase() }
    let timerTask = _startOperatorTask { await self.runTimer() }
    perform(machine.withLock { $0.started(Tasks(base: baseTask, timer: timerTask)) })
  }

  /// The body of the base task: each element handed to the consumer, or held for it, up to `_timeoutPrefetch`.
  @inlinable
  func iterateBase() async {
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
      switch machine.withLock({ $0.elementProduced(element, deadline: { timed.deadlineFromNow() }) }) {
      case .resumeConsumer(let consumer, let element):
        consumer.resume(returning: .element(element))
      case .produceMore:
        break
      case .suspend:
        let goOn = await withUnsafeContinuation { (producer: UnsafeContinuation<Bool, Never>) in
          if let goOn = machine.withLock({ $0.producerSuspending(producer) }) {
            producer.resume(returning: goOn)
          }
        }
        guard goOn else { return }
      case .stop:
        return
      }
    }
  }

  /// The body of the timer task: sleeps to the deadline, sleeps again while elements move it, and times the
  /// iteration out when it did not move.
  @inlinable
  func runTimer() async {
    while let deadline = await nextDeadline() {
      do {
        try await timed.sleep(until: deadline)
      } catch {
        return
      }
      perform(machine.withLock { $0.deadlineReached(deadline) })
    }
  }

  /// The deadline to sleep to, waiting while nothing is timed; `nil` to stop.
  @inlinable
  func nextDeadline() async -> C.Instant? {
    await withUnsafeContinuation { (timer: UnsafeContinuation<C.Instant?, Never>) in
      perform(machine.withLock { $0.deadlineRequested(timer) })
    }
  }

  /// Runs an action outside the lock.
  @inlinable
  func perform(_ action: Machine.Action) {
    switch action {
    case .none:
      break
    case .start:
      start()
    case .resumeConsumer(let consumer, let outcome):
      consumer.resume(returning: outcome)
    case .takeHeld(let consumer, let element, let producer, let timer, let deadline):
      consumer.resume(returning: .element(element))
      producer?.resume(returning: true)
      timer?.resume(returning: deadline)
    case .resumeTimer(let timer, let deadline):
      timer.resume(returning: deadline)
    case .cancelTasks(let tasks):
      tasks.cancel()
    case .end(let consumer, let outcome, let producer, let timer, let tasks):
      consumer?.resume(returning: outcome)
      producer?.resume(returning: false)
      timer?.resume(returning: nil)
      tasks?.cancel()
    }
  }
}

/// How many elements a timeout takes from its base ahead of a busy consumer before it stops asking (and timing).
///
/// Enough that a burst crosses from the base task to the consumer without a task switch per element (one ahead
/// cost 2.1× `asyncstream.raw` in `timeout.quiet`), few enough that a latest-value base such as `Observed` hands a
/// slow consumer little that is stale.
@usableFromInline let _timeoutPrefetch = 16
