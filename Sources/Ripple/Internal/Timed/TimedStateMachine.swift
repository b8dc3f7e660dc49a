/// The state of one iteration of a timer-driven operator; its ``_TimedPolicy`` decides what is held and emitted.
///
/// Events come from three sides: the consumer (`nextRequested`, `cancelled`), the task that consumes the base
/// (`elementProduced`, `upstreamFinished`, `upstreamFailed`) and the timer task (`deadlineRequested`,
/// `deadlineReached`). Each returns the ``Action`` that ``_TimedStorage`` runs after releasing its lock.
///
/// The base is consumed whether or not anyone waits in `next()`, so an error is seen as soon as it happens: it
/// goes to the waiting consumer, or else to the next `next()`, and a held element is dropped. When the base
/// finishes, a held element is still emitted at its deadline, then iteration ends. A consumer slower than the
/// emissions gets the latest emitted element. A new deadline costs no task: the timer, when it wakes, asks the
/// policy, which ignores a deadline a newer element moved, and sleeps again.
@usableFromInline
struct _TimedStateMachine<Policy: _TimedPolicy, Failure: Error> {
  @usableFromInline typealias Element = Policy.Element
  @usableFromInline typealias Instant = Policy.Instant
  @usableFromInline typealias Consumer = UnsafeContinuation<Result<Element?, Failure>, Never>
  /// Resumed with the instant to sleep until, or `nil` to stop.
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

  /// Everything a running iteration tracks.
  ///
  /// Invariants: a waiting `consumer` means `ready` is `nil`; a waiting `timer` means the policy's `deadline` is
  /// `nil`.
  @usableFromInline
  struct Running {
    /// The consumer suspended in `next()`.
    @usableFromInline var consumer: Consumer?
    /// The timer task, suspended until there is a deadline to sleep to.
    @usableFromInline var timer: Timer?
    @usableFromInline var policy: Policy
    /// An emitted element no consumer has taken yet; a slower consumer gets the latest one.
    @usableFromInline var ready: Element?
    /// The base has finished: once the policy holds nothing and `ready` is taken, iteration ends.
    @usableFromInline var baseFinished = false

    @inlinable init(policy: Policy) {
      self.policy = policy
    }

    /// Emits `element`: returns the waiting consumer to hand it to, or keeps it in `ready`.
    @inlinable
    mutating func emit(_ element: Element) -> Consumer? {
      guard let consumer else {
        ready = element
        return nil
      }
      self.consumer = nil
      return consumer
    }
  }

  /// Where the iteration is. Internal only so that the inlinable event methods, which specialize in client
  /// modules, can switch on it.
  @usableFromInline
  enum State {
    /// `next()` was never called: no task runs.
    case initial(Policy)
    /// The tasks run, or the base finished and elements remain to deliver.
    case running(Running)
    /// The base threw while nobody waited; the next `next()` throws this.
    case failed(Failure)
    /// Iteration is over: `next()` returns `nil`.
    case finished
  }

  /// The side effect of an event, run by the storage once the lock is released.
  @usableFromInline
  enum Action {
    case none
    /// Hand the result to the consumer.
    case resumeConsumer(Consumer, Result<Element?, Failure>)
    /// Wake the timer to sleep until the instant, or to stop (`nil`).
    case resumeTimer(Timer, Instant?)
    /// Hand the element to the consumer and wake the timer to sleep until the instant.
    case resumeConsumerAndTimer(Consumer, Element, Timer, Instant)
    /// Iteration is over: the base-consuming task stops.
    case stopProducing
    /// Iteration ended before its tasks were recorded: cancel them (``takeTasks()``).
    case cancelTasks
    /// Iteration (or the base's part of it) ends: resume the consumer with the result and stop the timer when
    /// present, and cancel the tasks (``takeTasks()``).
    ///
    /// No case holds a reference but the consumer's result, so that for trivial elements an action is trivial to copy.
    case end(Consumer?, Result<Element?, Failure>, Timer?)
  }

  @usableFromInline var state: State
  /// The running tasks, set right after they start, until an ending action takes them. Kept out of `State` and
  /// `Action` so that, for trivial elements, what the hot path copies holds no reference to retain.
  @usableFromInline var tasks: Tasks?
  /// The operator's name, for precondition messages.
  @usableFromInline let name: StaticString

  @inlinable init(_ policy: Policy, name: StaticString) {
    state = .initial(policy)
    self.name = name
  }

  /// The consumer's first `next()` is about to start the tasks.
  @inlinable
  mutating func started() {
    guard case .initial(let policy) = state else {
      preconditionFailure("\(name): started twice (state: \(state))")
    }
    state = .running(Running(policy: policy))
  }

  /// The tasks started.
  @inlinable
  mutating func tasksStarted(_ tasks: Tasks) -> Action {
    self.tasks = tasks
    switch state {
    case .running:
      return .none
    case .failed, .finished:
      return .cancelTasks
    case .initial:
      preconditionFailure("\(name): tasks started before the iteration (state: initial)")
    }
  }

