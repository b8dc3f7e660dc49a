import InternalRippleUtilities

/// What a consumer of ``AsyncTimeoutSequence``'s iteration is resumed with.
@usableFromInline
enum _TimeoutOutcome<Element, Failure: Error> {
  case element(Element)
  case finished
  case failed(Failure)
  /// The interval passed with no element: the sequence finishes, or throws the custom error.
  case timedOut
}

extension _TimeoutOutcome: Sendable where Element: Sendable {}

/// The state of one iteration of ``AsyncTimeoutSequence``: up to `capacity` elements taken from the base ahead of the
/// consumer, and a deadline that runs while the base is being asked.
///
/// Events come from three sides: the consumer (`nextRequested`, `cancelled`), the task that iterates the base
/// (`elementProduced`, `producerSuspending`, `baseFinished`, `baseFailed`) and the timer task
/// (`deadlineRequested`, `deadlineReached`). Each returns what the storage does once its lock is released.
///
/// The deadline is armed at the first `next()` and re-armed at each element, to `now + interval`; while `capacity`
/// elements wait for a consumer that is busy, the base is not asked for more and nothing is timed — the deadline is
/// armed again when the consumer takes one. Elements taken from the base before it finished, failed or timed out are
/// delivered before that end. Re-arming costs no task and no wake-up: the timer, when it wakes, finds the
/// deadline moved and sleeps again. The consumer, producer, timer and tasks are type parameters, so that the machine
/// is tested as a plain value.
@usableFromInline
struct _TimeoutStateMachine<Element, Failure: Error, Instant: InstantProtocol, Consumer, Producer, Timer, Tasks> {
  @usableFromInline typealias Outcome = _TimeoutOutcome<Element, Failure>

  /// Where the iteration is.
  @usableFromInline
  enum Phase {
    /// `next()` was never called: no task runs.
    case initial
    /// The tasks run.
    case running
    /// The iteration ended (finish, failure, timeout) while nobody waited; `next()` gets the held elements, then this.
    case ending(Outcome)
    /// Over: `next()` returns `nil`.
    case finished
  }

  /// The side effect of a consumer, timer or ending event, run by the storage outside the lock.
  @usableFromInline
  enum Action {
    case none
    /// The first `next()` waits: start the base and timer tasks (``started(_:)`` records them).
    case start
    /// Hand the outcome to the consumer.
    case resumeConsumer(Consumer, Outcome)
    /// Hand a held element to the consumer from a full queue: the producer, when suspended, asks the base for the
    /// next one, and the timer, when waiting for a deadline, sleeps to the new one.
    case takeHeld(Consumer, Element, Producer?, Timer?, Instant)
    /// Wake the timer: to sleep until the instant, or (`nil`) to stop.
    case resumeTimer(Timer, Instant?)
    /// The tasks started after the iteration ended: cancel them.
    case cancelTasks(Tasks)
    /// The iteration ends: resume whoever waits, cancel the tasks.
    case end(Consumer?, Outcome, Producer?, Timer?, Tasks?)
  }

  /// What the base-iterating task does after handing over an element.
  @usableFromInline
  enum ProduceAction {
    /// Hand the element to the waiting consumer, then ask the base for the next one.
    case resumeConsumer(Consumer, Element)
    /// The element is held for the consumer: ask the base for the next one.
    case produceMore
    /// The element is held and the queue is full: suspend (``producerSuspending(_:)``) until one is taken.
    case suspend
    /// The iteration is over: stop.
    case stop
  }

  // Invariants: outside `.running`, `consumer`, `producer`, `timer` and `deadline` are `nil`, and `held` is empty
  // but in `.ending`. Held elements and a waiting `consumer` never coexist; while running, `deadline` is `nil`
  // exactly while `held` is full; `timer` waits only while `deadline` is `nil`.

  @usableFromInline var phase = Phase.initial
  @usableFromInline var consumer: Consumer?
  /// The base task, suspended while its element is held.
  @usableFromInline var producer: Producer?
  /// The timer task, suspended while nothing is timed.
  @usableFromInline var timer: Timer?
  /// The elements the base produced while the consumer was busy, oldest first.
  @usableFromInline var held = _Queue<Element>()
  /// How many elements may be held before the base is no longer asked.
  @usableFromInline let capacity: Int
  /// When the iteration times out, unless an element comes first.
  @usableFromInline var deadline: Instant?
  @usableFromInline var tasks: Tasks?

  @inlinable init(capacity: Int) {
    precondition(capacity >= 1, "timeout: capacity must be 1 or more, got \(capacity)")
    self.capacity = capacity
  }

