/// The state of one `mapLatest` iteration: the base's progress, the transform in flight, and the consumer.
///
/// Three parties report events: the task that iterates the base (`elementProduced`, `baseFinished`,
/// `baseFailed`), the transform tasks (`transformStarted`, `transformFinished`) and the consumer (`nextRequested`,
/// `cancelled`). Methods return what to do once the lock is released.
@usableFromInline
struct _MapLatestStateMachine<Output: Sendable, Failure: Error>: ~Copyable {
  @usableFromInline typealias Consumer = UnsafeContinuation<Result<Output?, Failure>, Never>

  @usableFromInline struct Running {
    /// The task iterating the base.
    @usableFromInline var baseTask: Task<Void, Never>?
    /// The generation of the newest element; only its transform's outcome is ever delivered.
    @usableFromInline var latest: UInt64 = 0
    /// The newest element's transform, while it runs; its task handle once the task has been recorded.
    @usableFromInline var inFlight: (generation: UInt64, task: Task<Void, Never>?)?
    /// A result the consumer has not taken yet (the newest one; a slow consumer gets the latest).
    @usableFromInline var pending: Output?
    /// An error to deliver after `pending`; it ends iteration.
    @usableFromInline var failure: Failure?
    @usableFromInline var baseFinished = false
    /// The consumer waiting in `next()`.
    @usableFromInline var consumer: Consumer?

    @inlinable init(consumer: Consumer?) {
      self.consumer = consumer
    }
  }

  @usableFromInline enum State {
    /// Iteration has not started: no task exists yet.
    case initial
    /// The base task runs or has finished; results may still come.
    case running(Running)
    /// Iteration ended: every later `next()` returns `nil`.
    case finished
  }

  @usableFromInline var state = State.initial

  @inlinable init() {}

  /// The tasks an ending iteration cancels.
  @usableFromInline struct Tasks {
    @usableFromInline var base: Task<Void, Never>?
    @usableFromInline var transform: Task<Void, Never>?

    @inlinable init(of running: borrowing Running) {
      base = running.baseTask
      transform = running.inFlight?.task
    }

    @inlinable func cancel() {
      base?.cancel()
      transform?.cancel()
    }
  }

  /// The side effect of an event, run by the storage once the lock is released.
  @usableFromInline enum Action {
    case none
    /// The consumer's first `next()` waits: start the task that iterates the base.
    case startBase
    /// Hand the result to the consumer.
    case resumeConsumer(Consumer, Result<Output?, Failure>)
    /// Start the transform of the element just produced as `generation`, cancelling the one it supersedes.
    case startTransform(generation: UInt64, superseding: Task<Void, Never>?)
    /// Iteration is over or ending with a failure: the base task stops.
    case stopProducing
    /// A task was started after it became useless: cancel it.
    case cancelTask(Task<Void, Never>)
    /// Cancel the tasks, then resume the consumer, when present, with the result.
    case end(Consumer?, Result<Output?, Failure>, Tasks)
  }

  /// The consumer calls `next()`; `.none` means it waits.
  @inlinable
  mutating func nextRequested(_ consumer: Consumer) -> Action {
    switch state {
    case .initial:
      // The base starts once the consumer waits, so that its first result goes straight to it.
      state = .running(Running(consumer: consumer))
      return .startBase
    case .finished:
      return .resumeConsumer(consumer, .success(nil))
    case .running(var running):
      precondition(running.consumer == nil, "mapLatest: next() called concurrently (state: waiting)")
      if let output = running.pending {
        running.pending = nil
        state = .running(running)
        return .resumeConsumer(consumer, .success(output))
      }
      if let failure = running.failure {
        state = .finished
        return .end(consumer, .failure(failure), Tasks(of: running))
      }
      if running.baseFinished && running.inFlight == nil {
        state = .finished
        return .resumeConsumer(consumer, .success(nil))
      }
      running.consumer = consumer
      state = .running(running)
      return .none
    }
  }

