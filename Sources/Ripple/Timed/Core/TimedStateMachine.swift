/// The state of one iteration of a timer-driven operator; its ``_TimedPolicy`` decides what is held and emitted.
///
/// Events come from three sides: the consumer (`nextRequested`, `cancelled`), the task that consumes the base
/// (`elementProduced`, `baseFinished`, `baseFailed`) and the timer task (`deadlineRequested`,
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
  /// Resumed with `true` to sleep until ``timerDeadline``, or `false` to stop.
  @usableFromInline typealias Timer = UnsafeContinuation<Bool, Never>

  /// The tasks of a running iteration: the one consuming the base and the timer.
  @usableFromInline typealias Tasks = _TimerTasks

  /// Where the iteration is. Internal only so that the inlinable event methods, which specialize in client
  /// modules, can switch on it.
  ///
  /// What a running iteration tracks lives beside it, in the machine's own fields, and is mutated in place: the
  /// policy holds instants, and an instant's layout (`ContinuousClock.Instant`'s too) is known only at run time, so
  /// an enum carrying them would be copied out and back through the runtime's value witnesses on every element.
  @usableFromInline
  enum Phase {
    /// `next()` was never called: no task runs. The first `next()` registers its consumer and starts the tasks.
    case initial
    /// The tasks run, or the base finished and elements remain to deliver.
    case running
    /// The base threw while nobody waited; the next `next()` throws this.
    case failed(Failure)
    /// Iteration is over: `next()` returns `nil`.
    case finished
  }

  /// The side effect of an event, run by the storage once the lock is released.
  ///
  /// No case holds an instant (the timer finds its deadline in ``timerDeadline``), so that the action has a layout
  /// known at compile time, and no case holds a reference but the consumer's result, so that for trivial elements
  /// an action is trivial to copy.
  @usableFromInline
  enum Action {
    case none
    /// Hand the result to the consumer.
    case resumeConsumer(Consumer, Result<Element?, Failure>)
    /// Wake the timer: to sleep until ``timerDeadline`` (`true`), or to stop (`false`).
    case resumeTimer(Timer, Bool)
    /// Hand the element to the consumer and wake the timer to sleep until ``timerDeadline``.
    case resumeConsumerAndTimer(Consumer, Element, Timer)
    /// The consumer's first `next()` waits: start the base and timer tasks (``started(_:)`` records them).
    case start
    /// Iteration is over: the base-consuming task stops.
    case stopProducing
    /// Iteration ended before its tasks were recorded: cancel them (``takeTasks()``).
    case cancelTasks
    /// Iteration (or the base's part of it) ends: resume the consumer with the result and stop the timer when
    /// present, and cancel the tasks (``takeTasks()``).
    case end(Consumer?, Result<Element?, Failure>, Timer?)
  }

  // Invariants: outside `.running`, `consumer`, `timer` and `ready` are `nil` and the policy holds nothing; a
  // waiting `consumer` means `ready` is `nil`; a waiting `timer` means the policy's `deadline` is `nil`.

  @usableFromInline var phase: Phase = .initial
  /// The consumer suspended in `next()`.
  @usableFromInline var consumer: Consumer?
  /// The timer task, suspended until there is a deadline to sleep to.
  @usableFromInline var timer: Timer?
  /// The deadline the timer was last woken to sleep to, until it takes it (``takeTimerDeadline()``).
  @usableFromInline var timerDeadline: Instant?
  @usableFromInline var policy: Policy
  /// An emitted element no consumer has taken yet; a slower consumer gets the latest one.
  @usableFromInline var ready: Element?
  /// The base has finished: once the policy holds nothing and `ready` is taken, iteration ends.
  @usableFromInline var isBaseFinished = false
  /// The running tasks, set right after they start, until an ending action takes them. Kept out of `Action` so
  /// that, for trivial elements, what the hot path returns holds no reference to retain.
  @usableFromInline var tasks: Tasks?
  /// The operator's name, for precondition messages.
  @usableFromInline let name: StaticString

  @inlinable init(_ policy: Policy, name: StaticString) {
    self.policy = policy
    self.name = name
  }

  /// The tasks started.
  @inlinable
  mutating func started(_ tasks: Tasks) -> Action {
    self.tasks = tasks
    switch phase {
    case .running:
      return .none
    case .failed, .finished:
      return .cancelTasks
    case .initial:
      preconditionFailure("\(name): tasks started before the iteration (state: initial)")
    }
  }

  /// The consumer calls `next()`; `end()` reads the clock's now plus the interval. `.none` means it waits.
  ///
  /// The first call registers the consumer as waiting before any task runs, so the base's first element finds it
  /// waiting: a throttle emits that element, never one that came after it.
  @inlinable
  mutating func nextRequested(_ consumer: Consumer, end: () -> Instant) -> Action {
    switch phase {
    case .initial:
      phase = .running
      self.consumer = consumer
      return .start
    case .running:
      precondition(self.consumer == nil, "\(name): an iterator was used by two tasks at once (state: waiting)")
      if let element = ready.take() {
        return .resumeConsumer(consumer, .success(element))
      }
      if let element = policy.consumerArrived(end: end, baseFinished: isBaseFinished) {
        // Kept for this consumer, and its handing over may open an interval the timer must sleep to.
        guard let timer, let deadline = policy.deadline else {
          return .resumeConsumer(consumer, .success(element))
        }
        self.timer = nil
        timerDeadline = deadline
        return .resumeConsumerAndTimer(consumer, element, timer)
      }
      if isBaseFinished && !policy.isHolding {
        let timer = self.timer
        discard(then: .finished)
        // A timer still waits when the last element was handed over by `consumerArrived`: it stops too.
        guard let timer else { return .resumeConsumer(consumer, .success(nil)) }
        return .end(consumer, .success(nil), timer)
      }
      self.consumer = consumer
      return .none
    case .failed(let failure):
      phase = .finished
      return .resumeConsumer(consumer, .failure(failure))
    case .finished:
      return .resumeConsumer(consumer, .success(nil))
    }
  }

  /// The base produced `input` at `now`; `end()` is `now` plus the interval.
  @inlinable @inline(__always)
  mutating func elementProduced(_ input: Policy.Input, now: Instant, end: () -> Instant) -> Action {
    guard case .running = phase else {
      // The consumer went away or the base already failed (a misbehaving base).
      return .stopProducing
    }
    var consumer: Consumer?
    let emitted = policy.received(input, now: now, end: end, consumerWaiting: self.consumer != nil)
    if let emitted { consumer = emit(emitted) }
    guard let timer, let deadline = policy.deadline else {
      // The steady path of a burst: the policy holds the element, the timer already sleeps.
      guard let consumer, let emitted else { return .none }
      return .resumeConsumer(consumer, .success(emitted))
    }
    self.timer = nil
    timerDeadline = deadline
    guard let consumer, let emitted else { return .resumeTimer(timer, true) }
    return .resumeConsumerAndTimer(consumer, emitted, timer)
  }

  /// The timer task asks how long to sleep; `.none` means it waits for a deadline.
  @inlinable
  mutating func deadlineRequested(_ timer: Timer) -> Action {
    switch phase {
    case .running:
      precondition(self.timer == nil, "\(name): two timers (state: running)")
      if let deadline = policy.deadline {
        timerDeadline = deadline
        return .resumeTimer(timer, true)
      }
      if isBaseFinished {
        return .resumeTimer(timer, false)
      }
      self.timer = timer
      return .none
    case .failed, .finished:
      return .resumeTimer(timer, false)
    case .initial:
      preconditionFailure("\(name): the timer runs before the iteration (state: initial)")
    }
  }

  /// The deadline the timer was woken to sleep to; taken once.
  @inlinable
  mutating func takeTimerDeadline() -> Instant? {
    timerDeadline.take()
  }

  /// The timer task slept until `deadline`; `end()` reads the clock's now plus the interval.
  @inlinable
  mutating func deadlineReached(_ deadline: Instant, end: () -> Instant) -> Action {
    guard case .running = phase else { return .none }
    guard
      let element = policy.timerFired(
        at: deadline, end: end, baseFinished: isBaseFinished, consumerWaiting: consumer != nil)
    else {
      return .none
    }
    return emit(element).map { .resumeConsumer($0, .success(element)) } ?? .none
  }

  /// The base finished: a held element still goes out at its deadline, then iteration ends.
  @inlinable
  mutating func baseFinished() -> Action {
    guard case .running = phase else { return .none }
    isBaseFinished = true
    guard !policy.isHolding else { return .none }
    // Nothing left to time: stop the timer, even while it sleeps.
    policy.baseFinishedIdle()
    let timer = self.timer
    self.timer = nil
    guard let consumer else {
      return .end(nil, .success(nil), timer)
    }
    discard(then: .finished)
    return .end(consumer, .success(nil), timer)
  }

  /// The base threw: the error goes to the consumer at once, or to its next `next()`; a held element is dropped.
  @inlinable
  mutating func baseFailed(_ failure: Failure) -> Action {
    guard case .running = phase else { return .none }
    let consumer = self.consumer
    let timer = self.timer
    guard let consumer else {
      discard(then: .failed(failure))
      return .end(nil, .failure(failure), timer)
    }
    discard(then: .finished)
    return .end(consumer, .failure(failure), timer)
  }

  /// The consuming task was cancelled or the iterator was dropped.
  @inlinable
  mutating func cancelled() -> Action {
    guard case .running = phase else {
      phase = .finished
      return .none
    }
    let consumer = self.consumer
    let timer = self.timer
    discard(then: .finished)
    return .end(consumer, .success(nil), timer)
  }

  /// The tasks, for an ending action to cancel; each is taken once.
  @inlinable
  mutating func takeTasks() -> Tasks? {
    tasks.take()
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

  /// Leaves `.running` for `phase`, dropping what the iteration still held (the caller took the continuations).
  @inlinable
  mutating func discard(then phase: Phase) {
    self.phase = phase
    consumer = nil
    timer = nil
    timerDeadline = nil
    ready = nil
    policy.discard()
  }
}
