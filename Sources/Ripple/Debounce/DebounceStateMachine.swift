/// The state of one ``AsyncDebounceSequence`` iteration.
///
/// Events come from three sides: the consumer (`nextRequested`, `cancelled`), the task that consumes the base
/// (`elementProduced`, `upstreamFinished`, `upstreamFailed`) and the timer task (`deadlineRequested`,
/// `deadlineReached`). Each method returns what to resume or cancel; ``_DebounceStorage`` does that after
/// releasing its lock.
///
/// The base is consumed whether or not anyone waits in `next()`, so an error is seen as soon as it happens.
/// A new element only moves the pending deadline: the timer task, when it wakes, compares its deadline with
/// the pending one and sleeps again if the pending one moved. Re-arming costs no task and no allocation.
@usableFromInline
struct _DebounceStateMachine<Element, Failure: Error, Instant: InstantProtocol> {
  @usableFromInline typealias Consumer = UnsafeContinuation<Result<Element?, Failure>, Never>
  @usableFromInline typealias Timer = UnsafeContinuation<Instant?, Never>

  /// The tasks of a running iteration: the one consuming the base and the timer.
  @usableFromInline
  struct Tasks {
    @usableFromInline let base: Task<Void, Never>
    @usableFromInline let timer: Task<Void, Never>

    @inlinable init(base: Task<Void, Never>, timer: Task<Void, Never>) {
      self.base = base
      self.timer = timer
    }

    @inlinable func cancel() {
      base.cancel()
      timer.cancel()
    }
  }

  /// The element waiting for its interval to pass without a newer one.
  @usableFromInline
  struct Pending {
    @usableFromInline var element: Element
    @usableFromInline var deadline: Instant

    @inlinable init(element: Element, deadline: Instant) {
      self.element = element
      self.deadline = deadline
    }
  }

  /// Everything a running iteration tracks.
  ///
  /// Invariants: a waiting `consumer` means `ready` is `nil`; a waiting `timer` means `pending` is `nil`.
  @usableFromInline
  struct Running {
    /// The consumer suspended in `next()`.
    @usableFromInline var consumer: Consumer?
    /// The timer task, suspended until there is a deadline to sleep to.
    @usableFromInline var timer: Timer?
    /// The latest element, not yet settled.
    @usableFromInline var pending: Pending?
    /// A settled element no consumer has taken yet; a slower consumer gets the latest one.
    @usableFromInline var ready: Element?
    /// The base has finished: once `pending` and `ready` are delivered, iteration ends.
    @usableFromInline var baseFinished = false
    @inlinable init() {}
  }

  /// Where the iteration is.
  ///
  /// `internal` rather than `private` (`@usableFromInline`) so the hot paths specialize in client modules.
  @usableFromInline
  enum State {
    /// `next()` was never called: no task runs.
    case initial
    /// The tasks run, or the base finished and elements remain to deliver.
    case running(Running)
    /// The base threw while nobody waited; the next `next()` throws this.
    case failed(Failure)
    /// Iteration is over: `next()` returns `nil`.
    case finished
  }

  /// What the base-consuming task does after handing over an element.
  @usableFromInline
  enum ElementAction {
    /// Go on consuming.
    case none
    /// Wake the timer task to sleep until this deadline.
    case resumeTimer(Timer, Instant)
    /// The previous element settled as this one arrived: hand it to the waiting consumer.
    case resumeConsumer(Consumer, Element)
    /// Iteration is over: stop consuming.
    case stop
  }

  /// What the consumer's `next()` does.
  @usableFromInline
  enum NextAction {
    /// Suspend until an element settles or iteration ends.
    case suspend
    /// Return at once.
    case resume(Result<Element?, Failure>)
  }

  /// What the timer task does next.
  @usableFromInline
  enum DeadlineAction {
    /// Sleep until this instant, then report ``_DebounceStateMachine/deadlineReached(_:)``.
    case sleep(until: Instant)
    /// Suspend until an element arrives.
    case suspend
    /// Iteration no longer needs the timer.
    case stop
  }

  /// The continuations to resume and tasks to cancel when iteration (or part of it) ends.
  @usableFromInline
  struct Termination {
    @usableFromInline var consumer: (Consumer, Result<Element?, Failure>)?
    @usableFromInline var timer: Timer?
    @usableFromInline var tasks: Tasks?

    @inlinable init(
      consumer: (Consumer, Result<Element?, Failure>)? = nil, timer: Timer? = nil, tasks: Tasks? = nil
    ) {
      self.consumer = consumer
      self.timer = timer
      self.tasks = tasks
    }
  }

  @usableFromInline var state = State.initial
  /// The running tasks, set right after they start. Kept out of `State` so that, for trivial elements, the
  /// state the hot path copies holds no reference to retain.
  @usableFromInline var tasks: Tasks?

  @inlinable init() {}