  /// The tasks started.
  @inlinable
  mutating func started(_ tasks: Tasks) -> Action {
    switch phase {
    case .running:
      self.tasks = tasks
      return .none
    case .ending, .finished:
      return .cancelTasks(tasks)
    case .initial:
      preconditionFailure("timeout: tasks started before the iteration (state: initial)")
    }
  }

  /// The consumer calls `next()`; `deadline()` is the clock's now plus the interval. `.none` means it waits.
  @inlinable
  mutating func nextRequested(_ consumer: Consumer, deadline: () -> Instant) -> Action {
    switch phase {
    case .initial:
      // The time runs from the first `next()`.
      phase = .running
      self.consumer = consumer
      self.deadline = deadline()
      return .start
    case .running:
      precondition(self.consumer == nil, "timeout: an iterator was used by two tasks at once (state: waiting)")
      guard let element = held.popFirst() else {
        self.consumer = consumer
        return .none
      }
      guard held.count + 1 == capacity else { return .resumeConsumer(consumer, .element(element)) }
      // The queue was full, so the base was not asked: it is again, and time runs from now.
      let next = deadline()
      self.deadline = next
      return .takeHeld(consumer, element, producer.take(), timer.take(), next)
    case .ending(let outcome):
      if let element = held.popFirst() { return .resumeConsumer(consumer, .element(element)) }
      phase = .finished
      return .resumeConsumer(consumer, outcome)
    case .finished:
      return .resumeConsumer(consumer, .finished)
    }
  }

  /// The base produced `element`; `deadline()` is the clock's now plus the interval.
  @inlinable @inline(__always)
  mutating func elementProduced(_ element: Element, deadline: () -> Instant) -> ProduceAction {
    guard case .running = phase else { return .stop }
    guard let consumer = consumer.take() else {
      held.append(element)
      guard held.count < capacity else {
        self.deadline = nil
        return .suspend
      }
      self.deadline = deadline()
      return .produceMore
    }
    // The steady path: the timer sleeps, and finds the deadline moved when it wakes.
    self.deadline = deadline()
    return .resumeConsumer(consumer, element)
  }

  /// The base task is about to suspend on a full queue: `true` to go on at once (the consumer already took one),
  /// `false` to stop, `nil` to wait.
  @inlinable
  mutating func producerSuspending(_ producer: Producer) -> Bool? {
    guard case .running = phase else { return false }
    guard held.count >= capacity else { return true }
    precondition(self.producer == nil, "timeout: two producers (state: running)")
    self.producer = producer
    return nil
  }

  /// The timer task asks how long to sleep; `.none` means it waits for a deadline.
  @inlinable
  mutating func deadlineRequested(_ timer: Timer) -> Action {
    switch phase {
    case .running:
      precondition(self.timer == nil, "timeout: two timers (state: running)")
      guard let deadline else {
        self.timer = timer
        return .none
      }
      return .resumeTimer(timer, deadline)
    case .ending, .finished:
      return .resumeTimer(timer, nil)
    case .initial:
      preconditionFailure("timeout: the timer runs before the iteration (state: initial)")
    }
  }

  /// The timer slept until `instant`: the iteration times out unless an element moved the deadline meanwhile.
  @inlinable
  mutating func deadlineReached(_ instant: Instant) -> Action {
    guard case .running = phase, let deadline, deadline <= instant else { return .none }
    return end(.timedOut)
  }

  /// The base finished.
  @inlinable
  mutating func baseFinished() -> Action {
    guard case .running = phase else { return .none }
    return end(.finished)
  }

  /// The base threw.
  @inlinable
  mutating func baseFailed(_ failure: Failure) -> Action {
    guard case .running = phase else { return .none }
    return end(.failed(failure))
  }

  /// The consuming task was cancelled or the iterator was dropped: the iteration finishes, dropping what is held.
  @inlinable
  mutating func cancelled() -> Action {
    held.removeAll()
    guard case .running = phase else {
      phase = .finished
      return .none
    }
    let action = end(.finished)
    phase = .finished
    return action
  }

  /// Ends a running iteration with `outcome`: to the waiting consumer, or kept for the `next()` after the held
  /// elements.
  @inlinable
  mutating func end(_ outcome: Outcome) -> Action {
    let consumer = self.consumer.take()
    phase = consumer == nil ? .ending(outcome) : .finished
    deadline = nil
    return .end(consumer, outcome, producer.take(), timer.take(), tasks.take())
  }
}
