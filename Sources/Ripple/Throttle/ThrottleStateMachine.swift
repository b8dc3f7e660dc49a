/// The state of one ``AsyncThrottleSequence`` iteration.
///
/// Events come from three sides: the consumer (`nextRequested`, `cancelled`), the task that consumes the base
/// (`elementProduced`, `upstreamFinished`, `upstreamFailed`) and the timer task (`deadlineRequested`,
/// `deadlineReached`). Each method returns what to resume or cancel; ``_ThrottleStorage`` does that after
/// releasing its lock.
///
/// An element that comes while no interval is open is emitted at once and opens one. Elements that come
/// while an interval is open are held (the latest or the first, per `latest`); the timer task wakes at the
/// interval's end and emits the held element without waiting for another input, which opens the next
/// interval.
@usableFromInline
struct _ThrottleStateMachine<Element, Failure: Error, Instant: InstantProtocol> {
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

  /// Everything a running iteration tracks.
  ///
  /// Invariants: a waiting `consumer` means `ready` is `nil`; a waiting `timer` means `intervalEnd` is `nil`;
  /// `held` is only set while an interval is open.
  @usableFromInline
  struct Running {
    /// The consumer suspended in `next()`.
    @usableFromInline var consumer: Consumer?
    /// The timer task, suspended until an interval opens.
    @usableFromInline var timer: Timer?
    /// When the open interval ends; `nil` when none is open and the next element goes out at once.
    @usableFromInline var intervalEnd: Instant?
    /// The element to emit when the open interval ends.
    @usableFromInline var held: Element?
    /// An emitted element no consumer has taken yet; a slower consumer gets the latest one.
    @usableFromInline var ready: Element?
    /// The base has finished: once `held` and `ready` are delivered, iteration ends.
    @usableFromInline var baseFinished = false
    @inlinable init() {}

    /// Emits `element`: to the waiting consumer, returned, or into `ready`.
    @inlinable
    mutating func emit(_ element: Element) -> (Consumer, Element)? {
      if let consumer {
        self.consumer = nil
        return (consumer, element)
      }
      ready = element
      return nil
    }
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
    /// Hand this element to the waiting consumer.
    case resumeConsumer(Consumer, Element)
    /// Hand this element to the waiting consumer, and wake the timer task to sleep until the instant.
    case resumeConsumerAndTimer(Consumer, Element, Timer, Instant)
    /// Wake the timer task to sleep until this instant.
    case resumeTimer(Timer, Instant)
    /// Iteration is over: stop consuming.
    case stop
  }

  /// What the consumer's `next()` does.
  @usableFromInline
  enum NextAction {
    /// Suspend until an element is emitted or iteration ends.
    case suspend
    /// Return at once.
    case resume(Result<Element?, Failure>)
  }

  /// What the timer task does next.
  @usableFromInline
  enum DeadlineAction {
    /// Sleep until this instant, then report ``_ThrottleStateMachine/deadlineReached(_:now:)``.
    case sleep(until: Instant)
    /// Suspend until an interval opens.
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
  /// Whether an interval emits its latest element (`true`) or its first.
  @usableFromInline let latest: Bool

  @inlinable init(latest: Bool) {
    self.latest = latest
  }

  /// The consumer's first `next()` is about to start the tasks.
  @inlinable
  mutating func started() {
    guard case .initial = state else {
      preconditionFailure("throttle: started twice (state: \(state))")
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
      preconditionFailure("throttle: tasks started before the iteration (state: initial)")
    }
  }

  /// The consumer calls `next()`.
  @inlinable
  mutating func nextRequested(_ consumer: Consumer) -> NextAction {
    switch state {
    case .running(var running):
      precondition(running.consumer == nil, "throttle: an iterator was used by two tasks at once (state: waiting)")
      if let element = running.ready {
        running.ready = nil
        state = .running(running)
        return .resume(.success(element))
      }
      if running.baseFinished && running.held == nil {
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
      preconditionFailure("throttle: next() before the iteration started (state: initial)")
    }
  }

  /// The base produced `element` at `now`; an interval opened now would end at `intervalEnd`.
  @inlinable @inline(__always)
  mutating func elementProduced(_ element: Element, now: Instant, intervalEnd: Instant) -> ElementAction {
    guard case .running(var running) = state else {
      // The consumer went away or the base already failed (a misbehaving base).
      return .stop
    }
    if let end = running.intervalEnd, now < end {
      // The steady path of a burst: an interval is open, hold the element.
      if latest || running.held == nil {
        running.held = element
        state = .running(running)
      }
      return .none
    }
    if let end = running.intervalEnd, end <= now {
      // The interval ended before this element came, even if the timer task has not run yet.
      if let held = running.held {
        running.held = nil
        running.intervalEnd = intervalEnd
        let emitted = running.emit(held)
        running.held = element
        state = .running(running)
        return emitted.map { .resumeConsumer($0.0, $0.1) } ?? .none
      }
      running.intervalEnd = nil
    }
    if running.intervalEnd != nil {
      if latest || running.held == nil {
        running.held = element
      }
      state = .running(running)
      return .none
    }
    running.intervalEnd = intervalEnd
    let emitted = running.emit(element)
    let timer = running.timer
    running.timer = nil
    state = .running(running)
    switch (emitted, timer) {
    case (nil, nil): return .none
    case (let (consumer, element)?, nil): return .resumeConsumer(consumer, element)
    case (nil, let timer?): return .resumeTimer(timer, intervalEnd)
    case (let (consumer, element)?, let timer?): return .resumeConsumerAndTimer(consumer, element, timer, intervalEnd)
    }
  }

  /// The timer task asks how long to sleep; `timer` resumes it later when the answer is ``DeadlineAction/suspend``.
  @inlinable
  mutating func deadlineRequested(_ timer: Timer) -> DeadlineAction {
    switch state {
    case .running(var running):
      precondition(running.timer == nil, "throttle: two timers (state: running)")
      if let end = running.intervalEnd {
        return .sleep(until: end)
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
      preconditionFailure("throttle: the timer runs before the iteration (state: initial)")
    }
  }

  /// The timer task slept until `deadline`; an interval opened now would end at `nextIntervalEnd`. Returns
  /// the consumer to hand the held element to.
  @inlinable
  mutating func deadlineReached(_ deadline: Instant, nextIntervalEnd: Instant) -> (Consumer, Element)? {
    guard case .running(var running) = state, let end = running.intervalEnd, end <= deadline else {
      // An element that came late already closed that interval and opened another.
      return nil
    }
    guard let held = running.held else {
      running.intervalEnd = nil
      state = .running(running)
      return nil
    }
    running.held = nil
    // After the base finished, this was the last element: no interval to open, the timer can stop.
    running.intervalEnd = running.baseFinished ? nil : nextIntervalEnd
    let emitted = running.emit(held)
    state = .running(running)
    return emitted
  }

  /// The base finished: a held element still goes out when its interval ends, then iteration ends.
  @inlinable
  mutating func upstreamFinished() -> Termination {
    guard case .running(var running) = state else { return Termination() }
    running.baseFinished = true
    guard running.held == nil else {
      state = .running(running)
      return Termination()
    }
    // Nothing left to time: close the interval and stop the timer, even while it sleeps.
    running.intervalEnd = nil
    let timer = running.timer
    running.timer = nil
    if let consumer = running.consumer {
      state = .finished
      return Termination(consumer: (consumer, .success(nil)), timer: timer, tasks: tasks)
    }
    state = .running(running)
    return Termination(timer: timer, tasks: tasks)
  }

  /// The base threw: the error goes to the consumer at once, or to its next `next()`; a held element is
  /// dropped.
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