  /// The consumer's first `next()` is about to start the tasks.
  @inlinable
  mutating func started() {
    guard case .initial = state else {
      preconditionFailure("debounce: started twice (state: \(state))")
    }
    state = .running(Running())
  }

  /// The tasks started; returns them to cancel at once if iteration already ended.
  @inlinable
  mutating func tasksStarted(_ tasks: Tasks) -> Tasks? {
    switch state {
    case .running:
      self.tasks = tasks
      return nil
    case .failed, .finished:
      return tasks
    case .initial:
      preconditionFailure("debounce: tasks started before the iteration (state: initial)")
    }
  }

  /// The consumer calls `next()`.
  @inlinable
  mutating func nextRequested(_ consumer: Consumer) -> NextAction {
    switch state {
    case .running(var running):
      precondition(running.consumer == nil, "debounce: an iterator was used by two tasks at once (state: waiting)")
      if let element = running.ready {
        running.ready = nil
        state = .running(running)
        return .resume(.success(element))
      }
      if running.baseFinished && running.pending == nil {
        state = .finished
        return .resume(.success(nil))
      }
      running.consumer = consumer
      state = .running(running)
      return .suspend
    case .failed(let failure):
      state = .finished
      return .resume(.failure(failure))
    case .finished:
      return .resume(.success(nil))
    case .initial:
      preconditionFailure("debounce: next() before the iteration started (state: initial)")
    }
  }

  /// The base produced `element` at `now`; it settles at `deadline` unless a newer one comes first.
  @inlinable
  mutating func elementProduced(_ element: Element, now: Instant, deadline: Instant) -> ElementAction {
    guard case .running(var running) = state else {
      // The consumer went away or the base already failed (a misbehaving base).
      return .stop
    }
    var action = ElementAction.none
    if let previous = running.pending, previous.deadline <= now {
      // Its deadline passed before this element came, even if the timer task has not run yet.
      if let consumer = running.consumer {
        running.consumer = nil
        action = .resumeConsumer(consumer, previous.element)
      } else {
        running.ready = previous.element
      }
    }
    running.pending = Pending(element: element, deadline: deadline)
    if let timer = running.timer {
      running.timer = nil
      action = .resumeTimer(timer, deadline)
    }
    state = .running(running)
    return action
  }

  /// The timer task asks how long to sleep; `timer` resumes it later when the answer is ``DeadlineAction/suspend``.
  @inlinable
  mutating func deadlineRequested(_ timer: Timer) -> DeadlineAction {
    switch state {
    case .running(var running):
      precondition(running.timer == nil, "debounce: two timers (state: running)")
      if let pending = running.pending {
        return .sleep(until: pending.deadline)
      }
      if running.baseFinished {
        return .stop
      }
      running.timer = timer
      state = .running(running)
      return .suspend
    case .failed, .finished:
      return .stop
    case .initial:
      preconditionFailure("debounce: the timer runs before the iteration (state: initial)")
    }
  }

  /// The timer task slept until `deadline`; returns the consumer to hand a settled element to.
  @inlinable
  mutating func deadlineReached(_ deadline: Instant) -> (Consumer, Element)? {
    guard case .running(var running) = state, let pending = running.pending, pending.deadline <= deadline else {
      // Nothing pending, or a newer element moved the deadline: the timer sleeps again.
      return nil
    }
    running.pending = nil
    if let consumer = running.consumer {
      running.consumer = nil
      state = .running(running)
      return (consumer, pending.element)
    }
    running.ready = pending.element
    state = .running(running)
    return nil
  }

  /// The base finished: the pending element still settles at its deadline, then iteration ends.
  @inlinable
  mutating func upstreamFinished() -> Termination {
    guard case .running(var running) = state else { return Termination() }
    running.baseFinished = true
    guard running.pending == nil else {
      state = .running(running)
      return Termination()
    }
    let timer = running.timer
    running.timer = nil
    if let consumer = running.consumer {
      state = .finished
      return Termination(consumer: (consumer, .success(nil)), timer: timer)
    }
    state = .running(running)
    return Termination(timer: timer)
  }

  /// The base threw: the error goes to the consumer at once, or to its next `next()`; undelivered elements
  /// are dropped.
  @inlinable
  mutating func upstreamFailed(_ failure: Failure) -> Termination {
    guard case .running(let running) = state else { return Termination() }
    if let consumer = running.consumer {
      state = .finished
      return Termination(consumer: (consumer, .failure(failure)), timer: running.timer, tasks: tasks)
    }
    state = .failed(failure)
    return Termination(timer: running.timer, tasks: tasks)
  }

  /// The consuming task was cancelled or the iterator was dropped.
  @inlinable
  mutating func cancelled() -> Termination {
    defer { state = .finished }
    guard case .running(let running) = state else { return Termination() }
    return Termination(
      consumer: running.consumer.map { ($0, .success(nil)) }, timer: running.timer, tasks: tasks)
  }
}
