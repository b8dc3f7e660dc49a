import InternalRippleUtilities

/// The state of one `buffer(policy:)` iteration: the elements waiting, the base task, and the consumer.
///
/// Two parties report events: the consumer (`nextReady`, `nextRequested`, `cancelled`) and the task that iterates
/// the base (`started`, `elementProduced`, `producerSuspending`, `baseFinished`, `baseFailed`). Consumer events and
/// ends return the ``Action`` the storage runs once the lock is released; the base task acts itself on the
/// ``ProduceAction`` of each element.
///
/// Invariants: a waiting consumer means an empty buffer; a waiting producer (only under `.bounded`) means a full
/// one; `baseEnd` is set only once the base task is done, and is reported after the buffered elements.
@usableFromInline
struct _BufferStateMachine<Element: Sendable, Failure: Error>: ~Copyable {
  @usableFromInline typealias Consumer = UnsafeContinuation<Result<Element?, Failure>, Never>
  /// The base task waiting for room; resumed with `true` to go on pulling, `false` to stop.
  @usableFromInline typealias Producer = UnsafeContinuation<Bool, Never>

  @usableFromInline enum State {
    /// No `next()` has waited yet: the base task does not exist.
    case initial
    /// The base task runs, or has ended and left elements (and `baseEnd`) to deliver.
    case running
    /// Iteration is over: every later `next()` returns `nil`.
    case finished
  }

  /// How the base ended, to report once the buffer is empty.
  @usableFromInline enum BaseEnd {
    case finished
    case failed(Failure)
  }

  /// The policy, with a limit above 0 (a limit of 0 never reaches a state machine).
  @usableFromInline let policy: AsyncBufferSequencePolicy.Storage
  @usableFromInline var state = State.initial
  /// The elements the consumer has not taken yet, oldest first (outside `State`, so that no update copies it).
  @usableFromInline var buffer = _Queue<Element>()
  @usableFromInline var baseEnd: BaseEnd?
  @usableFromInline var consumer: Consumer?
  @usableFromInline var producer: Producer?
  @usableFromInline var baseTask: Task<Void, Never>?

  @inlinable init(policy: AsyncBufferSequencePolicy.Storage) {
    self.policy = policy
  }

  /// The side effect of a consumer event or an end, run by the storage once the lock is released.
  @usableFromInline enum Action {
    case none
    /// The consumer's first `next()` waits: start the task that iterates the base.
    case start
    /// The calling consumer returns `result` at once, resuming the producer when it waits for the room just made.
    case returnResult(Result<Element?, Failure>, resuming: Producer?)
    /// Hand `result` to the waiting consumer, and resume the producer when it waits for the room just made.
    case resumeConsumer(Consumer, Result<Element?, Failure>, resuming: Producer? = nil)
    /// A task was started after iteration ended: cancel it.
    case cancelTask(Task<Void, Never>)
    /// Iteration ends early: cancel the base task, stop a waiting producer, give a waiting consumer `nil`.
    case end(Consumer?, Producer?, Task<Void, Never>?)
  }

  /// What the base task does after an element (``elementProduced(_:)``).
  @usableFromInline enum ProduceAction {
    /// Ask the base for the next element.
    case produceMore
    /// Hand the element to the waiting consumer, then ask the base for the next.
    case resumeConsumer(Consumer, Result<Element?, Failure>)
    /// The buffer is full (`.bounded`): wait for room (``producerSuspending(_:)``) before asking again.
    case suspend
    /// Iteration is over: stop.
    case stop
  }

  /// The consumer calls `next()`: `.returnResult` with the oldest element or the end if there is one, else `.none`
  /// (it must wait: ``nextRequested(_:)``).
  @inlinable
  mutating func nextReady() -> Action {
    guard case .running = state else {
      return state == .initial ? .none : .returnResult(.success(nil), resuming: nil)
    }
    precondition(consumer == nil, "buffer: next() called concurrently")
    if let element = buffer.popFirst() {
      return .returnResult(.success(element), resuming: roomMade())
    }
    guard let end = baseEnd else { return .none }
    state = .finished
    switch end {
    case .finished: return .returnResult(.success(nil), resuming: nil)
    case .failed(let failure): return .returnResult(.failure(failure), resuming: nil)
    }
  }