  /// The base task was created; it is cancelled with iteration.
  @inlinable
  mutating func baseStarted(_ task: Task<Void, Never>) -> Action {
    guard case .running(var running) = state else { return .cancelTask(task) }  // ended before it was recorded
    running.baseTask = task
    state = .running(running)
    return .none
  }

  /// The base produced an element: its transform starts, superseding the one in flight, unless iteration has
  /// ended or is ending with a failure.
  @inlinable
  mutating func elementProduced() -> Action {
    guard case .running(var running) = state, running.failure == nil else { return .stopProducing }
    running.latest &+= 1
    let superseded = running.inFlight?.task
    running.inFlight = (running.latest, nil)
    state = .running(running)
    return .startTransform(generation: running.latest, superseding: superseded)
  }

  /// The transform for `generation` was started as `task`; it is cancelled at once when a newer element or the
  /// end of iteration came first.
  @inlinable
  mutating func transformStarted(_ task: Task<Void, Never>, generation: UInt64) -> Action {
    guard case .running(var running) = state else { return .cancelTask(task) }
    guard running.inFlight?.generation == generation else {
      // Superseded already (its task is cancelled here), or it already finished (cancelling is harmless).
      return generation == running.latest ? .none : .cancelTask(task)
    }
    running.inFlight = (generation, task)
    state = .running(running)
    return .none
  }

  /// The transform for `generation` returned or threw. Outcomes of superseded generations are discarded.
  @inlinable
  mutating func transformFinished(generation: UInt64, _ outcome: Result<Output, Failure>) -> Action {
    guard case .running(var running) = state, generation == running.latest,
      running.inFlight?.generation == generation
    else { return .none }
    running.inFlight = nil
    switch outcome {
    case .success(let output):
      if let consumer = running.consumer {
        running.consumer = nil
        state = .running(running)
        return .resumeConsumer(consumer, .success(output))
      }
      running.pending = output
      state = .running(running)
      return .none
    case .failure(let failure):
      // The newest element's outcome is this error: an older element's result must not come before it.
      running.pending = nil
      return failed(running, failure)
    }
  }

  /// The base finished; the transform in flight may still deliver.
  @inlinable
  mutating func baseFinished() -> Action {
    guard case .running(var running) = state else { return .none }
    running.baseFinished = true
    running.baseTask = nil
    if running.inFlight == nil, running.pending == nil, running.failure == nil, let consumer = running.consumer {
      state = .finished
      return .resumeConsumer(consumer, .success(nil))
    }
    state = .running(running)
    return .none
  }

  /// The base threw: iteration ends with `failure` after any result already computed.
  @inlinable
  mutating func baseFailed(_ failure: Failure) -> Action {
    guard case .running(var running) = state else { return .none }
    running.baseFinished = true
    running.baseTask = nil
    return failed(running, failure)
  }

  /// The consumer's task was cancelled, or its iterator went away.
  @inlinable
  mutating func cancelled() -> Action {
    defer { state = .finished }
    guard case .running(let running) = state else { return .none }
    return .end(running.consumer, .success(nil), Tasks(of: running))
  }

  /// A transform or the base failed: iteration ends with the first failure, after `pending` if there is one. From
  /// here on no element starts a transform and no transform's outcome is delivered.
  @inlinable
  mutating func failed(_ running: consuming Running, _ failure: Failure) -> Action {
    var running = running
    let tasks = Tasks(of: running)
    running.baseTask = nil
    running.inFlight = nil
    running.baseFinished = true
    if running.failure != nil {
      // Already ending: this is the base or a transform reacting to that.
      state = .running(running)
      return .end(nil, .failure(failure), tasks)
    }
    if running.pending == nil, let consumer = running.consumer {
      state = .finished
      return .end(consumer, .failure(failure), tasks)
    }
    running.failure = failure
    state = .running(running)
    return .end(nil, .failure(failure), tasks)
  }
}
