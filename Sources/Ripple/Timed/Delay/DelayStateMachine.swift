import InternalRippleUtilities

/// What a consumer of ``AsyncDelaySequence``'s iteration gets: an event of the base, with the instant it is due.
@usableFromInline
enum _DelayDelivery<Element, Failure: Error, Instant: InstantProtocol> {
  case element(Element, due: Instant)
  case finished(due: Instant)
  case failed(Failure, due: Instant)
  /// The iteration is over (cancelled, or its end already delivered): finish at once.
  case over
}

extension _DelayDelivery: Sendable where Element: Sendable, Instant: Sendable {}

/// The state of one iteration of ``AsyncDelaySequence``: a queue of the base's elements, each with the instant it is
/// due, and the base's end, also with its instant.
///
/// Events come from the consumer (`nextReady`, `nextRequested`, `cancelled`) and from the task that iterates the base
/// (`elementProduced`, `baseFinished`, `baseFailed`). The machine only orders and hands over; the consumer sleeps
/// until what it got is due, in its own `next()` — so no task sleeps for the operator, and cancelling the consumer
/// ends the wait at once. The consumer and tasks are type parameters, so that the machine is tested as a plain value.
@usableFromInline
struct _DelayStateMachine<Element, Failure: Error, Instant: InstantProtocol, Consumer, Tasks> {
  @usableFromInline typealias Delivery = _DelayDelivery<Element, Failure, Instant>

  /// Where the iteration is.
  @usableFromInline
  enum Phase {
    /// `next()` was never called: no task runs.
    case initial
    /// The base task runs, or has ended and what it produced is still being delivered.
    case running
    /// Over: `next()` returns `nil`.
    case finished
  }

  /// The side effect of a consumer event, run outside the lock.
  @usableFromInline
  enum Action {
    case none
    /// The first `next()` waits: start the base task (``started(_:)`` records it).
    case start
    /// Hand the delivery to the consumer.
    case resumeConsumer(Consumer, Delivery)
    /// The base task started after the iteration ended: cancel it.
    case cancelTasks(Tasks)
    /// The iteration ends: resume a waiting consumer with `.over`, cancel the base task.
    case end(Consumer?, Tasks?)
  }

  /// What the base task does after handing over an element.
  @usableFromInline
  enum ProduceAction {
    /// Queued: go on.
    case produceMore
    /// Hand it to the waiting consumer, then go on.
    case resumeConsumer(Consumer, Delivery)
    /// The iteration is over: stop.
    case stop
  }

  // Invariants: a waiting `consumer` means the queue is empty and `end` is `nil`; outside `.running` the queue is
  // empty and `consumer` and `end` are `nil`.

  @usableFromInline var phase = Phase.initial
  @usableFromInline var consumer: Consumer?
  @usableFromInline var queue = _Queue<(element: Element, due: Instant)>()
  /// The base's end and when it is due, once the base ended; delivered after the queue.
  @usableFromInline var end: Delivery?
  @usableFromInline var tasks: Tasks?

  @inlinable init() {}

  /// The base task started.
  @inlinable
  mutating func started(_ tasks: Tasks) -> Action {
    switch phase {
    case .running:
      self.tasks = tasks
      return .none
    case .finished:
      return .cancelTasks(tasks)
    case .initial:
      preconditionFailure("delay: the task started before the iteration (state: initial)")
    }
  }

  /// The consumer asks without waiting: the next delivery, or `nil` when it must wait (``nextRequested(_:)``).
  @inlinable
  mutating func nextReady() -> Delivery? {
    switch phase {
    case .initial:
      return nil
    case .running:
      return takeNext()
    case .finished:
      return .over
    }
  }

  /// The consumer waits; on the first call, the base task starts.
  @inlinable
  mutating func nextRequested(_ consumer: Consumer) -> Action {
    switch phase {
    case .initial:
      phase = .running
      self.consumer = consumer
      return .start
    case .running:
      precondition(self.consumer == nil, "delay: an iterator was used by two tasks at once (state: waiting)")
      // The base may have produced since `nextReady()`.
      if let delivery = takeNext() { return .resumeConsumer(consumer, delivery) }
      self.consumer = consumer
      return .none
    case .finished:
      return .resumeConsumer(consumer, .over)
    }
  }

  /// The base produced `element`, due at `due`.
  @inlinable @inline(__always)
  mutating func elementProduced(_ element: Element, due: Instant) -> ProduceAction {
    guard case .running = phase else { return .stop }
    guard let consumer = consumer.take() else {
      queue.append((element, due))
      return .produceMore
    }
    return .resumeConsumer(consumer, .element(element, due: due))
  }

  /// The base finished; the finish is due at `due`.
  @inlinable
  mutating func baseFinished(due: Instant) -> Action {
    ended(.finished(due: due))
  }

  /// The base threw; the failure is due at `due`, after the elements before it.
  @inlinable
  mutating func baseFailed(_ failure: Failure, due: Instant) -> Action {
    ended(.failed(failure, due: due))
  }

  /// The consuming task was cancelled or the iterator dropped: what is queued is dropped.
  @inlinable
  mutating func cancelled() -> Action {
    guard case .running = phase else {
      phase = .finished
      return .none
    }
    phase = .finished
    queue.removeAll()
    end = nil
    return .end(consumer.take(), tasks.take())
  }

  @inlinable
  mutating func ended(_ delivery: Delivery) -> Action {
    guard case .running = phase else { return .none }
    guard let consumer = consumer.take() else {
      end = delivery
      return .none
    }
    phase = .finished
    tasks = nil
    return .resumeConsumer(consumer, delivery)
  }

  /// The queue's head, or the end once the queue is empty (which finishes the iteration).
  @inlinable
  mutating func takeNext() -> Delivery? {
    if let (element, due) = queue.popFirst() { return .element(element, due: due) }
    guard let end = end.take() else { return nil }
    phase = .finished
    tasks = nil
    return end
  }
}