  /// The consumer waits, registered as `consumer`; the first one starts the base.
  @inlinable
  mutating func nextRequested(_ consumer: Consumer) -> Action {
    switch state {
    case .initial:
      // The base starts once the consumer waits, so that its first element goes straight to it.
      state = .running
      self.consumer = consumer
      return .start
    case .finished:
      return .resumeConsumer(consumer, .success(nil))
    case .running:
      guard case .returnResult(let result, let producer) = nextReady() else {
        self.consumer = consumer
        return .none
      }
      return .resumeConsumer(consumer, result, resuming: producer)
    }
  }

  /// The producer waiting for room, when the element just taken made room for it.
  @inlinable
  mutating func roomMade() -> Producer? {
    guard case .bounded(let limit) = policy, buffer.count < limit, let producer else { return nil }
    self.producer = nil
    return producer
  }

  /// The base task was created; it is cancelled with iteration.
  @inlinable
  mutating func started(_ task: Task<Void, Never>) -> Action {
    // Ended before it was recorded; cancelling a task that already returned is harmless.
    guard case .running = state, baseEnd == nil else { return .cancelTask(task) }
    baseTask = task
    return .none
  }

  /// The base produced `element`: it goes to the waiting consumer, or into the buffer as the policy says.
  @inlinable
  mutating func elementProduced(_ element: Element) -> ProduceAction {
    guard case .running = state else { return .stop }
    if let consumer {
      self.consumer = nil
      return .resumeConsumer(consumer, .success(element))
    }
    switch policy {
    case .bounded(let limit):
      buffer.append(element)
      return buffer.count >= limit ? .suspend : .produceMore
    case .unbounded:
      buffer.append(element)
    case .bufferingLatest(let limit):
      if buffer.count >= limit { _ = buffer.popFirst() }
      buffer.append(element)
    case .bufferingOldest(let limit):
      if buffer.count < limit { buffer.append(element) }
    }
    return .produceMore
  }

  /// The base task, having filled the buffer, is about to wait for room as `producer`: `nil` means it waits;
  /// otherwise resume it at once, to go on (`true`) or to stop (`false`).
  @inlinable
  mutating func producerSuspending(_ producer: Producer) -> Bool? {
    guard case .running = state else { return false }
    guard case .bounded(let limit) = policy, buffer.count >= limit else { return true }
    self.producer = producer
    return nil
  }

  /// The base finished: the consumer gets `nil` after the buffered elements.
  @inlinable
  mutating func baseFinished() -> Action {
    baseEnded(.finished)
  }

  /// The base threw: the consumer gets the error after the buffered elements.
  @inlinable
  mutating func baseFailed(_ failure: Failure) -> Action {
    baseEnded(.failed(failure))
  }

  @inlinable
  mutating func baseEnded(_ end: BaseEnd) -> Action {
    guard case .running = state else { return .none }
    baseTask = nil
    guard let consumer else {
      baseEnd = end
      return .none
    }
    // A consumer waits, so the buffer is empty: the end is next.
    self.consumer = nil
    state = .finished
    switch end {
    case .finished: return .resumeConsumer(consumer, .success(nil))
    case .failed(let failure): return .resumeConsumer(consumer, .failure(failure))
    }
  }

  /// The consumer's task was cancelled, or its iterator went away: the buffered elements are dropped.
  @inlinable
  mutating func cancelled() -> Action {
    guard case .running = state else {
      state = .finished
      return .none
    }
    state = .finished
    buffer.removeAll()
    defer {
      consumer = nil
      producer = nil
      baseTask = nil
    }
    return .end(consumer, producer, baseTask)
  }
}

extension _BufferStateMachine.State: Equatable {}