  /// The consumer calls `next()`; `end()` reads the clock's now plus the interval. `.none` means it waits.
  @inlinable
  mutating func nextRequested(_ consumer: Consumer, end: () -> Instant) -> Action {
    switch state {
    case .running(var running):
      precondition(running.consumer == nil, "\(name): an iterator was used by two tasks at once (state: waiting)")
      if let element = running.ready {
        running.ready = nil
        state = .running(running)
        return .resumeConsumer(consumer, .success(element))
      }
      if let element = running.policy.consumerArrived(end: end, baseFinished: running.baseFinished) {
        // Kept for this consumer, and its handing over may open an interval the timer must sleep to.
        guard let timer = running.timer, let deadline = running.policy.deadline else {
          state = .running(running)
          return .resumeConsumer(consumer, .success(element))
        }
        running.timer = nil
        state = .running(running)
        return .resumeConsumerAndTimer(consumer, element, timer, deadline)
      }
      if running.baseFinished && !running.policy.isHolding {
        state = .finished
        return .resumeConsumer(consumer, .success(nil))
      }
      running.consumer = consumer
      state = .running(running)
      return .none
    case .failed(let failure):
      state = .finished
      return .resumeConsumer(consumer, .failure(failure))
    case .finished:
      return .resumeConsumer(consumer, .success(nil))
    case .initial:
      preconditionFailure("\(name): next() before the iteration started (state: initial)")
    }
  }

  /// The base produced `input` at `now`; `end` is `now` plus the interval.
  @inlinable @inline(__always)
  mutating func elementProduced(_ input: Policy.Input, now: Instant, end: Instant) -> Action {
    guard case .running(var running) = state else {
      // The consumer went away or the base already failed (a misbehaving base).
      return .stopProducing
    }
    var consumer: Consumer?
    let emitted = running.policy.received(input, now: now, end: end, consumerWaiting: running.consumer != nil)
    if let emitted { consumer = running.emit(emitted) }
    guard let timer = running.timer, let deadline = running.policy.deadline else {
      // The steady path of a burst: the policy holds the element, the timer already sleeps.
      state = .running(running)
      guard let consumer, let emitted else { return .none }
      return .resumeConsumer(consumer, .success(emitted))
    }
    running.timer = nil
    state = .running(running)
    guard let consumer, let emitted else { return .resumeTimer(timer, deadline) }
    return .resumeConsumerAndTimer(consumer, emitted, timer, deadline)
  }

  /// The timer task asks how long to sleep; `.none` means it waits for a deadline.
  @inlinable
  mutating func deadlineRequested(_ timer: Timer) -> Action {
    switch state {
    case .running(var running):
      precondition(running.timer == nil, "\(name): two timers (state: running)")
      if let deadline = running.policy.deadline {
        return .resumeTimer(timer, deadline)
      }
      if running.baseFinished {
        return .resumeTimer(timer, nil)
      }
      running.timer = timer
      state = .running(running)
      return .none
    case .failed, .finished:
      return .resumeTimer(timer, nil)
    case .initial:
      preconditionFailure("\(name): the timer runs before the iteration (state: initial)")
    }
  }

  /// The timer task slept until `deadline`; `end()` reads the clock's now plus the interval.
  @inlinable
  mutating func deadlineReached(_ deadline: Instant, end: () -> Instant) -> Action {
    guard case .running(var running) = state else { return .none }
    guard
      let element = running.policy.timerFired(
        at: deadline, end: end, baseFinished: running.baseFinished, consumerWaiting: running.consumer != nil)
    else {
      state = .running(running)
      return .none
    }
    let consumer = running.emit(element)
    state = .running(running)
    return consumer.map { .resumeConsumer($0, .success(element)) } ?? .none
  }

  /// The base finished: a held element still goes out at its deadline, then iteration ends.
  @inlinable
  mutating func upstreamFinished() -> Action {
    guard case .running(var running) = state else { return .none }
    running.baseFinished = true
    guard !running.policy.isHolding else {
      state = .running(running)
      return .none
    }
    // Nothing left to time: stop the timer, even while it sleeps.
    running.policy.baseFinishedIdle()
    let timer = running.timer
    running.timer = nil
    guard let consumer = running.consumer else {
      state = .running(running)
      return .end(nil, .success(nil), timer)
    }
    state = .finished
    return .end(consumer, .success(nil), timer)
  }

  /// The base threw: the error goes to the consumer at once, or to its next `next()`; a held element is dropped.
  @inlinable
  mutating func upstreamFailed(_ failure: Failure) -> Action {
    guard case .running(let running) = state else { return .none }
    guard let consumer = running.consumer else {
      state = .failed(failure)
      return .end(nil, .failure(failure), running.timer)
    }
    state = .finished
    return .end(consumer, .failure(failure), running.timer)
  }

  /// The consuming task was cancelled or the iterator was dropped.
  @inlinable
  mutating func cancelled() -> Action {
    defer { state = .finished }
    guard case .running(let running) = state else { return .none }
    return .end(running.consumer, .success(nil), running.timer)
  }

  /// The tasks, for an ending action to cancel; each is taken once.
  @inlinable
  mutating func takeTasks() -> Tasks? {
    tasks.take()
  }
}
